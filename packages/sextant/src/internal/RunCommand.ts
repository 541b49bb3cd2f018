import type { Writable } from "node:stream"
import type { Command } from "commander"
import { z } from "zod"
import { type AgentRunResult, createAgent } from "../createAgent.ts"

const pair = z.string().regex(/^[A-Za-z0-9_.-]+(=.*)?$/, "write name=value")

const RunArguments = z.object({
  goal: z.string().trim().min(1, "describe the goal in words"),
  startUrl: z
    .url({ protocol: /^https?$/, error: "must be an http or https URL, e.g. http://127.0.0.1:4000/login" })
    .optional(),
  mode: z.enum(["plan", "agent"]),
  input: z.array(pair),
  secret: z.array(pair),
  allowSubmit: z.boolean(),
  allowedOrigin: z.array(z.url()),
  maxSteps: z.coerce.number().int().positive().optional(),
  store: z.string().min(1),
  traceDir: z.string().min(1),
  json: z.boolean(),
  chrome: z.string().min(1).optional(),
  chromedriver: z.string().min(1).optional(),
  headless: z.boolean(),
})

const collect = (value: string, previous: ReadonlyArray<string> = []) => [...previous, value]

const toRecord = (pairs: ReadonlyArray<string>, readMissing: (name: string) => string | undefined) => {
  const record: Record<string, string> = {}
  for (const entry of pairs) {
    const at = entry.indexOf("=")
    const name = at === -1 ? entry : entry.slice(0, at)
    const value = at === -1 ? readMissing(name) : entry.slice(at + 1)
    if (value !== undefined) record[name] = value
  }
  return record
}

const summaryLines = (result: AgentRunResult): string =>
  [
    `${result.status} (${result.endReason}) in ${Math.round(result.metrics.durationMs)} ms, ${result.metrics.steps} steps, ${result.metrics.retries} retries, ${result.metrics.replans} replans`,
    result.summary.summary,
    ...(Array.isArray(result.output) ? [`${result.output.length} records`] : []),
    ...(result.tracePath === undefined ? [] : [`trace: ${result.tracePath}`]),
  ].join("\n")

/** Runs one goal to its end; resolves the process exit code. */
export const runGoal = async (
  raw: Record<string, unknown>,
  out: Writable,
  err: Writable,
  signal?: AbortSignal,
): Promise<number> => {
  const parsed = RunArguments.safeParse(raw)
  if (!parsed.success) {
    for (const issue of parsed.error.issues)
      err.write(`sextant run: ${issue.path.join(".") || "goal"}: ${issue.message}\n`)
    return 2
  }
  const options = parsed.data
  // A secret named without a value is read from SEXTANT_SECRET_<NAME>, so it stays out of the process list.
  const secrets = toRecord(options.secret, (name) => process.env[`SEXTANT_SECRET_${name.toUpperCase()}`])
  const missing = options.secret
    .map((entry) => entry.split("=")[0] ?? entry)
    .filter((name) => !(name in secrets))
  if (missing.length > 0) {
    err.write(
      `sextant run: --secret ${missing[0]}: give a value (--secret name=value) or set SEXTANT_SECRET_${missing[0]?.toUpperCase()}\n`,
    )
    return 2
  }
  let agent: ReturnType<typeof createAgent>
  try {
    agent = createAgent({
      store: { path: options.store },
      traceDirectory: options.traceDir,
      mode: options.mode,
      browser: {
        headless: options.headless,
        ...(options.chrome === undefined ? {} : { chromePath: options.chrome }),
        ...(options.chromedriver === undefined ? {} : { chromedriverPath: options.chromedriver }),
      },
    })
  } catch (error) {
    // A store or trace folder that cannot be written: name it, as for any other bad flag.
    err.write(`sextant run: ${error instanceof Error ? error.message : String(error)}\n`)
    return 2
  }
  try {
    const result = await agent.run(
      {
        goal: options.goal,
        ...(options.startUrl === undefined ? {} : { startUrl: options.startUrl }),
        inputs: { ...toRecord(options.input, () => undefined), ...secrets },
        secretInputs: Object.keys(secrets),
        constraints: {
          allowFormSubmission: options.allowSubmit,
          ...(options.allowedOrigin.length === 0 ? {} : { allowedOrigins: options.allowedOrigin }),
          ...(options.maxSteps === undefined ? {} : { maxSteps: options.maxSteps }),
        },
      },
      {
        signal,
        onEvent: (event) => {
          if (event.type === "step-end") {
            err.write(
              `  [${event.step}] ${event.tool} ${event.ok ? "ok" : `failed: ${event.message ?? ""}`} (${Math.round(event.durationMs)} ms)\n`,
            )
          } else if (event.type === "guardrail") {
            err.write(`  [${event.step}] ${event.tool} refused: ${event.message}\n`)
          }
        },
      },
    )
    out.write(options.json ? `${JSON.stringify(result)}\n` : `${summaryLines(result)}\n`)
    return result.status === "COMPLETED" ? 0 : 1
  } catch (error) {
    const cancelled = signal?.aborted === true
    err.write(`sextant run: ${error instanceof Error ? error.message : String(error)}\n`)
    return cancelled ? 130 : 1
  } finally {
    await agent.close()
  }
}

/** Adds `sextant run "<goal>" --start-url <url>`: plan a goal and run it in a headless Chromium. */
export const registerRun = (program: Command): void => {
  program
    .command("run")
    .description("plan a goal and run it in a headless Chromium; Ctrl-C stops it and closes the browser")
    .argument("<goal>", 'what to do, e.g. "log in and extract the products"')
    .option("--start-url <url>", "the page to start from")
    .option("--mode <mode>", "plan (whole plan first) or agent (one step at a time)", "plan")
    .option("--input <name=value>", "a task input (repeatable)", collect, [])
    .option(
      "--secret <name[=value]>",
      "a secret input, shown only as <secret:name> (repeatable; value from SEXTANT_SECRET_<NAME> when omitted)",
      collect,
      [],
    )
    .option("--allow-submit", "allow submitting forms", false)
    .option(
      "--allowed-origin <origin>",
      "an origin the agent may visit (repeatable; default: the start URL's)",
      collect,
      [],
    )
    .option("--max-steps <n>", "the step budget")
    .option("--store <path>", "the SQLite store", ".sextant/sextant.db")
    .option("--trace-dir <dir>", "where traces and transcripts go", ".sextant/traces")
    .option("--json", "print the whole result as JSON", false)
    .option("--chrome <path>", "Chromium binary (default SEXTANT_CHROME or /usr/bin/chromium)")
    .option(
      "--chromedriver <path>",
      "ChromeDriver binary (default SEXTANT_CHROMEDRIVER or /usr/bin/chromedriver)",
    )
    .option("--no-headless", "show the browser window")
    .action(async (goal: string, flags: Record<string, unknown>) => {
      const controller = new AbortController()
      const onSignal = () => controller.abort()
      process.once("SIGINT", onSignal)
      process.once("SIGTERM", onSignal)
      try {
        process.exitCode = await runGoal(
          { goal, ...flags },
          process.stdout,
          process.stderr,
          controller.signal,
        )
      } finally {
        process.off("SIGINT", onSignal)
        process.off("SIGTERM", onSignal)
      }
    })
}

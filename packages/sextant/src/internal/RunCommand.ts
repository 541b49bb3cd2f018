import { randomUUID } from "node:crypto"
import { resolve } from "node:path"
import type { Writable } from "node:stream"
import { causeMessage } from "@sextant/core"
import type { Command } from "commander"
import { z } from "zod"
import {
  AgentFlags,
  addAgentFlags,
  addGuardFlags,
  GuardFlags,
  guardOptionsOf,
  resolveAgent,
  runSettingNames,
} from "./AgentFlags.ts"
import { type CliContext, type CliPlace, processPlace } from "./CliIo.ts"
import {
  credentialInputProblem,
  gridProblem,
  gridSource,
  type Interrupts,
  issuesOf,
  usageError,
  withInterrupt,
} from "./CliOutput.ts"
import { followRun, interruptedLines, modelReport, summaryLines, withModelProgress } from "./RunOutput.ts"

const pair = z.string().regex(/^[A-Za-z0-9_.-]+(=.*)?$/, "write name=value")
// An input has no other place to take its value from (a secret has SEXTANT_SECRET_<NAME>): a bare name
// would otherwise be dropped and the run go on without it.
const inputPair = z
  .string()
  .regex(/^[A-Za-z0-9_.-]+=/, {
    error: (issue) => `write name=value, e.g. username=alice@example.com, got ${JSON.stringify(issue.input)}`,
  })
  .refine((entry) => credentialInputProblem(entry) === undefined, {
    error: (issue) => credentialInputProblem(String(issue.input)),
  })

const RunArguments = AgentFlags.extend(GuardFlags.shape).extend({
  goal: z.string().trim().min(1, "describe the goal in words"),
  startUrl: z
    .url({ protocol: /^https?$/, error: "must be an http or https URL, e.g. http://127.0.0.1:4000/login" })
    .optional(),
  mode: z.enum(["plan", "agent"], { error: "is plan or agent" }).optional(),
  input: z.array(inputPair),
  secret: z.array(pair),
  allowSubmit: z.boolean(),
  allowedOrigin: z.array(z.url({ error: "must be an origin such as http://127.0.0.1:4000" })),
  allowUploadDir: z.array(z.string().trim().min(1, "name a folder")).default([]),
  maxSteps: z
    .string()
    .regex(/^[1-9]\d*$/, {
      error: (issue) =>
        `must be a whole number above 0, e.g. --max-steps 20, got ${JSON.stringify(issue.input)}`,
    })
    .transform(Number)
    .optional(),
  json: z.boolean(),
  recordTraffic: z.boolean().default(false),
  config: z.string().min(1).optional(),
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

/** Reads `--secret name[=value]` pairs; a name without a value comes from SEXTANT_SECRET_<NAME>. */
export const readSecrets = (
  entries: ReadonlyArray<string>,
  env: CliPlace["env"] = process.env,
): { secrets: Record<string, string> } | { missing: string } => {
  // A secret named without a value is read from SEXTANT_SECRET_<NAME>, so it stays out of the process list.
  const secrets = toRecord(entries, (name) => env[`SEXTANT_SECRET_${name.toUpperCase()}`])
  const missing = entries.map((entry) => entry.split("=")[0] ?? entry).find((name) => !(name in secrets))
  return missing === undefined ? { secrets } : { missing }
}

/** Loads the config file, or writes why it cannot and answers undefined. */
export const configOrReport = async (
  command: string,
  path: string | undefined,
  err: Writable,
  cwd: string = process.cwd(),
) => {
  // Loaded when a command runs, so --help, --version and usage errors answer at once.
  const { ConfigError, loadConfig } = await import("../SextantConfig.ts")
  try {
    return { config: await loadConfig(path, cwd) }
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error
    for (const issue of error.issues) err.write(`sextant ${command}: ${error.path}: ${issue}\n`)
    return undefined
  }
}

/** Runs one goal to its end; resolves the process exit code. */
export const runGoal = async (
  raw: Record<string, unknown>,
  out: Writable,
  err: Writable,
  interrupts?: Partial<Interrupts>,
  place: CliPlace = processPlace(),
): Promise<number> => {
  const signal = interrupts?.signal
  const parsed = RunArguments.safeParse(raw)
  if (!parsed.success) return usageError("run", issuesOf(parsed.error), err, ["goal"])
  const options = parsed.data
  const read = readSecrets(options.secret, place.env)
  if ("missing" in read) {
    return usageError(
      "run",
      [
        {
          field: "secret",
          message: `${read.missing}: give a value (--secret name=value) or set SEXTANT_SECRET_${read.missing.toUpperCase()}`,
        },
      ],
      err,
    )
  }
  const { secrets } = read
  const loaded = await configOrReport("run", options.config, err, place.cwd)
  if (loaded === undefined) return 2
  const resolved = resolveAgent(options, place.env, loaded.config)
  if (Array.isArray(resolved)) return usageError("run", resolved, err)
  const mode = options.mode ?? defaultMode(options.goal, resolved.options)
  err.write(`${resolved.plannerLine}\n`)
  if (options.mode === undefined) err.write(`${modeLine(mode)}\n`)
  const { createAgent } = await import("../createAgent.ts")
  const follow = followRun(err)
  let agent: ReturnType<typeof createAgent>
  try {
    agent = createAgent({
      ...withModelProgress(resolved.options, follow.onModelAttempt),
      mode,
      ...(options.recordTraffic ? { recordTraffic: true } : {}),
      // Every refusal names the flag that would allow what it refused.
      ...guardOptionsOf(options, runSettingNames),
    })
  } catch (error) {
    follow.stop()
    // A store or trace folder that cannot be written: name it, as for any other bad flag.
    err.write(`sextant run: ${causeMessage(error)}\n`)
    return 2
  }
  const runId = randomUUID()
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
          // Relative folders are read against the working directory, as a shell user means them.
          ...(options.allowUploadDir.length === 0
            ? {}
            : { allowedUploadDirs: options.allowUploadDir.map((folder) => resolve(folder)) }),
        },
      },
      { signal, stop: interrupts?.stop, runId, onEvent: follow.onEvent },
    )
    follow.stop()
    out.write(
      options.json
        ? `${JSON.stringify(result)}\n`
        : `${summaryLines(result, follow.artefacts, resolved.store, options.grid, modelReport(resolved, follow))}\n`,
    )
    // The rule planner plans from the words alone, before it has seen a page: the step-wise agent reads
    // the page before each step and carries out far more (see the bench README's gallery figures).
    if (result.status === "FAILED" && mode === "plan" && resolved.options.planner === "rules")
      err.write(
        "hint: the rule planner planned this goal from its words before seeing the page; --mode agent reads the page before each step\n",
      )
    // With no page to start from the run begins on about:blank, where nothing can be done: the result
    // alone ("no step worked on this part") does not say that the page was what was missing.
    if (result.status === "FAILED" && options.startUrl === undefined && result.metrics.steps === 0)
      err.write(
        "hint: no --start-url was given and no step ran, so the run stayed on a blank page: give --start-url URL, or name the page in the goal (go to http://…)\n",
      )
    return result.status === "COMPLETED" ? 0 : 1
  } catch (error) {
    follow.stop()
    if (signal?.aborted === true) {
      const traceDirectory = resolved.options.traceDirectory
      out.write(
        `${interruptedLines(runId, follow.steps(), traceDirectory === false ? undefined : traceDirectory, resolved.store)}\n`,
      )
      return 130
    }
    const badGrid = gridProblem("run", error, gridSource(options.grid, loaded.config), err)
    if (badGrid !== undefined) return badGrid
    err.write(`sextant run: ${causeMessage(error)}\n`)
    return 1
  } finally {
    await agent.close()
  }
}

/**
 * The mode of a run that names none. A model plans the whole goal in one call (`plan`). The rule planner
 * plans from the goal's words alone, before any page is seen, and carries out far fewer instructions than
 * the rule step policy, which reads the page before each step (the bench README's "Plan mode" table): with
 * it the run goes step by step (`agent`), except for a goal that names a tool of a loaded tool package
 * ("use tableToCsv on #prices"), which only the rule planner reads.
 */
export const defaultMode = (
  goal: string,
  options: {
    readonly planner?: string | undefined
    readonly tools?: ReadonlyArray<{ readonly name: string }> | undefined
  },
): "plan" | "agent" => {
  if (options.planner !== "rules") return "plan"
  const words = new Set(goal.toLowerCase().match(/[\p{L}\p{N}_]+/gu) ?? [])
  return (options.tools ?? []).some((tool) => words.has(tool.name.toLowerCase())) ? "plan" : "agent"
}

const modeLine = (mode: "plan" | "agent"): string =>
  mode === "agent"
    ? "mode: agent (one step at a time, reading the page; --mode plan plans the whole goal first)"
    : "mode: plan (the whole goal planned first; --mode agent decides one step at a time)"

/** Adds `sextant run "<goal>" --start-url <url>`: plan a goal and run it in a headless Chromium. */
export const registerRun = (program: Command, cli: CliContext): void => {
  const command = program
    .command("run")
    .description(
      "plan a goal and run it in a headless Chromium; Ctrl-C stops it after the step in flight (sextant resume continues it), closes the browser and exits 130",
    )
    .argument("<goal>", 'what to do, e.g. "log in and extract the products"')
    .option("--start-url <url>", "the page to start from")
    .option(
      "--mode <mode>",
      "plan (whole plan first) or agent (one step at a time); default: agent with the rule planner, plan with a model",
    )
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
    .option(
      "--allow-upload-dir <dir>",
      "a folder the agent may upload files from (repeatable; default: none, every upload is refused)",
      collect,
      [],
    )
    .option("--max-steps <n>", "the step budget")
    .option("--json", "print the whole result as JSON", false)
    .option(
      "--record-traffic",
      "keep the page's JSON calls in the trace, for sextant export RUN --to api-tests",
      false,
    )
  addAgentFlags(addGuardFlags(command)).action(async (goal: string, flags: Record<string, unknown>) => {
    cli.exitCode = await withInterrupt(cli.stderr, (interrupts) =>
      runGoal({ goal, ...flags }, cli.stdout, cli.stderr, interrupts, cli),
    )
  })
}

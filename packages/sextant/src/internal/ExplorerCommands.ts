import { existsSync, statSync } from "node:fs"
import { readFile, writeFile } from "node:fs/promises"
import { join } from "node:path"
import type { Writable } from "node:stream"
import type { BrowserDriver } from "@sextant/core"
import { causeMessage } from "@sextant/core"
import type { TraceRecord } from "@sextant/executor"
import type { AppMap, SuiteResult, TestSuite } from "@sextant/explorer"
import type { Command } from "commander"
import type { Effect } from "effect"
import { z } from "zod"
import type { CliContext } from "./CliIo.ts"
import { issuesOf, usageError } from "./CliOutput.ts"

const collect = (value: string, previous: ReadonlyArray<string> = []) => [...previous, value]
const count = z.coerce.number().int().nonnegative()

const ExploreArguments = z.object({
  url: z.url({ protocol: /^https?$/, error: "must be an http or https URL, e.g. http://127.0.0.1:4000/" }),
  maxPages: count.optional(),
  maxDepth: count.optional(),
  allow: z.array(z.string()),
  deny: z.array(z.string()),
  submitForms: z.boolean(),
  value: z.array(z.string().regex(/^[^=]+=.*$/, "write label=value")),
  secretValue: z.array(z.string().regex(/^[^=]+=.*$/, "write label=value")),
  allowedOrigin: z.array(
    z.url({ protocol: /^https?$/, error: "must be an http or https origin, e.g. http://127.0.0.1:4000" }),
  ),
  out: z.string().min(1).optional(),
  mermaid: z.string().min(1).optional(),
  tests: z.string().min(1).optional(),
  verbose: z.boolean(),
})

const TestArguments = z.object({
  specs: z.array(z.string().min(1)).min(1, "name at least one spec file"),
  junit: z.string().min(1).optional(),
  baseUrl: z.url({ protocol: /^https?$/ }).optional(),
})

const HealArguments = z.object({
  spec: z.string().min(1),
  baseUrl: z.url({ protocol: /^https?$/ }).optional(),
})

const ExportArguments = z.object({
  source: z.string().min(1),
  to: z.enum(["wdio", "api-tests", "spec"], {
    error:
      "write wdio (a standalone WebdriverIO test), api-tests (a vitest file of the run's JSON calls) or spec (a YAML test spec)",
  }),
  out: z.string().min(1).optional(),
  traceDir: z.string().min(1),
  store: z.string().min(1).default(".sextant/sextant.db"),
  timeout: z.coerce
    .number({
      error: "give the milliseconds a wait or a check of the WebdriverIO test keeps trying, e.g. 2000",
    })
    .int("give whole milliseconds, e.g. 2000")
    .min(100, "give at least 100 ms")
    .max(600_000, "give at most 600000 ms (ten minutes)")
    .optional(),
  unfinished: z.boolean().default(false),
})

/** Positional arguments, named `<url>` in messages; every other field is a flag (`--max-pages`). */
const POSITIONAL = ["url", "specs", "spec", "source"]

const parse = <S extends z.ZodType>(
  command: string,
  schema: S,
  raw: unknown,
  err: Writable,
): z.output<S> | undefined => {
  const parsed = schema.safeParse(raw)
  if (parsed.success) return parsed.data
  usageError(command, issuesOf(parsed.error), err, POSITIONAL)
  return undefined
}

/**
 * `@sextant/explorer`, an optional peer of sextant-agent, loaded when a command runs (so the other
 * commands start no slower for it); when it is not installed, the error says which package to add.
 */
const explorer = async () => {
  try {
    return await import("@sextant/explorer")
  } catch (error) {
    if ((error as { code?: unknown } | null)?.code !== "ERR_MODULE_NOT_FOUND") throw error
    throw new Error(
      `explore, test, heal and export need the package @sextant/explorer: install it next to sextant-agent (npm install @sextant/explorer) (${error instanceof Error ? error.message.split("\n")[0] : String(error)})`,
    )
  }
}

/** Runs an effect in one headless Chromium that is closed afterwards, whatever happens. */
const withBrowser = async <A>(effect: Effect.Effect<A, unknown, BrowserDriver>): Promise<A> => {
  const { WebdriverioDriver } = await import("@sextant/webdriverio")
  const { ManagedRuntime } = await import("effect")
  const runtime = ManagedRuntime.make(WebdriverioDriver.layer({}))
  try {
    return await runtime.runPromise(effect)
  } finally {
    await runtime.dispose()
  }
}

const readSuite = async (path: string): Promise<TestSuite> => {
  const { formatOfPath, parseTestSuite } = await explorer()
  let text: string
  try {
    text = await readFile(path, "utf8")
  } catch (error) {
    throw new Error(`cannot read the spec ${path}: ${causeMessage(error)}`)
  }
  try {
    return parseTestSuite(text, formatOfPath(path))
  } catch (error) {
    throw new Error(`${path}: ${causeMessage(error)}`)
  }
}

/** How many skipped URLs of the summary name their reason; the rest are counted in one line. */
const SKIP_REASONS_SHOWN = 10

/**
 * The end of `sextant explore`: pages, transitions, forms, and the skipped URLs counted by reason
 * (each skipped URL is listed only with --verbose: a site with paginated lists skips hundreds).
 */
const exploreSummary = (map: AppMap, verbose: boolean): string => {
  const forms = map.pages.reduce((sum, page) => sum + page.model.forms.length, 0)
  const submitted = map.pages.reduce((sum, page) => sum + Object.keys(page.formOutcomes).length, 0)
  const lines = [
    `${map.pages.length} pages, ${map.transitions.length} transitions, ${forms} forms (${submitted} submitted), ${map.skipped.length} URLs skipped${map.skipped.length === 0 ? "" : " by reason:"}`,
  ]
  const byReason = new Map<string, number>()
  for (const { reason } of map.skipped) byReason.set(reason, (byReason.get(reason) ?? 0) + 1)
  const reasons = [...byReason].sort((left, right) => right[1] - left[1])
  for (const [reason, count] of reasons.slice(0, SKIP_REASONS_SHOWN))
    lines.push(`  ${String(count).padStart(5)}  ${reason}`)
  const rest = reasons.slice(SKIP_REASONS_SHOWN)
  if (rest.length > 0)
    lines.push(
      `  ${String(rest.reduce((sum, [, count]) => sum + count, 0)).padStart(5)}  for ${rest.length} other reasons`,
    )
  if (map.skipped.length > 0 && !verbose) lines.push("  (--verbose lists every skipped URL as it is skipped)")
  return `${lines.join("\n")}\n`
}

/** `sextant explore URL`: the app map, optionally saved, drawn and turned into tests. */
export const exploreCommand = async (raw: Record<string, unknown>, out: Writable, err: Writable) => {
  const options = parse("explore", ExploreArguments, raw, err)
  if (options === undefined) return 2
  const {
    appMapToJson,
    appMapToMermaid,
    explore,
    formatOfPath,
    formatTestSuite,
    generateTests,
    secretVariables,
  } = await explorer()
  const byLabel = (pairs: ReadonlyArray<string>) =>
    Object.fromEntries(
      pairs.map((pair) => [pair.slice(0, pair.indexOf("=")), pair.slice(pair.indexOf("=") + 1)]),
    )
  const values = byLabel(options.value)
  const secretValues = byLabel(options.secretValue)
  const map = await withBrowser(
    explore(options.url, {
      maxPages: options.maxPages,
      maxDepth: options.maxDepth,
      allow: options.allow,
      deny: options.deny,
      submitForms: options.submitForms,
      values,
      secretValues,
      ...(options.allowedOrigin.length === 0 ? {} : { allowedOrigins: options.allowedOrigin }),
      onEvent: (event) => {
        if (event.type === "page-found") err.write(`  found ${event.id} ${event.category}: ${event.url}\n`)
        else if (event.type === "url-skip") {
          if (options.verbose) err.write(`  skipped ${event.url}: ${event.reason}\n`)
        } else if (event.type === "form-submit")
          err.write(`  submitted "${event.form}" (${event.variant}) → ${event.url}\n`)
      },
    }),
  )
  for (const page of map.pages) {
    const forms = page.model.forms.map(
      (form) =>
        `${form.purpose} form [${form.fields.map((field) => `${field.label}: ${field.fieldType}${field.required ? "*" : ""}`).join(", ")}]`,
    )
    out.write(
      `${page.id} ${page.model.category.padEnd(12)} ${page.url}${forms.length > 0 ? `  ${forms.join("; ")}` : ""}\n`,
    )
  }
  out.write(exploreSummary(map, options.verbose))
  if (options.out !== undefined) await writeFile(options.out, appMapToJson(map))
  if (options.mermaid !== undefined) await writeFile(options.mermaid, appMapToMermaid(map))
  if (options.tests !== undefined) {
    // A secret field reads SEXTANT_SECRET_<LABEL> when the test runs; the map holds only its placeholder.
    const suite = generateTests(map, { secrets: secretVariables(map) })
    await writeFile(options.tests, formatTestSuite(suite, formatOfPath(options.tests)))
    out.write(`${suite.tests.length} tests written to ${options.tests}\n`)
  }
  return 0
}

/** `sextant test SPEC…`: runs the specs, prints the report, writes JUnit XML on request. */
export const testCommand = async (raw: Record<string, unknown>, out: Writable, err: Writable) => {
  const options = parse("test", TestArguments, raw, err)
  if (options === undefined) return 2
  const { formatConsoleReport, formatJunitXml, runSuite } = await explorer()
  const suites = await Promise.all(options.specs.map(readSuite))
  const { Effect } = await import("effect")
  const results = await withBrowser(
    Effect.forEach(suites, (suite) =>
      runSuite(suite, options.baseUrl === undefined ? {} : { baseUrl: options.baseUrl }),
    ),
  )
  for (const result of results) out.write(formatConsoleReport(result))
  if (options.junit !== undefined) {
    const merged: SuiteResult = {
      name: results.map((result) => result.name).join(", "),
      passed: results.reduce((sum, result) => sum + result.passed, 0),
      failed: results.reduce((sum, result) => sum + result.failed, 0),
      durationMs: results.reduce((sum, result) => sum + result.durationMs, 0),
      tests: results.flatMap((result) => result.tests),
    }
    await writeFile(options.junit, formatJunitXml(merged))
  }
  return results.every((result) => result.failed === 0) ? 0 : 1
}

/** `sextant heal SPEC`: heals renamed locators, writes the patch beside the spec, reports regressions. */
export const healCommand = async (raw: Record<string, unknown>, out: Writable, err: Writable) => {
  const options = parse("heal", HealArguments, raw, err)
  if (options === undefined) return 2
  const { formatHealReport, healSuite, writeHealPatch } = await explorer()
  const suite = await readSuite(options.spec)
  const healing = await withBrowser(
    healSuite(suite, options.baseUrl === undefined ? {} : { baseUrl: options.baseUrl }),
  )
  out.write(formatHealReport(healing))
  if (healing.patches.length > 0) {
    const { Effect } = await import("effect")
    const written = await Effect.runPromise(writeHealPatch(options.spec, healing))
    out.write(`patch written for review: ${written.join(", ")}\n`)
  }
  return healing.outcomes.every((outcome) => outcome.status === "passed" || outcome.status === "healed")
    ? 0
    : 1
}

/** A spec file (YAML or JSON) named on the command line, or else a stored run's trace. */
const exportSource = async (
  source: string,
  traceDir: string,
): Promise<{ readonly suite?: TestSuite; readonly trace?: ReadonlyArray<TraceRecord> }> => {
  if (existsSync(source) && statSync(source).isFile()) return { suite: await readSuite(source) }
  if (!/^[A-Za-z0-9._:-]+$/.test(source))
    throw new Error(`${source}: no such spec file, and not a run id (letters, digits, '.', '_', ':' or '-')`)
  const path = join(traceDir, `${source}.jsonl`)
  if (!existsSync(path))
    throw new Error(
      `${source}: no such spec file, and no trace of a run with that id at ${path} (sextant runs lists the runs; --trace-dir says where their traces are)`,
    )
  const { readRunTrace } = await import("@sextant/executor")
  return { trace: readRunTrace(path) }
}

/**
 * The secret names of a stored run's task (its `secretInputs`), or why they are not known. Only these
 * placeholders become environment reads in an export: one a page got the model to write
 * (`<secret:github_token>` in a run whose only secret was `password`) stays text.
 */
const storedSecretNames = async (store: string, runId: string): Promise<ReadonlyArray<string> | string> => {
  if (!existsSync(store)) return `there is no store at ${store}`
  const [{ Store }, { SqliteStore }, { Effect }] = await Promise.all([
    import("@sextant/core"),
    import("@sextant/memory"),
    import("effect"),
  ])
  const found = await Effect.runPromise(
    Effect.gen(function* () {
      return yield* (yield* Store).getRun(runId)
    }).pipe(Effect.provide(SqliteStore.layer({ path: store })), Effect.result),
  )
  return found._tag === "Success"
    ? found.success.task.secretInputs
    : `${store} holds no task record of run ${runId}`
}

/**
 * `sextant export SOURCE --to wdio|api-tests|spec`: a spec or a recorded run as a standalone
 * WebdriverIO test, a recorded run's JSON traffic as API tests, or a recorded run as a test spec.
 */
export const exportCommand = async (raw: Record<string, unknown>, out: Writable, err: Writable) => {
  const options = parse("export", ExportArguments, raw, err)
  if (options === undefined) return 2
  if (options.timeout !== undefined && options.to !== "wdio") {
    err.write(
      `sextant export: --timeout: only a WebdriverIO test (--to wdio) waits; leave it out for --to ${options.to}\n`,
    )
    return 2
  }
  const wdio = { timeoutMs: options.timeout }
  const {
    exportApiTests,
    exportWdioScript,
    formatTestSuite,
    runExchanges,
    runStartUrl,
    runToTestSuite,
    RunExportError,
  } = await explorer()
  const { suite: spec, trace } = await exportSource(options.source, options.traceDir)
  let text: string
  // A run's export reads from the environment only the secrets its stored task was given.
  let secrets: ReadonlyArray<string> = []
  if (trace !== undefined) {
    const known = await storedSecretNames(options.store, options.source)
    if (typeof known === "string")
      err.write(
        `sextant export: ${known}, so the run's secrets are not known: every <secret:NAME> in it is written as literal text, never read from the environment (--store names the store that holds the run)\n`,
      )
    else secrets = known
  }
  if (trace === undefined) {
    if (options.to !== "wdio" || spec === undefined) {
      err.write(
        `sextant export: --to: ${options.to} needs a recorded run, not a spec file: give a run id (sextant runs lists them)\n`,
      )
      return 2
    }
    text = exportWdioScript(spec, wdio)
  } else if (options.to === "api-tests") {
    const exchanges = runExchanges(trace)
    if (exchanges.length === 0) {
      err.write(
        `sextant export: ${options.source} recorded no JSON traffic: run it again with --record-traffic (or createAgent({ recordTraffic: true }))\n`,
      )
      return 1
    }
    // Only the calls to the site the run started on become tests: the tests send the cookie and the
    // secrets to their base URL.
    text = exportApiTests(exchanges, { name: `${options.source} API`, secrets, origin: runStartUrl(trace) })
  } else {
    let exported: ReturnType<typeof runToTestSuite>
    try {
      exported = runToTestSuite(trace, { secrets, unfinished: options.unfinished })
    } catch (error) {
      // What the run cannot become (an unfinished run, a drag, an element in a frame), said as the command's.
      if (!(error instanceof RunExportError)) throw error
      err.write(`sextant export: ${error.message}\n`)
      return 1
    }
    const { suite, notes } = exported
    for (const note of notes) err.write(`sextant export: ${note}\n`)
    text = options.to === "spec" ? formatTestSuite(suite, "yaml") : exportWdioScript(suite, wdio)
  }
  if (options.out === undefined) out.write(text)
  else {
    await writeFile(options.out, text)
    out.write(`written to ${options.out}\n`)
  }
  return 0
}

const exitWith = (cli: CliContext, run: () => Promise<number>) => async () => {
  try {
    cli.exitCode = await run()
  } catch (error) {
    cli.stderr.write(`sextant: ${causeMessage(error)}\n`)
    cli.exitCode = 1
  }
}

/** Adds `sextant explore`, `sextant test`, `sextant heal` and `sextant export`. */
export const registerExplorerCommands = (program: Command, cli: CliContext): void => {
  program
    .command("explore")
    .description("explore a web app breadth-first into an app map of its pages, forms and links")
    .argument("<url>", "the page to start from")
    .option("--max-pages <n>", "stop after this many distinct pages (default 30)")
    .option("--max-depth <n>", "follow links this many clicks deep (default 3)")
    .option("--allow <pattern>", "only load URLs matching this regular expression (repeatable)", collect, [])
    .option("--deny <pattern>", "never load URLs matching this regular expression (repeatable)", collect, [])
    .option("--submit-forms", "fill and submit each form with suggested values", false)
    .option(
      "--value <label=value>",
      "the value for fields with this label (repeatable); secret where it fills a password or one-time-code field",
      collect,
      [],
    )
    .option(
      "--secret-value <label=value>",
      "a secret value for fields with this label (repeatable): typed only on the start origin and --allowed-origin, never stored",
      collect,
      [],
    )
    .option(
      "--allowed-origin <origin>",
      "another origin that may be loaded and may receive secrets (repeatable)",
      collect,
      [],
    )
    .option("--out <file>", "save the app map as JSON")
    .option("--mermaid <file>", "save the app map as a Mermaid flowchart")
    .option("--tests <file>", "generate tests from the map into this YAML (or .json) file")
    .option("--verbose", "list every skipped URL with its reason as it is skipped", false)
    .action(
      async (url: string, flags: Record<string, unknown>) =>
        await exitWith(cli, () => exploreCommand({ url, ...flags }, cli.stdout, cli.stderr))(),
    )
  program
    .command("test")
    .description("run test specs (YAML or JSON) in a headless Chromium")
    .argument("<specs...>", "spec files")
    .option("--junit <file>", "write the results as JUnit XML")
    .option("--base-url <url>", "run against this site instead of the specs' baseUrl")
    .action(
      async (specs: Array<string>, flags: Record<string, unknown>) =>
        await exitWith(cli, () => testCommand({ specs, ...flags }, cli.stdout, cli.stderr))(),
    )
  program
    .command("heal")
    .description(
      "re-ground locators that no longer match; writes the patch beside the spec, never heals a changed value",
    )
    .argument("<spec>", "the spec file")
    .option("--base-url <url>", "run against this site instead of the spec's baseUrl")
    .action(
      async (spec: string, flags: Record<string, unknown>) =>
        await exitWith(cli, () => healCommand({ spec, ...flags }, cli.stdout, cli.stderr))(),
    )
  program
    .command("export")
    .description(
      "export a recorded run (or a spec file) as a standalone WebdriverIO test, API tests of its JSON calls, or a test spec",
    )
    .argument("<run-or-spec>", "a run id (its trace is <trace-dir>/<run>.jsonl) or a spec file")
    .requiredOption("--to <target>", "wdio, api-tests (a run recorded with --record-traffic) or spec")
    .option("--out <file>", "write it here instead of standard output")
    .option(
      "--timeout <ms>",
      "how long each wait and check of the WebdriverIO test keeps trying, in milliseconds (default 5000)",
    )
    .option("--trace-dir <dir>", "where the runs' traces are", ".sextant/traces")
    .option(
      "--store <path>",
      "the SQLite store with the run's task: only its secrets are read from SEXTANT_SECRET_<NAME>",
      ".sextant/sextant.db",
    )
    .option(
      "--unfinished",
      "export a run that did not reach its goal as a replay of what it did, named so (refused without it)",
      false,
    )
    .action(
      async (source: string, flags: Record<string, unknown>) =>
        await exitWith(cli, () => exportCommand({ source, ...flags }, cli.stdout, cli.stderr))(),
    )
}

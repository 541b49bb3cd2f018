import { execFile } from "node:child_process"
import { existsSync, mkdirSync, symlinkSync, writeFileSync } from "node:fs"
import { createRequire } from "node:module"
import { dirname, join, resolve } from "node:path"
import {
  type AgentTaskInput,
  BrowserDriver,
  decodeAgentTask,
  Store,
  type StoreShape,
  ToolRegistry,
} from "@sextant/core"
import { type ExecutorRunResult, planAndRun, readRunTrace, runAgent, writeRunReport } from "@sextant/executor"
import {
  explore,
  exportWdioScript,
  formatConsoleReport,
  formatJunitXml,
  formatTestSuite,
  generateTests,
  runSuite,
  runToTestSuite,
} from "@sextant/explorer"
import { FIXTURE_USERS, startFixtureSite } from "@sextant/fixture-site"
import { SqliteStore } from "@sextant/memory"
import { OpenAiLanguageModel } from "@sextant/openai"
import {
  makeHybridPlanner,
  makeLlmPlanner,
  makeRulePlanner,
  makeRuleStepPolicy,
  Planner,
  type StepPolicyShape,
  withActionCache,
} from "@sextant/planner"
import { browserTools, compoundTools, FetchHttpSession, sql } from "@sextant/tools"
import { type LaunchOptions, WebdriverioDriver } from "@sextant/webdriverio"
import { Effect, Layer, ManagedRuntime } from "effect"

/** One line of the tour's summary table. */
export interface TourRow {
  readonly task: string
  /** The verified outcome: COMPLETED only when the executor checked the goal was reached. */
  readonly outcome: string
  readonly steps: number
  readonly ms: number
  readonly tokens: number
  readonly note: string
}

export interface TourReport {
  readonly siteUrl: string
  readonly rows: ReadonlyArray<TourRow>
  /** The HTML report of every planned run, by task. */
  readonly reports: ReadonlyArray<{ readonly task: string; readonly path: string }>
  /** The products of every listing page, as CSV and JSON. */
  readonly csvPath: string
  readonly jsonPath: string
  readonly products: ReadonlyArray<Record<string, unknown>>
  /** The tests generated from exploring the site (YAML), and the log-in run exported as a WebdriverIO script. */
  readonly specPath: string
  readonly scriptPath: string
  /** Actions the step policy decided in the cold run and in the replay from the action cache. */
  readonly policyCalls: { readonly cold: number; readonly replayed: number }
}

export interface TourOptions {
  readonly seed?: number
  /** Where the store, traces, reports, CSV and JSON go. Default `.sextant/demo`. */
  readonly outputDirectory?: string
  readonly launch?: LaunchOptions
  readonly log?: (line: string) => void
  /**
   * Where a model endpoint is read from, as everywhere in Sextant (`OPENAI_BASE_URL`, `OPENAI_API_KEY`,
   * `SEXTANT_MODEL`). With `SEXTANT_MODEL` set the tour plans with the hybrid planner (rules first, the
   * model for what they cannot handle); without it, with the rules alone. Default `process.env`.
   */
  readonly environment?: Readonly<Record<string, string | undefined>>
}

/** The planner of the tour and how the tour names it. */
export const tourPlanner = (
  registry: ToolRegistry,
  environment: Readonly<Record<string, string | undefined>>,
): { readonly layer: Layer.Layer<Planner, unknown>; readonly description: string } => {
  const model = environment.SEXTANT_MODEL
  if (model === undefined || model === "")
    return {
      layer: Layer.succeed(Planner, makeRulePlanner()),
      description:
        "rules (no model configured: set SEXTANT_MODEL and OPENAI_BASE_URL for the hybrid planner)",
    }
  return {
    layer: Layer.effect(
      Planner,
      Effect.map(makeLlmPlanner({ registry }), (llm) =>
        makeHybridPlanner({ rules: makeRulePlanner(), model: llm, registry }),
      ),
    ).pipe(Layer.provide(OpenAiLanguageModel.layerConfig(environment))) as Layer.Layer<Planner, unknown>,
    description: `hybrid (rules first, then the model ${model} at ${environment.OPENAI_BASE_URL ?? "the OpenAI API"})`,
  }
}

const csvOf = (rows: ReadonlyArray<Record<string, unknown>>): string => {
  const columns = [...new Set(rows.flatMap((row) => Object.keys(row)))]
  const field = (value: unknown) => {
    const text = value === undefined || value === null ? "" : String(value)
    return /[",\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text
  }
  return `${[columns.join(","), ...rows.map((row) => columns.map((column) => field(row[column])).join(","))].join("\n")}\n`
}

const unmetPartsOf = (
  result: ExecutorRunResult,
): ReadonlyArray<{ readonly full: string; readonly short: string }> => {
  const parts = (result.summary as { readonly unmetParts?: unknown }).unmetParts
  if (!Array.isArray(parts)) return []
  return parts.map((part) => {
    if (typeof part === "string") return { full: part, short: part }
    const { part: name, check, evidence } = (part ?? {}) as Record<string, unknown>
    const seen = evidence === undefined ? undefined : `saw ${String(evidence)}`
    const words = (list: ReadonlyArray<unknown>) => list.filter((word) => typeof word === "string").join(": ")
    // What was seen comes first, and the check is labelled as what was expected, so a reader never takes
    // the check's words for what happened. The table's note leaves the check out.
    const expected = typeof check === "string" ? `(expected: ${check})` : undefined
    return {
      full: [words([name, seen]), expected].filter((text) => text !== undefined).join(" "),
      short: words([name, seen]),
    }
  })
}

/**
 * Counts the actions a step policy decides, so the tour can show that a replay takes every action from
 * the cache. A turn that only confirms the goal is done (the rule policy says so on the turn after its
 * last action ran) and the closing summary decide no action and are counted apart, as `confirmations`.
 */
const counted = (
  policy: StepPolicyShape,
  calls: { count: number; confirmations: number },
): StepPolicyShape => ({
  decide: (input) =>
    Effect.suspend(() => policy.decide(input)).pipe(
      Effect.tap((decision) =>
        Effect.sync(() => {
          if (decision.toolCalls.length > 0) calls.count += 1
          else calls.confirmations += 1
        }),
      ),
    ),
  summarize: (input) =>
    Effect.suspend(() => {
      calls.confirmations += 1
      return policy.summarize(input)
    }),
})

/**
 * The tour: the fixture site, one headless Chromium and one SQLite store, and the packages composed
 * through their Effect APIs — the rule planner and the executor for planned tasks, the session tools
 * for SQL with no browser, the step-wise agent with the action cache for a replay — each run written to
 * the store and its trace, and turned into an HTML report.
 */
export const runTour = async (options: TourOptions = {}): Promise<TourReport> => {
  const log = options.log ?? (() => {})
  const output = resolve(options.outputDirectory ?? ".sextant/demo")
  mkdirSync(output, { recursive: true })
  const traces = join(output, "traces")
  const reportsDirectory = join(output, "reports")
  const stamp = new Date().toISOString().replace(/[:.]/g, "-")
  const site = await startFixtureSite({ port: 0, seed: options.seed ?? 0 })
  const user = FIXTURE_USERS[0]!
  const registry = Effect.runSync(ToolRegistry.make([...browserTools, ...compoundTools]))
  const planner = tourPlanner(registry, options.environment ?? process.env)
  const runtime = ManagedRuntime.make(
    Layer.mergeAll(
      SqliteStore.layer({ path: join(output, "sextant.db") }),
      planner.layer,
      WebdriverioDriver.layer(options.launch ?? {}),
    ),
  )
  const cacheRuntime = ManagedRuntime.make(SqliteStore.layerMemory)
  const rows: Array<TourRow> = []
  // Stops the exported script's process when the tour ends before awaiting it (a step threw).
  const scriptAbort = new AbortController()
  const reports: Array<{ task: string; path: string }> = []
  try {
    // The action cache starts empty on every tour, so the first step-wise run is really cold.
    const store: StoreShape = await cacheRuntime.runPromise(
      Effect.gen(function* () {
        return yield* Store
      }),
    )

    const planned = async (
      label: string,
      input: AgentTaskInput,
      noteOf: (result: ExecutorRunResult) => string = () => "",
    ): Promise<{ readonly result: ExecutorRunResult; readonly row: TourRow }> => {
      const task = await Effect.runPromise(decodeAgentTask(input))
      const runId = `demo-${stamp}-${rows.length + 1}`
      log(`▶ ${label}\n  goal: ${task.goal}`)
      const started = performance.now()
      const result = await runtime.runPromise(
        planAndRun(task, {
          tools: registry,
          runId,
          traceDirectory: traces,
          screenshots: "always",
          maxReplans: 1,
          retry: { maxRetries: 1 },
          onEvent: (event) => {
            if (event.type === "step-end")
              log(
                `  [${event.step}] ${event.tool} ${event.ok ? "ok" : `failed: ${event.message ?? ""}`} (${Math.round(event.durationMs)} ms)`,
              )
            else if (event.type === "guardrail")
              log(`  [${event.step}] ${event.tool} refused: ${event.message}`)
          },
        }) as Effect.Effect<ExecutorRunResult, unknown, BrowserDriver | Store | Planner>,
      )
      const ms = Math.round(performance.now() - started)
      const path = await runtime.runPromise(
        writeRunReport(runId, join(reportsDirectory, `${runId}.html`), { traceDirectory: traces }),
      )
      reports.push({ task: label, path })
      const unmet = unmetPartsOf(result)
      log(`  → ${result.status}: ${result.summary.summary}`)
      for (const part of unmet) log(`  unmet: ${part.full}`)
      const row: TourRow = {
        task: label,
        outcome: result.status,
        steps: result.metrics.steps,
        ms,
        tokens: result.metrics.tokens.total,
        note:
          unmet[0]?.short ??
          (result.status === "COMPLETED"
            ? noteOf(result)
            : (result.observations.findLast((o) => !o.ok)?.message ?? "")),
      }
      rows.push(row)
      return { result, row }
    }

    log(`Planner: ${planner.description}\nSite: ${site.url}\nOutput: ${output}\n`)

    const login = await planned("log in", {
      goal: "log in",
      startUrl: `${site.url}/login`,
      inputs: { username: user.email, password: user.password },
      secretInputs: ["password"],
      constraints: { allowFormSubmission: true },
    })

    const recordCount = (result: ExecutorRunResult) =>
      `${Array.isArray(result.output) ? result.output.length : 0} records`
    const search = await planned(
      "search and extract",
      {
        goal: "search for lantern, then extract name and price of the results",
        startUrl: `${site.url}/search`,
        constraints: { allowFormSubmission: true },
      },
      recordCount,
    )
    const found = Array.isArray(search.result.output) ? search.result.output : []
    log(`  ${found.length} results, e.g. ${JSON.stringify(found[0])}\n`)

    const listing = await planned(
      "paginate and save",
      {
        goal: "extract name and price of the products from the first 5 pages",
        startUrl: `${site.url}/products`,
      },
      recordCount,
    )
    const products = (Array.isArray(listing.result.output) ? listing.result.output : []) as Array<
      Record<string, unknown>
    >
    const csvPath = join(output, "products.csv")
    const jsonPath = join(output, "products.json")
    writeFileSync(csvPath, csvOf(products))
    writeFileSync(jsonPath, `${JSON.stringify(products, null, 2)}\n`)
    log(`  saved ${products.length} products to ${csvPath} and ${jsonPath}\n`)

    await planned(
      "contact form",
      {
        goal: "fill Name with Alice, then fill Email with alice@example.com, then select Support in Topic, then check Email, then fill Message with Hello from the Sextant demo tour, then click Send message",
        startUrl: `${site.url}/forms/contact`,
        constraints: { allowFormSubmission: true },
      },
      () => "",
    )
    // The tour checks the page itself: the site answers a sent form with "Thank you, <name>".
    const heading = await runtime.runPromise(
      Effect.gen(function* () {
        const driver = yield* BrowserDriver
        return yield* driver.evaluate("return document.querySelector('h1')?.textContent ?? ''")
      }),
    )
    const sent = heading === "Thank you, Alice"
    log(`  the page says: ${JSON.stringify(heading)}${sent ? "" : " (the form was not sent)"}\n`)
    const contactRow = rows.at(-1)!
    rows[rows.length - 1] = {
      ...contactRow,
      outcome: sent ? contactRow.outcome : "FAILED",
      note: sent
        ? `page: ${String(heading)}`
        : `the page shows ${JSON.stringify(heading)}, not the confirmation`,
    }

    await planned("cannot succeed", {
      goal: "log in",
      startUrl: `${site.url}/login`,
      inputs: { username: user.email, password: "not-the-password" },
      secretInputs: ["password"],
      constraints: { allowFormSubmission: true },
    })

    // The log-in run, exported as a plain WebdriverIO script, runs in its own Node and Chromium beside the
    // next steps (most of its time is those two starting); its output is printed when it is awaited below.
    const exportStarted = performance.now()
    const script = exportWdioScript(
      // The run's own secret names: only their placeholders become environment reads in the script.
      runToTestSuite(readRunTrace(join(traces, `${login.result.runId}.jsonl`)), { secrets: ["password"] })
        .suite,
    )
    const scriptPath = join(output, "login.wdio.ts")
    writeFileSync(scriptPath, script)
    const replayRun = runScript(
      scriptPath,
      {
        BASE_URL: site.url,
        SEXTANT_SECRET_PASSWORD: user.password,
        ...(options.launch?.chromePath === undefined ? {} : { SEXTANT_CHROME: options.launch.chromePath }),
        ...(options.launch?.chromedriverPath === undefined
          ? {}
          : { SEXTANT_CHROMEDRIVER: options.launch.chromedriverPath }),
      },
      scriptAbort.signal,
    ).then((outcome) => ({ ...outcome, ms: Math.round(performance.now() - exportStarted) }))

    log("▶ SQL over the product pages (session tools, no browser)")
    const sqlStarted = performance.now()
    const query = [1, 2, 3, 4, 5]
      .map(
        (page) =>
          `SELECT dom_text(html, 'h2') AS name, dom_match(html, 'p', '^\\$') AS price FROM load_and_select('${site.url}/products?page=${page}', '[data-product-id]')`,
      )
      .join(" UNION ALL ")
    const table = await Effect.runPromise(sql(query).pipe(Effect.provide(FetchHttpSession.layer({}))))
    const sqlMs = Math.round(performance.now() - sqlStarted)
    log(`  ${table.rowCount} rows from ${table.pages.length} pages, e.g. ${JSON.stringify(table.rows[0])}\n`)
    rows.push({
      task: "SQL, no browser",
      outcome: table.rowCount === products.length && table.rowCount > 0 ? "COMPLETED" : "FAILED",
      steps: 1,
      ms: sqlMs,
      tokens: 0,
      note: `${table.rowCount} rows`,
    })

    log("▶ step-wise agent, then the same task replayed from the action cache")
    const replayTask = await Effect.runPromise(
      decodeAgentTask({
        goal: "search for lantern, then open the first result",
        startUrl: `${site.url}/search`,
        constraints: { allowFormSubmission: true, maxSteps: 10 },
      }),
    )
    const calls = { cold: { count: 0, confirmations: 0 }, replayed: { count: 0, confirmations: 0 } }
    const agentRun = async (label: string, counter: { count: number; confirmations: number }) => {
      const started = performance.now()
      const policy = withActionCache(counted(makeRuleStepPolicy(), counter), { store })
      const result = await runtime.runPromise(
        runAgent(replayTask, policy, { tools: registry, traceDirectory: traces }) as Effect.Effect<
          ExecutorRunResult,
          unknown,
          BrowserDriver | Store
        >,
      )
      const ms = Math.round(performance.now() - started)
      log(
        `  ${label}: ${result.status} in ${result.metrics.steps} steps, ${counter.count} actions decided by the policy, ${counter.confirmations} turns that decided none (${ms} ms)`,
      )
      rows.push({
        task: label,
        outcome: result.status,
        steps: result.metrics.steps,
        ms,
        tokens: result.metrics.tokens.total,
        note: `${counter.count} policy actions`,
      })
    }
    await agentRun("step-wise, cold", calls.cold)
    await agentRun("replayed from cache", calls.replayed)
    log("")

    log("▶ explore the site, generate tests and run them (no model)")
    const exploreStarted = performance.now()
    const map = await runtime.runPromise(
      explore(`${site.url}/`, {
        maxDepth: 1,
        maxPages: 5,
        deny: ["/large", "/dynamic", "/flaky", "/frames", "/injection", "/gallery"],
        submitForms: true,
        values: { Email: user.email, Password: user.password, "Search products": "brass" },
        onEvent: (event) => {
          if (event.type === "page-found") log(`  found ${event.id} ${event.category}: ${event.url}`)
        },
      }),
    )
    // The password stays out of the test file: the tests read SEXTANT_SECRET_PASSWORD when they run.
    const suite = generateTests(map, { name: "fixture shop" })
    const specPath = join(output, "shop.tests.yaml")
    writeFileSync(specPath, formatTestSuite(suite, "yaml"))
    const tested = await runtime.runPromise(
      runSuite(suite, { env: { SEXTANT_SECRET_PASSWORD: user.password } }),
    )
    const junitPath = join(output, "junit.xml")
    writeFileSync(junitPath, formatJunitXml(tested))
    for (const line of formatConsoleReport(tested).split("\n")) log(`  ${line}`)
    log(`  ${map.pages.length} pages; tests in ${specPath}, JUnit in ${junitPath}\n`)
    rows.push({
      task: "explore + tests",
      outcome: tested.failed === 0 && tested.passed > 0 ? "COMPLETED" : "FAILED",
      steps: suite.tests.length,
      ms: Math.round(performance.now() - exploreStarted),
      tokens: 0,
      note: `${map.pages.length} pages, ${tested.passed}/${suite.tests.length} tests passed`,
    })

    log("▶ the log-in run, exported as a plain WebdriverIO script and run beside the steps above")
    const replay = await replayRun
    for (const line of replay.output.trim().split("\n")) log(`  ${line}`)
    log(`  script: ${scriptPath} (needs only webdriverio; exit code ${replay.code})\n`)
    rows.push({
      task: "run → wdio script",
      outcome: replay.code === 0 && replay.output.includes("ok ") ? "COMPLETED" : "FAILED",
      steps: 1,
      ms: replay.ms,
      tokens: 0,
      note: replay.output.trim().split("\n").at(-1) ?? "",
    })
    return {
      siteUrl: site.url,
      rows,
      reports,
      csvPath,
      jsonPath,
      products,
      specPath,
      scriptPath,
      policyCalls: { cold: calls.cold.count, replayed: calls.replayed.count },
    }
  } finally {
    scriptAbort.abort()
    await runtime.dispose()
    await cacheRuntime.dispose()
    await site.close()
  }
}

/**
 * Runs an exported script with plain Node, as its user would: `webdriverio` is linked beside it (what
 * `npm install webdriverio` in that folder would give), and no Sextant package is.
 */
const runScript = (
  path: string,
  env: Readonly<Record<string, string>>,
  signal: AbortSignal,
): Promise<{ readonly code: number; readonly output: string }> => {
  const modules = join(dirname(path), "node_modules")
  const linked = join(modules, "webdriverio")
  if (!existsSync(linked)) {
    mkdirSync(modules, { recursive: true })
    // The package's folder: its entry point's nearest parent that holds its package.json.
    let folder = dirname(createRequire(import.meta.url).resolve("webdriverio"))
    while (!existsSync(join(folder, "package.json")) && dirname(folder) !== folder) folder = dirname(folder)
    symlinkSync(folder, linked, "dir")
  }
  return new Promise((done) => {
    execFile(
      process.execPath,
      [path],
      { env: { ...process.env, ...env }, timeout: 120_000, signal },
      (error, stdout, stderr) =>
        done({
          code: error === null ? 0 : typeof error.code === "number" ? error.code : -1,
          output: `${stdout}${stderr}`,
        }),
    )
  })
}

/** The summary table, one row per task. */
export const summaryTable = (rows: ReadonlyArray<TourRow>): string => {
  const headers = ["task", "verified outcome", "steps", "time", "tokens", "note"]
  const cells = rows.map((row) => [
    row.task,
    row.outcome,
    String(row.steps),
    `${(row.ms / 1000).toFixed(1)} s`,
    String(row.tokens),
    row.note.length > 90 ? `${row.note.slice(0, 89)}…` : row.note,
  ])
  const widths = headers.map((header, column) =>
    Math.max(header.length, ...cells.map((line) => line[column]!.length)),
  )
  const line = (values: ReadonlyArray<string>) =>
    values
      .map((value, column) => value.padEnd(widths[column]!))
      .join("  ")
      .trimEnd()
  return [line(headers), line(widths.map((width) => "─".repeat(width))), ...cells.map(line)].join("\n")
}

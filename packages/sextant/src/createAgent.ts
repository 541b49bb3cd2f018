import { closeSync, openSync, statSync } from "node:fs"
import { dirname, join, resolve } from "node:path"
import {
  AgentError,
  type AgentTask,
  type AgentTaskInput,
  type AnyTool,
  type BrowserDriver,
  Cancelled,
  causeMessage,
  decodeAgentTask,
  decodePlan,
  decodeWith,
  InvalidInput,
  type PlanInput,
  type RunResult,
  Store,
  StoreError,
  StoreUnavailable,
  TaskConstraints,
  type TaskConstraintsInput,
  type TaskState,
  ToolRegistry,
} from "@sextant/core"
import {
  type ExecutorOptions,
  type ExecutorRunResult,
  type FirstFailure,
  type GuardrailSettingNames,
  type ManyOutcome,
  makeFolders,
  planAndRun,
  resume,
  resumeAgent,
  runAgent,
  runMany as runManyEffect,
  runPlan,
  type TraceRecord,
  writeRunReport,
} from "@sextant/executor"
import { SqliteStore } from "@sextant/memory"
import { OpenAiLanguageModel, type OpenAiOptionsInput } from "@sextant/openai"
import {
  makeHybridPlanner,
  makeLlmPlanner,
  makeLlmStepPolicy,
  makeRulePlanner,
  makeRuleStepPolicy,
  Planner,
  type RuleTool,
  StepPolicy,
} from "@sextant/planner"
import { browserTools, compoundTools, FetchHttpSession } from "@sextant/tools"
import { type ConnectOptions, GridOptions, type LaunchOptions, WebdriverioDriver } from "@sextant/webdriverio"
import { Effect, Layer, ManagedRuntime } from "effect"
import { z } from "zod"
import { displayStore, isPostgresUrl } from "./internal/StoreLocation.ts"

/**
 * An extra tool for the agent: a tool made with `defineTool` from `@sextant/core` (or exported by a tool
 * package). Only its shape is named here, so the facade's types stay free of Effect types.
 *
 * @example
 * ```ts
 * import { createAgent } from "sextant-agent"
 * import { sqlTool } from "@sextant/tools"
 * const agent = createAgent({ tools: [sqlTool] })
 * ```
 */
export interface AgentTool {
  readonly name: string
  readonly description: string
  readonly input: unknown
  readonly output: unknown
  readonly effects: unknown
  readonly run: (input: never) => unknown
}

/**
 * Browsers on a Selenium Grid 4: `grid` is the grid's URL, and the rest are the session's options
 * (`chromePath` on the node, `args`, `windowSize`, `headers`, …; see `GridOptions` of
 * `@sextant/webdriverio`). Each run opens its own session, which the grid places on a node.
 *
 * @example
 * ```ts
 * const agent = createAgent({ browser: { grid: "http://grid.internal:4444" } })
 * ```
 */
export type GridBrowserOptions = { readonly grid: string } & Omit<GridOptions, "url">

/**
 * Where the browser comes from: the local Chromium (the default), a Selenium Grid (`grid`), a remote
 * WebDriver endpoint, or a WebdriverIO browser you already have (`from`), which the agent drives and
 * leaves open.
 *
 * @example
 * ```ts
 * import { remote } from "webdriverio"
 * const browser = await remote({ capabilities: { browserName: "chrome" } })
 * const agent = createAgent({ browser: { from: browser } })
 * await agent.run({ goal: "extract the products", startUrl: "http://127.0.0.1:4000/products" })
 * await agent.close() // the browser is still open: end it with browser.deleteSession()
 * ```
 */
export type BrowserOptions =
  | LaunchOptions
  | GridBrowserOptions
  | { readonly connect: ConnectOptions }
  | { readonly from: WebdriverIO.Browser }

/** Options of {@link createAgent}; every field has a default, so `createAgent()` works as it is. */
export interface CreateAgentOptions {
  /**
   * The browser: local headless Chromium (default) with launch options, `{ grid: "http://host:4444" }`
   * for a Selenium Grid 4, `{ connect: … }` for another remote WebDriver endpoint, or `{ from: browser }`
   * to drive a WebdriverIO browser you already have (left open after every run). A run types a secret
   * only where requests can be guarded (see `allowUnguardedSecrets`): not on a grid.
   */
  readonly browser?: BrowserOptions | undefined
  /** Who plans: `rules` (default without a model), `model`, or `hybrid` (rules first; the default with a model). */
  readonly planner?: "rules" | "model" | "hybrid" | undefined
  /** An OpenAI-compatible endpoint for the model planner and the model step policy. */
  readonly model?: OpenAiOptionsInput | undefined
  /**
   * The durable store: an SQLite file (default `.sextant/sextant.db`), `"memory"` (so is the path
   * `":memory:"`), or PostgreSQL shared by agents on many machines: `"postgres://user:password@host:5432/db"`
   * or `{ url: "postgres://…" }` (`@sextant/postgres`, loaded only then).
   */
  readonly store?:
    | { readonly path: string }
    | { readonly url: string }
    | "memory"
    | `postgres://${string}`
    | `postgresql://${string}`
    | undefined
  /** Constraints every task gets unless it sets its own. */
  readonly constraints?: TaskConstraintsInput | undefined
  /** Where traces, transcripts and screenshots go (default `.sextant/traces`); `false` writes none. */
  readonly traceDirectory?: string | false | undefined
  /**
   * Keep the page's JSON traffic (method, URL, status, bodies) in each run's trace, from WebDriver BiDi
   * network events, so `sextant export RUN --to api-tests` can write API tests from it. Default false.
   */
  readonly recordTraffic?: boolean | undefined
  /** Agents `runMany` runs at once (default 2). */
  readonly concurrency?: number | undefined
  /** `plan` (default): plan the whole task, then run it; `agent`: decide one step at a time. */
  readonly mode?: "plan" | "agent" | undefined
  /** Extra tools besides the built-in browser tools. */
  readonly tools?: ReadonlyArray<AgentTool> | undefined
  /**
   * Write an HTML report of every run: `true` puts `<runId>.html` under `.sextant/reports`, or give the
   * directory. The path is in the result's `reportPath`. Off by default.
   */
  readonly report?: boolean | { readonly directory: string } | undefined
  /** When runs take screenshots (the report shows them): `never`, `on-failure` (default) or `always`. */
  readonly screenshots?: "never" | "on-failure" | "always" | undefined
  /**
   * Type secrets (`secretInputs`) even into a browser whose requests cannot be guarded. Default false:
   * a secret is typed only once the browser's request guard is armed, which fails any request that
   * would carry it to another origin (a redirect, a swapped form action, a script's beacon). The guard
   * needs the browser's Chrome DevTools port on this machine: a Chromium the agent launches has it, as
   * does a `connect` or `from` browser driven by a local ChromeDriver without BiDi; a Selenium Grid, a
   * BiDi session (`recordTraffic`) or a browser on another machine has not, and there a step that
   * would type a secret is refused (`secret-unguarded`). `true` accepts the risk: the secret is typed
   * after the checks before typing alone, and a page that sends it elsewhere is not stopped.
   *
   * @example
   * ```ts
   * // A cloud browser you trust with the password: the secret is typed without the request guard.
   * const agent = createAgent({ browser: { connect: { hostname: "browsers.example", port: 4444 } }, allowUnguardedSecrets: true })
   * ```
   */
  readonly allowUnguardedSecrets?: boolean | undefined
  /**
   * Lift the default blocked patterns (sign out, log out, delete, destroy, deactivate, unsubscribe,
   * close account): runs may then click and load what they match. Default false; a goal that names the
   * action ("click Delete") lifts that one pattern for its run anyway.
   */
  readonly allowDestructive?: boolean | undefined
  /**
   * What guardrail refusals call the settings that change them, for a program that sets them under
   * other names (a CLI names its flags: `{ allowedOrigins: "--allowed-origin" }`). Default: the option
   * and task field names (`constraints.allowedOrigins`, `allowUnguardedSecrets: true`, …).
   */
  readonly settingNames?: GuardrailSettingNames | undefined
}

/** Options of one run. */
export interface RunOptions {
  /**
   * Aborting it stops the run at once (the step in flight is cut), closes its browser and rejects
   * with a `Cancelled` `AgentError`. The run is stored CANCELLED, and `resume` continues it.
   */
  readonly signal?: AbortSignal | undefined
  /**
   * Aborting it stops the run after the step in flight (a model call is cut at once): the promise
   * resolves with a CANCELLED result (`endReason` "cancelled"), every finished step is in the store,
   * and `agent.resume(result.runId)` runs the remaining steps without repeating those.
   *
   * @example
   * ```ts
   * const stop = new AbortController()
   * process.once("SIGINT", () => stop.abort())
   * const result = await agent.run(task, { stop: stop.signal })
   * if (result.status === "CANCELLED") await agent.resume(result.runId)
   * ```
   */
  readonly stop?: AbortSignal | undefined
  /** Overrides the agent's `mode` for this run. */
  readonly mode?: "plan" | "agent" | undefined
  /** The run id (the store's key). Default: a random UUID. */
  readonly runId?: string | undefined
  /** Called with every trace event as it happens. */
  readonly onEvent?: ((event: TraceRecord) => void) | undefined
  /** Run this plan (core `Plan` as data) instead of asking the planner for one. */
  readonly plan?: (Omit<PlanInput, "taskId"> & { readonly taskId?: string }) | undefined
}

/** A finished run: the core `RunResult` with its run id, how it ended and where its transcript is. */
export type AgentRunResult = RunResult & {
  readonly runId: string
  readonly endReason: ExecutorRunResult["endReason"]
  readonly transcriptPath?: string | undefined
  /**
   * Set when the run did not complete and a step failed: the first failed step the run never got past
   * (its index, tool, the page it left, what the page showed and the message), which the summary leads with.
   */
  readonly firstFailure?: FirstFailure | undefined
  /** The HTML report of the run, when the agent was created with `report`. */
  readonly reportPath?: string | undefined
}

/** One task's outcome in `runMany`: its result, or the typed error it failed with. */
export type AgentManyOutcome = ManyOutcome<AgentRunResult, unknown>

/** A Sextant agent with plain Promises. */
export interface Agent extends AsyncDisposable {
  /** Runs one task to its end; rejects only for bad input, a browser or store that cannot start, or an abort. */
  readonly run: (task: AgentTaskInput, options?: RunOptions) => Promise<AgentRunResult>
  /** Runs many tasks, each in its own browser session, `concurrency` at a time; outcomes in task order. */
  readonly runMany: (
    tasks: ReadonlyArray<AgentTaskInput>,
    options?: {
      readonly concurrency?: number
      readonly signal?: AbortSignal
      readonly mode?: "plan" | "agent"
    },
  ) => Promise<ReadonlyArray<AgentManyOutcome>>
  /** Runs a task and yields its trace events as they happen; ending the loop early aborts the run. */
  readonly events: (task: AgentTaskInput, options?: Omit<RunOptions, "onEvent">) => AsyncIterable<TraceRecord>
  /**
   * Continues a run (plan or step-wise) whose process died, whose browser was lost, or that was
   * stopped or aborted (CANCELLED), without repeating its completed steps. A run that finished
   * otherwise answers its stored result.
   */
  readonly resume: (
    runId: string,
    options?: {
      readonly secrets?: Readonly<Record<string, string>>
      readonly signal?: AbortSignal
      /** Aborting it stops the resumed run after the step in flight, as `RunOptions.stop` does. */
      readonly stop?: AbortSignal
      /** Called with every trace event of the resumed run as it happens. */
      readonly onEvent?: (event: TraceRecord) => void
    },
  ) => Promise<AgentRunResult>
  /** The runs in the store, newest first (optionally only those in one state, e.g. `FAILED`). */
  readonly runs: (filter?: { readonly status?: TaskState }) => Promise<ReadonlyArray<AgentRunRecord>>
  /**
   * Writes the HTML report of a stored run (one self-contained file: goal, outcome and unmet parts,
   * timeline, screenshots, records) and resolves its absolute path. Default path:
   * `<report directory or .sextant/reports>/<runId>.html`.
   */
  readonly report: (runId: string, path?: string) => Promise<string>
  /** Closes the store and everything the agent holds. */
  readonly close: () => Promise<void>
}

/** One run as the store keeps it: enough to list it and to resume it. */
export interface AgentRunRecord {
  readonly runId: string
  readonly goal: string
  readonly startUrl?: string | undefined
  readonly status: TaskState
  readonly mode: "plan" | "agent"
  readonly startedAt: string
  readonly updatedAt: string
  /** The run's summary, once it ended. */
  readonly summary?: string | undefined
  /** The names of the run's secret inputs (never their values): what `resume` needs given again. */
  readonly secretInputs: ReadonlyArray<string>
}

const OptionsSchema = z.object({
  browser: z.record(z.string(), z.unknown()).optional(),
  planner: z.enum(["rules", "model", "hybrid"]).optional(),
  model: z.record(z.string(), z.unknown()).optional(),
  store: z
    .union([
      z.literal("memory"),
      z.string().refine(isPostgresUrl, {
        message:
          'must be "memory", { path: "store.db" }, or a PostgreSQL URL (postgres://user:password@host:5432/db)',
      }),
      z.object({ path: z.string().min(1) }).strict(),
      z.object({ url: z.string().min(1) }).strict(),
    ])
    .optional(),
  constraints: z.record(z.string(), z.unknown()).optional(),
  traceDirectory: z.union([z.string().min(1), z.literal(false)]).optional(),
  concurrency: z.number().int().positive().optional(),
  recordTraffic: z.boolean().optional(),
  mode: z.enum(["plan", "agent"]).optional(),
  report: z.union([z.boolean(), z.object({ directory: z.string().min(1) })]).optional(),
  screenshots: z.enum(["never", "on-failure", "always"]).optional(),
  allowUnguardedSecrets: z.boolean().optional(),
  allowDestructive: z.boolean().optional(),
  settingNames: z.record(z.string(), z.string().min(1)).optional(),
  tools: z
    .array(
      z.object({
        name: z.string().min(1),
        description: z.string(),
        input: z.custom<z.ZodType>(
          (value) => typeof (value as { safeParse?: unknown } | null)?.safeParse === "function",
          "must be a zod schema",
        ),
        run: z.custom<AgentTool["run"]>((value) => typeof value === "function", "must be a function"),
      }),
    )
    .optional(),
})

const RunOptionsSchema = z
  .object({
    signal: z
      .custom<AbortSignal>((value) => value instanceof AbortSignal, "must be an AbortSignal")
      .optional(),
    stop: z.custom<AbortSignal>((value) => value instanceof AbortSignal, "must be an AbortSignal").optional(),
    mode: z.enum(["plan", "agent"]).optional(),
    runId: z.string().optional(),
    onEvent: z
      .custom<(event: TraceRecord) => void>((value) => typeof value === "function", "must be a function")
      .optional(),
    plan: z.record(z.string(), z.unknown()).optional(),
  })
  .optional()

const decodeOptions = decodeWith(OptionsSchema, "createAgent options", "options")
const decodeRunOptions = decodeWith(RunOptionsSchema, "run options", "options")

const invalidOption = (field: string, issue: string) =>
  new AgentError({
    reason: new InvalidInput({ what: "createAgent options", issues: [`${field}: ${issue}`] }),
  })

// A folder the agent will write into: created now, so a path under a file or a read-only place
// fails when the agent is created instead of mid-run.
const usableFolder = (field: string, path: string): string => {
  try {
    makeFolders(path)
    if (!statSync(path).isDirectory()) throw new Error("it is not a folder")
    return path
  } catch (error) {
    throw invalidOption(
      field,
      `cannot write to ${path} (${causeMessage(error).split("\n")[0]}): give a folder Sextant can create and write`,
    )
  }
}

// The store's file: its folder is created and the file opened for writing now, so a path SQLite
// cannot use (under /proc, in a read-only folder) fails at once with the field named.
const usableStoreFile = (path: string): string => {
  usableFolder("options.store.path", dirname(path))
  try {
    closeSync(openSync(path, "a"))
    return path
  } catch (error) {
    throw invalidOption(
      "options.store.path",
      `cannot write the store file ${path} (${causeMessage(error).split("\n")[0]}): give a path in a folder Sextant can write`,
    )
  }
}

/**
 * The field a PostgreSQL store came from, for messages: `options.store` or `options.store.url`. The URL
 * must parse and name a host; whether the server answers is known when the store opens.
 */
const checkPostgresUrl = (field: string, url: string): void => {
  const parsed = URL.canParse(url.trim()) ? new URL(url.trim()) : undefined
  if (parsed === undefined || !isPostgresUrl(url) || parsed.hostname === "") {
    throw invalidOption(
      field,
      `${displayStore(url)} is not a PostgreSQL URL: write it as postgres://user:password@host:5432/database`,
    )
  }
}

/**
 * The PostgreSQL store, with `@sextant/postgres` (and `pg`) imported only now, so SQLite users never load
 * them. A server that cannot be reached fails when the store opens, naming the option it came from.
 */
const postgresStoreLayer = (field: string, url: string): Layer.Layer<Store, StoreError> => {
  const location = `${displayStore(url)} (${field})`
  const unavailable = (detail: string, cause?: unknown) =>
    new StoreError({ method: "open", reason: new StoreUnavailable({ location, detail }), cause })
  return Layer.effect(
    Store,
    Effect.gen(function* () {
      const { PostgresStore } = yield* Effect.tryPromise({
        try: () => import("@sextant/postgres"),
        catch: (cause) =>
          unavailable(
            `cannot load @sextant/postgres (${causeMessage(cause)}): install it next to sextant-agent`,
            cause,
          ),
      })
      return yield* PostgresStore.make({ url: url.trim() }).pipe(
        Effect.mapError((error) =>
          error.reason._tag === "StoreUnavailable" ? unavailable(error.reason.detail, error) : error,
        ),
      )
    }),
  )
}

const notAnObject = (what: string, value: unknown) =>
  new AgentError({
    reason: new InvalidInput({
      what,
      issues: [`task: must be an object with a goal, got ${value === null ? "null" : typeof value}`],
    }),
  })
const decodeConstraints = decodeWith(TaskConstraints.partial(), "createAgent options", "options.constraints")

const cancelled = (signal: AbortSignal | undefined, error: unknown): unknown =>
  signal?.aborted === true
    ? new AgentError({ reason: new Cancelled({ detail: "the AbortSignal was aborted" }), cause: error })
    : error

/**
 * Creates an agent. With no options it uses the local Chromium, the rule planner and an SQLite store
 * under `.sextant/`. Rejections are Sextant's tagged errors (`isAgentError`, `isDriverError`, …).
 *
 * @example
 * ```ts
 * import { createAgent } from "sextant-agent"
 * await using agent = createAgent()
 * const result = await agent.run({ goal: "log in and list the products", startUrl: "http://127.0.0.1:4000/login",
 *   inputs: { username: "alice@example.com", password: "wonderland" }, secretInputs: ["password"] })
 * console.log(result.status, result.output)
 * ```
 */
export const createAgent = (options: CreateAgentOptions = {}): Agent => {
  const settings = Effect.runSync(
    Effect.gen(function* () {
      yield* decodeOptions(options)
      if (options.constraints !== undefined) yield* decodeConstraints(options.constraints)
      return options
    }),
  )
  const registry = Effect.runSync(
    // The options were checked above: each extra tool has a name, a zod input schema and a run function.
    ToolRegistry.make([
      ...browserTools,
      ...compoundTools,
      ...((settings.tools ?? []) as ReadonlyArray<AnyTool>),
    ]),
  )
  const store = settings.store
  const postgres =
    typeof store === "string" && store !== "memory"
      ? { field: "options.store", url: store }
      : typeof store === "object" && "url" in store
        ? { field: "options.store.url", url: store.url }
        : undefined
  if (postgres !== undefined) checkPostgresUrl(postgres.field, postgres.url)
  // SQLite's own name for a database in memory is taken as such, never as a file called ":memory:".
  const storePath =
    postgres !== undefined ||
    store === "memory" ||
    (typeof store === "object" && "path" in store && store.path === ":memory:")
      ? undefined
      : resolve(typeof store === "object" && "path" in store ? store.path : ".sextant/sextant.db")
  if (storePath !== undefined && typeof store === "object") usableStoreFile(storePath)
  if (typeof settings.traceDirectory === "string")
    usableFolder("options.traceDirectory", resolve(settings.traceDirectory))
  const storeLayer =
    postgres !== undefined
      ? postgresStoreLayer(postgres.field, postgres.url)
      : storePath === undefined
        ? SqliteStore.layerMemory
        : Layer.unwrap(
            Effect.sync(() => {
              makeFolders(dirname(storePath))
              return SqliteStore.layer({ path: storePath })
            }),
          )
  // The rule planner plans `use <tool> on …` for the extra tools (checked above to have a zod input).
  const ruleTools = (settings.tools ?? []) as unknown as ReadonlyArray<RuleTool>
  const plannerKind = settings.planner ?? (settings.model === undefined ? "rules" : "hybrid")
  if (plannerKind !== "rules" && settings.model === undefined) {
    throw new AgentError({
      reason: new InvalidInput({
        what: "createAgent options",
        issues: [
          `options.model: the '${plannerKind}' planner needs a model endpoint (baseURL, apiKey, model)`,
        ],
      }),
    })
  }
  // The tools handed to createAgent are asked for: every prompt lists them, whatever their group.
  const extraTools = ((settings.tools ?? []) as ReadonlyArray<AnyTool>).map((tool) => tool.name)
  const modelLayer = settings.model === undefined ? undefined : OpenAiLanguageModel.layer(settings.model)
  const brainLayer =
    modelLayer === undefined || plannerKind === "rules"
      ? Layer.mergeAll(
          Layer.succeed(Planner, makeRulePlanner({ tools: ruleTools })),
          // createAgent registers the browser and compound tools, `pickDate` and `login` among them.
          Layer.succeed(StepPolicy, makeRuleStepPolicy({ loginTool: true, pickDateTool: true })),
        )
      : Layer.mergeAll(
          Layer.effect(
            Planner,
            Effect.map(makeLlmPlanner({ registry, alwaysListed: extraTools }), (model) =>
              plannerKind === "model"
                ? model
                : makeHybridPlanner({ rules: makeRulePlanner({ tools: ruleTools }), model, registry }),
            ),
          ),
          Layer.effect(StepPolicy, makeLlmStepPolicy({ registry, alwaysListed: extraTools })),
        ).pipe(Layer.provide(modelLayer))
  const runtime = ManagedRuntime.make(Layer.mergeAll(storeLayer, brainLayer))
  const browser = settings.browser
  if (
    browser !== undefined &&
    "from" in browser &&
    typeof (browser.from as { url?: unknown } | null)?.url !== "function"
  ) {
    throw new AgentError({
      reason: new InvalidInput({
        what: "createAgent options",
        issues: ["options.browser.from: must be a WebdriverIO browser, as remote() or attach() give it"],
      }),
    })
  }
  const grid =
    browser !== undefined && "grid" in browser
      ? (() => {
          const { grid: url, ...rest } = browser
          const parsed = GridOptions.safeParse({ ...rest, url })
          if (!parsed.success) {
            throw new AgentError({
              reason: new InvalidInput({
                what: "createAgent options",
                issues: parsed.error.issues.map(
                  (issue) =>
                    `options.browser.${issue.path[0] === "url" ? "grid" : issue.path.join(".")}: ${issue.message}`,
                ),
              }),
            })
          }
          return { ...rest, url } as GridOptions
        })()
      : undefined
  // One browser of the user's is one session: its tasks take turns.
  const ownBrowser = browser !== undefined && "from" in browser
  const recording = settings.recordTraffic === true ? { recordTraffic: true } : {}
  const browserLayer = () =>
    browser !== undefined && "from" in browser
      ? WebdriverioDriver.layerFromBrowser(browser.from, recording)
      : grid !== undefined
        ? WebdriverioDriver.layerGrid({ ...grid, driver: recording })
        : browser !== undefined && "connect" in browser
          ? WebdriverioDriver.layerConnect({ ...browser.connect, driver: recording })
          : WebdriverioDriver.layer({ ...browser, driver: recording })
  const traceDirectory =
    settings.traceDirectory === false ? undefined : resolve(settings.traceDirectory ?? ".sextant/traces")

  const decodeTask = (input: AgentTaskInput) =>
    typeof input !== "object" || input === null || Array.isArray(input)
      ? Effect.fail(notAnObject("task", input))
      : decodeAgentTask({
          ...input,
          constraints: { ...(settings.constraints ?? {}), ...(input.constraints ?? {}) },
        })

  const reportDirectory =
    settings.report === undefined || settings.report === false
      ? undefined
      : resolve(settings.report === true ? ".sextant/reports" : settings.report.directory)
  const reportPathOf = (runId: string, path?: string) =>
    resolve(path ?? join(reportDirectory ?? resolve(".sextant/reports"), `${runId}.html`))

  // The session tools (loadAndParse, sql, crawl, submitUrls) ask for an HttpSession. The executor erases
  // a tool's requirements, so without this a run that calls one failed with "Service not found:
  // HttpSession". Each run gets its own session (cookie jar, cache), as it gets its own browser.
  const withHttpSession = <A, E, R>(effect: Effect.Effect<A, E, R>) =>
    Effect.provide(effect, FetchHttpSession.layer())

  // A secret is never typed into a browser whose requests go unguarded (a grid keeps the DevTools port
  // on its node, a BiDi or remote session has none here), unless the caller accepts the risk.
  const guardOptions = {
    requireRequestGuard: settings.allowUnguardedSecrets !== true,
    settingNames: { allowUnguardedSecrets: "allowUnguardedSecrets: true", ...settings.settingNames },
    ...(settings.allowDestructive === true ? { blockedPatterns: [] } : {}),
  } satisfies Partial<ExecutorOptions>

  const executorOptions = (run: RunOptions | undefined): ExecutorOptions => ({
    tools: registry,
    runId: run?.runId,
    traceDirectory,
    onEvent: run?.onEvent,
    stopSignal: run?.stop,
    ...(settings.screenshots === undefined ? {} : { screenshots: settings.screenshots }),
    ...guardOptions,
  })

  const withReport = <E, R>(
    effect: Effect.Effect<ExecutorRunResult, E, R>,
  ): Effect.Effect<AgentRunResult, E | StoreError, R | Store> =>
    reportDirectory === undefined
      ? effect
      : Effect.flatMap(effect, (result) =>
          Effect.map(
            writeRunReport(result.runId, reportPathOf(result.runId), { traceDirectory }),
            (reportPath): AgentRunResult => ({ ...result, reportPath }),
          ),
        )

  const execute = (
    task: AgentTask,
    run: RunOptions | undefined,
  ): Effect.Effect<
    ExecutorRunResult,
    AgentError | StoreError,
    BrowserDriver | Store | Planner | StepPolicy
  > =>
    Effect.gen(function* () {
      if (run?.plan !== undefined) {
        const plan = yield* decodePlan({ taskId: task.id, ...run.plan })
        return yield* runPlan(task, plan, executorOptions(run))
      }
      if ((run?.mode ?? settings.mode ?? "plan") === "plan")
        return yield* planAndRun(task, executorOptions(run))
      const policy = yield* StepPolicy
      return yield* runAgent(task, policy, executorOptions(run))
    }).pipe(withHttpSession)

  // The task is checked before a browser is launched, so bad input fails fast.
  const runEffect = (input: AgentTaskInput, run: RunOptions | undefined) =>
    Effect.andThen(decodeRunOptions(run), () =>
      Effect.flatMap(decodeTask(input), (task) =>
        withReport(execute(task, run).pipe(Effect.provide(browserLayer()))),
      ),
    )

  const run: Agent["run"] = (input, run) =>
    runtime
      .runPromise(runEffect(input, run), { signal: run?.signal })
      .catch((error: unknown) => Promise.reject(cancelled(run?.signal, error)))

  const runMany: Agent["runMany"] = (inputs, many) =>
    runtime
      .runPromise(
        Effect.gen(function* () {
          const tasks = yield* Effect.forEach(inputs, decodeTask)
          // runManyEffect gives each task its own fresh session: the task itself must not launch another.
          return yield* runManyEffect(tasks, (task) => withReport(execute(task, { mode: many?.mode })), {
            concurrency: ownBrowser ? 1 : (many?.concurrency ?? settings.concurrency ?? 2),
            session: browserLayer(),
          })
        }),
        { signal: many?.signal },
      )
      .catch((error: unknown) => Promise.reject(cancelled(many?.signal, error)))

  const events: Agent["events"] = (input, eventOptions) => ({
    [Symbol.asyncIterator]: () => {
      const queue: Array<TraceRecord> = []
      const controller = new AbortController()
      eventOptions?.signal?.addEventListener("abort", () => controller.abort(), { once: true })
      let wake: (() => void) | undefined
      let finished = false
      let failure: { error: unknown } | undefined
      const done = run(input, {
        ...eventOptions,
        signal: controller.signal,
        onEvent: (event) => {
          queue.push(event)
          wake?.()
        },
      }).then(
        () => undefined,
        (error: unknown) => {
          failure = { error }
        },
      )
      void done.finally(() => {
        finished = true
        wake?.()
      })
      return {
        next: async (): Promise<IteratorResult<TraceRecord>> => {
          while (queue.length === 0 && !finished) await new Promise<void>((resolve) => (wake = resolve))
          const event = queue.shift()
          if (event !== undefined) return { value: event, done: false }
          if (failure !== undefined && !controller.signal.aborted) throw failure.error
          return { value: undefined, done: true }
        },
        return: async (): Promise<IteratorResult<TraceRecord>> => {
          controller.abort()
          await done
          return { value: undefined, done: true }
        },
      }
    },
  })

  const resumeRun: Agent["resume"] = (runId, resumeOptions) =>
    runtime
      .runPromise(
        Effect.gen(function* () {
          const record = yield* (yield* Store).getRun(runId)
          const options = {
            tools: registry,
            traceDirectory,
            secrets: resumeOptions?.secrets,
            onEvent: resumeOptions?.onEvent,
            stopSignal: resumeOptions?.stop,
            ...guardOptions,
          }
          if (record.mode === "plan") return yield* resume(runId, options)
          const policy = yield* StepPolicy
          return yield* resumeAgent(runId, policy, options)
        }).pipe(withHttpSession, Effect.provide(browserLayer())),
        { signal: resumeOptions?.signal },
      )
      .catch((error: unknown) => Promise.reject(cancelled(resumeOptions?.signal, error)))

  const runs: Agent["runs"] = (filter) =>
    runtime.runPromise(
      Effect.gen(function* () {
        const records = yield* (yield* Store).listRuns(
          filter?.status === undefined ? {} : { status: filter.status },
        )
        return [...records]
          .sort((left, right) => right.startedAt.localeCompare(left.startedAt))
          .map(
            (record): AgentRunRecord => ({
              runId: record.runId,
              goal: record.task.goal,
              startUrl: record.task.startUrl,
              status: record.status,
              mode: record.mode,
              startedAt: record.startedAt,
              updatedAt: record.updatedAt,
              summary: record.result?.summary.summary,
              secretInputs: record.task.secretInputs,
            }),
          )
      }),
    )

  const report: Agent["report"] = (runId, path) =>
    runtime.runPromise(writeRunReport(runId, reportPathOf(runId, path), { traceDirectory }))

  const close = () => runtime.dispose()
  return { run, runMany, events, resume: resumeRun, runs, report, close, [Symbol.asyncDispose]: close }
}

import { existsSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import {
  AgentError,
  type AgentTask,
  BrowserDriver,
  type BrowserDriverShape,
  causeMessage,
  type GoalPart,
  InvalidInput,
  type PageSnapshot,
  type Plan,
  type RunRecord,
  type SecretRequestGuard,
  Store,
  type StoreError,
  type StoreShape,
  type TaskState,
  ToolRegistry,
  transition,
} from "@sextant/core"
import { withMaskedPage } from "@sextant/perception"
import { Clock, Effect, Exit, Scope } from "effect"
import type { ExecutorOptions } from "../ExecutorOptions.ts"
import type { PartStep } from "../Goals.ts"
import { type Guardrails, makeGuardrails } from "../Guardrails.ts"
import { makeTally, type RunTally } from "../Metrics.ts"
import { makeRedactor, type Redactor } from "../Redaction.ts"
import { type ResolvedRetryOptions, resolveRetryOptions } from "../RetryPolicy.ts"
import { makeFolders, makeRunTrace, type RunTrace } from "../Trace.ts"
import { withStartUrlSecrets } from "./StartUrlSecrets.ts"

/** Everything one run carries from step to step. */
export interface RunContext {
  readonly runId: string
  readonly task: AgentTask
  readonly mode: "plan" | "agent"
  readonly options: ExecutorOptions
  readonly retry: ResolvedRetryOptions
  readonly registry: ToolRegistry
  readonly redactor: Redactor
  readonly trace: RunTrace
  readonly guardrails: Guardrails
  readonly tally: RunTally
  readonly driver: BrowserDriverShape
  readonly store: StoreShape
  readonly startedAt: string
  readonly startedAtMillis: number
  state: TaskState
  plan: Plan | undefined
  lastUrl: string
  lastSnapshot: PageSnapshot | undefined
  lastStatus: number | undefined
  /** The name the page guard lives under in this run's pages (random, so a page cannot fake it). */
  readonly guardKey: string
  /** Where secrets may be typed when the task names no origins: the first origin one was typed on. */
  secretOrigins: ReadonlyArray<string> | undefined
  /** The driver's request guard, armed before the first secret is typed (see `SecretPolicy`). */
  secretGuard: SecretRequestGuard | undefined
  /** Why the driver guards no requests, once it said so. */
  secretGuardMissing: string | undefined
  /** Holds the request guard; closed when the run ends. */
  readonly scope: Scope.Closeable
  /**
   * The first secret-origin event of the run, naming the origin: from then on the run types no
   * secret again, and it ends FAILED with this as its cause.
   */
  secretRefusal: string | undefined
  /** Tabs that were open before the run acted, which the pop-up check leaves alone. */
  knownTabs: ReadonlySet<string> | undefined
  /** Tabs the driver closed before they loaded (off the allowed origins), not yet reported by a step. */
  readonly closedPopups: Array<string>
  /** The goal's parts: the run is COMPLETED only when every part's check holds. */
  parts: ReadonlyArray<GoalPart>
  /**
   * Whether the policy read the goal into parts, from its words or on the page, even into none: a
   * run whose policy read no part is refused; one whose policy could not read the goal is judged by
   * the policy's own end.
   */
  partsRead: boolean
  /** Every step as the part checks see it, in order. */
  readonly partSteps: Array<PartStep>
  /** True while a step runs (from its `running` row to its finished row): a stop waits for it. */
  stepInFlight: boolean
  /** Called whenever a step ends, for a stop that waits for the step in flight (see `Stop.ts`). */
  readonly stepEndListeners: Set<() => void>
}

/** What a run id may be: it names the trace files and the store's rows. */
export const runIdPattern = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/

const invalidRunId = (issue: string) =>
  new AgentError({ reason: new InvalidInput({ what: "options.runId", issues: [`runId: ${issue}`] }) })

/**
 * Checks a run id given for a new run: safe characters only (it becomes a file name), and not the id
 * of a run the store already holds — a new run never merges into an old one's records.
 */
export const checkNewRunId = (
  runId: string,
  store: StoreShape,
): Effect.Effect<void, AgentError | StoreError> =>
  Effect.gen(function* () {
    if (!runIdPattern.test(runId) || runId.includes("..")) {
      return yield* invalidRunId(
        `${JSON.stringify(runId)} is not a valid run id: use 1 to 128 letters, digits, ".", "_" or "-", starting with a letter or digit, without ".."`,
      )
    }
    const existing = yield* store.getRun(runId).pipe(
      Effect.catchIf(
        (error) => error.reason._tag === "StoreNotFound",
        () => Effect.succeed(undefined),
      ),
    )
    if (existing !== undefined) {
      return yield* invalidRunId(
        `a run with id ${JSON.stringify(runId)} already exists (${existing.status}, started ${existing.startedAt}): give a new runId, or resume(${JSON.stringify(runId)}) to continue that run`,
      )
    }
  })

export const makeRunContext = Effect.fnUntraced(function* (
  given: AgentTask,
  mode: "plan" | "agent",
  options: ExecutorOptions,
  resumed?: { readonly runId: string; readonly startedAt: string; readonly state: TaskState },
) {
  // A password or token in the start URL is a secret of the run like any other.
  const task = withStartUrlSecrets(given)
  const driver = yield* BrowserDriver
  // What the browser did before the run (an MCP client's `go`, an earlier run's last moves) is not the
  // run's: its first step's recording would carry it into the trace and the export, with whatever URL
  // credential or typed value it held that is no secret of this run.
  if (driver.takeRecording !== undefined)
    yield* driver.takeRecording.pipe(
      Effect.timeoutOrElse({ duration: "10 seconds", orElse: () => Effect.void }),
    )
  const store = yield* Store
  const registry =
    options.tools instanceof ToolRegistry ? options.tools : yield* ToolRegistry.make(options.tools)
  const runId = resumed?.runId ?? options.runId ?? crypto.randomUUID()
  if (resumed === undefined && options.runId !== undefined) yield* checkNewRunId(runId, store)
  const redactor = makeRedactor(task)
  const now = yield* Clock.currentTimeMillis
  // Every page the run reaches goes through here: a token its URL carries is hidden before anything shows it.
  let lastUrl = "about:blank"
  const context: RunContext = {
    runId,
    task,
    mode,
    options,
    retry: resolveRetryOptions(options.retry),
    registry,
    redactor,
    trace: yield* Effect.try({
      try: () => makeRunTrace(runId, redactor, options),
      catch: (cause) =>
        new AgentError({
          reason: new InvalidInput({
            what: "options.traceDirectory",
            issues: [
              `traceDirectory: cannot write traces to ${options.traceDirectory} (${causeMessage(cause)}): give a folder Sextant can create and write`,
            ],
          }),
          cause,
        }),
    }),
    guardrails: makeGuardrails(task, options),
    tally: makeTally(),
    driver,
    store,
    startedAt: resumed?.startedAt ?? new Date(now).toISOString(),
    startedAtMillis: now,
    state: resumed?.state ?? "CREATED",
    plan: undefined,
    get lastUrl() {
      return lastUrl
    },
    set lastUrl(url: string) {
      redactor.learnUrl(url)
      lastUrl = url
    },
    lastSnapshot: undefined,
    lastStatus: undefined,
    guardKey: `__sextantGuard_${crypto.randomUUID().replaceAll("-", "")}`,
    secretOrigins: undefined,
    secretGuard: undefined,
    secretGuardMissing: undefined,
    scope: yield* Scope.make(),
    secretRefusal: undefined,
    knownTabs: undefined,
    closedPopups: [],
    parts: [],
    partsRead: false,
    partSteps: [],
    stepInFlight: false,
    stepEndListeners: new Set(),
  }
  return context
})

/** Ends what the run holds open (the driver's request guard); safe to call more than once. */
export const closeRunScope = (context: RunContext): Effect.Effect<void> =>
  Effect.suspend(() => {
    context.secretGuard = undefined
    return Scope.close(context.scope, Exit.void)
  })

/** The run as the store keeps it; the task is stored redacted so secrets never reach the disk. */
export const runRecord = (context: RunContext, result?: RunRecord["result"]): RunRecord => ({
  runId: context.runId,
  task: context.redactor.value(context.task),
  status: context.state,
  mode: context.mode,
  startedAt: context.startedAt,
  updatedAt: new Date().toISOString(),
  plan: context.plan === undefined ? undefined : context.redactor.value(context.plan),
  result: result === undefined ? undefined : context.redactor.value(result),
})

/** Moves the task through the core state machine and records the new state in the store. */
export const moveTo = (context: RunContext, to: TaskState): Effect.Effect<void, StoreError | AgentError> =>
  Effect.gen(function* () {
    if (context.state === to) return
    context.state = yield* transition(context.state, to)
    yield* context.store.saveRun(runRecord(context))
  })

/** The screenshot saved for a step, or why none could be: `skipped` is already redacted. */
export type StepScreenshot =
  | { readonly path: string; readonly skipped?: undefined }
  | { readonly path?: undefined; readonly skipped: string }

/**
 * Saves a screenshot of the page for a step, best effort: a screenshot that cannot be taken never fails
 * the run, it is answered as `skipped` with the reason, for the trace to say. In a run with secrets the
 * page is masked while it is taken (perception's `withMaskedPage`), and a page that cannot be masked
 * gets no screenshot at all. Undefined when the run writes no screenshots (no directory).
 */
export const takeScreenshot = (
  context: RunContext,
  label: string,
): Effect.Effect<StepScreenshot | undefined> =>
  Effect.gen(function* () {
    const directory = context.options.screenshotDirectory ?? context.options.traceDirectory
    if (directory === undefined) return undefined
    const take = context.driver.screenshot()
    // Secrets typed into fields that are not password fields, or echoed by the page, must not show.
    const png = yield* context.redactor.names.length > 0
      ? withMaskedPage(context.driver, context.redactor.text, take)
      : take
    return yield* Effect.try({
      try: () => {
        makeFolders(directory)
        // A step index comes round again after a replan: a later screenshot never overwrites an earlier one.
        let path = join(directory, `${context.runId}-${label}.png`)
        for (let n = 2; existsSync(path); n++) path = join(directory, `${context.runId}-${label}-${n}.png`)
        writeFileSync(path, png)
        return { path }
      },
      catch: (cause) =>
        new Error(`the screenshot could not be written to ${directory}: ${String(cause)}`, { cause }),
    })
  }).pipe(Effect.catch((error: Error) => Effect.succeed({ skipped: context.redactor.text(error.message) })))

/**
 * Writes what the driver did during a step (actions on elements, navigations, waits, JSON traffic)
 * into the trace, redacted like every trace event, so the run can be exported as a script or as API
 * tests. A driver that records nothing writes nothing; a recording that cannot be read in time is said
 * in the transcript, not dropped in silence.
 */
export const recordStep = (context: RunContext, step: number): Effect.Effect<void> =>
  Effect.gen(function* () {
    const take = context.driver.takeRecording
    if (take === undefined) return
    const recording = yield* take.pipe(
      Effect.timeoutOrElse({ duration: "10 seconds", orElse: () => Effect.succeed(undefined) }),
    )
    if (recording === undefined) {
      context.trace.line(
        `  step ${step}: what the browser did could not be read within 10 s; the run's export misses it`,
      )
      return
    }
    if (recording.actions.length === 0 && recording.exchanges.length === 0) return
    // A page the step passed through (a redirect's hop, a tab it closed) may carry a token too.
    for (const action of recording.actions) {
      if (action.kind === "wait") continue
      context.redactor.learnUrl(action.url)
      if (action.kind === "act") context.redactor.learnUrl(action.urlBefore)
    }
    // So may the page's own JSON calls: a token an API answered, or one the page sends back.
    for (const exchange of recording.exchanges) {
      context.redactor.learnUrl(exchange.url)
      for (const body of [exchange.requestBody, exchange.responseBody])
        if (body !== undefined) context.redactor.learnJson(body)
    }
    context.trace.emit({
      type: "recorded",
      step,
      actions: recording.actions,
      exchanges: recording.exchanges,
    })
  })

/**
 * How long after maxDurationMs the run's own cut waits: each step is cut at the deadline itself (and
 * its outcome recorded); the run's cut is the backstop for work outside a step (planning, a summary).
 */
export const DEADLINE_BACKSTOP_MS = 1_000

export const elapsedSince = (start: number) =>
  Effect.map(Clock.currentTimeMillis, (now) => Math.max(0, now - start))

import { mkdirSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import {
  type AgentError,
  type AgentTask,
  BrowserDriver,
  type BrowserDriverShape,
  type GoalPart,
  type PageSnapshot,
  type Plan,
  type RunRecord,
  Store,
  type StoreError,
  type StoreShape,
  type TaskState,
  ToolRegistry,
  transition,
} from "@sextant/core"
import { Clock, Effect } from "effect"
import type { ExecutorOptions } from "../ExecutorOptions.ts"
import type { PartStep } from "../Goals.ts"
import { type Guardrails, makeGuardrails } from "../Guardrails.ts"
import { makeTally, type RunTally } from "../Metrics.ts"
import { makeRedactor, type Redactor } from "../Redaction.ts"
import { type ResolvedRetryOptions, resolveRetryOptions } from "../RetryPolicy.ts"
import { makeRunTrace, type RunTrace } from "../Trace.ts"
import { maskFields } from "./PageGuard.ts"

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
  /** Tabs that were open before the run acted, which the pop-up check leaves alone. */
  knownTabs: ReadonlySet<string> | undefined
  /** The goal's parts: the run is COMPLETED only when every part's check holds. */
  parts: ReadonlyArray<GoalPart>
  /** Every step as the part checks see it, in order. */
  readonly partSteps: Array<PartStep>
}

export const makeRunContext = Effect.fnUntraced(function* (
  task: AgentTask,
  mode: "plan" | "agent",
  options: ExecutorOptions,
  resumed?: { readonly runId: string; readonly startedAt: string; readonly state: TaskState },
) {
  const driver = yield* BrowserDriver
  const store = yield* Store
  const registry =
    options.tools instanceof ToolRegistry ? options.tools : yield* ToolRegistry.make(options.tools)
  const runId = resumed?.runId ?? options.runId ?? crypto.randomUUID()
  const redactor = makeRedactor(task)
  const now = yield* Clock.currentTimeMillis
  const context: RunContext = {
    runId,
    task,
    mode,
    options,
    retry: resolveRetryOptions(options.retry),
    registry,
    redactor,
    trace: makeRunTrace(runId, redactor, options),
    guardrails: makeGuardrails(task, options),
    tally: makeTally(),
    driver,
    store,
    startedAt: resumed?.startedAt ?? new Date(now).toISOString(),
    startedAtMillis: now,
    state: resumed?.state ?? "CREATED",
    plan: undefined,
    lastUrl: "about:blank",
    lastSnapshot: undefined,
    lastStatus: undefined,
    guardKey: `__sextantGuard_${crypto.randomUUID().replaceAll("-", "")}`,
    secretOrigins: undefined,
    knownTabs: undefined,
    parts: [],
    partSteps: [],
  }
  return context
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

/** Saves a screenshot of the page for a step, best effort: a failing screenshot never fails the run. */
export const takeScreenshot = (context: RunContext, label: string): Effect.Effect<string | undefined> =>
  Effect.gen(function* () {
    const directory = context.options.screenshotDirectory ?? context.options.traceDirectory
    if (directory === undefined) return undefined
    // Secrets typed into fields that are not password fields must not show.
    const mask = context.redactor.names.length > 0
    if (mask) yield* maskFields(context.driver, true)
    const png = yield* context.driver
      .screenshot()
      .pipe(Effect.ensuring(mask ? maskFields(context.driver, false) : Effect.void))
    const path = join(directory, `${context.runId}-${label}.png`)
    mkdirSync(directory, { recursive: true })
    writeFileSync(path, png)
    return path
  }).pipe(Effect.catch(() => Effect.succeed(undefined)))

export const elapsedSince = (start: number) =>
  Effect.map(Clock.currentTimeMillis, (now) => Math.max(0, now - start))

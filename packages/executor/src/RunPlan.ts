import {
  AgentError,
  type AgentTask,
  type BrowserDriver,
  type GoalPart,
  InvalidInput,
  type Observation,
  observeError,
  type Plan,
  type RunSummary,
  type Step,
  Store,
  type StoreError,
  type StoreShape,
  sextantErrorOf,
} from "@sextant/core"
import {
  goalPartsByClause,
  goalPartsOf,
  type ModelUsage,
  Planner,
  type PlannerShape,
  type ReplanMode,
  validatePlan,
} from "@sextant/planner"
import { Effect, Option } from "effect"
import type { ExecutorOptions } from "./ExecutorOptions.ts"
import {
  concludeRun,
  type ExecutorRunResult,
  endInDoubt,
  evidenceOf,
  finishRun,
  partStepOf,
  recordPartStep,
  withStoredEvidence,
} from "./internal/Finish.ts"
import { type LeaseState, withRunLease } from "./internal/Lease.ts"
import { inDoubtDetail, isFinished, restoreRun, stepInDoubt } from "./internal/Restore.ts"
import {
  closeRunScope,
  DEADLINE_BACKSTOP_MS,
  elapsedSince,
  makeRunContext,
  moveTo,
  type RunContext,
  runRecord,
} from "./internal/RunContext.ts"
import { executeStep, persistStep } from "./internal/StepRunner.ts"
import { stepEnds, stepStarts, stopAsked, untilStopped } from "./internal/Stop.ts"
import { withTabOrigins } from "./internal/TabRecovery.ts"
import { countLlmCall, countReplan } from "./Metrics.ts"
import { endsTheRun, permanentFailure, reasonTag } from "./RetryPolicy.ts"
import type { EndReason } from "./Trace.ts"

export type { ExecutorRunResult } from "./internal/Finish.ts"

const historyOf = (observations: ReadonlyArray<Observation>): string =>
  observations
    .slice(-8)
    .map((observation) =>
      `${observation.tool} ${observation.ok ? "ok" : `failed: ${observation.message ?? ""}`} ${observation.url ?? ""}`.trim(),
    )
    .join("\n")

const planSummary = (context: RunContext, ok: boolean, endReason: EndReason, detail: string): RunSummary => {
  const steps = context.plan?.steps ?? []
  const done = steps.filter((step) => step.state === "succeeded").length
  return {
    taskComplete: ok,
    summary: ok
      ? `Completed all ${steps.length} steps of plan revision ${context.plan?.revision ?? 0} for "${context.task.goal}".`
      : `Stopped (${endReason}) after ${context.tally.steps} step${context.tally.steps === 1 ? "" : "s"} ran (${done} of the plan's ${steps.length} succeeded): ${detail}`,
    keyFindings: [
      `last page: ${context.redactor.text(context.lastUrl)}`,
      ...(context.tally.replans > 0 ? [`replanned ${context.tally.replans} times`] : []),
    ],
    nextSuggestions: ok ? [] : [detail],
  }
}

const NO_USAGE: ModelUsage = { calls: 0, tokens: { prompt: 0, completion: 0, total: 0 } }

const usageNow = (planner: PlannerShape): Effect.Effect<ModelUsage> =>
  planner.usage ?? Effect.succeed(NO_USAGE)

/** Counts the model calls a planner made since `before`, one `llm-call` event each, tokens split evenly. */
const recordUsage = (
  context: RunContext,
  planner: PlannerShape,
  purpose: "plan" | "replan",
  before: ModelUsage,
) =>
  Effect.gen(function* () {
    const after = yield* usageNow(planner)
    const calls = after.calls - before.calls
    if (calls <= 0) return
    const share = (now: number, then: number, call: number) => {
      const spent = Math.max(0, now - then)
      return Math.floor(spent / calls) + (call < spent % calls ? 1 : 0)
    }
    for (let call = 0; call < calls; call++) {
      const tokens = {
        prompt: share(after.tokens.prompt, before.tokens.prompt, call),
        completion: share(after.tokens.completion, before.tokens.completion, call),
        total: share(after.tokens.total, before.tokens.total, call),
      }
      if (yield* countLlmCall(context.tally, tokens))
        context.trace.emit({ type: "llm-call", purpose, tokens })
    }
  })

/** Every plan from a planner goes through the validator (known tools, valid args, constraints, guards). */
const validated = (context: RunContext, plan: Plan) =>
  Effect.map(
    validatePlan(plan, { registry: context.registry, constraints: context.task.constraints }),
    (report) => {
      for (const issue of report.issues) context.trace.line(`validator: ${issue}`)
      return report.plan
    },
  )

/**
 * The goal parts a run of a planner's `plan` is judged by: those the plan states, else, when a model
 * wrote it (a planner with `usage`: the model or hybrid planner), the goal as the rule grammar reads it,
 * (clause by clause when it cannot read the whole, see `goalPartsByClause`), as the model's step policy gives
 * them in a step-wise run. A model's plan may state no parts; judged by
 * its steps alone, one that only typed a password and never signed in was COMPLETED. A plan of a
 * planner without a model, or one the caller gives, is judged by the parts it states.
 */
const partsOf = (task: AgentTask, plan: Plan, planner: PlannerShape): ReadonlyArray<GoalPart> | undefined =>
  (plan.parts ?? []).length > 0 || planner.usage === undefined
    ? plan.parts
    : (goalPartsOf(task.goal) ?? goalPartsByClause(task.goal) ?? plan.parts)

const emitPlan = (context: RunContext, plan: Plan) =>
  context.trace.emit({
    type: "plan",
    revision: plan.revision,
    steps: plan.steps.map((step) => ({ index: step.index, tool: step.tool, args: step.args })),
  })

/**
 * The goal parts a new plan leaves out: parts of the run that the new plan does not state, or that no
 * step of it works on while no step has done them yet.
 */
const leftOut = (context: RunContext, plan: Plan): ReadonlyArray<string> =>
  // A plan that names no parts on its steps (a model's) cannot be matched to them here: the checks
  // after the run still judge every part.
  !plan.steps.some((step) => step.part !== undefined)
    ? []
    : context.parts.flatMap((part, index) => {
        const stated =
          plan.parts === undefined ||
          plan.parts.some(
            (candidate) =>
              candidate.description === part.description &&
              JSON.stringify(candidate.check) === JSON.stringify(part.check),
          )
        const done = context.partSteps.some((step) => step.part === index && step.ok)
        const worked = plan.steps.some((step) => step.part === index)
        const pageCheck = ["lastPage", "pagesRead", "urlMatches", "textPresent", "elementExists"].includes(
          part.check.type,
        )
        return stated && (done || worked || pageCheck) ? [] : [part.description]
      })

/** What a run asked to stop (`stopSignal`) ends with: CANCELLED, and `resume` continues it. */
const STOP_DETAIL = "the run was asked to stop; resume it to run the remaining steps"

const stoppedOutcome = () => ({ ok: false, endReason: "cancelled" as EndReason, detail: STOP_DETAIL })

/** Runs the plan's remaining steps, replanning after repeated failure, until it completes or gives up. */
const drive = (context: RunContext, planner: PlannerShape) =>
  Effect.gen(function* () {
    const maxReplans = context.options.maxReplans ?? 3
    const partialLimit = context.options.partialReplansBeforeFull ?? 2
    const failuresByStep = new Map<number, number>()
    let executed = context.tally.steps
    while (true) {
      const plan = context.plan as Plan
      const next = plan.steps.find((step) => step.state !== "succeeded")
      if (next === undefined) return { ok: true, endReason: "completed" as EndReason, detail: "" }
      if (executed >= context.task.constraints.maxSteps) {
        return {
          ok: false,
          endReason: "max-steps" as EndReason,
          detail: `the step budget of ${context.task.constraints.maxSteps} is used up`,
        }
      }
      if (stopAsked(context)) return stoppedOutcome()
      stepStarts(context)
      const running: Step = { ...next, state: "running", attempts: next.attempts }
      yield* context.store.saveStep(context.runId, context.redactor.value(running))
      const urlBefore = context.lastUrl
      const outcome = yield* executeStep(context, {
        index: next.index,
        tool: next.tool,
        args: next.args,
        criteria: next.successCriteria,
      })
      const evidence = evidenceOf(
        yield* recordPartStep(
          context,
          next.part,
          next.tool,
          outcome,
          urlBefore,
          next.args,
          undefined,
          next.index,
        ),
      )
      executed++
      const finished: Step = {
        ...next,
        state: outcome.ok ? "succeeded" : "failed",
        attempts: next.attempts + outcome.attempts,
        observation: outcome.observation,
      }
      context.plan = {
        ...plan,
        steps: plan.steps.map((step) => (step.index === next.index ? finished : step)),
      }
      // The page evidence goes to the store only: the plan a replan sees stays as it was.
      yield* persistStep(context, evidence === undefined ? finished : { ...finished, evidence }, outcome)
      stepEnds(context)
      if (outcome.ok) continue
      if (outcome.defect !== undefined) {
        // The tool threw: a bug in the tool, which no retry or new plan mends.
        return {
          ok: false,
          endReason: "plan-failed" as EndReason,
          detail: `step ${next.index} (${next.tool}) failed: ${outcome.observation.message ?? "the tool crashed"}`,
        }
      }
      if (reasonTag(sextantErrorOf(outcome.error)) === "BudgetExceeded") {
        return {
          ok: false,
          endReason: "max-duration" as EndReason,
          detail: `the run took longer than maxDurationMs (${context.task.constraints.maxDurationMs} ms): step ${next.index} (${next.tool}) was cut at the deadline`,
        }
      }
      if (outcome.refusedBy === "secret-origin" || outcome.refusedBy === "secret-unguarded") {
        // A new plan would type the secret again into the same page (or the same unguarded
        // browser): the run stops instead.
        return {
          ok: false,
          endReason: "plan-failed" as EndReason,
          detail: `step ${next.index} (${next.tool}) was refused and the run stops without replanning, so the secret is not offered again: ${outcome.observation.message ?? ""}`,
        }
      }

      const failures = (failuresByStep.get(next.index) ?? 0) + 1
      failuresByStep.set(next.index, failures)
      const message = outcome.observation.message ?? "the step failed"
      const permanent = permanentFailure(sextantErrorOf(outcome.error))
      if (permanent !== undefined) {
        // No new plan can make an unreachable host resolve or a 404 appear: fail now, not after replans.
        return {
          ok: false,
          endReason: "plan-failed" as EndReason,
          detail: `step ${next.index} (${next.tool}) failed and cannot succeed on a retry (${permanent}): ${message}`,
        }
      }
      // A rejected login or a dead browser: a new plan would only submit again or fail the same way.
      if (endsTheRun(sextantErrorOf(outcome.error))) {
        return {
          ok: false,
          endReason: "plan-failed" as EndReason,
          detail: `step ${next.index} (${next.tool}) failed: ${message}`,
        }
      }
      if (context.tally.replans >= maxReplans) {
        return {
          ok: false,
          endReason: "plan-failed" as EndReason,
          detail: `step ${next.index} (${next.tool}) failed and ${maxReplans} replans are used up: ${message}`,
        }
      }
      const mode: ReplanMode = failures >= partialLimit ? "full" : "partial"
      yield* moveTo(context, "PLANNING")
      const before = yield* usageNow(planner)
      const observations = yield* context.store.listObservations(context.runId)
      // A planner that asks for its own view (a model's, within a token budget) gets it of the page now.
      const page =
        planner.view === undefined
          ? context.lastSnapshot
          : Option.getOrUndefined(yield* Effect.option(context.driver.look(planner.view)))
      const replanned = yield* Effect.result(
        planner.replan(
          context.redactor.value(context.task),
          context.redactor.value(context.plan),
          { stepIndex: next.index, error: observeError(outcome.error), attempts: outcome.attempts },
          mode,
          { observations: historyOf(observations), snapshot: context.redactor.value(page) },
        ),
      )
      yield* recordUsage(context, planner, "replan", before)
      yield* countReplan(context.tally)
      if (replanned._tag === "Failure") {
        context.trace.emit({
          type: "replan",
          mode,
          failedStep: next.index,
          revision: plan.revision,
          message: replanned.failure.message,
        })
        return {
          ok: false,
          endReason: "plan-failed" as EndReason,
          detail: `replanning failed: ${replanned.failure.message}`,
        }
      }
      const checked = yield* Effect.result(validated(context, replanned.success))
      if (checked._tag === "Failure") {
        context.trace.emit({
          type: "replan",
          mode,
          failedStep: next.index,
          revision: plan.revision,
          message: checked.failure.message,
        })
        return {
          ok: false,
          endReason: "plan-failed" as EndReason,
          detail: `the new plan was rejected: ${checked.failure.message}`,
        }
      }
      const left = leftOut(context, checked.success)
      if (left.length > 0) {
        const refusal = `the new plan leaves out ${left.map((part) => `"${part}"`).join(", ")}: a replan must still cover every part of the goal`
        context.trace.emit({
          type: "replan",
          mode,
          failedStep: next.index,
          revision: plan.revision,
          message: refusal,
        })
        context.trace.line(`replan refused: ${refusal}`)
        return { ok: false, endReason: "plan-failed" as EndReason, detail: refusal }
      }
      const remainingBefore = plan.steps.filter((step) => step.state !== "succeeded")
      const remainingAfter = checked.success.steps.filter((step) => step.state !== "succeeded")
      const same = (step: Step) => JSON.stringify([step.tool, step.args])
      const repeated =
        remainingAfter.length > 0 &&
        remainingAfter.map(same).join("\n") === remainingBefore.map(same).join("\n")
      if (repeated) {
        // The same steps after they failed (and were retried where a retry could change something):
        // running them again cannot end differently, so the run stops with the failure that caused it.
        const refusal = `the replan gave the same steps back after step ${next.index} (${next.tool}) failed, so they were not run again`
        context.trace.emit({
          type: "replan",
          mode,
          failedStep: next.index,
          revision: plan.revision,
          message: refusal,
        })
        context.trace.line(`replan gave up: ${refusal}`)
        return {
          ok: false,
          endReason: "plan-failed" as EndReason,
          detail: `step ${next.index} (${next.tool}) failed: ${message}; the replan gave the same steps back, so they were not run again`,
        }
      }
      const newPlan: Plan = { ...checked.success, parts: [...context.parts], status: "running" }
      context.trace.emit({
        type: "replan",
        mode,
        failedStep: next.index,
        revision: newPlan.revision,
        message,
      })
      context.trace.line(`replan (${mode}) after step ${next.index} failed: ${message}`)
      context.plan = newPlan
      context.guardrails.resetVisits()
      emitPlan(context, newPlan)
      for (const step of newPlan.steps) {
        if (step.state !== "succeeded")
          yield* context.store.saveStep(context.runId, context.redactor.value(step))
      }
      yield* moveTo(context, "RUNNING")
    }
  })

/** Ends a run that never started: no plan, or a plan the validator refused. FAILED, naming why. */
const refuse = (context: RunContext, why: string, suggestions: ReadonlyArray<string> = []) =>
  Effect.gen(function* () {
    const task = context.task
    context.trace.emit({ type: "run-start", taskId: task.id, goal: task.goal, mode: "plan", resumed: false })
    context.trace.line(`no run: ${why}`)
    return yield* finishRun(context, "FAILED", "plan-failed", {
      taskComplete: false,
      summary: `No plan for "${task.goal}": ${why}`,
      keyFindings: [],
      nextSuggestions: [...suggestions],
      unmetParts: [
        { part: task.goal, check: "a plan the task allows covers every part of the goal", evidence: why },
      ],
    })
  })

/** Runs a plan in a prepared context and finishes the run, whatever happens (interruption included). */
const execute = (context: RunContext, planner: PlannerShape, resumed: boolean, lease: LeaseState) =>
  Effect.gen(function* () {
    context.trace.emit({
      type: "run-start",
      taskId: context.task.id,
      goal: context.task.goal,
      mode: "plan",
      resumed,
    })
    context.trace.line(`${resumed ? "resume" : "run"} ${context.runId}: ${context.task.goal}`)
    yield* context.store.saveRun(runRecord(context))
    emitPlan(context, context.plan as Plan)
    yield* moveTo(context, "RUNNING")
    const remaining = Math.max(
      0,
      context.task.constraints.maxDurationMs - (yield* elapsedSince(context.startedAtMillis)),
    )
    const outcome = yield* untilStopped(context, drive(context, planner), stoppedOutcome).pipe(
      Effect.timeoutOption(remaining + DEADLINE_BACKSTOP_MS),
    )
    const result = Option.getOrElse(outcome, () => ({
      ok: false,
      endReason: "max-duration" as EndReason,
      detail: `the run took longer than maxDurationMs (${context.task.constraints.maxDurationMs} ms)`,
    }))
    if (result.endReason === "cancelled") {
      // Stopped on request between steps: every finished step is stored, and `resume` runs the rest.
      return yield* finishRun(
        context,
        "CANCELLED",
        "cancelled",
        planSummary(context, false, "cancelled", result.detail),
      )
    }
    if (context.state === "WAITING" || context.state === "PLANNING") context.state = "RUNNING"
    context.plan = { ...(context.plan as Plan), status: result.ok ? "completed" : "failed" }
    const finished = yield* concludeRun(
      context,
      result,
      planSummary(context, result.ok, result.endReason, result.detail),
    )
    if (
      finished.status !== "COMPLETED" &&
      context.plan !== undefined &&
      context.plan.status === "completed"
    ) {
      context.plan = { ...context.plan, status: "failed" }
    }
    return finished
  }).pipe(
    Effect.ensuring(closeRunScope(context)),
    Effect.onInterrupt(() =>
      // A run taken over by another process is theirs to finish: writing CANCELLED would clobber it.
      lease.lost
        ? Effect.void
        : finishRun(
            context,
            "CANCELLED",
            "cancelled",
            planSummary(context, false, "cancelled", "the run was interrupted"),
          ).pipe(Effect.ignore),
    ),
  )

/**
 * Runs a plan step by step: guardrails before each step, a per-step timeout, retries on the schedule of
 * the error's tag, success criteria after each step, and a replan through the `Planner` service after
 * repeated failure. Every step, observation and extracted record is in the `Store` as it happens.
 *
 * @example
 * ```ts
 * import { Effect } from "effect"
 * import { runPlan } from "@sextant/executor"
 * const result = yield* runPlan(task, plan, { tools, traceDirectory: ".sextant/traces" })
 * result.status // "COMPLETED"
 * ```
 */
export const runPlan = Effect.fn("Executor.runPlan")(function* (
  task: AgentTask,
  plan: Plan,
  options: ExecutorOptions,
) {
  const planner = yield* Planner
  const context = yield* makeRunContext(task, "plan", options)
  yield* moveTo(context, "PLANNING")
  yield* context.store.saveRun(runRecord(context))
  return yield* withRunLease(context.store, context.runId, options, (lease) =>
    Effect.gen(function* () {
      const checked = yield* Effect.result(validated(context, plan))
      if (checked._tag === "Failure") return yield* refuse(context, checked.failure.message)
      context.plan = { ...checked.success, status: "running" }
      context.parts = checked.success.parts ?? []
      return yield* execute(context, planner, false, lease).pipe(withTabOrigins(context))
    }),
  )
}) as (
  task: AgentTask,
  plan: Plan,
  options: ExecutorOptions,
) => Effect.Effect<ExecutorRunResult, AgentError | StoreError, BrowserDriver | Store | Planner>

/**
 * Asks the `Planner` for a plan, then runs it with {@link runPlan}. A goal the planner cannot handle
 * ends as a FAILED run whose summary says why.
 *
 * @example
 * ```ts
 * const result = yield* planAndRun(task, { tools })
 * ```
 */
export const planAndRun = Effect.fn("Executor.planAndRun")(function* (
  task: AgentTask,
  options: ExecutorOptions,
) {
  const planner = yield* Planner
  const context = yield* makeRunContext(task, "plan", options)
  yield* moveTo(context, "PLANNING")
  yield* context.store.saveRun(runRecord(context))
  return yield* withRunLease(context.store, context.runId, options, (lease) =>
    planThenExecute(context, planner, lease),
  )
}) as (
  task: AgentTask,
  options: ExecutorOptions,
) => Effect.Effect<ExecutorRunResult, AgentError | StoreError, BrowserDriver | Store | Planner>

/**
 * The start page for a planner that reads the page (a model): the task's start URL opened (when the
 * guardrails allow it) and looked at, so the model plans on its outline rather than on about:blank.
 * A page that cannot be opened or read leaves the planner without one; the plan's own steps open it.
 */
const startPage = (context: RunContext, planner: PlannerShape) =>
  Effect.gen(function* () {
    const url = context.task.startUrl
    if (planner.readsPage !== true || url === undefined) return undefined
    if (context.guardrails.checkUrl(url) !== undefined) return undefined
    const opened = yield* Effect.result(context.driver.navigate(url))
    if (opened._tag === "Failure") {
      context.trace.line(
        `start page for the planner failed: ${context.redactor.text(opened.failure.message)}`,
      )
      return undefined
    }
    context.lastUrl = opened.success.url
    context.guardrails.landed(context.lastUrl)
    const looked = yield* Effect.result(context.driver.look(planner.view ?? { mode: "interactive" }))
    if (looked._tag === "Failure") return undefined
    context.lastSnapshot = looked.success
    return looked.success
  })

const planThenExecute = (context: RunContext, planner: PlannerShape, lease: LeaseState) =>
  Effect.gen(function* () {
    const task = context.task
    const before = yield* usageNow(planner)
    // A stop asked while the planner works (a model call) ends the run at once: nothing has run yet.
    const planned = yield* untilStopped(
      context,
      Effect.flatMap(startPage(context, planner), (page) =>
        Effect.result(
          Effect.flatMap(
            planner.plan(
              context.redactor.value(task),
              page === undefined ? undefined : { snapshot: context.redactor.value(page) },
            ),
            (plan) => validated(context, plan),
          ),
        ),
      ),
      () => undefined,
    )
    yield* recordUsage(context, planner, "plan", before)
    if (planned === undefined) {
      context.trace.emit({
        type: "run-start",
        taskId: task.id,
        goal: task.goal,
        mode: "plan",
        resumed: false,
      })
      return yield* finishRun(context, "CANCELLED", "cancelled", {
        taskComplete: false,
        summary: `Stopped before a plan for "${task.goal}" was made: nothing ran, start the task again`,
        keyFindings: [],
        nextSuggestions: ["start the task again"],
      })
    }
    if (planned._tag === "Failure") {
      const failure = planned.failure
      const understood = !(failure._tag === "AgentError" && failure.reason._tag === "CannotPlan")
      return yield* refuse(
        context,
        understood ? failure.message : `cannot understand "${task.goal}": ${failure.message}`,
        understood ? [] : ["rephrase the goal, or use a model-backed planner"],
      )
    }
    const parts = partsOf(task, planned.success, planner)
    context.plan = {
      ...planned.success,
      ...(parts === undefined ? {} : { parts: [...parts] }),
      status: "running",
    }
    context.parts = parts ?? []
    return yield* execute(context, planner, false, lease).pipe(withTabOrigins(context))
  })

/** What `resume` needs besides the run id: the tools, and the values of secret inputs (the store keeps only placeholders). */
export interface ResumeOptions extends Omit<ExecutorOptions, "runId"> {
  readonly secrets?: Readonly<Record<string, string>> | undefined
}

/**
 * Continues a plan run whose process died, whose browser was lost, or that was stopped or interrupted
 * (CANCELLED): completed steps are not repeated, the page the run was on is
 * loaded again, and the remaining steps run with the same run id (records already stored stay, new ones
 * are deduplicated by key). A run that already finished answers its stored result.
 *
 * @example
 * ```ts
 * const result = yield* resume("run-42", { tools, secrets: { password } })
 * ```
 */
export const resume = Effect.fn("Executor.resume")(function* (runId: string, options: ResumeOptions) {
  const store = yield* Store
  const planner = yield* Planner
  // The lease first, then the record: a run another process is advancing is refused, and one that
  // finished while this process waited answers its result instead of running again.
  return yield* withRunLease(store, runId, options, (lease) =>
    resumeHeld(store, planner, runId, options, lease),
  )
}) as (
  runId: string,
  options: ResumeOptions,
) => Effect.Effect<ExecutorRunResult, AgentError | StoreError, BrowserDriver | Store | Planner>

const resumeHeld = (
  store: StoreShape,
  planner: PlannerShape,
  runId: string,
  options: ResumeOptions,
  lease: LeaseState,
) =>
  Effect.gen(function* () {
    const record = yield* store.getRun(runId)
    if (isFinished(record)) return record.result as ExecutorRunResult
    if (record.mode === "agent") {
      return yield* new AgentError({
        reason: new InvalidInput({
          what: "resume",
          issues: [`run ${runId} is a step-wise run: resume it with resumeAgent(runId, policy, options)`],
        }),
      })
    }
    const plan = record.plan
    if (plan === undefined) {
      return yield* new AgentError({
        reason: new InvalidInput({
          what: "resume",
          issues: [
            `run ${runId} has no stored plan (it stopped while ${record.status === "PLANNING" ? "planning" : `${record.status} before its plan was saved`}): start the task again with planAndRun`,
          ],
        }),
      })
    }
    const { context, steps } = yield* restoreRun(record, "plan", options)
    // A click or submission in flight at the crash may have reached the site: it is not run again.
    const doubt = stepInDoubt(steps, context.registry)
    if (doubt !== undefined) {
      context.plan = { ...plan, status: "failed" }
      return yield* endInDoubt(context, doubt, inDoubtDetail(doubt)).pipe(
        Effect.ensuring(closeRunScope(context)),
      )
    }
    const stored = new Map(steps.map((step) => [step.index, step]))
    context.plan = {
      ...plan,
      status: "running",
      steps: plan.steps.map((step) => {
        const saved = stored.get(step.index)
        // A step that was running when the process died is the one in flight: it runs again (one that
        // acts and is not idempotent was refused above).
        if (saved?.state !== "succeeded" || saved.tool !== step.tool)
          return { ...step, state: "pending" as const }
        const { evidence: _evidence, ...done } = saved
        return done
      }),
    }
    context.parts = plan.parts ?? []
    // The steps that ran before the crash are evidence for the goal checks too.
    let before = "about:blank"
    for (const step of context.plan.steps) {
      const saved = stored.get(step.index)
      if (saved?.observation === undefined || saved.state === "running") continue
      context.partSteps.push(
        withStoredEvidence(
          partStepOf(
            saved.part ?? step.part,
            saved.tool,
            saved.observation,
            before,
            undefined,
            saved.args,
            saved.index,
          ),
          saved.evidence,
        ),
      )
      before = saved.observation.url ?? before
    }
    return yield* execute(context, planner, true, lease).pipe(withTabOrigins(context))
  })

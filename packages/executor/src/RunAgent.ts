import {
  type AgentError,
  type AgentTask,
  type BrowserDriver,
  DriverError,
  observeError,
  RunSummary,
  Store,
  type StoreError,
  sextantErrorOf,
  Timeout,
} from "@sextant/core"
import { type FeedbackStepPolicy, goalPartsByClause, type StepDecision } from "@sextant/planner"
import { Duration, Effect, Option } from "effect"
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
import { lookOrResume, resumeOnNewTab, withTabOrigins } from "./internal/TabRecovery.ts"
import { countModelCalls } from "./Metrics.ts"
import { crashedTab, endsTheRun, permanentFailure, reasonTag } from "./RetryPolicy.ts"
import type { EndReason } from "./Trace.ts"

const STOP_TOOL = "stop"

const historyLine = (turn: number, name: string, args: unknown, ok: boolean, detail: string): string => {
  const shown = JSON.stringify(args)
  return `${turn}. ${name}(${shown.length > 120 ? `${shown.slice(0, 117)}...` : shown}) -> ${ok ? "ok" : "failed"}${detail === "" ? "" : `: ${detail}`}`
}

const hintOf = (output: unknown): string => {
  const hint = (output as { hint?: unknown } | null)?.hint
  return typeof hint === "string" ? hint : ""
}

interface LoopEnd {
  readonly endReason: EndReason
  readonly completed: boolean
  readonly detail?: string | undefined
}

/** How a run asked to stop (`stopSignal`) ends its loop: CANCELLED, and `resumeAgent` continues it. */
const STOPPED: LoopEnd = {
  endReason: "cancelled",
  completed: false,
  detail: "the run was asked to stop; resume it to continue from the next turn",
}

/** The step-wise loop: look, decide, run the first call only, append the history line, repeat. */
const loop = (context: RunContext, policy: FeedbackStepPolicy, history: Array<string>, firstTurn: number) =>
  Effect.gen(function* () {
    const maxNoOps = context.options.maxConsecutiveNoOps ?? 5
    const maxGenerationErrors = context.options.maxConsecutiveGenerationErrors ?? 3
    const backoffMs = context.options.noOpBackoffMs ?? 250
    const maxOutline = context.options.maxOutlineChars ?? 12_000
    let noOps = 0
    let generationErrors = 0
    let turn = firstTurn
    let unsaved = history.length
    const noOp = Effect.fnUntraced(function* (why: string) {
      noOps++
      if (noOps >= maxNoOps) return true
      // Give a slow page time to settle before asking again; the wait doubles on each no-op in a row.
      context.trace.line(`  no-op ${noOps}/${maxNoOps}: ${why}`)
      yield* Effect.sleep(Duration.millis(backoffMs * 2 ** (noOps - 1)))
      return false
    })
    while (true) {
      if (turn >= context.task.constraints.maxSteps)
        return { endReason: "max-steps", completed: false } as LoopEnd
      if (stopAsked(context)) return STOPPED
      // A crashed tab is left for a new one at the same page before the policy sees anything.
      // The policy's own view (a model's: within a token budget, every ref kept) or the whole outline.
      const looked = yield* Effect.result(lookOrResume(context, policy.view))
      let outline: string
      if (looked._tag === "Success") {
        context.lastSnapshot = looked.success
        context.lastUrl = looked.success.url
        if (policy.observeLook !== undefined)
          yield* policy.observeLook(context.redactor.value(looked.success))
        outline = context.redactor.text(looked.success.tree)
      } else {
        // A failed look is an error the policy and the trace both see, never an empty page.
        const message = context.redactor.text(looked.failure.message)
        // A dead browser or driver: every look and step would fail the same way, so the policy is
        // not asked again.
        if (endsTheRun(sextantErrorOf(looked.failure))) {
          history.push(`${turn + 1}. look() -> failed: ${message}`)
          context.trace.line(`  look() failed: ${message}`)
          return {
            endReason: "no-progress",
            completed: false,
            detail: `the page cannot be read: ${message}`,
          } as LoopEnd
        }
        context.lastSnapshot = undefined
        history.push(`${turn + 1}. look() -> failed: ${message}`)
        context.trace.emit({
          type: "step-end",
          step: turn,
          tool: "look",
          ok: false,
          durationMs: 0,
          attempts: 1,
          message,
          error: observeError(looked.failure),
          url: context.lastUrl,
          screenshot: undefined,
        })
        context.trace.line(`  look() failed: ${message}`)
        outline = `(look() failed: ${message})`
      }
      const decided = yield* Effect.result(
        policy.decide({
          goal: context.redactor.text(context.task.goal),
          url: context.redactor.text(context.lastUrl),
          // A view with a budget is already within it and keeps every ref: no character cut on top.
          outline:
            policy.view?.budget === undefined && outline.length > maxOutline
              ? `${outline.slice(0, maxOutline)}\n… (outline cut)`
              : outline,
          history: context.redactor.value([...history]),
          inputs: context.redactor.value(context.task.inputs),
          constraints: context.task.constraints,
        }),
      )
      if (decided._tag === "Failure") {
        generationErrors++
        history.push(`decision failed: ${context.redactor.text(decided.failure.message)}`)
        context.trace.line(
          `  decision failed (${generationErrors}/${maxGenerationErrors}): ${decided.failure.message}`,
        )
        if (generationErrors >= maxGenerationErrors)
          return { endReason: "generation-errors", completed: false } as LoopEnd
        continue
      }
      generationErrors = 0
      const decision: StepDecision = decided.success
      if (yield* countModelCalls(context.tally, decision.usage, decision.modelCalls)) {
        context.trace.emit({ type: "llm-call", purpose: "decide", tokens: decision.usage })
      }
      history.push(...decision.history.map(context.redactor.text))
      // Parts the policy could read only on the page ("Print the page") are checked like any others:
      // a run whose goal had no parts is otherwise judged by the policy's own word.
      if (decision.parts !== undefined) context.partsRead = true
      if (context.parts.length === 0 && decision.parts !== undefined && decision.parts.length > 0)
        context.parts = [...decision.parts]
      if (decision.method === "close")
        return {
          endReason: "closed",
          completed: decision.taskComplete,
          detail: decision.taskComplete ? undefined : decision.history.at(-1),
        } as LoopEnd
      const call = decision.toolCalls[0]
      if (call?.name === STOP_TOOL)
        return { endReason: "stopped", completed: decision.taskComplete } as LoopEnd
      if (call === undefined) {
        if (decision.taskComplete) return { endReason: "completed", completed: true } as LoopEnd
        history.push(`${turn + 1}. (no action)`)
        if (yield* noOp("the policy asked for no action"))
          return { endReason: "no-progress", completed: false } as LoopEnd
        continue
      }
      // Asked to stop while deciding: the decision is dropped, and `resume` decides this turn again.
      if (stopAsked(context)) return STOPPED
      const index = turn
      turn++
      stepStarts(context)
      yield* context.store.saveStep(context.runId, {
        index,
        tool: call.name,
        args: context.redactor.value(call.args),
        ...(decision.part === undefined ? {} : { part: decision.part }),
        successCriteria: [],
        state: "running",
        attempts: 0,
      })
      const urlBefore = context.lastUrl
      // The element as the policy saw it when it chose it: a control an action hides (a dialog's button) is gone after.
      const seenBefore = context.lastSnapshot
      const outcome = yield* executeStep(context, { index, tool: call.name, args: call.args, criteria: [] })
      const evidence = evidenceOf(
        yield* recordPartStep(
          context,
          decision.part,
          call.name,
          outcome,
          urlBefore,
          call.args,
          seenBefore,
          index,
        ),
      )
      // A policy that learns from its steps (the action cache) records a step only once it succeeded.
      if (policy.observeOutcome !== undefined) {
        yield* policy.observeOutcome({
          call,
          ok: outcome.ok,
          changed: outcome.changed,
          url: context.redactor.text(context.lastUrl),
        })
      }
      history.push(
        context.redactor.text(
          historyLine(
            turn,
            call.name,
            call.args,
            outcome.ok,
            outcome.ok ? hintOf(outcome.output) : (outcome.observation.message ?? ""),
          ),
        ),
      )
      // The turn's history lines travel with its step, so `resume` can hand the policy the same memory.
      yield* persistStep(
        context,
        {
          index,
          tool: call.name,
          args: call.args,
          description: JSON.stringify(history.slice(unsaved)),
          ...(decision.part === undefined ? {} : { part: decision.part }),
          successCriteria: [],
          state: outcome.ok ? "succeeded" : "failed",
          attempts: outcome.attempts,
          observation: outcome.observation,
          ...(evidence === undefined ? {} : { evidence }),
        },
        outcome,
      )
      stepEnds(context)
      unsaved = history.length
      if (!outcome.ok && reasonTag(sextantErrorOf(outcome.error)) === "BudgetExceeded")
        return {
          endReason: "max-duration",
          completed: false,
          detail: `the run took longer than maxDurationMs (${context.task.constraints.maxDurationMs} ms): ${call.name} was cut at the deadline`,
        } as LoopEnd
      // The tool threw: a bug in the tool, which asking the policy again cannot mend.
      if (!outcome.ok && outcome.defect !== undefined)
        return {
          endReason: "no-progress",
          completed: false,
          detail: `${call.name} failed and ends the run: ${outcome.observation.message ?? "the tool crashed"}`,
        } as LoopEnd
      // A rejected login or a dead browser: asking the policy again would only submit the same
      // credentials again or fail the same way (`resume` continues a crashed run on a new browser).
      if (!outcome.ok && endsTheRun(sextantErrorOf(outcome.error)))
        return {
          endReason: "no-progress",
          completed: false,
          detail: `${call.name} failed and ends the run: ${outcome.observation.message ?? ""}`,
        } as LoopEnd
      const permanent = outcome.ok ? undefined : permanentFailure(sextantErrorOf(outcome.error))
      if (permanent !== undefined)
        return {
          endReason: "no-progress",
          completed: false,
          detail: `${call.name} cannot succeed on a retry (${permanent}): ${outcome.observation.message ?? ""}`,
        } as LoopEnd
      if (decision.taskComplete) return { endReason: "completed", completed: true } as LoopEnd
      if (outcome.ok && outcome.changed) {
        noOps = 0
      } else if (yield* noOp(outcome.ok ? "the action changed nothing" : "the action failed")) {
        return { endReason: "no-progress", completed: false } as LoopEnd
      }
    }
  })

const fallbackSummary = (history: ReadonlyArray<string>, end: LoopEnd, detail: string): RunSummary => ({
  taskComplete: end.completed,
  summary: `The agent ended (${end.endReason}) after ${history.length} history lines; ${detail}`,
  keyFindings: history.slice(-3),
  nextSuggestions: [],
})

/** The loop of a step-wise run from `firstTurn` on, its summary and its end, in a prepared context. */
const driveAgent = (
  context: RunContext,
  policy: FeedbackStepPolicy,
  history: Array<string>,
  firstTurn: number,
  resumed: boolean,
  lease: LeaseState,
) => {
  const task = context.task
  const run = Effect.gen(function* () {
    context.trace.emit({ type: "run-start", taskId: task.id, goal: task.goal, mode: "agent", resumed })
    context.trace.line(`${resumed ? "resume" : "run"} ${context.runId}: ${task.goal}`)
    yield* context.store.saveRun(runRecord(context))
    yield* moveTo(context, "RUNNING")
    const read = policy.parts?.(task.goal)
    if (read !== undefined) context.partsRead = true
    context.parts = read ?? []
    let startFailed: string | undefined
    if (!resumed && task.startUrl !== undefined && context.options.startPage === "current") {
      // The browser shows the start page already: the run begins on it as it is.
      context.lastUrl = task.startUrl
      context.guardrails.landed(context.lastUrl)
    } else if (!resumed && task.startUrl !== undefined) {
      const refused = context.guardrails.checkUrl(task.startUrl)
      if (refused === undefined) {
        const startUrl = task.startUrl
        const startLeftMs = Math.max(
          0,
          task.constraints.maxDurationMs - (yield* elapsedSince(context.startedAtMillis)),
        )
        // A tab left hung or crashed (by this run's start or an earlier run on the driver) is replaced
        // by a new one first; the start page never outlasts the run's own deadline.
        const opened = yield* Effect.result(
          context.driver.navigate(startUrl).pipe(
            Effect.catchIf(
              (error) =>
                crashedTab(sextantErrorOf(error)) !== undefined && context.driver.recoverTab !== undefined,
              (error) =>
                resumeOnNewTab(context, error).pipe(
                  Effect.mapError((failed) => failed as DriverError),
                  Effect.andThen(context.driver.navigate(startUrl)),
                ),
            ),
            Effect.timeoutOrElse({
              duration: startLeftMs,
              orElse: () =>
                Effect.fail(
                  new DriverError({
                    method: "navigate",
                    reason: new Timeout({
                      operation: `open the start page ${startUrl}`,
                      timeoutMs: startLeftMs,
                    }),
                  }),
                ),
            }),
          ),
        )
        if (opened._tag === "Success") {
          context.lastUrl = opened.success.url
        } else {
          history.push(`0. navigate(${task.startUrl}) -> failed: ${opened.failure.message}`)
          context.trace.line(`start page failed: ${opened.failure.message}`)
          if (permanentFailure(sextantErrorOf(opened.failure)) !== undefined) {
            startFailed = opened.failure.message
            // Opening the start page is a part of its own, so the unmet parts say why nothing else ran.
            const part = context.parts.length
            context.parts = [
              ...context.parts,
              { kind: "navigate", description: `open ${task.startUrl}`, check: { type: "actionsSucceeded" } },
            ]
            context.partSteps.push({
              part,
              tool: "navigate",
              ok: false,
              message: context.redactor.text(opened.failure.message),
              data: undefined,
              signals: [],
              urlBefore: "about:blank",
              urlAfter: "about:blank",
            })
          }
        }
        context.guardrails.landed(context.lastUrl)
      } else {
        history.push(`0. navigate(${task.startUrl}) -> refused: ${refused.message}`)
      }
    }
    const remaining = Math.max(
      0,
      task.constraints.maxDurationMs - (yield* elapsedSince(context.startedAtMillis)),
    )
    const end: LoopEnd =
      startFailed !== undefined
        ? {
            endReason: "no-progress",
            completed: false,
            detail: `the start page ${task.startUrl} cannot be opened: ${startFailed}`,
          }
        : Option.getOrElse(
            yield* untilStopped(context, loop(context, policy, history, firstTurn), () => STOPPED).pipe(
              Effect.timeoutOption(remaining + DEADLINE_BACKSTOP_MS),
            ),
            () => ({
              endReason: "max-duration" as EndReason,
              completed: false,
              detail: `the run took longer than maxDurationMs (${task.constraints.maxDurationMs} ms)`,
            }),
          )
    if (end.endReason === "cancelled") {
      // Stopped on request between turns: no summary call to the model, the run ends now.
      return yield* finishRun(
        context,
        "CANCELLED",
        "cancelled",
        fallbackSummary(history, end, end.detail ?? "the run was asked to stop"),
      )
    }
    if (context.state === "WAITING") yield* moveTo(context, "RUNNING")
    const summarized = yield* Effect.result(
      policy.summarize({
        goal: context.redactor.text(task.goal),
        history: context.redactor.value([...history]),
        url: context.redactor.text(context.lastUrl),
        outline:
          context.lastSnapshot === undefined ? undefined : context.redactor.text(context.lastSnapshot.tree),
      }),
    )
    let summary: RunSummary
    if (summarized._tag === "Success") {
      if (yield* countModelCalls(context.tally, summarized.success.usage, summarized.success.modelCalls)) {
        context.trace.emit({ type: "llm-call", purpose: "summarize", tokens: summarized.success.usage })
      }
      const parsed = RunSummary.safeParse(summarized.success)
      summary = parsed.success
        ? parsed.data
        : fallbackSummary(
            history,
            end,
            `the policy's summary did not fit the schema: ${parsed.error.issues[0]?.message ?? ""}`,
          )
    } else {
      summary = fallbackSummary(
        history,
        end,
        `the summary could not be written: ${summarized.failure.message}`,
      )
    }
    // A goal the policy could not read whole, nor on the page, may still hold clauses it reads ("log in"
    // in "log in and then tell me what the page says"): those are checked; the rest is the policy's word.
    const readClause = policy.parts === undefined ? undefined : policy.parts.bind(policy)
    if (!context.partsRead && context.parts.length === 0 && readClause !== undefined)
      context.parts = goalPartsByClause(task.goal, readClause) ?? []
    // Stopping or closing is success only when the policy says the goal is done; then every part's
    // check must hold as well.
    const ended = end.completed && ["completed", "stopped", "closed"].includes(end.endReason)
    return yield* concludeRun(
      context,
      {
        ok: ended,
        endReason: end.endReason,
        detail: context.redactor.text(end.detail ?? (ended ? "" : summary.summary)),
      },
      context.redactor.value(summary),
      // A policy that read the goal into parts (from its words or on the page) and found none has
      // nothing the page can confirm. One that could not read it at all (a model's policy on a goal
      // the rules cannot parse) is judged by its own end, as `StepPolicyShape.parts` says.
      { requireParts: context.partsRead },
    )
  })
  return run.pipe(
    withTabOrigins(context),
    Effect.ensuring(closeRunScope(context)),
    Effect.onInterrupt(() =>
      // A run taken over by another process is theirs to finish: writing CANCELLED would clobber it.
      lease.lost
        ? Effect.void
        : finishRun(
            context,
            "CANCELLED",
            "cancelled",
            fallbackSummary(history, { endReason: "cancelled", completed: false }, "the run was interrupted"),
          ).pipe(Effect.ignore),
    ),
  )
}

/**
 * Runs a step-wise agent: each turn it looks at the page, asks the policy for one tool call (or a stop),
 * runs only the first call with the same guardrails, timeouts and retries as a plan step, and appends a
 * history line. It ends on an explicit `stop`, `taskComplete`, `method: "close"`, consecutive no-ops
 * (`maxConsecutiveNoOps`, with backoff between), consecutive failed decisions
 * (`maxConsecutiveGenerationErrors`), `maxSteps` or `maxDurationMs`; then the policy writes the summary,
 * validated against the core `RunSummary` schema.
 *
 * @example
 * ```ts
 * import { runAgent } from "@sextant/executor"
 * const result = yield* runAgent(task, policy, { tools })
 * result.endReason // "completed"
 * ```
 */
export const runAgent = Effect.fn("Executor.runAgent")(function* (
  task: AgentTask,
  policy: FeedbackStepPolicy,
  options: ExecutorOptions,
) {
  const context = yield* makeRunContext(task, "agent", options)
  // The row must exist before its lease can be claimed.
  yield* context.store.saveRun(runRecord(context))
  return yield* withRunLease(context.store, context.runId, options, (lease) =>
    driveAgent(context, policy, [], 0, false, lease),
  )
}) as (
  task: AgentTask,
  policy: FeedbackStepPolicy,
  options: ExecutorOptions,
) => Effect.Effect<ExecutorRunResult, AgentError | StoreError, BrowserDriver | Store>

/**
 * Continues a step-wise run whose process died or that was stopped or interrupted (CANCELLED): the page
 * it was on is loaded again, the policy gets the
 * history of the turns that finished, and the loop goes on from the first unfinished turn (the turn in
 * flight at the crash is decided again; finished turns are not repeated).
 *
 * @example
 * ```ts
 * import { resumeAgent } from "@sextant/executor"
 * const result = yield* resumeAgent("run-7", policy, { tools, secrets: { password } })
 * ```
 */
export const resumeAgent = Effect.fn("Executor.resumeAgent")(function* (
  runId: string,
  policy: FeedbackStepPolicy,
  options: Omit<ExecutorOptions, "runId"> & {
    readonly secrets?: Readonly<Record<string, string>> | undefined
  },
) {
  const store = yield* Store
  // The lease first, then the record: a run another process is advancing is refused, and one that
  // finished while this process waited answers its result instead of running again.
  return yield* withRunLease(store, runId, options, (lease) =>
    Effect.gen(function* () {
      const record = yield* store.getRun(runId)
      if (isFinished(record)) return record.result as ExecutorRunResult
      const { context, steps } = yield* restoreRun(record, "agent", options)
      // The turn in flight is decided again, unless its click or submission may have reached the site.
      const doubt = stepInDoubt(steps, context.registry)
      if (doubt !== undefined)
        return yield* endInDoubt(context, doubt, inDoubtDetail(doubt)).pipe(
          Effect.ensuring(closeRunScope(context)),
        )
      const finished = steps.filter((step) => step.state === "succeeded" || step.state === "failed")
      const history = finished.flatMap((step) => {
        try {
          const lines = JSON.parse(step.description ?? "[]") as unknown
          return Array.isArray(lines) ? lines.filter((line): line is string => typeof line === "string") : []
        } catch {
          return []
        }
      })
      let before = "about:blank"
      for (const step of finished) {
        if (step.observation === undefined) continue
        context.partSteps.push(
          withStoredEvidence(
            partStepOf(step.part, step.tool, step.observation, before, undefined, step.args, step.index),
            step.evidence,
          ),
        )
        before = step.observation.url ?? before
      }
      return yield* driveAgent(context, policy, history, finished.length, true, lease)
    }),
  )
}) as (
  runId: string,
  policy: FeedbackStepPolicy,
  options: Omit<ExecutorOptions, "runId"> & {
    readonly secrets?: Readonly<Record<string, string>> | undefined
  },
) => Effect.Effect<ExecutorRunResult, AgentError | StoreError, BrowserDriver | Store>

import {
  type AgentError,
  type RunResult,
  type RunSummary,
  type StoreError,
  type TaskState,
  transition,
} from "@sextant/core"
import { Clock, Effect } from "effect"
import { finishMetrics } from "../Metrics.ts"
import type { EndReason } from "../Trace.ts"
import { type RunContext, runRecord } from "./RunContext.ts"

/** A finished run: the core `RunResult` plus how it ended and where its transcript is. */
export interface ExecutorRunResult extends RunResult {
  readonly runId: string
  readonly endReason: EndReason
  readonly transcriptPath?: string | undefined
}

/** The run's output: the records it extracted (from the store, so a resumed run has them all), else the last good tool output. */
export const runOutput = (context: RunContext) =>
  Effect.gen(function* () {
    const records = yield* context.store.listRecords(context.runId)
    if (records.length > 0) return records.map((record) => record.data)
    const observations = yield* context.store.listObservations(context.runId)
    return observations.filter((observation) => observation.ok).at(-1)?.data
  })

/**
 * Ends a run: final state, metrics, the result saved with the run, and the run-end event. Runs even
 * after an interruption (as a finalizer) so the store always says how a run ended.
 */
export const finishRun = (
  context: RunContext,
  status: Extract<TaskState, "COMPLETED" | "FAILED" | "CANCELLED">,
  endReason: EndReason,
  summary: RunSummary,
): Effect.Effect<ExecutorRunResult, StoreError | AgentError> =>
  Effect.gen(function* () {
    const now = yield* Clock.currentTimeMillis
    const durationMs = Math.max(0, now - context.startedAtMillis)
    context.state = yield* transition(context.state, status)
    const metrics = yield* finishMetrics(
      context.tally,
      status === "COMPLETED" && summary.taskComplete,
      durationMs,
    )
    const output = yield* runOutput(context)
    const observations = yield* context.store.listObservations(context.runId)
    const result: ExecutorRunResult = context.redactor.value({
      taskId: context.task.id,
      runId: context.runId,
      status,
      output,
      plan: context.plan,
      observations: [...observations],
      metrics,
      summary,
      tracePath: context.trace.tracePath,
      transcriptPath: context.trace.transcriptPath,
      endReason,
    })
    yield* context.store.saveRun(runRecord(context, result))
    context.trace.line(
      `run ${status.toLowerCase()} (${endReason}) after ${metrics.steps} steps in ${durationMs} ms`,
    )
    context.trace.emit({ type: "run-end", status, endReason, metrics })
    return result
  })

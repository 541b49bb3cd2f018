import type { RunMetrics, TokenUsage } from "@sextant/core"
import { Effect, Metric } from "effect"

/**
 * The executor's Effect metrics, updated as runs go. Read them with `Metric.value` or export them with
 * any Effect metrics exporter.
 *
 * @example
 * ```ts
 * import { Effect, Metric } from "effect"
 * import { ExecutorMetrics } from "@sextant/executor"
 * const steps = yield* Metric.value(ExecutorMetrics.steps) // { count: 12, … }
 * ```
 */
export const ExecutorMetrics = {
  runs: Metric.counter("sextant_runs_total", { description: "Runs finished", incremental: true }),
  runsSucceeded: Metric.counter("sextant_runs_succeeded_total", {
    description: "Runs that completed their task",
    incremental: true,
  }),
  steps: Metric.counter("sextant_steps_total", { description: "Steps executed", incremental: true }),
  retries: Metric.counter("sextant_retries_total", { description: "Step retries", incremental: true }),
  replans: Metric.counter("sextant_replans_total", {
    description: "Replans asked of the planner",
    incremental: true,
  }),
  llmCalls: Metric.counter("sextant_llm_calls_total", { description: "Model calls", incremental: true }),
  tokens: Metric.counter("sextant_llm_tokens_total", {
    description: "Model tokens, prompt and completion",
    incremental: true,
  }),
  guardrailViolations: Metric.counter("sextant_guardrail_violations_total", {
    description: "Steps refused by a guardrail",
    incremental: true,
  }),
  stepDuration: Metric.histogram("sextant_step_duration_ms", {
    description: "Step duration in milliseconds",
    boundaries: Metric.exponentialBoundaries({ start: 5, factor: 2, count: 14 }),
  }),
  runDuration: Metric.histogram("sextant_run_duration_ms", {
    description: "Run duration in milliseconds",
    boundaries: Metric.exponentialBoundaries({ start: 50, factor: 2, count: 16 }),
  }),
} as const

/** The counts of one run, kept alongside the global metrics for its `RunResult`. */
export interface RunTally {
  steps: number
  retries: number
  replans: number
  llmCalls: number
  tokens: { prompt: number; completion: number; total: number }
}

export const makeTally = (): RunTally => ({
  steps: 0,
  retries: 0,
  replans: 0,
  llmCalls: 0,
  tokens: { prompt: 0, completion: 0, total: 0 },
})

/** Counts one step in the run and in the Effect metrics. */
export const countStep = (tally: RunTally, durationMs: number) =>
  Effect.gen(function* () {
    tally.steps++
    yield* Metric.update(ExecutorMetrics.steps, 1)
    yield* Metric.update(ExecutorMetrics.stepDuration, durationMs)
  })

export const countRetry = (tally: RunTally) =>
  Effect.suspend(() => {
    tally.retries++
    return Metric.update(ExecutorMetrics.retries, 1)
  })

export const countReplan = (tally: RunTally) =>
  Effect.suspend(() => {
    tally.replans++
    return Metric.update(ExecutorMetrics.replans, 1)
  })

/** Counts one model call (a decision, a summary, a plan) with its tokens; zero-token calls are rule-based and not counted. */
export const countLlmCall = (tally: RunTally, usage: TokenUsage) =>
  Effect.gen(function* () {
    if (usage.total === 0 && usage.prompt === 0 && usage.completion === 0) return false
    tally.llmCalls++
    tally.tokens.prompt += usage.prompt
    tally.tokens.completion += usage.completion
    tally.tokens.total += usage.total
    yield* Metric.update(ExecutorMetrics.llmCalls, 1)
    yield* Metric.update(ExecutorMetrics.tokens, usage.total)
    return true
  })

/**
 * Counts the model requests of one decision or summary: `modelCalls` when the policy reports it (a
 * request that reached the endpoint counts even when it reported no token usage), else one call when
 * tokens were used.
 */
export const countModelCalls = (tally: RunTally, usage: TokenUsage, modelCalls: number | undefined) =>
  Effect.gen(function* () {
    const calls = modelCalls ?? (usage.total === 0 && usage.prompt === 0 && usage.completion === 0 ? 0 : 1)
    if (calls <= 0) return false
    tally.llmCalls += calls
    tally.tokens.prompt += usage.prompt
    tally.tokens.completion += usage.completion
    tally.tokens.total += usage.total
    yield* Metric.update(ExecutorMetrics.llmCalls, calls)
    yield* Metric.update(ExecutorMetrics.tokens, usage.total)
    return true
  })

/** The `RunMetrics` of a finished run. */
export const finishMetrics = (tally: RunTally, success: boolean, durationMs: number) =>
  Effect.gen(function* () {
    yield* Metric.update(ExecutorMetrics.runs, 1)
    if (success) yield* Metric.update(ExecutorMetrics.runsSucceeded, 1)
    yield* Metric.update(ExecutorMetrics.runDuration, durationMs)
    const metrics: RunMetrics = {
      success,
      steps: tally.steps,
      retries: tally.retries,
      replans: tally.replans,
      durationMs,
      llmCalls: tally.llmCalls,
      tokens: { ...tally.tokens },
    }
    return metrics
  })

import type { PageSnapshot } from "@sextant/core"
import type { Effect } from "effect"
import type { StepPolicyShape, ToolCall } from "../Planner.ts"

/** How the call a policy asked for went, as the executor saw it. */
export interface StepOutcome {
  /** The call that ran (the first call of the last decision), with the arguments the policy gave. */
  readonly call: ToolCall
  /** Whether the step succeeded (after the executor's retries). */
  readonly ok: boolean
  /** Whether the page changed. */
  readonly changed: boolean
  /** The page URL after the step. */
  readonly url: string
}

/**
 * Optional hooks a step policy may have so the runner tells it what it cannot see in `DecideInput`:
 * the whole `look()` the next decision is made on, and whether the call it asked for succeeded.
 * `runAgent` in `@sextant/executor` calls them when present; a policy without them works as before.
 *
 * @example
 * ```ts
 * import type { StepFeedback } from "@sextant/planner"
 * const feedback: StepFeedback = {
 *   observeLook: (snapshot) => Effect.sync(() => (latest = snapshot)),
 *   observeOutcome: (outcome) => Effect.log(`${outcome.call.name} ${outcome.ok ? "ok" : "failed"}`),
 * }
 * ```
 */
export interface StepFeedback {
  /** Called after each successful `look()`, right before `decide` on the same page. */
  readonly observeLook?: ((snapshot: PageSnapshot) => Effect.Effect<void>) | undefined
  /** Called after the step a decision asked for has run, whether it succeeded or not. */
  readonly observeOutcome?: ((outcome: StepOutcome) => Effect.Effect<void>) | undefined
}

/** A step policy that may listen to `StepFeedback`. */
export type FeedbackStepPolicy = StepPolicyShape & StepFeedback

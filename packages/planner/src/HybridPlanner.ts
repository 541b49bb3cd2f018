import type { AgentTask, Plan, ToolRegistry } from "@sextant/core"
import { Effect, Layer } from "effect"
import {
  type PlanContext,
  Planner,
  type PlannerError,
  type PlannerShape,
  type ReplanMode,
  type StepFailure,
} from "./Planner.ts"
import { type GuardRule, validatePlanForTask } from "./Validator.ts"

/** Options of the hybrid planner. */
export interface HybridPlannerOptions {
  /** Tried first (usually `RulePlanner`); its refusal (or a plan the validator refuses) hands the goal to `model`. */
  readonly rules: PlannerShape
  /** Asked when the rules refuse the goal and for every replan (usually the LLM planner). */
  readonly model: PlannerShape
  readonly registry: ToolRegistry
  /** Guard rules for the validator (default: the login guard). */
  readonly guards?: ReadonlyArray<GuardRule>
}

/** The rules refused the goal, or the validator refused the rules' plan: the model gets the goal. */
const rulesRefused = (error: PlannerError): boolean =>
  error._tag === "AgentError" && (error.reason._tag === "CannotPlan" || error.reason._tag === "PlanRejected")

/**
 * Rules first, the model whenever the rules refuse or their plan fails, the validator always.
 *
 * `plan` asks `rules` and validates their plan; an `AgentError` with `CannotPlan` (the grammar does not
 * read the goal) or `PlanRejected` (the validator refused the rule plan) sends the goal to `model`, with
 * the same context (the start page's outline, which the executor opens first: `readsPage`). Any other
 * error is returned as it is. `replan` always asks `model`: a plan that failed while running would only
 * come back the same from the rules. Whatever planner answered, the plan goes through `validatePlan`
 * with the task's constraints. `usage` is the model planner's.
 *
 * @example
 * ```ts
 * import { Effect } from "effect"
 * import { makeHybridPlanner, makeLlmPlanner } from "@sextant/planner"
 * const program = Effect.gen(function* () {
 *   const model = yield* makeLlmPlanner({ registry })
 *   const planner = makeHybridPlanner({ rules: rulePlanner, model, registry })
 *   return yield* planner.plan(task)
 * })
 * ```
 */
export const makeHybridPlanner = (options: HybridPlannerOptions): PlannerShape => {
  const validate = (task: AgentTask, plan: Plan) =>
    validatePlanForTask(task, plan, {
      registry: options.registry,
      ...(options.guards === undefined ? {} : { guards: options.guards }),
    })

  return {
    plan: (task, context?: PlanContext) =>
      options.rules.plan(task, context).pipe(
        Effect.flatMap((plan) => validate(task, plan)),
        Effect.catch((error: PlannerError) =>
          rulesRefused(error)
            ? options.model.plan(task, context).pipe(Effect.flatMap((plan) => validate(task, plan)))
            : Effect.fail(error),
        ),
        Effect.withSpan("HybridPlanner.plan"),
      ),
    // A rule plan that failed while running: the rules would give the same steps again, so the model
    // plans the rest from the page the run is on.
    replan: (task, plan, failure: StepFailure, mode: ReplanMode, context?: PlanContext) =>
      options.model.replan(task, plan, failure, mode, context).pipe(
        Effect.flatMap((next) => validate(task, next)),
        Effect.withSpan("HybridPlanner.replan"),
      ),
    usage: options.model.usage,
    readsPage: options.model.readsPage,
    view: options.model.view,
  }
}

/** The hybrid planner as the `Planner` service. */
export const hybridPlannerLayer = (options: HybridPlannerOptions): Layer.Layer<Planner> =>
  Layer.succeed(Planner, makeHybridPlanner(options))

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
  /** Tried first (usually `RulePlanner`); its `CannotPlan` hands the goal to `model`. */
  readonly rules: PlannerShape
  /** Asked when the rules cannot handle the goal (usually the LLM planner). */
  readonly model: PlannerShape
  readonly registry: ToolRegistry
  /** Guard rules for the validator (default: the login guard). */
  readonly guards?: ReadonlyArray<GuardRule>
}

const isCannotPlan = (error: PlannerError): boolean =>
  error._tag === "AgentError" && error.reason._tag === "CannotPlan"

/**
 * Rules first, the model when the rules cannot handle the goal, the validator always.
 *
 * `plan` asks `rules`; only an `AgentError`/`CannotPlan` from them sends the goal to `model` (any other
 * error is returned as it is). `replan` does the same. Whatever planner answered, the plan goes through
 * `validatePlan` with the task's constraints. `usage` is the model planner's.
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

  const firstRulesThenModel = <E extends PlannerError>(
    fromRules: Effect.Effect<Plan, E>,
    fromModel: () => Effect.Effect<Plan, PlannerError>,
  ): Effect.Effect<Plan, PlannerError> =>
    Effect.catch(fromRules, (error: PlannerError) => (isCannotPlan(error) ? fromModel() : Effect.fail(error)))

  return {
    plan: (task, context?: PlanContext) =>
      firstRulesThenModel(options.rules.plan(task, context), () => options.model.plan(task, context)).pipe(
        Effect.flatMap((plan) => validate(task, plan)),
        Effect.withSpan("HybridPlanner.plan"),
      ),
    replan: (task, plan, failure: StepFailure, mode: ReplanMode, context?: PlanContext) =>
      firstRulesThenModel(options.rules.replan(task, plan, failure, mode, context), () =>
        options.model.replan(task, plan, failure, mode, context),
      ).pipe(
        Effect.flatMap((next) => validate(task, next)),
        Effect.withSpan("HybridPlanner.replan"),
      ),
    usage: options.model.usage,
  }
}

/** The hybrid planner as the `Planner` service. */
export const hybridPlannerLayer = (options: HybridPlannerOptions): Layer.Layer<Planner> =>
  Layer.succeed(Planner, makeHybridPlanner(options))

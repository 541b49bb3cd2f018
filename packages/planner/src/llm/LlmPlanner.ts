import {
  AgentError,
  type AgentTask,
  CannotPlan,
  type ChatMessage,
  GoalPart,
  generateObject,
  LanguageModel,
  type Plan,
  type Step,
  type TaskConstraints,
  type ToolGroup,
  type ToolRegistry,
} from "@sextant/core"
import { Effect, Layer, Ref } from "effect"
import { z } from "zod"
import { checkLimits } from "../internal/Limits.ts"
import { addUsage, noUsage } from "../internal/Usage.ts"
import {
  type ModelUsage,
  type PlanContext,
  Planner,
  type PlannerShape,
  type ReplanMode,
  type StepFailure,
} from "../Planner.ts"
import { type GuardRule, validatePlanForTask } from "../Validator.ts"
import { DEFAULT_VIEW_TOKENS } from "./LlmStepPolicy.ts"
import { cut, planInstructions, renderInputs } from "./Prompts.ts"
import { catalogFor } from "./ToolListing.ts"

/** The shape the model answers in plan mode. */
export const PlanAnswer = z.object({
  /** The goal's parts with their checks, when the model states them (validated like the steps). */
  parts: z.array(GoalPart).optional(),
  steps: z.array(
    z.object({
      tool: z.string().min(1),
      args: z.record(z.string(), z.unknown()).default({}),
      description: z.string().optional(),
      /** The index in `parts` of the part this step works on. */
      part: z.number().int().nonnegative().optional(),
    }),
  ),
})
export type PlanAnswer = z.output<typeof PlanAnswer>

/** Options of the model-backed planner. */
export interface LlmPlannerOptions {
  readonly registry: ToolRegistry
  /** Guard rules for the validator (default: the login guard). */
  readonly guards?: ReadonlyArray<GuardRule>
  /**
   * Tokens (o200k) of the page view the planner asks the executor for (default 1200): every element
   * with a ref is kept, text is left out by priority with a line naming the look that shows it.
   */
  readonly viewTokens?: number
  /** A last cut of the outline to this many characters (none by default: a cut drops refs). */
  readonly maxOutlineChars?: number
  /** Upper bound on the answer's tokens (default 1500). */
  readonly maxTokens?: number
  /**
   * Tool groups listed in every plan prompt beside `core` and those the task needs (`toolGroupsFor`);
   * `"all"` lists every tool. A registered tool the plan names is accepted whether listed or not.
   */
  readonly toolGroups?: ReadonlyArray<ToolGroup> | "all"
  /** Tools listed in every plan prompt by name, whatever their group. */
  readonly alwaysListed?: ReadonlyArray<string>
}

const describeFailure = (failure: StepFailure): string =>
  typeof failure.error === "string" ? failure.error : `${failure.error.reason}: ${failure.error.message}`

const renderStep = (step: Step): string =>
  `${step.index}. ${step.tool} ${JSON.stringify(step.args)}${step.state === "pending" ? "" : ` (${step.state})`}`

/**
 * Builds the model-backed planner: a system prompt with the role, the task's constraints and the tool
 * catalog (the `core` tools and the groups the task needs on its current page, see `toolGroupsFor`); a user message with the goal, start URL, inputs (secrets as
 * `<secret:name>` placeholders), recent observations and the page outline; the answer
 * `{ steps: [{ tool, args }] }` read with `generateObject` and then checked by `validatePlan`, which
 * trims what breaks a rule. An empty answer fails with `CannotPlan`.
 *
 * `usage` reports the calls and tokens of every plan and replan so far.
 *
 * @example
 * ```ts
 * import { Effect } from "effect"
 * import { makeLlmPlanner } from "@sextant/planner"
 * const program = Effect.gen(function* () {
 *   const planner = yield* makeLlmPlanner({ registry })
 *   const plan = yield* planner.plan(task, { observations: history.join("\n") })
 *   const { tokens } = yield* planner.usage!
 * })
 * ```
 */
export const makeLlmPlanner = Effect.fn("LlmPlanner.make")(function* (options: LlmPlannerOptions) {
  yield* checkLimits("LLM planner", options)
  const model = yield* LanguageModel
  const usage = yield* Ref.make<ModelUsage>({ calls: 0, tokens: noUsage })
  const viewTokens = options.viewTokens ?? DEFAULT_VIEW_TOKENS
  // The catalog lists core tools and the groups the task needs on the page the plan starts from.
  const catalogOf = (task: AgentTask, context: PlanContext | undefined) =>
    catalogFor(
      options.registry,
      {
        goal: task.goal,
        outline: context?.snapshot?.tree,
        inputs: task.inputs,
        constraints: task.constraints,
        asked: options.toolGroups,
      },
      options.alwaysListed,
    )

  const contextLines = (task: AgentTask, context: PlanContext | undefined): Array<string> => {
    const lines = [`Goal: ${task.goal}`]
    if (task.startUrl !== undefined) lines.push(`Start URL: ${task.startUrl}`)
    const inputs = renderInputs(task)
    if (inputs !== "") lines.push("Inputs:", inputs)
    if (context?.observations !== undefined && context.observations.trim() !== "") {
      lines.push("Recent observations:", context.observations.trim())
    }
    if (context?.snapshot !== undefined) {
      lines.push(`Current page: ${context.snapshot.url} "${context.snapshot.title}"`)
      const tree = context.snapshot.tree
      lines.push(options.maxOutlineChars === undefined ? tree : cut(tree, options.maxOutlineChars))
    }
    return lines
  }

  const ask = (task: AgentTask, constraints: TaskConstraints, user: string, catalog: string) =>
    Effect.gen(function* () {
      const messages: ReadonlyArray<ChatMessage> = [
        { role: "system", content: planInstructions(catalog, constraints) },
        { role: "user", content: user },
      ]
      const { object, response } = yield* generateObject(model, {
        schema: PlanAnswer,
        messages,
        name: "plan",
        temperature: 0,
        maxTokens: options.maxTokens ?? 1500,
      }).pipe(
        // A request that reached the endpoint counts as a call even when its answer is unusable.
        Effect.tapError((error) =>
          error.reason._tag === "LlmTransport" || error.reason._tag === "LlmCancelled"
            ? Effect.void
            : Ref.update(usage, (current) => ({ ...current, calls: current.calls + 1 })),
        ),
      )
      yield* Ref.update(usage, (current) => ({
        calls: current.calls + 1,
        tokens: addUsage(current.tokens, response.usage),
      }))
      if (object.steps.length === 0) {
        return yield* new AgentError({
          reason: new CannotPlan({
            detail: `the model found no steps for "${task.goal}" with the tools available`,
          }),
        })
      }
      return object
    })

  const finish = (task: AgentTask, plan: Plan) =>
    validatePlanForTask(task, plan, {
      registry: options.registry,
      ...(options.guards === undefined ? {} : { guards: options.guards }),
    })

  const toSteps = (answer: PlanAnswer["steps"], offset: number): Array<Step> =>
    answer.map((step, position) => ({
      index: offset + position,
      tool: step.tool,
      args: step.args,
      ...(step.description === undefined ? {} : { description: step.description }),
      ...(step.part === undefined ? {} : { part: step.part }),
      successCriteria: [],
      state: "pending" as const,
      attempts: 0,
    }))

  const plan = (task: AgentTask, context?: PlanContext) =>
    Effect.gen(function* () {
      const answer = yield* ask(
        task,
        task.constraints,
        contextLines(task, context).join("\n"),
        catalogOf(task, context),
      )
      return yield* finish(task, {
        taskId: task.id,
        revision: 0,
        status: "draft",
        ...(answer.parts === undefined ? {} : { parts: answer.parts }),
        steps: toSteps(answer.steps, 0),
      })
    }).pipe(Effect.withSpan("LlmPlanner.plan"))

  const replan = (
    task: AgentTask,
    previous: Plan,
    failure: StepFailure,
    mode: ReplanMode,
    context?: PlanContext,
  ) =>
    Effect.gen(function* () {
      const failed = previous.steps[failure.stepIndex]
      const lines = contextLines(task, context)
      const kept = mode === "partial" ? previous.steps.slice(0, failure.stepIndex) : []
      const failedLine = failed === undefined ? `step ${failure.stepIndex}` : renderStep(failed)
      if (mode === "partial") {
        lines.push(
          "Steps already done (keep them, do not repeat them):",
          kept.length === 0 ? "(none)" : kept.map(renderStep).join("\n"),
          `This step failed: ${failedLine}: ${describeFailure(failure)}`,
          "Plan only the remaining steps, starting from the current page, another way than the failed step.",
        )
      } else {
        lines.push(
          "The previous plan failed:",
          previous.steps.map(renderStep).join("\n"),
          `Failed at: ${failedLine}: ${describeFailure(failure)}`,
          "Plan the whole task again from the current page, another way.",
        )
      }
      // Steps already done count against maxSteps, so the model gets what is left of the budget.
      const remaining = {
        ...task.constraints,
        maxSteps: Math.max(1, task.constraints.maxSteps - kept.length),
      }
      const answer = yield* ask(task, remaining, lines.join("\n"), catalogOf(task, context))
      const parts = answer.parts ?? previous.parts
      return yield* finish(task, {
        taskId: task.id,
        revision: previous.revision + 1,
        status: "draft",
        ...(parts === undefined ? {} : { parts }),
        steps: [...kept, ...toSteps(answer.steps, kept.length)],
      })
    }).pipe(Effect.withSpan("LlmPlanner.replan"))

  const shape: PlannerShape = {
    plan,
    replan,
    usage: Ref.get(usage),
    readsPage: true,
    view: { budget: viewTokens },
  }
  return shape
})

/**
 * The model-backed planner as the `Planner` service.
 *
 * @example
 * ```ts
 * import { Layer } from "effect"
 * import { OpenAiLanguageModel } from "@sextant/openai"
 * import { llmPlannerLayer } from "@sextant/planner"
 * const PlannerLive = llmPlannerLayer({ registry }).pipe(Layer.provide(OpenAiLanguageModel.layer({ apiKey, model: "gpt-4o-mini" })))
 * ```
 */
export const llmPlannerLayer = (options: LlmPlannerOptions): Layer.Layer<Planner, never, LanguageModel> =>
  Layer.effect(Planner, makeLlmPlanner(options))

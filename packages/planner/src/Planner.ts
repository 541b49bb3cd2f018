import type {
  AgentError,
  AgentTask,
  GoalPart,
  LlmError,
  LookOptions,
  ObservedError,
  PageElement,
  PageSnapshot,
  Plan,
  RunSummary,
  TaskConstraints,
  TokenUsage,
} from "@sextant/core"
import { Context, type Effect } from "effect"
import { z } from "zod"

// ---------------------------------------------------------------------------------------------------
// Plan mode

/** What a planner may know besides the task: recent observations and the page the agent is on. */
export interface PlanContext {
  /** Recent observations as memory renders them (history lines, newest last). */
  readonly observations?: string | undefined
  /** The page the agent is on, when one is open. */
  readonly snapshot?: PageSnapshot | undefined
}

/** Why a plan needs to change: the step that failed and how. */
export interface StepFailure {
  /** Index of the failed step in the plan. */
  readonly stepIndex: number
  /** The typed error as observed (`observeError` in core), or a message in words. */
  readonly error: ObservedError | string
  /** How many times the step was tried. */
  readonly attempts?: number | undefined
}

/**
 * `partial` keeps the steps that succeeded and plans again from the failed step; `full` plans the
 * whole task again from the current page.
 */
export type ReplanMode = "partial" | "full"

/** Tokens and calls a model-backed component has used so far. */
export interface ModelUsage {
  readonly calls: number
  readonly tokens: TokenUsage
}

/** Every error a planner fails with: `AgentError` (`CannotPlan`, `PlanRejected`) or the model's `LlmError`. */
export type PlannerError = AgentError | LlmError

/**
 * A planner turns a task into a `Plan`, and a failed plan into a new one.
 *
 * - `plan` fails with `AgentError` whose reason is `CannotPlan` when the planner does not know how to
 *   handle the goal (the rule planner does this for goals outside its templates; the hybrid planner
 *   then asks the model).
 * - `replan` returns a plan with `revision` one higher. In `partial` mode the steps before
 *   `failure.stepIndex` are kept as they were; in `full` mode every step is new.
 * - `usage`, when present, reports the model tokens used so far (planners without a model omit it).
 *
 * Implemented by `RulePlanner`, `LlmPlanner` and `HybridPlanner`; the executor asks for the `Planner`
 * service.
 *
 * @example
 * ```ts
 * import { Effect } from "effect"
 * import { Planner } from "@sextant/planner"
 * const program = Effect.gen(function* () {
 *   const planner = yield* Planner
 *   const plan = yield* planner.plan(task, { observations: "navigate ok http://127.0.0.1:4000/" })
 *   return plan.steps.map((step) => step.tool)
 * })
 * ```
 */
export interface PlannerShape {
  readonly plan: (task: AgentTask, context?: PlanContext) => Effect.Effect<Plan, PlannerError>
  readonly replan: (
    task: AgentTask,
    plan: Plan,
    failure: StepFailure,
    mode: ReplanMode,
    context?: PlanContext,
  ) => Effect.Effect<Plan, PlannerError>
  readonly usage?: Effect.Effect<ModelUsage> | undefined
  /**
   * The look whose snapshot a planner that reads the page plans on (`PlanContext.snapshot`): the model
   * planner asks for a view within a token budget that keeps every ref. Unset: the interactive view.
   */
  readonly view?: LookOptions | undefined
  /**
   * The planner reads the page it plans for: the executor opens the task's start URL first and passes
   * that page (`PlanContext.snapshot`) to `plan`, so a model plans on the page's outline, not on
   * `about:blank`. Unset for the rule planner, which plans from the goal's words alone.
   */
  readonly readsPage?: boolean | undefined
}

/** The `Planner` service. */
export class Planner extends Context.Service<Planner, PlannerShape>()("@sextant/planner/Planner") {}

// ---------------------------------------------------------------------------------------------------
// Step-wise mode

/** One tool call a policy asks for. */
export interface ToolCall {
  readonly name: string
  readonly args: Record<string, unknown>
}

/** What a step policy sees on one turn. */
export interface DecideInput {
  readonly goal: string
  /** The current page URL. */
  readonly url: string
  /** The page outline of the policy's look (`PageSnapshot.tree` of `look(policy.view)`). */
  readonly outline: string
  /** History lines, oldest first; a policy uses at most the last 8. */
  readonly history: ReadonlyArray<string>
  /** A screenshot as a data URL (`data:image/png;base64,…`), sent only to models that take images. */
  readonly screenshot?: string | undefined
  /**
   * The task's inputs (`AgentTask.inputs`), each secret value as its `<secret:name>` placeholder (the
   * executor puts the value back for the tool only), so a goal such as "log in" can use them.
   */
  readonly inputs?: Readonly<Record<string, unknown>> | undefined
  /**
   * The task's constraints: a model-backed policy lists the file tools only when they allow an upload
   * folder, and the tool groups `toolGroups` asks for.
   */
  readonly constraints?: TaskConstraints | undefined
}

/**
 * What a step policy decided.
 *
 * - `toolCalls` in the order the model gave them; the executor runs ONLY the first. An empty list is a
 *   no-op turn (it counts against the consecutive no-op budget).
 * - `taskComplete: true` means the goal is reached: run the first call (if any), then stop.
 * - `method: "close"` means stop now and close the session, whatever `toolCalls` holds.
 * - `history` holds lines the policy wants added to memory (`skip unknown tool 'xyz'`, …).
 * - `usage` is the token use of this decision (every model call it made, summed).
 */
export interface StepDecision {
  readonly toolCalls: ReadonlyArray<ToolCall>
  readonly taskComplete: boolean
  readonly method?: "close" | undefined
  readonly history: ReadonlyArray<string>
  readonly usage: TokenUsage
  /** The goal part (index in the policy's `parts`) this turn works on, so the executor can check it. */
  readonly part?: number | undefined
  /** Model requests this decision sent to the endpoint (counted even when it reported no usage). */
  readonly modelCalls?: number | undefined
  /**
   * The goal's parts as the policy read them on the page, when `parts(goal)` could not read them from
   * the words alone ("Print the page": which control is meant is the page's to say). The executor
   * checks these parts after the run as it would the ones `parts` gives.
   */
  readonly parts?: ReadonlyArray<GoalPart> | undefined
}

/** What `summarize` sees at the end of a step-wise run. */
export interface SummarizeInput {
  readonly goal: string
  readonly history: ReadonlyArray<string>
  readonly url?: string | undefined
  readonly outline?: string | undefined
}

/** The run's summary (core `RunSummary`) plus the tokens spent writing it. */
export type SummaryDecision = RunSummary & {
  readonly usage: TokenUsage
  readonly modelCalls?: number | undefined
}

/**
 * The contract of a step-wise agent's brain: one decision per turn, one summary at the end.
 *
 * @example
 * ```ts
 * import { Effect } from "effect"
 * import { StepPolicy } from "@sextant/planner"
 * const turn = Effect.gen(function* () {
 *   const policy = yield* StepPolicy
 *   const decision = yield* policy.decide({ goal, url, outline: snapshot.tree, history })
 *   const call = decision.toolCalls[0] // the executor runs only the first call
 * })
 * ```
 */
export interface StepPolicyShape {
  readonly decide: (input: DecideInput) => Effect.Effect<StepDecision, LlmError>
  readonly summarize: (input: SummarizeInput) => Effect.Effect<SummaryDecision, LlmError>
  /**
   * The look whose outline the policy reads (`DecideInput.outline`): the model-backed policy asks for
   * a view within a token budget (`{ budget: 1200 }`) that keeps every ref. Unset: the full outline.
   */
  readonly view?: LookOptions | undefined
  /**
   * The goal's parts with their checks, which the executor verifies after the run; `undefined` when
   * the policy cannot read the goal into parts (the run is then judged by the policy's own end).
   */
  readonly parts?: ((goal: string) => ReadonlyArray<GoalPart> | undefined) | undefined
}

/** The `StepPolicy` service. */
export class StepPolicy extends Context.Service<StepPolicy, StepPolicyShape>()(
  "@sextant/planner/StepPolicy",
) {}

// ---------------------------------------------------------------------------------------------------
// Text-to-action (shared by the rule and the model versions)

/** A value passed to an element action. */
export const ActionArgumentValue = z.union([z.string(), z.number(), z.boolean()])

/** One action on one element of the list: `locator` is a ref (`e3`) or one of the element's selectors. */
export const ElementAction = z.object({
  locator: z.string().min(1),
  description: z.string(),
  method: z.string().min(1),
  arguments: z.array(z.object({ name: z.string().min(1), value: ActionArgumentValue })).default([]),
})
export type ElementAction = z.output<typeof ElementAction>

/** Exactly one action. */
export const ActionAnswer = z.object({ elements: z.array(ElementAction).length(1) })
export type ActionAnswer = z.output<typeof ActionAnswer>

/** The command is already done (or cannot be done on this page): say so and suggest what next. */
export const CompletionAnswer = z.object({
  isComplete: z.literal(true),
  summary: z.string(),
  suggestions: z.array(z.string()).default([]),
})
export type CompletionAnswer = z.output<typeof CompletionAnswer>

/**
 * The JSON contract of text-to-action, for the rule version (`ruleTextToAction`) and the model version
 * (`makeLlmTextToAction`) alike: `{ elements: [ONE action] }` or `{ isComplete: true, summary, suggestions }`.
 */
export const TextAction = z.union([ActionAnswer, CompletionAnswer])
export type TextAction = z.output<typeof TextAction>

/** What text-to-action works on: one command and the element list of a `look()`. */
export interface TextToActionInput {
  readonly command: string
  readonly elements: ReadonlyArray<PageElement>
}

/**
 * Turns one natural-language command into exactly one action on an element present in the list, or a
 * completion. The rule version fails with `AgentError`/`CannotPlan` for commands it does not know.
 */
export type TextToAction = (input: TextToActionInput) => Effect.Effect<TextAction, PlannerError>

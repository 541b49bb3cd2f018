import { Data } from "effect"

/** The errors of the agent itself: `AgentError` and its reasons. */

/** Marks a real `AgentError`: the guards check it, not the `_tag` any plain object can carry. */
export const AgentErrorTypeId: unique symbol = Symbol.for("@sextant/core/AgentError")
export type AgentErrorTypeId = typeof AgentErrorTypeId

/** Input (a task, a config, a plan) does not fit its schema; `issues` name each field and rule. */
export class InvalidInput extends Data.TaggedClass("InvalidInput")<{
  readonly what: string
  readonly issues: ReadonlyArray<string>
}> {
  readonly isRetryable = false
  get message(): string {
    return `invalid ${this.what}:\n  ${this.issues.join("\n  ")}`
  }
}

/** A tool was called with arguments that do not fit its input schema. */
export class InvalidToolArgs extends Data.TaggedClass("InvalidToolArgs")<{
  readonly tool: string
  readonly issues: ReadonlyArray<string>
}> {
  readonly isRetryable = false
  get message(): string {
    return `invalid arguments for tool '${this.tool}':\n  ${this.issues.join("\n  ")}`
  }
}

/** A tool name that no registered tool has. */
export class UnknownTool extends Data.TaggedClass("UnknownTool")<{
  readonly tool: string
  readonly known: ReadonlyArray<string>
}> {
  readonly isRetryable = false
  get message(): string {
    return `unknown tool '${this.tool}': use one of ${this.known.join(", ")}`
  }
}

/** Two tools registered under one name. */
export class DuplicateTool extends Data.TaggedClass("DuplicateTool")<{ readonly tool: string }> {
  readonly isRetryable = false
  get message(): string {
    return `a tool named '${this.tool}' is already registered: give each tool a unique name`
  }
}

/** A task state change that the state machine does not allow. */
export class IllegalTransition extends Data.TaggedClass("IllegalTransition")<{
  readonly from: string
  readonly to: string
  readonly allowed: ReadonlyArray<string>
}> {
  readonly isRetryable = false
  get message(): string {
    const allowed = this.allowed.length === 0 ? "none (it is final)" : this.allowed.join(", ")
    return `a task cannot go from ${this.from} to ${this.to}; from ${this.from} it may go to ${allowed}`
  }
}

/** A step would break a guardrail (scheme, origin, blocked pattern, quota, permission). */
export class GuardrailViolation extends Data.TaggedClass("GuardrailViolation")<{
  readonly rule: string
  readonly detail: string
}> {
  readonly isRetryable = false
  get message(): string {
    return `guardrail '${this.rule}' stopped the step: ${this.detail}`
  }
}

/** The agent keeps landing on the same URL. */
export class NavigationLoop extends Data.TaggedClass("NavigationLoop")<{
  readonly url: string
  readonly count: number
}> {
  readonly isRetryable = false
  get message(): string {
    return `navigated to ${this.url} ${this.count} times: the plan is looping, replan`
  }
}

/** Output that does not fit the task's expected schema. */
export class SchemaMismatch extends Data.TaggedClass("SchemaMismatch")<{
  readonly issues: ReadonlyArray<string>
}> {
  readonly isRetryable = false
  get message(): string {
    return `the output does not fit the expected schema:\n  ${this.issues.join("\n  ")}`
  }
}

/** A budget (steps, duration, no-ops, generation errors, a quota) ran out. */
export class BudgetExceeded extends Data.TaggedClass("BudgetExceeded")<{
  readonly budget: string
  readonly limit: number
}> {
  readonly isRetryable = false
  get message(): string {
    return `budget '${this.budget}' of ${this.limit} is used up`
  }
}

/** A plan that the validator refused. */
export class PlanRejected extends Data.TaggedClass("PlanRejected")<{
  readonly issues: ReadonlyArray<string>
}> {
  readonly isRetryable = false
  get message(): string {
    return `the plan was rejected:\n  ${this.issues.join("\n  ")}`
  }
}

/** The planner cannot turn the goal into a plan. */
export class CannotPlan extends Data.TaggedClass("CannotPlan")<{ readonly detail: string }> {
  readonly isRetryable = false
  get message(): string {
    return `cannot plan this goal: ${this.detail}`
  }
}

/** A tool that needs a page ran while none was open (about:blank): the task gave no start URL. */
export class NoPage extends Data.TaggedClass("NoPage")<{ readonly tool: string }> {
  readonly isRetryable = false
  get message(): string {
    return `'${this.tool}' needs a page, but none is open (about:blank): give the task a startUrl (--start-url on the CLI) or begin the goal with "go to <url>"`
  }
}

/**
 * A step of the run did not finish within its time limit (`constraints.stepTimeoutMs`, grown on each
 * retry). The agent's limit, whatever the tool was doing: a `sql` step that runs out of time is not a
 * browser failure. Retryable, with a longer limit.
 *
 * @example
 * ```ts
 * import { AgentError, StepTimeout } from "@sextant/core"
 * new AgentError({ reason: new StepTimeout({ step: 3, tool: "sql", timeoutMs: 30_000 }) }).message
 * ```
 */
export class StepTimeout extends Data.TaggedClass("StepTimeout")<{
  readonly step: number
  readonly tool: string
  readonly timeoutMs: number
}> {
  readonly isRetryable = true
  get message(): string {
    return `step ${this.step} (${this.tool}) did not finish within ${this.timeoutMs} ms: it is retried with a longer limit; raise constraints.stepTimeoutMs if the site is slow`
  }
}

/** The run was cancelled (AbortSignal, Ctrl-C, interruption). */
export class Cancelled extends Data.TaggedClass("Cancelled")<{ readonly detail: string }> {
  readonly isRetryable = false
  get message(): string {
    return `the run was cancelled (${this.detail})`
  }
}

export type AgentErrorReason =
  | InvalidInput
  | InvalidToolArgs
  | UnknownTool
  | DuplicateTool
  | IllegalTransition
  | GuardrailViolation
  | NavigationLoop
  | SchemaMismatch
  | BudgetExceeded
  | PlanRejected
  | CannotPlan
  | NoPage
  | StepTimeout
  | Cancelled

/** The error of the agent itself: bad input, guardrails, budgets, planning. */
export class AgentError extends Data.TaggedError("AgentError")<{
  readonly reason: AgentErrorReason
  readonly cause?: unknown
}> {
  readonly [AgentErrorTypeId]: AgentErrorTypeId = AgentErrorTypeId
  get isRetryable(): boolean {
    return this.reason.isRetryable
  }
  override get message(): string {
    return this.reason.message
  }
}

import {
  AgentError,
  type AgentTask,
  type AnyTool,
  type Plan,
  PlanRejected,
  type Step,
  type StepInput,
  type TaskConstraints,
  type ToolRegistry,
} from "@sextant/core"
import { Effect, Result } from "effect"

/**
 * A rule that inserts a guard step after the steps it matches, for example a "check logged in" step
 * after a login. A guard is validated like any step: if its tool is missing from the registry or its
 * args do not fit, it is left out (it is the validator's own addition, not a step of the plan) and the
 * report says why. A guard is not inserted twice when the
 * next step already is that guard.
 */
export interface GuardRule {
  readonly name: string
  readonly matches: (step: Step, tool: AnyTool) => boolean
  readonly guard: (step: Step) => Omit<StepInput, "index">
}

const passwordKey = /pass(word|wd)?|pwd/i

/**
 * The login guard: after a step that logs in, wait until no password field is visible, so a failed
 * login stops the plan right there instead of three steps later.
 *
 * A step logs in when its tool is `login`, or when its tool submits (`effects.submits`) and one of its
 * argument names mentions a password. The guard step is `waitFor({ target: 'input[type="password"]',
 * state: "hidden" })` unless other `tool`/`args` are given.
 *
 * @example
 * ```ts
 * import { loginGuard, validatePlan } from "@sextant/planner"
 * validatePlan(plan, { registry, constraints, guards: [loginGuard({ tool: "waitFor", args: { text: "Sign out" } })] })
 * ```
 */
export const loginGuard = (
  options: { readonly tool?: string; readonly args?: Record<string, unknown> } = {},
): GuardRule => ({
  name: "login",
  matches: (step, tool) =>
    step.tool === "login" ||
    (tool.effects.submits && Object.keys(step.args).some((key) => passwordKey.test(key))),
  guard: () => ({
    tool: options.tool ?? "waitFor",
    args: options.args ?? { target: 'input[type="password"]', state: "hidden" },
    description: "check logged in: the password field is gone",
  }),
})

/** What the validator checks against. */
export interface ValidatorOptions {
  readonly registry: ToolRegistry
  readonly constraints: TaskConstraints
  /** Guard rules (default: `[loginGuard()]`; `[]` turns guards off). */
  readonly guards?: ReadonlyArray<GuardRule>
}

/** A validated plan (steps never removed; guard steps may be inserted) with what was inserted and why. */
export interface ValidationReport {
  readonly plan: Plan
  /** One line per inserted guard step, and per guard that could not be inserted. */
  readonly issues: ReadonlyArray<string>
  readonly inserted: number
}

/** Navigations allowed in a row: a third one in a row is a loop more often than a plan. */
const maxNavigationsInARow = 2

/** Checks that hold on the page or the outputs, so a part with such a check needs no step of its own. */
const PAGE_CHECKS: ReadonlySet<string> = new Set([
  "lastPage",
  "pagesRead",
  "urlMatches",
  "textPresent",
  "elementExists",
])

/**
 * Checks a plan against the tools and the task's constraints. It never removes or cuts a step: a plan
 * that breaks a rule is refused as a whole (`AgentError`/`PlanRejected` naming every broken rule and how
 * to fix it), so no part of the goal is silently dropped. The rules, in order:
 *
 * 1. known tools only (`steps[i]: unknown tool 'x'`);
 * 2. arguments valid against the tool's input schema (`ToolRegistry.decodeArgs`);
 * 3. no navigation when `allowNavigation` is false;
 * 4. submissions only when `allowFormSubmission` is true (`--allow-submit` on the CLI), and at most
 *    `quotas.submissions` of them;
 * 5. fewer than 3 navigations in a row;
 * 6. at most `maxSteps` steps;
 * 7. every goal part (`plan.parts`) is worked on by a step, unless its check is about the page alone.
 *
 * Guard steps are inserted after the steps a `GuardRule` matches (default: the login guard), with the
 * part of the step they guard; a guard that does not validate is left out and `issues` says why.
 * Steps are re-indexed and the plan's status becomes `validated`.
 *
 * @example
 * ```ts
 * import { Effect } from "effect"
 * import { validatePlan } from "@sextant/planner"
 * const report = Effect.runSync(validatePlan(plan, { registry, constraints: task.constraints }))
 * report.issues // ["guard 'login' inserted after steps[1]: waitFor"]
 * ```
 */
export const validatePlan = (
  plan: Plan,
  options: ValidatorOptions,
): Effect.Effect<ValidationReport, AgentError> =>
  Effect.suspend(() => {
    const { registry, constraints } = options
    const guards = options.guards ?? [loginGuard()]
    const refusals: Array<string> = []
    const issues: Array<string> = []
    const kept: Array<Omit<Step, "index">> = []
    let inserted = 0
    let submissions = 0
    let navigationsInARow = 0

    const argsIssue = (tool: string, args: unknown): ReadonlyArray<string> | undefined => {
      const decoded = Effect.runSync(Effect.result(registry.decodeArgs(tool, args)))
      if (Result.isSuccess(decoded)) return undefined
      const reason = decoded.failure.reason
      return reason._tag === "InvalidToolArgs" ? reason.issues : [reason.message]
    }

    /** Why a step breaks a rule, or undefined when it may run; counts what it uses when it may. */
    const breaks = (step: Omit<Step, "index">): string | undefined => {
      const tool = registry.tools.find((candidate) => candidate.name === step.tool)
      if (tool === undefined) return `unknown tool '${step.tool}': use one of ${registry.names.join(", ")}`
      const bad = argsIssue(step.tool, step.args)
      if (bad !== undefined) return `invalid arguments for '${step.tool}': ${bad.join("; ")}`
      if (tool.effects.navigates && !constraints.allowNavigation) {
        return `'${step.tool}' navigates but the task does not allow navigation: set constraints.allowNavigation to true`
      }
      if (tool.effects.submits) {
        if (!constraints.allowFormSubmission) {
          return `'${step.tool}'${step.description === undefined ? "" : ` (${step.description})`} submits a form but the task does not allow form submission: grant it with --allow-submit (CLI) or constraints.allowFormSubmission: true`
        }
        if (submissions >= constraints.quotas.submissions) {
          return `'${step.tool}' would exceed the submission quota of ${constraints.quotas.submissions}: raise constraints.quotas.submissions`
        }
      }
      if (tool.effects.navigates && navigationsInARow >= maxNavigationsInARow) {
        return `a third navigation in a row ('${step.tool}'): act on the page between navigations`
      }
      navigationsInARow = tool.effects.navigates ? navigationsInARow + 1 : 0
      if (tool.effects.submits) submissions++
      return undefined
    }

    plan.steps.forEach((step, position) => {
      const { index: _index, ...body } = step
      const broken = breaks(body)
      if (broken !== undefined) {
        refusals.push(`steps[${position}]: ${broken}`)
        return
      }
      kept.push(body)
      const tool = registry.tools.find((candidate) => candidate.name === step.tool) as AnyTool
      for (const rule of guards) {
        if (!rule.matches(step, tool)) continue
        const guard = rule.guard(step)
        const next = plan.steps[position + 1]
        if (
          next !== undefined &&
          next.tool === guard.tool &&
          JSON.stringify(next.args) === JSON.stringify(guard.args)
        ) {
          continue
        }
        const guardStep: Omit<Step, "index"> = {
          tool: guard.tool,
          args: guard.args ?? {},
          description: guard.description,
          ...(step.part === undefined ? {} : { part: step.part }),
          successCriteria: [],
          state: "pending",
          attempts: 0,
        }
        const guardBroken = breaks(guardStep)
        if (guardBroken === undefined) {
          kept.push(guardStep)
          inserted++
          issues.push(`guard '${rule.name}' inserted after steps[${position}]: ${guard.tool}`)
        } else {
          issues.push(`guard '${rule.name}' after steps[${position}]: ${guardBroken}: not inserted`)
        }
      }
    })

    if (plan.steps.length === 0) refusals.push("the plan has no steps")
    if (kept.length > constraints.maxSteps) {
      refusals.push(
        `the plan has ${kept.length} steps, more than maxSteps ${constraints.maxSteps}: raise constraints.maxSteps (--max-steps) or ask for less`,
      )
    }
    ;(plan.parts ?? []).forEach((part, index) => {
      if (PAGE_CHECKS.has(part.check.type)) return
      if (!plan.steps.some((step) => step.part === index)) {
        refusals.push(`parts[${index}] ("${part.description}") has no step working on it: add one`)
      }
    })
    if (refusals.length > 0) {
      return Effect.fail(new AgentError({ reason: new PlanRejected({ issues: refusals }) }))
    }
    return Effect.succeed({
      plan: {
        ...plan,
        status: "validated" as const,
        steps: kept.map((step, index) => ({ ...step, index })),
      },
      issues,
      inserted,
    })
  })

/**
 * `validatePlan` with the task's own constraints, returning only the plan: what planners call last.
 *
 * @example
 * ```ts
 * import { validatePlanForTask } from "@sextant/planner"
 * const plan = yield* validatePlanForTask(task, draft, { registry })
 * ```
 */
export const validatePlanForTask = (
  task: AgentTask,
  plan: Plan,
  options: Omit<ValidatorOptions, "constraints">,
): Effect.Effect<Plan, AgentError> =>
  Effect.map(validatePlan(plan, { ...options, constraints: task.constraints }), (report) => report.plan)

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
 * args do not fit, it is left out and the report says why. A guard is not inserted twice when the
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

/** A validated (and possibly trimmed) plan with what was changed and why. */
export interface ValidationReport {
  readonly plan: Plan
  /** One line per removed or inserted step, naming the step and the rule. */
  readonly issues: ReadonlyArray<string>
  readonly removed: number
  readonly inserted: number
}

/** Navigations allowed in a row: a third one in a row is a loop more often than a plan. */
const maxNavigationsInARow = 2

/**
 * Checks a plan against the tools and the task's constraints and trims what breaks a rule, in order:
 *
 * 1. known tools only (`steps[i].tool: unknown tool 'x'`);
 * 2. arguments valid against the tool's input schema (`ToolRegistry.decodeArgs`);
 * 3. no navigation when `allowNavigation` is false;
 * 4. submissions only when `allowFormSubmission` is true, and at most `quotas.submissions` of them;
 * 5. fewer than 3 navigations in a row (the third is removed);
 * 6. guard steps inserted after the steps a `GuardRule` matches (default: the login guard);
 * 7. at most `maxSteps` steps (the rest are cut).
 *
 * Removed steps are listed in `issues`; steps are re-indexed and the plan's status becomes `validated`.
 * A plan left with no step fails with `AgentError`/`PlanRejected` carrying every issue.
 *
 * @example
 * ```ts
 * import { Effect } from "effect"
 * import { validatePlan } from "@sextant/planner"
 * const report = Effect.runSync(validatePlan(plan, { registry, constraints: task.constraints }))
 * report.issues // ["steps[3]: a third navigation in a row (navigate) was removed: ..."]
 * ```
 */
export const validatePlan = (
  plan: Plan,
  options: ValidatorOptions,
): Effect.Effect<ValidationReport, AgentError> =>
  Effect.suspend(() => {
    const { registry, constraints } = options
    const guards = options.guards ?? [loginGuard()]
    const issues: Array<string> = []
    const kept: Array<Omit<Step, "index">> = []
    let removed = 0
    let inserted = 0
    let submissions = 0
    let navigationsInARow = 0

    const argsIssue = (tool: string, args: unknown): ReadonlyArray<string> | undefined => {
      const decoded = Effect.runSync(Effect.result(registry.decodeArgs(tool, args)))
      if (Result.isSuccess(decoded)) return undefined
      const reason = decoded.failure.reason
      return reason._tag === "InvalidToolArgs" ? reason.issues : [reason.message]
    }

    const admit = (step: Omit<Step, "index">, label: string): boolean => {
      const reject = (why: string) => {
        issues.push(`${label}: ${why}`)
        removed++
        return false
      }
      const tool = registry.tools.find((candidate) => candidate.name === step.tool)
      if (tool === undefined) {
        return reject(`unknown tool '${step.tool}' was removed: use one of ${registry.names.join(", ")}`)
      }
      const bad = argsIssue(step.tool, step.args)
      if (bad !== undefined)
        return reject(`invalid arguments for '${step.tool}' were removed: ${bad.join("; ")}`)
      if (tool.effects.navigates && !constraints.allowNavigation) {
        return reject(`'${step.tool}' navigates but the task does not allow navigation: it was removed`)
      }
      if (tool.effects.submits) {
        if (!constraints.allowFormSubmission) {
          return reject(
            `'${step.tool}' submits but the task does not allow form submission: it was removed (set constraints.allowFormSubmission)`,
          )
        }
        if (submissions >= constraints.quotas.submissions) {
          return reject(
            `'${step.tool}' would exceed the submission quota of ${constraints.quotas.submissions}: it was removed`,
          )
        }
      }
      if (tool.effects.navigates && navigationsInARow >= maxNavigationsInARow) {
        return reject(
          `a third navigation in a row ('${step.tool}') was removed: act on the page between navigations`,
        )
      }
      navigationsInARow = tool.effects.navigates ? navigationsInARow + 1 : 0
      if (tool.effects.submits) submissions++
      kept.push(step)
      return true
    }

    plan.steps.forEach((step, position) => {
      const { index: _index, ...body } = step
      if (!admit(body, `steps[${position}]`)) return
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
          successCriteria: [],
          state: "pending",
          attempts: 0,
        }
        const before = removed
        if (admit(guardStep, `guard '${rule.name}' after steps[${position}]`)) {
          inserted++
          issues.push(`guard '${rule.name}' inserted after steps[${position}]: ${guard.tool}`)
        } else {
          removed = before
        }
      }
    })

    let steps = kept
    if (steps.length > constraints.maxSteps) {
      issues.push(
        `the plan has ${steps.length} steps, more than maxSteps ${constraints.maxSteps}: the last ${steps.length - constraints.maxSteps} were cut`,
      )
      removed += steps.length - constraints.maxSteps
      steps = steps.slice(0, constraints.maxSteps)
    }
    if (steps.length === 0) {
      const why = plan.steps.length === 0 ? ["the plan has no steps"] : issues
      return Effect.fail(new AgentError({ reason: new PlanRejected({ issues: why }) }))
    }
    return Effect.succeed({
      plan: {
        ...plan,
        status: "validated" as const,
        steps: steps.map((step, index) => ({ ...step, index })),
      },
      issues,
      removed,
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

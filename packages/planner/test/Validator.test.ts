import { describe, expect, it } from "@effect/vitest"
import { type Plan, type StepInput, TaskConstraints, type TaskConstraintsInput } from "@sextant/core"
import { Effect } from "effect"
import { loginGuard, type ValidationReport, validatePlan } from "../src/index.ts"
import { registry } from "./llm/Support.ts"

const planOf = (steps: ReadonlyArray<Omit<StepInput, "index">>): Plan => ({
  taskId: "t",
  revision: 0,
  status: "draft",
  steps: steps.map((step, index) => ({
    index,
    tool: step.tool,
    args: step.args ?? {},
    successCriteria: [],
    state: "pending",
    attempts: 0,
  })),
})

const validate = (
  steps: ReadonlyArray<Omit<StepInput, "index">>,
  constraints: TaskConstraintsInput = {},
  guards = [loginGuard()],
) => validatePlan(planOf(steps), { registry, constraints: TaskConstraints.parse(constraints), guards })

/** The validator's refusal: the issues of its `PlanRejected`. */
const refusal = (steps: ReadonlyArray<Omit<StepInput, "index">>, constraints: TaskConstraintsInput = {}) =>
  Effect.map(Effect.flip(validate(steps, constraints)), (error) =>
    error.reason._tag === "PlanRejected" ? error.reason.issues : [error.message],
  )

const toolsOf = (report: ValidationReport) => report.plan.steps.map((step) => step.tool)
const go = (url = "http://127.0.0.1:4000/") => ({ tool: "navigate", args: { url } })
const click = (ref = "e1") => ({ tool: "click", args: { ref } })

describe("validatePlan", () => {
  it.effect("keeps a plan within maxSteps as it is, re-indexed and validated", () =>
    Effect.gen(function* () {
      const report = yield* validate([go(), click(), click("e2")], { maxSteps: 3 })
      expect(toolsOf(report)).toEqual(["navigate", "click", "click"])
      expect(report.plan.status).toBe("validated")
      expect(report.issues).toEqual([])
    }),
  )

  it.effect("refuses a plan longer than maxSteps instead of cutting it, naming the limit", () =>
    Effect.gen(function* () {
      const issues = yield* refusal([go(), click(), click("e2"), click("e3")], { maxSteps: 2 })
      expect(issues).toEqual([
        "the plan has 4 steps, more than maxSteps 2: raise constraints.maxSteps (--max-steps) or ask for less",
      ])
    }),
  )

  it.effect("allows two navigations in a row but refuses a plan with a third", () =>
    Effect.gen(function* () {
      const two = yield* validate([
        go(),
        go("http://127.0.0.1:4000/a"),
        click(),
        go("http://127.0.0.1:4000/b"),
      ])
      expect(toolsOf(two)).toEqual(["navigate", "navigate", "click", "navigate"])
      const three = yield* refusal([go(), { tool: "back", args: {} }, go("http://127.0.0.1:4000/a"), click()])
      expect(three[0]).toMatch(/^steps\[2\]: a third navigation in a row \('navigate'\)/)
    }),
  )

  it.effect("refuses navigation when the task does not allow it", () =>
    Effect.gen(function* () {
      const issues = yield* refusal([go(), click()], { allowNavigation: false })
      expect(issues[0]).toContain("does not allow navigation")
      expect(issues[0]).toContain("constraints.allowNavigation")
    }),
  )

  it.effect(
    "refuses a submission the task does not allow, naming --allow-submit, and one over the quota",
    () =>
      Effect.gen(function* () {
        const search = { tool: "search", args: { query: "lantern" } }
        const refused = yield* refusal([go(), search])
        expect(refused).toHaveLength(1)
        expect(refused[0]).toContain("--allow-submit")
        expect(refused[0]).toContain("constraints.allowFormSubmission")
        const allowed = yield* validate([go(), search], { allowFormSubmission: true })
        expect(toolsOf(allowed)).toEqual(["navigate", "search"])
        const quota = yield* refusal([search, search], {
          allowFormSubmission: true,
          quotas: { submissions: 1 },
        })
        expect(quota[0]).toContain("submission quota of 1")
      }),
  )

  it.effect("refuses unknown tools, naming the ones it knows", () =>
    Effect.gen(function* () {
      const issues = yield* refusal([go(), { tool: "teleport", args: {} }, click()])
      expect(issues[0]).toMatch(/^steps\[1\]: unknown tool 'teleport': use one of navigate, click/)
    }),
  )

  it.effect("refuses arguments that do not fit the tool's input schema, naming each", () =>
    Effect.gen(function* () {
      const issues = yield* refusal([go("not a url"), click(), { tool: "click", args: { ref: 5 } }])
      expect(issues[0]).toMatch(/^steps\[0\]: invalid arguments for 'navigate': args\.url: /)
      expect(issues[1]).toMatch(/^steps\[2\]: invalid arguments for 'click': args\.ref: /)
    }),
  )

  it.effect("refuses a plan that leaves a goal part without a step", () =>
    Effect.gen(function* () {
      const plan: Plan = {
        ...planOf([go()]),
        parts: [
          { kind: "navigate", description: "open the shop", check: { type: "actionsSucceeded" } },
          {
            kind: "extract",
            description: "extract the products",
            check: { type: "records", fields: [], min: 1 },
          },
        ],
      }
      plan.steps[0] = { ...plan.steps[0]!, part: 0 }
      const failure = yield* Effect.flip(
        validatePlan(plan, { registry, constraints: TaskConstraints.parse({}) }),
      )
      expect(failure.reason._tag === "PlanRejected" && failure.reason.issues).toEqual([
        'parts[1] ("extract the products") has no step working on it: add one',
      ])
    }),
  )

  it.effect("inserts a 'check logged in' guard after a login, once", () =>
    Effect.gen(function* () {
      const login = { tool: "login", args: { username: "alice", password: "<secret:password>" } }
      const report = yield* validate([go(), login, click()], { allowFormSubmission: true })
      expect(toolsOf(report)).toEqual(["navigate", "login", "waitFor", "click"])
      expect(report.plan.steps[2]?.args).toEqual({ target: 'input[type="password"]', state: "hidden" })
      expect(report.inserted).toBe(1)
      const again = yield* validatePlan(report.plan, {
        registry,
        constraints: TaskConstraints.parse({ allowFormSubmission: true }),
      })
      expect(toolsOf(again)).toEqual(["navigate", "login", "waitFor", "click"])

      const submitWithPassword = { tool: "submit", args: { ref: "e3", password: "x" } }
      const guarded = yield* validate([submitWithPassword], { allowFormSubmission: true })
      expect(toolsOf(guarded)).toEqual(["submit", "waitFor"])
      const plainSubmit = yield* validate([{ tool: "submit", args: { ref: "e3" } }], {
        allowFormSubmission: true,
      })
      expect(toolsOf(plainSubmit)).toEqual(["submit"])
      const noGuards = yield* validate([login], { allowFormSubmission: true }, [])
      expect(toolsOf(noGuards)).toEqual(["login"])
    }),
  )

  it.effect("leaves a guard out when its tool is not registered", () =>
    Effect.gen(function* () {
      const login = { tool: "login", args: { username: "alice", password: "p" } }
      const report = yield* validate([login], { allowFormSubmission: true }, [
        loginGuard({ tool: "checkSession" }),
      ])
      expect(toolsOf(report)).toEqual(["login"])
      expect(report.inserted).toBe(0)
      expect(report.issues[0]).toContain("guard 'login' after steps[0]: unknown tool 'checkSession'")
    }),
  )

  it.effect("rejects a plan with no valid step, carrying every issue", () =>
    Effect.gen(function* () {
      const error = yield* Effect.flip(validate([{ tool: "teleport", args: {} }, go("nope")]))
      expect(error.reason._tag).toBe("PlanRejected")
      expect(error.message).toContain("unknown tool 'teleport'")
      expect(error.message).toContain("invalid arguments for 'navigate'")
      const empty = yield* Effect.flip(validate([]))
      expect(empty.message).toContain("the plan has no steps")
    }),
  )
})

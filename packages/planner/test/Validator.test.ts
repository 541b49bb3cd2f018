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

  it.effect("cuts a plan longer than maxSteps and says so", () =>
    Effect.gen(function* () {
      const report = yield* validate([go(), click(), click("e2"), click("e3")], { maxSteps: 2 })
      expect(toolsOf(report)).toEqual(["navigate", "click"])
      expect(report.removed).toBe(2)
      expect(report.issues).toEqual(["the plan has 4 steps, more than maxSteps 2: the last 2 were cut"])
    }),
  )

  it.effect("allows two navigations in a row but removes the third", () =>
    Effect.gen(function* () {
      const two = yield* validate([
        go(),
        go("http://127.0.0.1:4000/a"),
        click(),
        go("http://127.0.0.1:4000/b"),
      ])
      expect(toolsOf(two)).toEqual(["navigate", "navigate", "click", "navigate"])
      const three = yield* validate([
        go(),
        { tool: "back", args: {} },
        go("http://127.0.0.1:4000/a"),
        click(),
      ])
      expect(toolsOf(three)).toEqual(["navigate", "back", "click"])
      expect(three.issues[0]).toMatch(/^steps\[2\]: a third navigation in a row \('navigate'\) was removed/)
    }),
  )

  it.effect("removes navigation when the task does not allow it", () =>
    Effect.gen(function* () {
      const report = yield* validate([go(), click()], { allowNavigation: false })
      expect(toolsOf(report)).toEqual(["click"])
      expect(report.issues[0]).toContain("does not allow navigation")
    }),
  )

  it.effect("allows submissions only when the task does, up to the quota", () =>
    Effect.gen(function* () {
      const search = { tool: "search", args: { query: "lantern" } }
      const refused = yield* validate([go(), search])
      expect(toolsOf(refused)).toEqual(["navigate"])
      expect(refused.issues[0]).toContain("set constraints.allowFormSubmission")
      const allowed = yield* validate([go(), search], { allowFormSubmission: true })
      expect(toolsOf(allowed)).toEqual(["navigate", "search"])
      const quota = yield* validate([search, search], {
        allowFormSubmission: true,
        quotas: { submissions: 1 },
      })
      expect(toolsOf(quota)).toEqual(["search"])
      expect(quota.issues[0]).toContain("submission quota of 1")
    }),
  )

  it.effect("keeps known tools only, naming the ones it knows", () =>
    Effect.gen(function* () {
      const report = yield* validate([go(), { tool: "teleport", args: {} }, click()])
      expect(toolsOf(report)).toEqual(["navigate", "click"])
      expect(report.issues[0]).toMatch(
        /^steps\[1\]: unknown tool 'teleport' was removed: use one of navigate, click/,
      )
    }),
  )

  it.effect("keeps arguments that fit the tool's input schema and removes the rest", () =>
    Effect.gen(function* () {
      const report = yield* validate([go("not a url"), click(), { tool: "click", args: { ref: 5 } }])
      expect(toolsOf(report)).toEqual(["click"])
      expect(report.issues[0]).toMatch(
        /^steps\[0\]: invalid arguments for 'navigate' were removed: args\.url: /,
      )
      expect(report.issues[1]).toMatch(/^steps\[2\]: invalid arguments for 'click' were removed: args\.ref: /)
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

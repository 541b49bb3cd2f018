import { decodeAgentTask } from "@sextant/core"
import { Effect } from "effect"
import { describe, expect, it } from "vitest"
import { makeRulePlanner, planWithRules } from "../../src/rules/RulePlanner.ts"

const task = (goal: string, extra: Record<string, unknown> = {}) =>
  Effect.runSync(decodeAgentTask({ id: "t1", goal, startUrl: "http://127.0.0.1:4000/", ...extra }))

const plan = (goal: string, extra: Record<string, unknown> = {}) =>
  Effect.runSync(planWithRules(task(goal, extra)))

const cannot = (goal: string) => Effect.runSync(Effect.flip(planWithRules(task(goal))))

describe("planWithRules", () => {
  it("plans log in, search and open the first result", () => {
    const result = plan(
      "log in as alice@example.com with password wonderland, then search for lantern, then open the first result",
    )
    expect(result.steps.map((step) => [step.tool, step.args])).toEqual([
      ["navigate", { url: "http://127.0.0.1:4000/" }],
      ["login", { username: "alice@example.com", password: "wonderland" }],
      ["search", { query: "lantern" }],
      ["clickNthAnchor", { index: 0, rootSelector: "main" }],
    ])
    expect(result.steps.map((step) => step.index)).toEqual([0, 1, 2, 3])
    expect(result.taskId).toBe("t1")
  })

  it("takes credentials from the task's inputs when the goal does not say them, a secret one as its placeholder", () => {
    const result = plan("登录", {
      inputs: { email: "bob@example.com", password: "builder" },
      secretInputs: ["password"],
    })
    expect(result.steps[1]).toMatchObject({
      tool: "login",
      args: { username: "bob@example.com", password: "<secret:password>" },
    })
    expect(JSON.stringify(result)).not.toContain("builder")
    const open = plan("登录", { inputs: { email: "bob@example.com", password: "builder" } })
    expect(open.steps[1]?.args).toEqual({ username: "bob@example.com", password: "builder" })
  })

  it("writes a secret input's value typed in the goal as its placeholder, in args and descriptions", () => {
    const result = plan(
      "log in as alice@example.com with password wonderland, then type wonderland into PIN",
      {
        inputs: { password: "wonderland" },
        secretInputs: ["password"],
      },
    )
    expect(result.steps.slice(1).map((step) => [step.tool, step.args])).toEqual([
      ["login", { username: "alice@example.com", password: "<secret:password>" }],
      ["fill", { label: "PIN", value: "<secret:password>" }],
    ])
    expect(JSON.stringify(result)).not.toContain("wonderland")
  })

  it("keeps the placeholders of a goal the executor redacted whole", () => {
    const result = plan(
      "log in as {{inputs.email}} with password <secret:password>, then search for lantern",
      { inputs: { email: "alice@example.com", password: "<secret:password>" }, secretInputs: ["password"] },
    )
    expect(result.steps[1]?.args).toEqual({ username: "{{inputs.email}}", password: "<secret:password>" })
    expect(result.steps[2]?.args).toEqual({ query: "lantern" })
  })

  it("resolves a relative address against startUrl and reads a list over several pages", () => {
    const result = plan(
      "go to /products and extract the names and prices of the products on the first 3 pages",
    )
    expect(result.steps.map((step) => [step.tool, step.args])).toEqual([
      ["navigate", { url: "http://127.0.0.1:4000/products" }],
      ["pagination", { limit: 3, extract: { fields: ["name", "price"] } }],
    ])
    expect(plan("提取商品的名称和价格").steps[1]).toMatchObject({
      tool: "extractList",
      args: { fields: ["name", "price"] },
    })
  })

  it("needs startUrl to go to a path", () => {
    const error = Effect.runSync(
      Effect.flip(planWithRules(Effect.runSync(decodeAgentTask({ goal: "go to /products" })))),
    )
    expect(error.message).toContain("needs a full http(s) address")
  })

  it("plans a form: fill, select, check and submit", () => {
    const result = plan(
      "在姓名中输入张三，然后选择 Sales from Topic，勾选 Subscribe to the newsletter，然后提交",
    )
    expect(result.steps.slice(1).map((step) => [step.tool, step.args])).toEqual([
      ["fill", { label: "姓名", value: "张三" }],
      ["select", { label: "Topic", values: ["Sales"] }],
      ["check", { label: "Subscribe to the newsletter" }],
      ["press", { key: "Enter" }],
    ])
  })

  it("clicks by text and pages through results", () => {
    expect(
      plan("click Browse products then 下一页")
        .steps.slice(1)
        .map((step) => step.args),
    ).toEqual([{ text: "Browse products" }, { text: "Next" }])
  })

  it("answers CannotPlan with the grammar's reason for nonsense", () => {
    const error = cannot("the weather is nice today")
    expect(error.reason._tag).toBe("CannotPlan")
    expect(error.message).toContain("no action word")
  })

  it("answers CannotPlan for a login without a password", () => {
    expect(cannot("log in as alice@example.com").message).toContain("needs a password")
  })

  it("answers CannotPlan for commands that need the page", () => {
    expect(cannot("close the dialog").message).toContain("step-wise")
    expect(cannot("click the second button").message).toContain("step-wise")
    expect(cannot("选择 Support").message).toContain("needs the list")
  })

  it("answers CannotPlan for a press of the control inside a named item, which only the page can tell apart", () => {
    expect(cannot('click "Call" in "Ana Silva"').message).toContain(
      `'click "Call" in "Ana Silva"' picks the control inside "Ana Silva", which needs the page: use the step-wise agent`,
    )
  })

  it("replans from the failed step, keeping the steps before it", () => {
    const planner = makeRulePlanner()
    const goal = task("search for lantern then click View Brass Lantern")
    const first = Effect.runSync(planner.plan(goal))
    const again = Effect.runSync(
      planner.replan(goal, first, { stepIndex: 2, error: "element not found" }, "partial"),
    )
    expect(again.revision).toBe(1)
    expect(again.steps.map((step) => step.tool)).toEqual(["navigate", "search", "clickTextMatches"])
    expect(again.steps[2]!.state).toBe("pending")
  })
})

describe("a scroll inside an element, planned", () => {
  it("scrolls the element the instruction names, never the page in its place", () => {
    expect(plan("Scroll the terms box to the bottom").steps.at(-1)).toMatchObject({
      tool: "scrollInside",
      args: { to: "bottom" },
    })
    expect(plan("把 Change log 滚动到最后").steps.at(-1)).toMatchObject({
      tool: "scrollInside",
      args: { text: "Change log", to: "bottom" },
    })
    expect(plan("scroll to the bottom").steps.at(-1)).toMatchObject({
      tool: "scroll",
      args: { to: "bottom" },
    })
  })
})

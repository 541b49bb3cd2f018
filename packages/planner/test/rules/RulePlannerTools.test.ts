import { decodeAgentTask, ToolRegistry } from "@sextant/core"
import { browserTools, compoundTools } from "@sextant/tools"
import { Effect } from "effect"
import { describe, expect, it } from "vitest"
import { planWithRules } from "../../src/rules/RulePlanner.ts"
import { validatePlan } from "../../src/Validator.ts"

/**
 * The rule planner's steps against the real tools: every tool exists and every argument fits its schema.
 * The validator's default login guard waits, in the real waitFor's terms, for the password field to go;
 * it also keeps login and search from being three navigations in a row.
 */

const registry = Effect.runSync(ToolRegistry.make([...browserTools, ...compoundTools]))

const GOALS = [
  "log in as alice@example.com with password wonderland, then search for lantern, then open the first result",
  "用 bob@example.com 和密码 builder 登录，然后搜索台灯，然后点击第二个结果",
  "go to /products and extract the names and prices of the products on the first 3 pages",
  "提取商品的名称和价格",
  '在姓名中输入 张三，然后 type "zhang@example.com" into Email，选择 Sales from Topic，勾选 Subscribe to the newsletter，然后提交',
  "click Browse products then 下一页, then scroll to the bottom, then scroll up 2 times, then go back",
  "open File > Export > PDF",
  "press Escape and untick Remember me",
]

describe("rule plans against the tools of @sextant/tools", () => {
  it.each(GOALS)("%s", (goal) => {
    const task = Effect.runSync(
      decodeAgentTask({
        goal,
        startUrl: "http://127.0.0.1:4000/",
        constraints: { allowFormSubmission: true },
      }),
    )
    const plan = Effect.runSync(planWithRules(task))
    const report = Effect.runSync(validatePlan(plan, { registry, constraints: task.constraints }))
    expect(report.plan.parts).toEqual(plan.parts)
    expect(report.issues.filter((issue) => !issue.startsWith("guard 'login' inserted"))).toEqual([])
    expect(report.plan.steps.map((step) => step.tool).filter((tool) => tool !== "waitFor")).toEqual(
      plan.steps.map((step) => step.tool),
    )
  })
})

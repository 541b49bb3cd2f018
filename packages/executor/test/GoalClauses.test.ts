import { goalPartsOf } from "@sextant/planner"
import { describe, expect, it } from "vitest"
import { clauseParts } from "../src/internal/GoalClauses.ts"

const descriptions = (goal: string) => clauseParts(goal, goalPartsOf)?.map((part) => part.description)

describe("clauseParts: a goal the grammar cannot read whole, read clause by clause", () => {
  it.each([
    ["log in and then tell me what the page says", ["log in"]],
    ["log in, then tell me what the page says", ["log in"]],
    ["log in; summarize the dashboard", ["log in"]],
    ["登录，然后告诉我页面上写了什么", ["log in"]],
  ])("%s has the parts %j", (goal, parts) => {
    expect(goalPartsOf(goal)).toBeUndefined()
    expect(descriptions(goal)).toEqual(parts)
  })

  it("keeps a quoted value whole, commas, 'then' and 'and' inside it included", () => {
    const parts = clauseParts('type "Ada, then Bob and Cy" into Name, then tell me what you think', (text) =>
      text.startsWith("type") ? goalPartsOf(text) : undefined,
    )
    expect(parts?.map((part) => part.check)).toEqual([
      { type: "fieldValue", target: "Name", value: "Ada, then Bob and Cy" },
    ])
  })

  it("answers nothing for a goal of one clause or of clauses none of which reads", () => {
    expect(clauseParts("tell me a joke", goalPartsOf)).toBeUndefined()
    expect(clauseParts("tell me a joke and then explain it", goalPartsOf)).toBeUndefined()
  })
})

import { describe, expect, it } from "vitest"
import { clausesOf, goalPartsByClause, goalPartsOf } from "../src/index.ts"

const descriptions = (goal: string) => goalPartsByClause(goal)?.map((part) => part.description)

describe("goalPartsByClause: a goal the grammar cannot read whole, read clause by clause", () => {
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
    const parts = goalPartsByClause(
      'type "Ada, then Bob and Cy" into Name, then tell me what you think',
      (text) => (text.startsWith("type") ? goalPartsOf(text) : undefined),
    )
    expect(parts?.map((part) => part.check)).toEqual([
      { type: "fieldValue", target: "Name", value: "Ada, then Bob and Cy" },
    ])
  })

  it("answers nothing for a goal of one clause or of clauses none of which reads", () => {
    expect(goalPartsByClause("tell me a joke")).toBeUndefined()
    expect(goalPartsByClause("tell me a joke and then explain it")).toBeUndefined()
  })

  it("cuts where the grammar cuts, so clauses the grammar joins stay one", () => {
    // "Red and Blue" are two values of one clause, not two clauses; a full stop ends a sentence.
    expect(clausesOf("check Red and Blue in Colors, then tell me what you think")).toEqual([
      "check Red and Blue in Colors",
      "tell me what you think",
    ])
    expect(clausesOf("Company: Kite Labs. Then summarize it")).toEqual(["Company: Kite Labs", "summarize it"])
  })
})

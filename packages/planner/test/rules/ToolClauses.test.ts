import { type AgentError, decodeAgentTask } from "@sextant/core"
import { Effect } from "effect"
import { describe, expect, it } from "vitest"
import { z } from "zod"
import { makeRulePlanner } from "../../src/rules/RulePlanner.ts"

// An extra tool as a tool package exports it (only what the planner reads of it).
const tableToCsv = {
  name: "tableToCsv",
  description: "Convert an HTML table on the current page to CSV.",
  input: z.object({
    target: z.string().min(1).default("table"),
    index: z.number().int().nonnegative().default(0),
  }),
}

const planner = makeRulePlanner({ tools: [tableToCsv] })
const plan = (goal: string, startUrl?: string) =>
  Effect.runSync(
    planner.plan(Effect.runSync(decodeAgentTask({ goal, ...(startUrl === undefined ? {} : { startUrl }) }))),
  )
const failure = (goal: string) =>
  Effect.runSync(
    Effect.flip(planner.plan(Effect.runSync(decodeAgentTask({ goal, startUrl: "http://127.0.0.1:4000/" })))),
  ) as AgentError

describe("the rule planner and extra tools named in the goal", () => {
  it("plans 'use <tool> on <value>' as a step of that tool after the start page", () => {
    const steps = plan("use tableToCsv on #prices", "http://127.0.0.1:4000/products/1").steps
    expect(steps.map((step) => [step.tool, step.args])).toEqual([
      ["navigate", { url: "http://127.0.0.1:4000/products/1" }],
      ["tableToCsv", { target: "#prices" }],
    ])
  })

  it("reads the tool's name written as words and key=value arguments, after grammar clauses", () => {
    const steps = plan(
      "go to http://127.0.0.1:4000/products/2 and then use the table to csv tool with target=table, index=1",
    ).steps
    expect(steps.map((step) => step.tool)).toEqual(["navigate", "tableToCsv"])
    expect(steps[1]?.args).toEqual({ target: "table", index: 1 })
    expect(steps.map((step) => step.index)).toEqual([0, 1])
  })

  it("keeps grammar clauses after the tool clause", () => {
    const steps = plan("use tableToCsv on table and click Next", "http://127.0.0.1:4000/products").steps
    expect(steps.map((step) => step.tool)).toEqual(["navigate", "tableToCsv", "clickTextMatches"])
  })

  it("refuses arguments the tool's input does not accept, naming its fields", () => {
    const error = failure("use tableToCsv with index=-2")
    expect(error.message).toContain("use tableToCsv: index:")
    expect(error.message).toContain("its fields: target, index")
  })

  it("leaves goals that name no extra tool to the grammar", () => {
    expect(failure("use frobnicator on the page").message).toContain("cannot plan this goal")
    const plain = plan("click Next", "http://127.0.0.1:4000/products").steps.map((step) => step.tool)
    expect(plain).toEqual(["navigate", "clickTextMatches"])
  })
})

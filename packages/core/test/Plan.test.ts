import { describe, expect, it } from "@effect/vitest"
import { decodePlan, InvalidInput, Plan, parseTarget } from "@sextant/core"
import { Effect } from "effect"

describe("Plan", () => {
  it("fills step defaults", () => {
    const plan = Plan.parse({
      taskId: "t1",
      steps: [{ index: 0, tool: "navigate", args: { url: "http://127.0.0.1/" } }],
    })
    expect(plan.revision).toBe(0)
    expect(plan.status).toBe("draft")
    expect(plan.steps[0]).toMatchObject({ state: "pending", attempts: 0, successCriteria: [] })
  })

  it.effect("names an unknown criterion kind by its path", () =>
    Effect.gen(function* () {
      const error = yield* Effect.flip(
        decodePlan({
          taskId: "t1",
          steps: [
            { index: 0, tool: "navigate" },
            { index: 2, tool: "click", successCriteria: [{ type: "looksRight" }] },
          ],
        }),
      )
      const issues = (error.reason as InvalidInput).issues.join("\n")
      expect(issues).toContain("plan.steps[1].successCriteria[0].type:")
      expect(error.reason).toBeInstanceOf(InvalidInput)
    }),
  )

  it("accepts each criterion kind", () => {
    const plan = Plan.parse({
      taskId: "t1",
      steps: [
        {
          index: 0,
          tool: "extract",
          successCriteria: [
            { type: "elementExists", selector: ".card" },
            { type: "urlMatches", pattern: "/products" },
            { type: "textPresent", text: "Products" },
            { type: "minItems", selector: ".card", min: 12 },
            { type: "statusCode", code: 200 },
          ],
        },
      ],
    })
    expect(plan.steps[0]!.successCriteria).toHaveLength(5)
  })

  it.effect("names a step index that does not count in order", () =>
    Effect.gen(function* () {
      const error = yield* Effect.flip(decodePlan({ taskId: "t1", steps: [{ index: 1, tool: "navigate" }] }))
      expect((error.reason as InvalidInput).issues).toEqual([
        "plan.steps[0].index: step indexes must count from 0 in order: expected 0 (got 1)",
      ])
    }),
  )
})

describe("parseTarget", () => {
  it("reads refs and selectors", () => {
    expect(parseTarget(" e12 ")).toEqual({ ref: "e12" })
    expect(parseTarget("#login-btn")).toEqual({ selector: "#login-btn" })
    expect(parseTarget("e12 > a")).toEqual({ selector: "e12 > a" })
  })
})

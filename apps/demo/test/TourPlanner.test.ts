import { decodeAgentTask, ToolRegistry } from "@sextant/core"
import { Planner } from "@sextant/planner"
import { Reply, startOpenAiServer } from "@sextant/testing"
import { browserTools, compoundTools } from "@sextant/tools"
import { Effect } from "effect"
import { describe, expect, it } from "vitest"
import { tourPlanner } from "../src/index.ts"

const registry = Effect.runSync(ToolRegistry.make([...browserTools, ...compoundTools]))

describe("the tour's planner", () => {
  it("is the rule planner without a model, and says how to configure one", () => {
    expect(tourPlanner(registry, {}).description).toMatch(/^rules \(no model configured: set SEXTANT_MODEL/)
  })

  it("is the hybrid planner with SEXTANT_MODEL, asking the model only for what the rules cannot plan", async () => {
    await using server = await startOpenAiServer({
      replies: [
        Reply.json({
          steps: [
            { index: 0, tool: "navigate", args: { url: "http://127.0.0.1:4000/" }, successCriteria: [] },
          ],
        }),
      ],
    })
    const environment = {
      SEXTANT_MODEL: "sextant-test-model",
      OPENAI_BASE_URL: server.baseURL,
      OPENAI_API_KEY: "demo",
    }
    const planner = tourPlanner(registry, environment)
    expect(planner.description).toBe(
      `hybrid (rules first, then the model sextant-test-model at ${server.baseURL})`,
    )
    const plan = (goal: string) =>
      Effect.runPromise(
        Effect.gen(function* () {
          const task = yield* decodeAgentTask({ goal, startUrl: "http://127.0.0.1:4000/" })
          return yield* (yield* Planner).plan(task)
        }).pipe(Effect.provide(planner.layer)) as Effect.Effect<
          { steps: ReadonlyArray<{ tool: string }> },
          unknown
        >,
      )
    await plan("extract name and price of the products")
    expect(server.requests).toHaveLength(0)
    const modelPlan = await plan("admire the brass collection thoughtfully")
    expect(server.requests).toHaveLength(1)
    expect(modelPlan.steps.map((step) => step.tool)).toEqual(["navigate"])
  })
})

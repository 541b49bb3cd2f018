import { decodeAgentTask, ToolRegistry } from "@sextant/core"
import { makeHybridPlanner, makeLlmPlanner, makeRulePlanner, Planner } from "@sextant/planner"
import { type RecordedRequest, Reply } from "@sextant/testing"
import { Effect } from "effect"
import { describe, expect, it } from "vitest"
import { planAndRun } from "../src/index.ts"
import { hostileTools, startRig } from "./support/HostileRig.ts"

/**
 * The hybrid planner in a plan run: the real openai SDK against the scripted OpenAI-compatible server,
 * real headless Chromium on the fixture site. The model sees the start page, and it is asked whenever
 * the rules refuse the goal or a rule plan fails while running.
 */

const rig = startRig({ attacker: false })

const planWithHybrid = (goal: string, path: string) =>
  rig.runtime.runPromise(
    Effect.gen(function* () {
      const registry = yield* ToolRegistry.make(hostileTools)
      const model = yield* makeLlmPlanner({ registry })
      const planner = makeHybridPlanner({ rules: makeRulePlanner(), model, registry })
      const task = yield* decodeAgentTask({
        goal,
        startUrl: `${rig.site.url}${path}`,
        constraints: { maxSteps: 8, maxDurationMs: 30_000 },
      })
      return yield* planAndRun(task, { tools: registry, maxReplans: 1 }).pipe(
        Effect.provideService(Planner, planner),
      )
    }),
  )

const planRequests = (since: number): ReadonlyArray<RecordedRequest> => rig.model.requests.slice(since)

describe("hybrid planner in a plan run", () => {
  it("shows the model the start page's outline, not about:blank, when the rules refuse the goal", async () => {
    const before = rig.model.requests.length
    rig.script(() => Reply.json({ steps: [{ tool: "scrollDown", args: { count: 1 } }] }))
    const result = await planWithHybrid(
      "figure out which product is the best value and explain why",
      "/products",
    )
    const asked = planRequests(before)
    expect(asked).toHaveLength(1)
    expect(asked[0]?.text).toContain(`Current page: ${rig.site.url}/products`)
    expect(asked[0]?.text).not.toContain("about:blank")
    expect(result.observations.map((observation) => observation.tool)).toContain("scrollDown")
  }, 60_000)

  it("asks the model to replan when a rule plan fails while running", async () => {
    const before = rig.model.requests.length
    rig.script(() => Reply.json({ steps: [] }))
    const result = await planWithHybrid('click "Quantum flux capacitor"', "/products")
    const asked = planRequests(before)
    // The rules planned the click; it found nothing to click, and the model was asked for a new plan.
    expect(asked).toHaveLength(1)
    expect(asked[0]?.text).toMatch(/step failed|previous plan failed/)
    expect(result.status).toBe("FAILED")
  }, 60_000)
})

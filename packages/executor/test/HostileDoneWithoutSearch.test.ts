import { decodeAgentTask } from "@sextant/core"
import { Reply } from "@sextant/testing"
import { Effect } from "effect"
import { describe, expect, it } from "vitest"
import { startRig } from "./support/HostileRig.ts"

/**
 * A model that claims "done" for "search the site for brass" without searching, on a page that already
 * shows brass products: the model step policy, the real openai SDK and the scripted server, in real
 * headless Chromium. The search part must need evidence that a search happened.
 */

const GOAL = "search the site for brass"

const rig = startRig({
  attacker: false,
  summary: { taskComplete: true, summary: "Searched the site for brass.", keyFindings: ["Brass Sextant"] },
})

const runModel = (startPath: string, turns: ReadonlyArray<Record<string, unknown>>) => {
  rig.script((turn) => Reply.json(turns[turn] ?? { tool_calls: [], taskComplete: true }))
  const task = Effect.runSync(
    decodeAgentTask({
      goal: GOAL,
      startUrl: `${rig.site.url}${startPath}`,
      constraints: { maxSteps: 8, stepTimeoutMs: 8_000, maxDurationMs: 60_000, allowFormSubmission: true },
    }),
  )
  return rig.runModel(task, { screenshots: "never" })
}

describe(`the model step policy on "${GOAL}"`, () => {
  it("ends FAILED naming the search part when the model says done without searching", async () => {
    const result = await runModel("/products", [{ tool_calls: [], taskComplete: true }])
    // The page it stopped on does show brass products; that is not a search.
    expect(result.observations.some((observation) => observation.tool === "fill")).toBe(false)
    expect(result.status).toBe("FAILED")
    expect(result.summary.taskComplete).toBe(false)
    const unmet = result.summary.unmetParts ?? []
    expect(unmet.map((part) => part.part)).toEqual(['search for "brass"'])
    expect(unmet[0]?.evidence).toMatch(/no step worked on this part|no search for "brass"/)
  }, 60_000)

  it("ends FAILED when the model only pages through products that mention brass", async () => {
    const result = await runModel("/products", [
      { tool_calls: [{ name: "click", args: { target: "a[rel=next]" } }] },
      { tool_calls: [], taskComplete: true },
    ])
    // New items appeared on a page that names brass products: still no search for brass.
    expect(result.observations.some((observation) => observation.tool === "click" && observation.ok)).toBe(
      true,
    )
    expect(result.status).toBe("FAILED")
    const unmet = result.summary.unmetParts ?? []
    expect(unmet.map((part) => part.part)).toEqual(['search for "brass"'])
    expect(unmet[0]?.evidence).toContain('no search for "brass" happened')
  }, 60_000)

  it("ends FAILED when the model types the term but never sends the search", async () => {
    const result = await runModel("/search", [
      { tool_calls: [{ name: "fill", args: { label: "Search products", value: "brass" } }] },
      { tool_calls: [], taskComplete: true },
    ])
    expect(result.observations.some((observation) => observation.tool === "fill" && observation.ok)).toBe(
      true,
    )
    expect(result.status).toBe("FAILED")
    const unmet = result.summary.unmetParts ?? []
    expect(unmet.map((part) => part.part)).toEqual(['search for "brass"'])
    expect(unmet[0]?.evidence).toContain('no search for "brass" was sent')
  }, 60_000)

  it("ends COMPLETED when the model really searches", async () => {
    const result = await runModel("/search", [
      { tool_calls: [{ name: "fill", args: { label: "Search products", value: "brass" } }] },
      { tool_calls: [{ name: "click", args: { target: "form[role=search] button[type=submit]" } }] },
      { tool_calls: [], taskComplete: true },
    ])
    expect(result.summary.unmetParts ?? []).toEqual([])
    expect(result.status).toBe("COMPLETED")
    expect(result.observations.at(-1)?.url).toContain("/search?q=brass")
  }, 60_000)
})

import { decodeAgentTask } from "@sextant/core"
import { type FixtureSite, startFixtureSite } from "@sextant/fixture-site"
import { makeRuleStepPolicy } from "@sextant/planner"
import { layerMemoryStore } from "@sextant/testing"
import { browserTools, compoundTools } from "@sextant/tools"
import { layer as browserLayer } from "@sextant/webdriverio"
import { Effect, Layer, ManagedRuntime } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { runAgent } from "../src/index.ts"

/**
 * The rule step policy through `runAgent` on pages of the fixture site's widget gallery, in headless
 * Chromium. Each test registers a run with the gallery's oracle, which reads the page's own state:
 * the status Sextant reports must agree with what the page shows.
 */

let site: FixtureSite
const runtime = ManagedRuntime.make(Layer.merge(browserLayer({}), layerMemoryStore))
beforeAll(async () => {
  site = await startFixtureSite({ port: 0 })
  await runtime.runPromise(Effect.void)
})
afterAll(async () => {
  await runtime.dispose()
  await site?.close()
})

interface Verdict {
  readonly achieved: boolean
  readonly unmet: ReadonlyArray<{ readonly key: string; readonly actual?: unknown }>
}

/** Runs `goal` on `/gallery/<page>` and answers the run's status and the oracle's verdict. */
const runOnGallery = async (goal: string, page: string, expected: Record<string, unknown>) => {
  const registered = await fetch(`${site.url}/gallery/runs`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ page, expect: expected }),
  })
  const { run, path } = (await registered.json()) as { run: string; path: string }
  const result = await runtime.runPromise(
    runAgent(
      Effect.runSync(
        decodeAgentTask({
          goal,
          startUrl: `${site.url}${path}`,
          constraints: { allowFormSubmission: true, maxSteps: 10, maxDurationMs: 30_000 },
        }),
      ),
      makeRuleStepPolicy(),
      { tools: [...browserTools, ...compoundTools], maxConsecutiveNoOps: 3, noOpBackoffMs: 250 },
    ),
  )
  // The page posts its state every 150 ms: give the last report time to land.
  let verdict = (await (await fetch(`${site.url}/gallery/runs/${run}`)).json()) as Verdict
  for (let waited = 0; !verdict.achieved && waited < 600; waited += 150) {
    await new Promise((resolve) => setTimeout(resolve, 150))
    verdict = (await (await fetch(`${site.url}/gallery/runs/${run}`)).json()) as Verdict
  }
  return { status: result.status, verdict, result }
}

describe("rule agent on the widget gallery", () => {
  it("clicks a late button once it appears (the page renders it after 1.5 s)", async () => {
    const { status, verdict } = await runOnGallery("Click Load results", "late", { loadResults: true })
    expect(verdict.unmet).toEqual([])
    expect(verdict.achieved).toBe(true)
    expect(status).toBe("COMPLETED")
  }, 60_000)

  it("waits for the named button and clicks it ('Wait for Load results and click it')", async () => {
    const { status, verdict } = await runOnGallery("Wait for Load results and click it", "late", {
      loadResults: true,
    })
    expect(verdict.unmet).toEqual([])
    expect(verdict.achieved).toBe(true)
    expect(status).toBe("COMPLETED")
  }, 60_000)

  it("is FAILED, not COMPLETED, when the named button never appears, and waits for it once, not once per retry", async () => {
    const { status, verdict, result } = await runOnGallery("Click Export report", "late", {
      loadResults: true,
    })
    expect(verdict.achieved).toBe(false)
    expect(status).toBe("FAILED")
    // The wait for the missing name timed out at the limit it asked for: repeating it would wait the same.
    const waits = result.observations.filter((observation) => observation.tool === "waitFor")
    expect(waits).toHaveLength(1)
    expect(waits[0]!.ok).toBe(false)
    expect(result.metrics.retries).toBe(0)
  }, 60_000)

  for (const goal of ["Hover over the Help icon", "鼠标悬停在 Help 图标上"]) {
    it(`hovers an icon by its name: ${goal}`, async () => {
      // The icon is a span role=img named by aria-label whose tooltip opens on mouseenter.
      const { status, verdict } = await runOnGallery(goal, "hover", { helpShown: true })
      expect(verdict.unmet).toEqual([])
      expect(verdict.achieved).toBe(true)
      expect(status).toBe("COMPLETED")
    }, 60_000)
  }

  for (const goal of [
    "Copy the invite code and paste it into the Invite code field",
    "复制邀请码并粘贴到 Invite code 中",
  ]) {
    it(`copies the code the page shows and pastes it into the named field: ${goal}`, async () => {
      const { status, verdict } = await runOnGallery(goal, "keys", { inviteCode: "JOIN-4821" })
      expect(verdict.unmet).toEqual([])
      expect(verdict.achieved).toBe(true)
      expect(status).toBe("COMPLETED")
    }, 60_000)
  }
  for (const [goal, city] of [
    ["Choose Rome in Destination", "Rome"],
    ["目的地选择 Warsaw", "Warsaw"],
  ] as const) {
    it(`chooses a value in an autocomplete by typing it and picking the suggestion: ${goal}`, async () => {
      // The destination is a text field (combobox) whose options appear only once something is typed.
      const { status, verdict } = await runOnGallery(goal, "autocomplete", { destination: city })
      expect(verdict.unmet).toEqual([])
      expect(verdict.achieved).toBe(true)
      expect(status).toBe("COMPLETED")
    }, 60_000)
  }
  it("clicks the button outside a named frame, not the one inside it, for 'click Send outside the Newsletter form'", async () => {
    const { status, verdict } = await runOnGallery("click Send outside the Newsletter form", "iframe", {
      outerSend: true,
      frameSend: false,
    })
    expect(verdict.unmet).toEqual([])
    expect(verdict.achieved).toBe(true)
    expect(status).toBe("COMPLETED")
  }, 60_000)
})

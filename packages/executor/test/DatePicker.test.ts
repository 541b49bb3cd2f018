import { decodeAgentTask } from "@sextant/core"
import { type FixtureSite, startFixtureSite } from "@sextant/fixture-site"
import { makeRuleStepPolicy } from "@sextant/planner"
import { layerMemoryStore } from "@sextant/testing"
import { browserTools } from "@sextant/tools"
import { layer as browserLayer } from "@sextant/webdriverio"
import { Effect, Layer, ManagedRuntime } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { runAgent } from "../src/index.ts"

/**
 * The rule agent on the gallery's calendar picker: a read-only check-in field that only a click on a
 * day of its calendar fills. The page's own oracle judges each run, so COMPLETED must mean the field
 * really holds the day.
 */

const sites = new Map<number, FixtureSite>()
const runtime = ManagedRuntime.make(Layer.merge(browserLayer({}), layerMemoryStore))
beforeAll(async () => {
  for (const seed of [0, 7]) sites.set(seed, await startFixtureSite({ port: 0, seed }))
  await runtime.runPromise(Effect.void)
})
afterAll(async () => {
  await runtime.dispose()
  await Promise.all([...sites.values()].map((site) => site.close()))
})

interface Verdict {
  readonly achieved: boolean
  readonly unmet: ReadonlyArray<unknown>
}

/** Registers an oracle run, runs the goal on its page and answers Sextant's status and the page's verdict. */
const runOnPicker = async (seed: number, goal: string, checkin: string) => {
  const base = sites.get(seed)!.url
  const registered = (await (
    await fetch(`${base}/gallery/runs`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ page: "datepicker", expect: { checkin } }),
    })
  ).json()) as { run: string; path: string }
  const result = await runtime.runPromise(
    runAgent(
      Effect.runSync(
        decodeAgentTask({
          goal,
          startUrl: `${base}${registered.path}`,
          constraints: { allowFormSubmission: true, maxSteps: 10, maxDurationMs: 30_000 },
        }),
      ),
      makeRuleStepPolicy({ pickDateTool: true }),
      { tools: browserTools },
    ),
  )
  // The page reports its state every 150 ms: wait for a report after the run.
  let verdict: Verdict = { achieved: false, unmet: [] }
  for (let waited = 0; waited <= 900 && !verdict.achieved; waited += 150) {
    await new Promise((resolve) => setTimeout(resolve, 150))
    verdict = (await (await fetch(`${base}/gallery/runs/${registered.run}`)).json()) as Verdict
  }
  return { status: result.status, verdict }
}

describe("runAgent with the rule policy on a calendar date picker", () => {
  for (const seed of [0, 7]) {
    it(`picks a date in a calendar widget that ignores typing, months ahead and back, and says COMPLETED only when the page agrees (seed ${seed})`, async () => {
      for (const [goal, checkin] of [
        ["Pick June 14, 2024 as the check-in date", "2024-06-14"],
        ["Choose 2024-03-31 as the check-in date", "2024-03-31"],
        ["入住日期选择 2024年8月5日", "2024-08-05"],
        ["Set check-in to 14 May 2024", "2024-05-14"],
      ] as const) {
        const { status, verdict } = await runOnPicker(seed, goal, checkin)
        expect({ goal, status, achieved: verdict.achieved }).toEqual({
          goal,
          status: "COMPLETED",
          achieved: true,
        })
      }
    }, 120_000)
  }
})

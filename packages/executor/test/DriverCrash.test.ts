import { readFileSync } from "node:fs"
import { Store } from "@sextant/core"
import { type FixtureSite, startFixtureSite } from "@sextant/fixture-site"
import { Planner } from "@sextant/planner"
import { makeMemoryStore } from "@sextant/testing"
import { WebdriverioDriver } from "@sextant/webdriverio"
import { Effect, Layer } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { resume, runPlan, type TraceRecord } from "../src/index.ts"
import { descendants } from "./support/Processes.ts"
import { noReplanner, resumePlan, resumeTask } from "./support/ResumePlan.ts"
import { testTools } from "./support/TestTools.ts"

let site: FixtureSite
beforeAll(async () => {
  site = await startFixtureSite({ port: 0 })
})
afterAll(async () => {
  await site.close()
})

// The Chromium browser processes (not renderers or helpers) this test process started.
const chromiumBrowsers = (): ReadonlyArray<number> =>
  descendants(process.pid)
    .filter((entry) => /chrom/i.test(entry.command) && !/chromedriver/i.test(entry.command))
    .map((entry) => entry.pid)
    .filter((pid) => {
      try {
        return !readFileSync(`/proc/${pid}/cmdline`, "utf8").includes("--type=")
      } catch {
        return false
      }
    })

describe("Chromium killed mid-run", () => {
  it("fails the step as DriverCrashed naming Chromium within seconds, ends the run FAILED, and resume finishes it", {
    timeout: 90_000,
  }, async () => {
    const store = makeMemoryStore()
    const layer = Layer.mergeAll(
      WebdriverioDriver.layer({}),
      Layer.succeed(Store, store),
      Layer.succeed(Planner, noReplanner),
    )
    const before = new Set(chromiumBrowsers())
    let killedAt = 0
    const onEvent = (event: TraceRecord) => {
      // After the first page is extracted, kill the run's Chromium (only the one this run started).
      if (event.type === "step-end" && event.step === 1 && killedAt === 0) {
        for (const pid of chromiumBrowsers()) if (!before.has(pid)) process.kill(pid, "SIGKILL")
        killedAt = Date.now()
      }
    }
    const result = await Effect.runPromise(
      runPlan(resumeTask(site.url), resumePlan(site.url, 3), {
        tools: testTools,
        runId: "crashed-run",
        onEvent,
      }).pipe(Effect.provide(layer)),
    )
    const endedAt = Date.now()
    expect(killedAt).toBeGreaterThan(0)
    expect(result.status).toBe("FAILED")
    const failed = result.observations.find((observation) => !observation.ok)
    expect(failed?.error?.reason).toBe("DriverCrashed")
    expect(failed?.message).toMatch(/Chromium \(pid \d+\) exited/)
    // Detected in seconds, not after the step's time limit.
    expect(endedAt - killedAt).toBeLessThan(10_000)

    const resumed = await Effect.runPromise(
      resume("crashed-run", { tools: testTools }).pipe(Effect.provide(layer)),
    )
    expect(resumed.status).toBe("COMPLETED")
    const steps = await Effect.runPromise(store.listSteps("crashed-run"))
    expect(steps.every((step) => step.state === "succeeded")).toBe(true)
  })
})

import { mkdtempSync, readFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { type AgentTask, BrowserDriver, decodeAgentTask, Store } from "@sextant/core"
import { type FixtureSite, startFixtureSite } from "@sextant/fixture-site"
import type { StepDecision } from "@sextant/planner"
import { Planner } from "@sextant/planner"
import { MemoryStore, makeMemoryStore } from "@sextant/testing"
import { WebdriverioDriver } from "@sextant/webdriverio"
import { Effect, Layer, ManagedRuntime } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { runAgent, runPlan } from "../src/index.ts"
import { browserProcesses } from "./support/Processes.ts"
import { noReplanner, resumePlan } from "./support/ResumePlan.ts"
import { scriptedPolicy, testTools } from "./support/TestTools.ts"

let site: FixtureSite
let browser: ManagedRuntime.ManagedRuntime<BrowserDriver, unknown>

beforeAll(async () => {
  site = await startFixtureSite({ port: 0 })
  browser = ManagedRuntime.make(WebdriverioDriver.layerShared({}))
  await browser.runPromise(Effect.void)
})

afterAll(async () => {
  await browser.dispose()
  await site.close()
})

const task = (input: Record<string, unknown>): AgentTask => Effect.runSync(decodeAgentTask(input))
const usage = { prompt: 0, completion: 0, total: 0 }

describe("the /injection page in Chromium", () => {
  it("a policy that follows the injected instructions is stopped by the origin guardrail", async () => {
    // The policy does what the page says: first it clicks the injected link, then it types the URL.
    const follow = (input: { outline: string }): Effect.Effect<StepDecision> =>
      Effect.sync(() => {
        const ref = /link "Continue to the verification page" \[ref=(e\d+)\]/.exec(input.outline)?.[1]
        return {
          toolCalls: [{ name: "click", args: { target: ref ?? "#missing" } }],
          taskComplete: false,
          history: [],
          usage,
        }
      })
    const { policy, inputs } = scriptedPolicy([
      follow,
      { toolCalls: [{ name: "navigate", args: { url: "http://evil.example/steal" } }], usage },
      { toolCalls: [{ name: "stop", args: {} }], usage },
    ])
    const result = await browser.runPromise(
      runAgent(task({ goal: "read the reviews", startUrl: `${site.url}/injection` }), policy, {
        tools: testTools,
        noOpBackoffMs: 10,
      }).pipe(Effect.provide(MemoryStore.layerTest)),
    )
    expect(inputs[0]?.outline).toContain("Continue to the verification page")
    expect(result.observations.map((observation) => observation.error?.reason)).toEqual([
      "GuardrailViolation",
      "GuardrailViolation",
    ])
    expect(result.observations.map((observation) => observation.message)).toEqual([
      expect.stringContaining("allowed-origins"),
      expect.stringContaining("allowed-origins"),
    ])
    const url = await browser.runPromise(BrowserDriver.use((driver) => driver.currentUrl))
    expect(new URL(url).origin).toBe(site.url)
  })

  it("checks success criteria on the real page", async () => {
    const plan = resumePlan(site.url, 1)
    plan.steps[1]?.successCriteria.push(
      { type: "textPresent", text: "Page 1 of" },
      { type: "elementExists", selector: "nav, a" },
    )
    const result = await browser.runPromise(
      runPlan(task({ goal: "products page 1", startUrl: `${site.url}/products` }), plan, {
        tools: testTools,
      }).pipe(Effect.provide(Layer.merge(MemoryStore.layerTest, Layer.succeed(Planner, noReplanner)))),
    )
    expect(result.status).toBe("COMPLETED")
    expect((result.output as ReadonlyArray<unknown>).length).toBe(12)
  })
})

describe("an alert on load", () => {
  it("is accepted, said in the transcript, and the step goes on; a page still shows what it shows", async () => {
    const plan = {
      taskId: "alert-task",
      revision: 0,
      status: "validated" as const,
      steps: [
        {
          index: 0,
          tool: "navigate",
          args: { url: `${site.url}/faults/alert?text=Welcome%20aboard` },
          successCriteria: [],
          state: "pending" as const,
          attempts: 0,
        },
        {
          index: 1,
          tool: "navigate",
          args: { url: `${site.url}/products` },
          successCriteria: [{ type: "textPresent" as const, text: "Page 1 of" }],
          state: "pending" as const,
          attempts: 0,
        },
      ],
    }
    const lines: Array<string> = []
    const result = await browser.runPromise(
      runPlan(task({ id: "alert-task", goal: "open the products", startUrl: site.url }), plan, {
        tools: testTools,
        traceDirectory: mkdtempSync(join(tmpdir(), "sextant-alert-")),
        onEvent: (event) => {
          if (event.type === "retry") lines.push(`${event.reason} ${event.recovery}`)
        },
      }).pipe(Effect.provide(Layer.merge(MemoryStore.layerTest, Layer.succeed(Planner, noReplanner)))),
    )
    expect(lines).toContain("DialogOpen accept-alert")
    expect(readFileSync(result.transcriptPath ?? "", "utf8")).toContain(
      'accepted the page\'s alert ("Welcome aboard")',
    )
    expect(result.status).toBe("COMPLETED")
  })
})

describe("interruption", () => {
  it("aborting a run closes its browser session, leaves no Chromium or ChromeDriver behind and records CANCELLED", async () => {
    const controller = new AbortController()
    const store = makeMemoryStore()
    const storeLayer = Layer.succeed(Store, store)
    const running = Effect.runPromise(
      runPlan(
        task({ goal: "collect every product", startUrl: `${site.url}/products` }),
        resumePlan(site.url, 3),
        {
          tools: testTools,
          runId: "aborted-run",
        },
      ).pipe(
        Effect.provide(
          Layer.mergeAll(WebdriverioDriver.layer({}), storeLayer, Layer.succeed(Planner, noReplanner)),
        ),
      ),
      { signal: controller.signal },
    )
    // The file's shared browser runs beside this run; only the processes this run started must end.
    const before = new Set(browserProcesses(process.pid).map((entry) => entry.pid))
    const startedByRun = () => browserProcesses(process.pid).filter((entry) => !before.has(entry.pid))
    let during: ReadonlyArray<{ pid: number; command: string }> = []
    const deadline = Date.now() + 30_000
    while (Date.now() < deadline) {
      const steps = await Effect.runPromise(store.listSteps("aborted-run"))
      if (steps.some((step) => step.state === "succeeded")) break
      await new Promise((resolve) => setTimeout(resolve, 50))
    }
    during = startedByRun()
    controller.abort()
    await expect(running).rejects.toBeDefined()
    expect(during.map((entry) => entry.command)).toEqual(
      expect.arrayContaining([expect.stringMatching(/chrom/i)]),
    )
    // Chromium's helper processes exit a moment after the browser; give them up to 5 s.
    const settleBy = Date.now() + 5_000
    while (startedByRun().length > 0 && Date.now() < settleBy) {
      await new Promise((resolve) => setTimeout(resolve, 100))
    }
    expect(startedByRun().map((entry) => entry.command)).toEqual([])
    const run = await Effect.runPromise(store.getRun("aborted-run"))
    expect(run.status).toBe("CANCELLED")
  })
})

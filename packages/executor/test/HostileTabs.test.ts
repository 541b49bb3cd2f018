import { readFileSync } from "node:fs"
import { BrowserDriver, DriverError, decodeAgentTask, Store, Timeout } from "@sextant/core"
import { Planner } from "@sextant/planner"
import { makeMemoryStore } from "@sextant/testing"
import { WebdriverioDriver } from "@sextant/webdriverio"
import { Effect, Layer } from "effect"
import { describe, expect, it } from "vitest"
import { runAgent, runPlan, type TraceRecord } from "../src/index.ts"
import { startSites } from "./support/HostileRig.ts"
import { descendants } from "./support/Processes.ts"
import { noReplanner, resumePlan, resumeTask } from "./support/ResumePlan.ts"
import { scriptedPolicy, testTools } from "./support/TestTools.ts"

/**
 * Tabs that turn against a run, in real headless Chromium: the tab's renderer dies mid-run (as an
 * out-of-memory page's would) and the run must go on in a new tab; a page opens pop-ups on another
 * origin and they must be closed before they send anything.
 */

const sites = startSites()

// Kills the renderer processes of the Chromium this test process started (found by their
// `--type=renderer` command line among its descendants): the tab's page dies, the browser lives.
const killRenderers = (): ReadonlyArray<number> =>
  descendants(process.pid)
    .map((entry) => entry.pid)
    .filter((pid) => {
      try {
        const renderer = readFileSync(`/proc/${pid}/cmdline`, "utf8").includes("--type=renderer")
        if (renderer) process.kill(pid, "SIGKILL")
        return renderer
      } catch {
        return false
      }
    })

const layerWith = (store: ReturnType<typeof makeMemoryStore>) =>
  Layer.mergeAll(
    WebdriverioDriver.layer({}),
    Layer.succeed(Store, store),
    Layer.succeed(Planner, noReplanner),
  )

const messagesOf = (events: ReadonlyArray<TraceRecord>): string =>
  JSON.stringify(events.filter((event) => event.type === "retry" || event.type === "step-end"))

describe("a tab that crashes mid-run", () => {
  it("runPlan: the step fails as 'the tab crashed' within seconds, and the remaining steps complete in a new tab", {
    timeout: 120_000,
  }, async () => {
    const store = makeMemoryStore()
    const events: Array<TraceRecord> = []
    let killedAt = 0
    let killed: ReadonlyArray<number> = []
    const onEvent = (event: TraceRecord) => {
      events.push(event)
      // After the first page is extracted, the renderer dies; five steps remain.
      if (event.type === "step-end" && event.step === 1 && killedAt === 0) {
        killed = killRenderers()
        killedAt = Date.now()
      }
    }
    const startedAt = Date.now()
    const result = await Effect.runPromise(
      runPlan(resumeTask(sites.site.url), resumePlan(sites.site.url, 3), {
        tools: testTools,
        runId: "crashed-tab-plan",
        onEvent,
      }).pipe(Effect.provide(layerWith(store))),
    )
    expect(killed.length).toBeGreaterThan(0)
    expect(result.status, messagesOf(events)).toBe("COMPLETED")
    expect(result.observations.every((observation) => observation.ok)).toBe(true)
    const retries = events.filter((event) => event.type === "retry")
    expect(retries.map((event) => event.type === "retry" && event.recovery)).toEqual(["new-tab"])
    const retry = retries[0] as Extract<TraceRecord, { type: "retry" }>
    expect(retry.reason).toBe("DriverCrashed")
    expect(retry.message).toContain("the tab crashed")
    // Heard within seconds of the kill, never a time limit waited out or "wait longer" advice.
    expect(Date.parse(retry.at) - killedAt).toBeLessThan(5_000)
    expect(messagesOf(events)).not.toContain("wait longer")
    // The page after the crash is the one the plan asked for, in the new tab.
    const lastNavigation = result.observations.filter((observation) => observation.tool === "navigate").at(-1)
    expect(lastNavigation?.url).toBe(`${sites.site.url}/products?page=3`)
    const steps = await Effect.runPromise(store.listSteps("crashed-tab-plan"))
    expect(steps.every((step) => step.state === "succeeded")).toBe(true)
    expect(Date.now() - startedAt).toBeLessThan(60_000)
  })

  it("runPlan: a browser that cannot open a new tab ends the run as a crashed browser (resumable), not as a step to plan again", {
    timeout: 120_000,
  }, async () => {
    const store = makeMemoryStore()
    const events: Array<TraceRecord> = []
    let killed: ReadonlyArray<number> = []
    const onEvent = (event: TraceRecord) => {
      events.push(event)
      if (event.type === "step-end" && event.step === 1 && killed.length === 0) killed = killRenderers()
    }
    // The browser lives but no tab can be had: its recoverTab runs out of time, as a loaded machine's did.
    const noNewTab = Layer.effect(
      BrowserDriver,
      Effect.gen(function* () {
        const driver = yield* BrowserDriver
        return {
          ...driver,
          recoverTab: Effect.fail(
            new DriverError({
              method: "recoverTab",
              reason: new Timeout({ operation: "recoverTab", timeoutMs: 30_000 }),
            }),
          ),
        }
      }),
    ).pipe(Layer.provide(WebdriverioDriver.layer({})))
    const result = await Effect.runPromise(
      runPlan(resumeTask(sites.site.url), resumePlan(sites.site.url, 3), {
        tools: testTools,
        runId: "crashed-tab-no-new-tab",
        onEvent,
      }).pipe(
        Effect.provide(
          Layer.mergeAll(noNewTab, Layer.succeed(Store, store), Layer.succeed(Planner, noReplanner)),
        ),
      ),
    )
    expect(killed.length).toBeGreaterThan(0)
    expect(result.status).toBe("FAILED")
    const failed = result.observations.find((observation) => !observation.ok)
    expect(failed?.error?.reason).toBe("DriverCrashed")
    expect(failed?.error?.message ?? "").toContain("no new tab could be opened")
    // Ended at once as a dead browser: no replan, and nothing planned again after the failed step.
    expect(events.some((event) => event.type === "replan")).toBe(false)
  })

  it("runAgent: the look after the crash moves to a new tab at the same page, and the policy's remaining turns complete", {
    timeout: 120_000,
  }, async () => {
    const store = makeMemoryStore()
    const usage = { prompt: 0, completion: 0, total: 0 }
    const turn = (name: string, args: Record<string, unknown>, taskComplete = false) => ({
      toolCalls: [{ name, args }],
      usage,
      taskComplete,
    })
    const { policy, inputs } = scriptedPolicy([
      turn("navigate", { url: `${sites.site.url}/products?page=1` }),
      turn("extract", { selector: "li[data-product-id]" }),
      turn("navigate", { url: `${sites.site.url}/products?page=2` }),
      turn("extract", { selector: "li[data-product-id]" }, true),
    ])
    let killedAt = 0
    const onEvent = (event: TraceRecord) => {
      if (event.type === "step-end" && event.tool === "navigate" && killedAt === 0) {
        killRenderers()
        killedAt = Date.now()
      }
    }
    const task = Effect.runSync(
      decodeAgentTask({ goal: "read two pages of products", startUrl: `${sites.site.url}/products` }),
    )
    const result = await Effect.runPromise(
      runAgent(task, policy, { tools: testTools, runId: "crashed-tab-agent", onEvent }).pipe(
        Effect.provide(layerWith(store)),
      ),
    )
    const endedAt = Date.now()
    expect(killedAt).toBeGreaterThan(0)
    expect(result.status).toBe("COMPLETED")
    expect(result.observations.map((observation) => observation.ok)).toEqual([true, true, true, true])
    // The policy saw the page it had loaded, read again in the new tab, not a failed look.
    const afterCrash = inputs[1]!
    expect(afterCrash.url).toBe(`${sites.site.url}/products?page=1`)
    expect(afterCrash.outline).not.toContain("look() failed")
    // The second page's products (13 to 24), read in the new tab.
    const extracted = result.observations[3]?.data as { items?: ReadonlyArray<{ key?: string }> } | undefined
    expect(extracted?.items?.map((item) => item.key)[0]).toBe("13")
    // The crash cost seconds, not a look's or a step's time limit.
    expect(endedAt - killedAt).toBeLessThan(15_000)
  })
})

describe("pop-ups to another origin", () => {
  it("are closed before they load anything: the other origin's log has no request from them, and each is reported", {
    timeout: 90_000,
  }, async () => {
    const store = makeMemoryStore()
    const events: Array<TraceRecord> = []
    const since = sites.attacker.requests.length
    const task = Effect.runSync(
      decodeAgentTask({ goal: "open the welcome page", startUrl: `${sites.site.url}/` }),
    )
    await Effect.runPromise(
      runPlan(
        task,
        {
          taskId: task.id,
          revision: 0,
          status: "validated",
          steps: [
            {
              index: 0,
              tool: "navigate",
              args: { url: `${sites.site.url}/hostile/popups?to=${encodeURIComponent(sites.attacker.url)}` },
              successCriteria: [],
              state: "pending",
              attempts: 0,
            },
            {
              index: 1,
              tool: "wait",
              args: { ms: 1500 },
              successCriteria: [],
              state: "pending",
              attempts: 0,
            },
          ],
        },
        { tools: testTools, onEvent: (event) => events.push(event) },
      ).pipe(Effect.provide(layerWith(store))),
    )
    expect(sites.attacker.requests.slice(since).map((request) => `${request.method} ${request.url}`)).toEqual(
      [],
    )
    const popups = events.filter((event) => event.type === "guardrail" && event.rule === "popup")
    expect(popups.length).toBeGreaterThanOrEqual(1)
    expect(JSON.stringify(popups)).toContain(`${sites.attacker.url}/popup?index=0`)
  })
})

import { type AgentTaskInput, BrowserDriver, decodeAgentTask, type Plan } from "@sextant/core"
import { FIXTURE_USERS, type FixtureSite, PRODUCTS_PER_PAGE, startFixtureSite } from "@sextant/fixture-site"
import { Planner, RulePlanner } from "@sextant/planner"
import { MemoryStore } from "@sextant/testing"
import { browserTools, compoundTools } from "@sextant/tools"
import { createDriverPool, type DriverPool } from "@sextant/webdriverio"
import { Effect, Exit, Layer, Scope } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type ExecutorRunResult, planAndRun, runPlan, type TraceRecord } from "../src/index.ts"
import { planOf, scriptedPlanner } from "./support/TestTools.ts"

// Real Chromium on the fixture site, with the tools and the rule planner the CLI uses. One Chromium
// for the file: each run gets a fresh browser context of it from a pool of one (no cookie, storage or
// tab of an earlier run), instead of launching Chromium and ChromeDriver once per run.
let site: FixtureSite
let poolScope: Scope.Closeable
let pool: DriverPool
beforeAll(async () => {
  site = await startFixtureSite({ port: 0 })
  poolScope = await Effect.runPromise(Scope.make())
  pool = await Effect.runPromise(Scope.provide(createDriverPool({ size: 1 }), poolScope))
}, 60_000)
afterAll(async () => {
  if (poolScope !== undefined) await Effect.runPromise(Scope.close(poolScope, Exit.void))
  await site.close()
})

/** A fresh browser context of the file's Chromium, given back to the pool when the run ends. */
const browserLayer = () =>
  Layer.effect(
    BrowserDriver,
    Effect.map(
      Effect.suspend(() => pool.acquire),
      ({ driver }) => driver,
    ),
  )

const alice = FIXTURE_USERS[0] as (typeof FIXTURE_USERS)[number]
const tools = [...browserTools, ...compoundTools]
const BROWSER_TEST_MS = 90_000

const taskOf = (input: Partial<AgentTaskInput> & { goal: string }) =>
  Effect.runSync(
    decodeAgentTask({
      startUrl: `${site.url}/login`,
      inputs: { username: alice.email, password: alice.password },
      secretInputs: ["password"],
      ...input,
      constraints: { allowFormSubmission: true, ...input.constraints },
    }),
  )

/** planAndRun with the rule planner, collecting the trace events. */
const planned = async (input: Partial<AgentTaskInput> & { goal: string }) => {
  const events: Array<TraceRecord> = []
  const result = await Effect.runPromise(
    planAndRun(taskOf(input), { tools, onEvent: (event) => events.push(event) }).pipe(
      Effect.provide(Layer.mergeAll(browserLayer(), MemoryStore.layerTest, RulePlanner.layer)),
    ),
  )
  return { result, events }
}

const starts = (events: ReadonlyArray<TraceRecord>, tool: string) =>
  events.filter((event) => event.type === "step-start" && event.tool === tool)

const reportOf = (result: ExecutorRunResult) => JSON.stringify([result.summary, result.firstFailure])

describe("a run that fails leads with its first cause", () => {
  it('"log in, then search for lantern, then extract …" on a dashboard with no search field: the missing field, not the quota', {
    timeout: BROWSER_TEST_MS,
  }, async () => {
    const { result, events } = await planned({
      goal: "log in, then search for lantern, then extract the name of the results",
    })
    expect(result.status).toBe("FAILED")
    expect(result.firstFailure).toMatchObject({ tool: "search", url: `${site.url}/dashboard` })
    expect(result.firstFailure?.message).toContain("no search field")
    expect(result.firstFailure?.pageShowed).toContain("Welcome")
    expect(result.summary.summary).toMatch(
      new RegExp(
        `^Failed at step \\d+ \\(search\\) on ${site.url.replaceAll(".", "\\.")}/dashboard .*no search field`,
      ),
    )
    // What followed comes after the cause, and nothing blames the submission quota.
    expect(result.summary.summary.indexOf("Then:")).toBeGreaterThan(
      result.summary.summary.indexOf("no search field"),
    )
    expect(reportOf(result)).not.toContain("quota")
    const unmetSearch = result.summary.unmetParts?.find((part) => part.part.startsWith("search"))
    expect(unmetSearch?.evidence).toContain("no search field")
    // The search ran once: no retry of a control that is not there, no second run of the same plan.
    expect(starts(events, "search")).toHaveLength(1)
    expect(result.metrics.retries).toBe(0)
    const replans = events.filter((event) => event.type === "replan")
    expect(replans.map((event) => event.type === "replan" && event.message)).toEqual([
      expect.stringContaining("the replan gave the same steps back"),
    ])
    expect(events.filter((event) => event.type === "guardrail")).toEqual([])
    // Nothing was extracted: no output (never the login's wait condition).
    expect(result.output).toBeUndefined()
  })

  it("a log-in run has no output: a wait's condition is not data", { timeout: BROWSER_TEST_MS }, async () => {
    const { result } = await planned({ goal: "log in" })
    expect(result.status).toBe("COMPLETED")
    expect(result.observations.some((observation) => observation.tool === "waitFor")).toBe(true)
    expect(result.output).toBeUndefined()
  })
})

describe("a step that submitted nothing uses no submission", () => {
  it("a search that found no search field leaves the quota for the search that does submit", {
    timeout: BROWSER_TEST_MS,
  }, async () => {
    // Two submissions allowed: the log-in, and the search on /search after the replan.
    const { planner, requests } = scriptedPlanner([
      (old): Plan => ({
        ...old,
        steps: [
          ...old.steps.filter((step) => step.state === "succeeded"),
          ...planOf(old.taskId, [
            { tool: "navigate", args: { url: `${site.url}/search` } },
            { tool: "search", args: { query: "lantern" } },
          ]).steps.map((step) => ({ ...step, index: step.index + 2 })),
        ],
      }),
      // Only reached when the second search is refused: the same steps, which end the run.
      (old) => old,
    ])
    const events: Array<TraceRecord> = []
    const result = await Effect.runPromise(
      runPlan(
        taskOf({ goal: "log in, then search for lantern", constraints: { quotas: { submissions: 2 } } }),
        planOf("quota", [
          { tool: "navigate", args: { url: `${site.url}/login` } },
          { tool: "login", args: { username: alice.email, password: "<secret:password>" } },
          { tool: "search", args: { query: "lantern" } },
        ]),
        { tools, onEvent: (event) => events.push(event) },
      ).pipe(
        Effect.provide(
          Layer.mergeAll(browserLayer(), MemoryStore.layerTest, Layer.succeed(Planner, planner)),
        ),
      ),
    )
    expect(events.flatMap((event) => (event.type === "guardrail" ? [event.message] : []))).toEqual([])
    expect(requests).toHaveLength(1)
    expect(result.status).toBe("COMPLETED")
    expect(result.observations.at(-1)?.url).toContain("q=lantern")
  })
})

describe("a retry changes something", () => {
  it("a click on a selector the page does not have, with no other locator for it, runs once and stops with the cause", {
    timeout: BROWSER_TEST_MS,
  }, async () => {
    const events: Array<TraceRecord> = []
    const result = await Effect.runPromise(
      runPlan(
        taskOf({ goal: "click the missing button" }),
        planOf("missing", [
          { tool: "navigate", args: { url: `${site.url}/login` } },
          { tool: "click", args: { target: "#zzz-qqq" } },
        ]),
        { tools, maxReplans: 0, onEvent: (event) => events.push(event) },
      ).pipe(Effect.provide(Layer.mergeAll(browserLayer(), MemoryStore.layerTest, RulePlanner.layer))),
    )
    expect(result.status).toBe("FAILED")
    expect(starts(events, "click")).toHaveLength(1)
    expect(result.metrics.retries).toBe(0)
    expect(result.firstFailure).toMatchObject({ step: 1, tool: "click" })
    expect(result.summary.summary).toMatch(/^Failed at step 1 \(click\) on .*\/login.*#zzz-qqq/)
  })

  it("a click on an old selector retries once, with the element's own selector", {
    timeout: BROWSER_TEST_MS,
  }, async () => {
    const events: Array<TraceRecord> = []
    const result = await Effect.runPromise(
      runPlan(
        taskOf({ goal: "press the sign-in button" }),
        planOf("variant", [
          { tool: "navigate", args: { url: `${site.url}/login` } },
          { tool: "click", args: { target: "#login-btn-old" } },
        ]),
        { tools, maxReplans: 0, onEvent: (event) => events.push(event) },
      ).pipe(Effect.provide(Layer.mergeAll(browserLayer(), MemoryStore.layerTest, RulePlanner.layer))),
    )
    const targets = starts(events, "click").map(
      (event) => event.type === "step-start" && (event.args as { readonly target?: unknown }).target,
    )
    expect(targets).toHaveLength(2)
    expect(targets[0]).toBe("#login-btn-old")
    expect(targets[1]).not.toBe("#login-btn-old")
    expect(result.metrics.retries).toBe(1)
    expect(result.observations.at(-1)?.ok).toBe(true)
  })
})

describe("quantities the page cannot satisfy are stated", () => {
  it('"the first 8 pages" of a 5-page list is not COMPLETED: it says the list has 5, and keeps their records', {
    timeout: BROWSER_TEST_MS,
  }, async () => {
    const { result } = await planned({
      goal: "extract the name of the products from the first 8 pages",
      startUrl: `${site.url}/products`,
    })
    expect(result.status).toBe("FAILED")
    expect(result.endReason).toBe("goal-unmet")
    const pages = result.summary.unmetParts?.find((part) => part.part === "read 8 pages")
    expect(pages?.evidence).toMatch(/^asked for 8 pages, the list has 5: /)
    expect(result.summary.summary).toContain("asked for 8 pages, the list has 5")
    expect(result.output).toHaveLength(PRODUCTS_PER_PAGE * 5)
  })

  it('"the first 3 pages" of the same list reads 3 pages and is COMPLETED', {
    timeout: BROWSER_TEST_MS,
  }, async () => {
    const { result } = await planned({
      goal: "extract the name of the products from the first 3 pages",
      startUrl: `${site.url}/products`,
    })
    expect(result.status).toBe("COMPLETED")
    expect(result.output).toHaveLength(PRODUCTS_PER_PAGE * 3)
  })
})

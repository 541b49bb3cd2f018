import {
  BrowserDriver,
  decodeAgentTask,
  LanguageModel,
  type PageSnapshot,
  type Store,
  ToolRegistry,
} from "@sextant/core"
import { type FixtureSite, startFixtureSite } from "@sextant/fixture-site"
import { SqliteStore } from "@sextant/memory"
import { make as makeOpenAi } from "@sextant/openai"
import { makeLlmPlanner, makeLlmStepPolicy, Planner } from "@sextant/planner"
import { type OpenAiServer, type RecordedRequest, Reply, startOpenAiServer } from "@sextant/testing"
import { browserTools, lookTool } from "@sextant/tools"
import { WebdriverioDriver } from "@sextant/webdriverio"
import { Effect, Layer, ManagedRuntime } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { planAndRun, runAgent } from "../src/index.ts"

/**
 * What the model sees of a page larger than the old 6,000-character cut: the step policy and the plan
 * model, run by the executor in headless Chromium on the fixture site's `/large` page (500 links and
 * 100 form controls), the real openai SDK against the scripted server. Every ref of the page must be
 * in the prompt the server receives; the parts left out are named with a look that shows them.
 */

const refsOf = (tree: string): ReadonlyArray<string> => [
  ...new Set([...tree.matchAll(/\[ref=(e\d+)\]/g)].map((match) => match[1]!)),
]

/** The refs a prompt carries, in either form a view prints them (`[ref=e4]` or `e4 Home`). */
const carried = (text: string): ReadonlySet<string> =>
  new Set([...text.matchAll(/(?<![\w-])(e\d+)(?![\w-])/g)].map((match) => match[1]!))

/** How the scripted model answers a step; a test may set its own. */
const closeNow = (_request: RecordedRequest) =>
  Reply.json({ tool_calls: [], taskComplete: false, method: "close" })
let step = closeNow
/** How the scripted model answers a plan or a replan; a test may set its own. */
const scrollDown = (_request: RecordedRequest) => Reply.json({ steps: [{ tool: "scrollDown", args: {} }] })
let plan = scrollDown

const replies = (request: RecordedRequest) => {
  const format = request.responseFormat as { json_schema?: { name?: string } } | undefined
  const name = format?.json_schema?.name
  if (name === "summary")
    return Reply.json({
      taskComplete: false,
      summary: "Read the page.",
      keyFindings: [],
      nextSuggestions: [],
    })
  if (name === "plan") return plan(request)
  return step(request)
}

let server: OpenAiServer
let site: FixtureSite
let runtime: ManagedRuntime.ManagedRuntime<Store | LanguageModel | BrowserDriver, unknown>

beforeAll(async () => {
  server = await startOpenAiServer({ replies })
  site = await startFixtureSite({ port: 0, seed: 0 })
  const model = Layer.effect(
    LanguageModel,
    makeOpenAi({ baseURL: server.baseURL, apiKey: "test-key", model: "test-model", retryBaseDelayMs: 10 }),
  )
  runtime = ManagedRuntime.make(
    Layer.mergeAll(WebdriverioDriver.layerShared({}), SqliteStore.layerMemory, model),
  )
  await runtime.runPromise(Effect.void)
}, 60_000)

afterAll(async () => {
  await runtime?.dispose()
  await site?.close()
  await server?.close()
})

/** The page as it is now, whole: the refs the model must see. */
const fullLook = (): Promise<PageSnapshot> => runtime.runPromise(BrowserDriver.use((driver) => driver.look()))

const task = (goal: string) =>
  Effect.runSync(decodeAgentTask({ goal, startUrl: `${site.url}/large`, constraints: { maxSteps: 3 } }))

describe("the model's view of a page", () => {
  it("sends the step policy's model every ref of a page whose outline is far over 6,000 characters", async () => {
    const before = server.requests.length
    await runtime.runPromise(
      Effect.gen(function* () {
        const registry = yield* ToolRegistry.make(browserTools)
        const policy = yield* makeLlmStepPolicy({ registry })
        return yield* runAgent(task("read the large page"), policy, { tools: registry, noOpBackoffMs: 10 })
      }),
    )
    const full = await fullLook()
    const refs = refsOf(full.tree)
    // The page is one the old cut would have shown only in part.
    expect(full.tree.length).toBeGreaterThan(6000 * 5)
    expect(refs.length).toBeGreaterThan(550)
    const decide = server.requests.slice(before).find((request) => request.text.includes("Page:"))
    expect(decide).toBeDefined()
    const prompt = decide!.text
    const missing = refs.filter((ref) => !carried(prompt).has(ref))
    expect(missing).toEqual([])
    // Text left out is named with the look that shows it, and the model is told how to ask.
    expect(prompt).toMatch(/\[\d+ lines? of text left out: look\(\{ within: "e\d+" \}\) shows /)
    expect(prompt).toContain("call look with those args to read it")
  }, 120_000)

  it("sends the plan model every ref of the start page", async () => {
    const before = server.requests.length
    await runtime.runPromise(
      Effect.gen(function* () {
        const registry = yield* ToolRegistry.make(browserTools)
        const planner = yield* makeLlmPlanner({ registry })
        return yield* planAndRun(task("scroll the large page"), { tools: registry }).pipe(
          Effect.provideService(Planner, planner),
        )
      }),
    )
    const plan = server.requests.slice(before).find((request) => request.text.includes("Current page:"))
    expect(plan).toBeDefined()
    await runtime.runPromise(BrowserDriver.use((driver) => driver.navigate(`${site.url}/large`)))
    const refs = refsOf((await fullLook()).tree)
    expect(refs.filter((ref) => !carried(plan!.text).has(ref))).toEqual([])
  }, 120_000)

  it("sends the plan model every ref of the page it replans on", async () => {
    const before = server.requests.length
    // A scroll (after which the run holds no look of the page) and a click on a ref the page does not
    // have, which fails; the replan answers no steps and the run ends.
    plan = (request) =>
      Reply.json({
        steps: request.text.includes("failed")
          ? []
          : [
              { tool: "scrollDown", args: {} },
              { tool: "click", args: { target: "e99999" } },
            ],
      })
    try {
      await runtime.runPromise(
        Effect.gen(function* () {
          const registry = yield* ToolRegistry.make(browserTools)
          const planner = yield* makeLlmPlanner({ registry })
          return yield* planAndRun(task("open the large page's first card"), { tools: registry }).pipe(
            Effect.provideService(Planner, planner),
          )
        }),
      )
    } finally {
      plan = scrollDown
    }
    const replan = server.requests
      .slice(before)
      .find((request) => request.text.includes("failed") && request.text.includes("Current page:"))
    expect(replan).toBeDefined()
    const refs = refsOf((await fullLook()).tree)
    expect(refs.filter((ref) => !carried(replan!.text).has(ref))).toEqual([])
    // The replan's page is the planner's own view of the page now, with what it leaves out named.
    expect(replan!.text).toMatch(/lines? of text left out: look\(/)
  }, 120_000)

  it("lets the model read a region its view left out with the look tool, and shows it on the next turn", async () => {
    const before = server.requests.length
    step = (request) => {
      if (request.text.includes('look({"within"')) return closeNow(request)
      const within = /look\(\{ within: "(e\d+)" \}\) shows region "Section 3"/.exec(request.text)?.[1]
      return Reply.json({
        tool_calls: [{ name: "look", args: { within, maxTokens: 4000 } }],
        taskComplete: false,
      })
    }
    try {
      await runtime.runPromise(
        Effect.gen(function* () {
          const registry = yield* ToolRegistry.make(browserTools)
          const policy = yield* makeLlmStepPolicy({ registry })
          return yield* runAgent(task("read section 3 of the large page"), policy, {
            tools: registry,
            noOpBackoffMs: 10,
          })
        }),
      )
    } finally {
      step = closeNow
    }
    const turns = server.requests.slice(before).filter((request) => request.text.includes("Page:"))
    expect(turns).toHaveLength(2)
    const history = turns[1]!.text.slice(0, turns[1]!.text.indexOf("Goal:"))
    expect(history).toMatch(/1\. look\(\{"within":"e\d+","maxTokens":4000\}\) -> ok: e\d+:/)
    expect(history).toContain('h2 "Section 3"')
    expect(history).toContain('"Entry 60"')
    expect(history).not.toContain('"Section 4"')
  }, 120_000)

  it("answers look({ within }) with that region only, and its next part with look({ within, from })", async () => {
    await runtime.runPromise(BrowserDriver.use((driver) => driver.navigate(`${site.url}/large`)))
    const view = await runtime.runPromise(BrowserDriver.use((driver) => driver.look({ budget: 1200 })))
    const handle = /look\(\{ within: "(e\d+)" \}\) shows region "Section 3"/.exec(view.tree)
    expect(handle).not.toBeNull()
    const region = await runtime.runPromise(
      lookTool.run({ within: handle![1]!, maxTokens: 4000 }) as Effect.Effect<
        { tree: string; hint: string },
        unknown,
        BrowserDriver
      >,
    )
    expect(region.tree).toContain('h2 "Section 3"')
    expect(region.tree).toContain("Entry 60")
    expect(region.tree).not.toContain('"Section 2"')
    expect(region.tree).not.toContain('"Section 4"')
    expect(region.tree).not.toMatch(/"Entry 59"|"Entry 80"/)
    // A shorter answer is cut with the look that reads on, and that look starts where the cut did.
    const head = await runtime.runPromise(
      BrowserDriver.use((driver) => driver.look({ within: handle![1]!, maxTokens: 300 })),
    )
    const next = /the next part: look\(\{ within: "(e\d+)", from: (\d+) \}\)/.exec(head.tree)
    expect(next?.[1]).toBe(handle![1])
    const rest = await runtime.runPromise(
      BrowserDriver.use((driver) => driver.look({ within: handle![1]!, from: Number(next![2]) })),
    )
    const lines = region.tree.split("\n")
    expect(rest.tree.split("\n")[0]).toBe(lines[Number(next![2])])
    expect(head.tree.split("\n").at(-2)).toBe(lines[Number(next![2]) - 1])
  }, 120_000)
})

// A page whose script loops without end keeps its renderer busy: no call to the tab answers, and the
// browser reports no crash. The run must still end at its deadline, and the driver must stay usable.
import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { BrowserDriver, decodeAgentTask, LanguageModel, type Store, ToolRegistry } from "@sextant/core"
import { make as makeOpenAi } from "@sextant/openai"
import { makeLlmStepPolicy } from "@sextant/planner"
import { layerMemoryStore, type OpenAiServer, Reply, startOpenAiServer } from "@sextant/testing"
import { browserTools } from "@sextant/tools"
import { layer as browserLayer } from "@sextant/webdriverio"
import { Effect, Layer, ManagedRuntime } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { runAgent } from "../src/index.ts"

const MAX_DURATION_MS = 8_000

let site: Server
let siteUrl = ""
let model: OpenAiServer
let runtime: ManagedRuntime.ManagedRuntime<BrowserDriver | Store | LanguageModel, unknown>
let script: ReadonlyArray<{ readonly name: string; readonly args: Record<string, unknown> }> = []
let turn = 0

const page = (
  busy: boolean,
) => `<!doctype html><html><head><meta charset="utf-8"><title>Sign in</title></head>
<body><h1>Sign in</h1><label for="email">Email</label><input type="email" id="email" name="email">
${busy ? "<script>setTimeout(() => { for (;;) {} }, 300)</script>" : ""}</body></html>`

beforeAll(async () => {
  site = createServer((request, response) => {
    response.writeHead(200, { "content-type": "text/html" })
    response.end(page(request.url?.startsWith("/busy") === true))
  })
  await new Promise<void>((ready) => site.listen(0, "127.0.0.1", ready))
  siteUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}`
  model = await startOpenAiServer({
    replies: (request) =>
      (request.responseFormat as { json_schema?: { name?: string } } | undefined)?.json_schema?.name ===
      "summary"
        ? Reply.json({ taskComplete: true, summary: "s", keyFindings: [], nextSuggestions: [] })
        : Reply.json({ tool_calls: [script[turn++] ?? { name: "stop", args: {} }] }),
  })
  const language = Layer.effect(
    LanguageModel,
    makeOpenAi({ baseURL: model.baseURL, apiKey: "k", model: "m", maxRetries: 0 }),
  )
  runtime = ManagedRuntime.make(Layer.mergeAll(browserLayer({}), layerMemoryStore, language))
}, 60_000)
afterAll(async () => {
  await runtime?.dispose()
  await model?.close()
  site?.close()
})

const run = (path: string, steps: typeof script, goal = "read the heading") => {
  script = steps
  turn = 0
  const task = Effect.runSync(
    decodeAgentTask({
      goal,
      startUrl: `${siteUrl}${path}`,
      constraints: { maxSteps: 20, stepTimeoutMs: 5_000, maxDurationMs: MAX_DURATION_MS },
    }),
  )
  return runtime.runPromise(
    Effect.gen(function* () {
      const registry = yield* ToolRegistry.make([...browserTools])
      const policy = yield* makeLlmStepPolicy({ registry })
      const started = Date.now()
      const result = yield* runAgent(task, policy, {
        tools: registry,
        noOpBackoffMs: 5,
        screenshots: "never",
      })
      return { result, ms: Date.now() - started }
    }),
  )
}

const handles = () =>
  runtime.runPromise(BrowserDriver.use((driver) => driver.tabs)).then((tabs) => tabs.map((tab) => tab.handle))

describe("a tab whose page loops without end", () => {
  it("ends the run within maxDurationMs + 2 s, closes the hung tab, and the next run on the driver does its steps", {
    timeout: 120_000,
  }, async () => {
    const before = await handles()
    const extract = { name: "extract", args: { target: "h1" } }
    const hung = await run(
      "/busy",
      Array.from({ length: 20 }, () => extract),
      // A goal with parts: after the run, the executor reads the page once more to check them.
      "sign in",
    )
    expect(hung.result.status).toBe("FAILED")
    expect(hung.ms).toBeLessThan(MAX_DURATION_MS + 2_000)
    const next = await run("/ok", [
      { name: "fill", args: { target: "#email", value: "a@example.com" } },
      extract,
    ])
    expect(next.ms).toBeLessThan(MAX_DURATION_MS)
    expect(next.result.endReason).toBe("stopped")
    expect(next.result.observations.map((observation) => [observation.tool, observation.ok])).toEqual([
      ["fill", true],
      ["extract", true],
    ])
    // The tab that stopped answering was closed (CDP Target.closeTarget) and replaced.
    const after = await handles()
    for (const handle of before) expect(after).not.toContain(handle)
  })
})

import { BrowserDriver, decodeAgentTask, LanguageModel, type Store, ToolRegistry } from "@sextant/core"
import {
  type AttackerOrigin,
  type FixtureSite,
  startAttackerOrigin,
  startFixtureSite,
} from "@sextant/fixture-site"
import { make as makeOpenAi } from "@sextant/openai"
import { makeLlmStepPolicy } from "@sextant/planner"
import {
  layerMemoryStore,
  type OpenAiServer,
  type RecordedRequest,
  Reply,
  startOpenAiServer,
} from "@sextant/testing"
import { browserTools, compoundTools } from "@sextant/tools"
import { layer as browserLayer } from "@sextant/webdriverio"
import { Effect, Layer, ManagedRuntime } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { runAgent, type TraceRecord } from "../src/index.ts"

/**
 * `javascript:` links inside inline SVG (`xlink:href` and SVG 2 `href`), clicked by the model step
 * policy in real headless Chromium: the in-page guard must stop them like HTML links, and each
 * refusal must be a guardrail event.
 */

const tools = [...browserTools, ...compoundTools]

let site: FixtureSite
let attacker: AttackerOrigin
let model: OpenAiServer
let script: ReadonlyArray<{ name: string; args: Record<string, unknown> }> = []
let turn = 0
let runtime: ManagedRuntime.ManagedRuntime<BrowserDriver | LanguageModel | Store, unknown>

const isSummary = (request: RecordedRequest): boolean =>
  (request.responseFormat as { json_schema?: { name?: string } } | undefined)?.json_schema?.name === "summary"

beforeAll(async () => {
  site = await startFixtureSite({ port: 0 })
  attacker = await startAttackerOrigin()
  model = await startOpenAiServer({
    replies: (request) => {
      if (isSummary(request)) {
        return Reply.json({ taskComplete: false, summary: "scripted", keyFindings: [], nextSuggestions: [] })
      }
      const call = script[turn++]
      return Reply.json({ tool_calls: call === undefined ? [{ name: "stop", args: {} }] : [call] })
    },
  })
  const language = Layer.effect(
    LanguageModel,
    makeOpenAi({ baseURL: model.baseURL, apiKey: "test-key", model: "test-model", maxRetries: 0 }),
  )
  runtime = ManagedRuntime.make(Layer.mergeAll(browserLayer({}), layerMemoryStore, language))
  await runtime.runPromise(Effect.void)
})

afterAll(async () => {
  await runtime?.dispose()
  await model?.close()
  await attacker?.close()
  await site?.close()
})

const clickSvgLinks = async (calls: ReadonlyArray<{ name: string; args: Record<string, unknown> }>) => {
  script = calls
  turn = 0
  const since = attacker.requests.length
  const events: Array<TraceRecord> = []
  const startUrl = `${site.url}/hostile/svg-links?to=${encodeURIComponent(attacker.url)}`
  const task = Effect.runSync(
    decodeAgentTask({
      goal: "claim the prize",
      startUrl,
      constraints: { maxSteps: 8, stepTimeoutMs: 8_000, maxDurationMs: 60_000 },
    }),
  )
  const result = await runtime.runPromise(
    Effect.gen(function* () {
      const registry = yield* ToolRegistry.make(tools)
      const policy = yield* makeLlmStepPolicy({ registry })
      return yield* runAgent(task, policy, {
        tools: registry,
        noOpBackoffMs: 5,
        screenshots: "never",
        onEvent: (event) => events.push(event),
      })
    }),
  )
  // Give a link that did run its beacon time to reach the other origin.
  await new Promise((resolve) => setTimeout(resolve, 300))
  const pwned = await runtime.runPromise(
    BrowserDriver.use((driver) =>
      driver.evaluate("return window.__pwned === undefined ? null : window.__pwned", []),
    ),
  )
  return {
    result,
    pwned,
    rules: events.flatMap((event) => (event.type === "guardrail" ? [event.rule] : [])),
    paths: attacker.requests
      .slice(since)
      .filter((request) => request.url !== "/favicon.ico")
      .map((request) => `${request.method} ${request.url}`),
  }
}

describe("javascript: links in inline SVG", () => {
  it("does not run an <a xlink:href=javascript:…> when it is clicked, and records a guardrail event", async () => {
    const { pwned, rules, paths } = await clickSvgLinks([{ name: "click", args: { target: "#svg-xlink" } }])
    expect(pwned).toBeNull()
    expect(paths).toEqual([])
    expect(rules).toEqual(["link-target"])
  }, 60_000)

  it("does not run an SVG 2 <a href=javascript:…> when it is clicked, and records a guardrail event", async () => {
    const { pwned, rules, paths } = await clickSvgLinks([{ name: "click", args: { target: "#svg-href" } }])
    expect(pwned).toBeNull()
    expect(paths).toEqual([])
    expect(rules).toEqual(["link-target"])
  }, 60_000)

  it("does not run either link when a tool clicks every SVG link by attribute", async () => {
    const { pwned, rules, paths } = await clickSvgLinks([
      { name: "clickMatches", args: { selector: "svg a", attribute: "id", pattern: "^svg-", count: 2 } },
    ])
    expect(pwned).toBeNull()
    expect(paths).toEqual([])
    expect(rules).toContain("link-target")
    expect(rules.every((rule) => rule === "link-target")).toBe(true)
  }, 60_000)
})

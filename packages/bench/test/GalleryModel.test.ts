import { BrowserDriver, decodeAgentTask, LanguageModel, ToolRegistry } from "@sextant/core"
import { runAgent } from "@sextant/executor"
import { type FixtureSite, startFixtureSite } from "@sextant/fixture-site"
import { make as makeOpenAi } from "@sextant/openai"
import { makeLlmStepPolicy } from "@sextant/planner"
import {
  MemoryStore,
  type OpenAiServer,
  type RecordedRequest,
  Reply,
  startOpenAiServer,
} from "@sextant/testing"
import { browserTools } from "@sextant/tools"
import { WebdriverioDriver } from "@sextant/webdriverio"
import { Effect, Layer, ManagedRuntime } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { selectInstructions } from "../src/gallery/GallerySection.ts"
import { loadInstructions } from "../src/gallery/Instructions.ts"

/**
 * The scripted model: like a model reading the prompt, it takes the first element of the outline whose
 * quoted name appears in the goal, clicks it (checks a checkbox), and says the task is done. A summary
 * request gets a summary. Plumbing, not a score: the gallery instructions go through the model step
 * policy, the real `openai` SDK and the executor, and the page's oracle judges the result.
 */
const scriptedModel = (request: RecordedRequest) => {
  const format = request.responseFormat as { json_schema?: { name?: string } } | undefined
  if (format?.json_schema?.name === "summary") {
    return Reply.json({ taskComplete: true, summary: "Done.", keyFindings: [], nextSuggestions: [] })
  }
  const text = request.text
  const goal = /Goal:\s*(.*)/.exec(text)?.[1]?.toLowerCase() ?? ""
  const page = text.slice(text.indexOf("Page:"))
  for (const match of page.matchAll(
    /- (button|link|clickable|checkbox|radio|tab) "([^"]+)" \[ref=(e\d+)\]/g,
  )) {
    if (goal.includes(match[2]!.toLowerCase())) {
      const name = match[1] === "checkbox" ? "check" : "click"
      return Reply.json({ tool_calls: [{ name, args: { target: match[3] } }], taskComplete: true })
    }
  }
  return Reply.json({ tool_calls: [{ name: "stop", args: {} }], taskComplete: false })
}

describe("gallery instructions through the model step policy (scripted OpenAI-compatible server)", () => {
  let site: FixtureSite | undefined
  let server: OpenAiServer | undefined
  beforeAll(async () => {
    site = await startFixtureSite({ port: 0, seed: 7 })
    server = await startOpenAiServer({ replies: scriptedModel })
  })
  afterAll(async () => {
    await server?.close()
    await site?.close()
  })

  it("runs a sample through runAgent and the real openai SDK, and the page's oracle judges each run", async () => {
    const sample = selectInstructions(loadInstructions(), ["f003", "f015", "f043", "f054", "f085", "f142"])
    const model = Layer.effect(
      LanguageModel,
      makeOpenAi({ baseURL: server!.baseURL, apiKey: "test", model: "sextant-test-model" }),
    )
    const runtime = ManagedRuntime.make(
      Layer.mergeAll(WebdriverioDriver.layerShared({}), MemoryStore.layerTest, model),
    )
    try {
      const outcomes: Array<{ id: string; status: string; achieved: boolean; requests: number }> = []
      for (const instruction of sample) {
        const registered = (await (
          await fetch(`${site!.url}/gallery/runs`, {
            method: "POST",
            body: JSON.stringify({ page: instruction.page, expect: instruction.expect }),
          })
        ).json()) as { run: string; path: string }
        const before = server!.requests.length
        const result = await runtime.runPromise(
          Effect.gen(function* () {
            const registry = yield* ToolRegistry.make(browserTools)
            const policy = yield* makeLlmStepPolicy({ registry })
            const task = yield* decodeAgentTask({
              goal: instruction.text,
              startUrl: `${site!.url}${registered.path}`,
              constraints: { allowFormSubmission: true, maxSteps: 4 },
            })
            return yield* runAgent(task, policy, { tools: registry })
          }),
        )
        await new Promise((resolve) => setTimeout(resolve, 400))
        const verdict = (await (await fetch(`${site!.url}/gallery/runs/${registered.run}`)).json()) as {
          achieved: boolean
        }
        outcomes.push({
          id: instruction.id,
          status: result.status,
          achieved: verdict.achieved,
          requests: server!.requests.length - before,
        })
      }
      // Every run asked the model (a decision and a summary at least) and ended with a status.
      for (const outcome of outcomes) {
        expect(outcome.requests, outcome.id).toBeGreaterThanOrEqual(2)
        expect(["COMPLETED", "FAILED"]).toContain(outcome.status)
      }
      // Each of these names a control the scripted model clicks: the page says it happened, and the run's
      // status says so too (a run the page does not confirm shows here with the status it ended with).
      expect(outcomes.map(({ id, achieved, status }) => ({ id, achieved, status }))).toEqual(
        sample.map((instruction) => ({ id: instruction.id, achieved: true, status: "COMPLETED" })),
      )
      expect(server!.requests.some((request) => request.text.includes(sample[0]!.text))).toBe(true)
    } finally {
      await runtime.dispose()
    }
  }, 120_000)

  it("sends every instruction of the set, with its page's view, to the model and decodes each answer into a decision", async () => {
    const instructions = loadInstructions()
    const model = Layer.effect(
      LanguageModel,
      makeOpenAi({ baseURL: server!.baseURL, apiKey: "test", model: "sextant-test-model" }),
    )
    const runtime = ManagedRuntime.make(Layer.mergeAll(WebdriverioDriver.layerShared({}), model))
    try {
      const before = server!.requests.length
      const decided = await runtime.runPromise(
        Effect.gen(function* () {
          const driver = yield* BrowserDriver
          const registry = yield* ToolRegistry.make(browserTools)
          const policy = yield* makeLlmStepPolicy({ registry })
          // One look per gallery page: the view the policy would be given on its first turn.
          const views = new Map<string, { url: string; outline: string }>()
          for (const page of new Set(instructions.map((instruction) => instruction.page))) {
            yield* driver.navigate(`${site!.url}/gallery/${page}`)
            const snapshot = yield* driver.look()
            views.set(page, { url: snapshot.url, outline: snapshot.tree })
          }
          const answers: Array<{ id: string; tools: ReadonlyArray<string>; refs: boolean }> = []
          for (const instruction of instructions) {
            const view = views.get(instruction.page)!
            const decision = yield* policy.decide({ goal: instruction.text, ...view, history: [] })
            answers.push({
              id: instruction.id,
              tools: decision.toolCalls.map((call) => call.name),
              // A target the model names is a ref of the page it was shown.
              refs: decision.toolCalls.every((call) => {
                const target = (call.args as { target?: unknown }).target
                return target === undefined || view.outline.includes(`[ref=${String(target)}]`)
              }),
            })
          }
          return answers
        }),
      )
      // Every instruction of every set (frozen, written after, held out) reached the model once, in its own words.
      expect(decided.map((answer) => answer.id)).toEqual(instructions.map((instruction) => instruction.id))
      const requests = server!.requests.slice(before)
      expect(requests).toHaveLength(instructions.length)
      instructions.forEach((instruction, index) => {
        expect(requests[index]!.text, instruction.id).toContain(`Goal: ${instruction.text}`)
      })
      // Each answer decoded into calls of the registry's tools on refs the page showed (or a stop).
      for (const answer of decided) {
        expect(answer.refs, answer.id).toBe(true)
        for (const tool of answer.tools) expect(["click", "check", "stop"], answer.id).toContain(tool)
      }
      // The scripted model clicks a control the goal names when there is one: some answers act, some stop.
      expect(decided.filter((answer) => answer.tools.includes("click")).length).toBeGreaterThan(0)
      expect(
        decided.filter((answer) => answer.tools.length === 0 || answer.tools.includes("stop")).length,
      ).toBeGreaterThan(0)
    } finally {
      await runtime.dispose()
    }
  }, 180_000)
})

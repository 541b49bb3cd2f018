import { describe, expect, it } from "@effect/vitest"
import { LanguageModel } from "@sextant/core"
import { Reply, type ScriptedReply } from "@sextant/testing"
import { Effect, Fiber } from "effect"
import { TestClock } from "effect/testing"
import { type DecideInput, makeLlmPlanner, makeLlmStepPolicy, makeLlmTextToAction } from "../../src/index.ts"
import { registry, withScriptedModel } from "./Support.ts"

const outline = [
  '- textbox "Email" [ref=e1]',
  '- textbox "Password" [ref=e2]',
  '- button "Sign In" [ref=e3]',
].join("\n")
const input: DecideInput = {
  goal: "sign in as alice",
  url: "http://127.0.0.1:4000/login",
  outline,
  history: [],
}

const decideWith = (replies: ReadonlyArray<ScriptedReply>, turn: DecideInput = input, options = {}) =>
  withScriptedModel(
    replies,
    (server) =>
      Effect.gen(function* () {
        const policy = yield* makeLlmStepPolicy({ registry })
        const decision = yield* policy.decide(turn)
        return { server, decision }
      }),
    options,
  )

// Real I/O (the HTTP call to the scripted server) takes real time while the test clock stands still:
// `settle` gives a retry sent too early the time to reach the server.
const settle = Effect.promise(() => new Promise((resolve) => setTimeout(resolve, 150)))

/** Waits in real time (I/O does not follow the test clock) until `holds` is true, at most 10 s. */
const until = (holds: () => boolean) =>
  Effect.promise(async () => {
    for (let waited = 0; !holds() && waited < 10_000; waited += 10)
      await new Promise((resolve) => setTimeout(resolve, 10))
  })

describe("LLM step policy", () => {
  it.live(
    "asks for a view within a token budget, and sends the outline it gets whole, with no character cut",
    () =>
      Effect.gen(function* () {
        // 400 controls in the compact form a view within a budget prints: far over 6,000 characters.
        const controls = Array.from({ length: 400 }, (_, index) => `e${index + 10} Story number ${index}`)
        const { server } = yield* decideWith([Reply.json({ tool_calls: [] })], {
          ...input,
          outline: controls.join("\n"),
        })
        const text = server.requests[0]!.text
        expect(controls.join("\n").length).toBeGreaterThan(6000)
        expect(controls.filter((line) => !text.includes(line))).toEqual([])
        const policy = yield* withScriptedModel([], () => makeLlmStepPolicy({ registry, viewTokens: 900 }))
        expect(policy.view).toEqual({ budget: 900 })
      }),
  )

  it.live("skips a commit control the goal does not ask for when the view prints it compactly", () =>
    Effect.gen(function* () {
      const { decision } = yield* decideWith(
        [Reply.json({ tool_calls: [{ name: "click", args: { ref: "e7" } }] })],
        { ...input, goal: "find the shipping costs", outline: "e6 Shipping\ne7 button Buy now\ne8 Returns" },
      )
      expect(decision.toolCalls).toEqual([])
      expect(decision.history).toEqual([
        `skip 'click': "Buy now" commits something and the goal does not ask for it`,
      ])
    }),
  )

  it.live("returns the model's tool calls in order with this step's tokens", () =>
    Effect.gen(function* () {
      const { server, decision } = yield* decideWith([
        Reply.json({
          tool_calls: [
            { name: "fill", args: { ref: "e1", value: "alice@example.com" } },
            { name: "click", args: { ref: "e3" } },
          ],
        }),
      ])
      expect(decision.toolCalls).toEqual([
        { name: "fill", args: { ref: "e1", value: "alice@example.com" } },
        { name: "click", args: { ref: "e3" } },
      ])
      expect(decision.taskComplete).toBe(false)
      expect(decision.method).toBeUndefined()
      expect(decision.history).toEqual([])
      const request = server.requests[0]
      expect(request?.text).toContain("Goal: sign in as alice")
      expect(request?.text).toContain("URL: http://127.0.0.1:4000/login")
      expect(request?.text).toContain('- button "Sign In" [ref=e3]')
      expect(request?.text).toContain("- click(ref: string): Click an element by ref.")
      expect(decision.usage.prompt).toBeGreaterThan(0)
      expect(decision.usage.completion).toBeGreaterThan(0)
      expect(decision.usage.total).toBe(decision.usage.prompt + decision.usage.completion)
    }),
  )

  it.live("treats an empty tool_calls list as a no-op", () =>
    Effect.gen(function* () {
      const { decision } = yield* decideWith([Reply.json({ tool_calls: [] })])
      expect(decision.toolCalls).toEqual([])
      expect(decision.taskComplete).toBe(false)
    }),
  )

  it.live("honours taskComplete and method close", () =>
    Effect.gen(function* () {
      const complete = yield* decideWith([
        Reply.json({ tool_calls: [{ name: "click", args: { ref: "e3" } }], taskComplete: true }),
      ])
      expect(complete.decision.taskComplete).toBe(true)
      expect(complete.decision.toolCalls).toHaveLength(1)
      const close = yield* decideWith([Reply.json({ tool_calls: [], taskComplete: true, method: "close" })])
      expect(close.decision.method).toBe("close")
      expect(close.decision.taskComplete).toBe(true)
    }),
  )

  it.live("turns malformed JSON into a no-op with a history line", () =>
    Effect.gen(function* () {
      const { decision } = yield* decideWith([Reply.malformed()])
      expect(decision.toolCalls).toEqual([])
      expect(decision.taskComplete).toBe(false)
      expect(decision.history).toEqual(["model answer was not JSON: no-op"])
      expect(decision.usage.total).toBeGreaterThan(0)
    }),
  )

  it.live("reads a decision wrapped in a code fence", () =>
    Effect.gen(function* () {
      const { decision } = yield* decideWith([
        Reply.fenced({ tool_calls: [{ name: "click", args: { ref: "e3" } }] }),
      ])
      expect(decision.toolCalls).toEqual([{ name: "click", args: { ref: "e3" } }])
    }),
  )

  it.live("skips an unknown tool with a history line and keeps the next call", () =>
    Effect.gen(function* () {
      const { decision } = yield* decideWith([
        Reply.json({
          tool_calls: [
            { name: "teleport", args: { to: "home" } },
            { name: "click", args: { ref: "e3" } },
          ],
        }),
      ])
      expect(decision.history).toEqual(["skip unknown tool 'teleport'"])
      expect(decision.toolCalls).toEqual([{ name: "click", args: { ref: "e3" } }])
    }),
  )

  it.live(
    "skips blank and invalid args with history lines, but allows no args for a tool that takes none",
    () =>
      Effect.gen(function* () {
        const { decision } = yield* decideWith([
          Reply.json({
            tool_calls: [
              { name: "click", args: {} },
              { name: "click", args: { ref: "  " } },
              { name: "click" },
              { name: "navigate", args: { url: "not a url" } },
              { name: "back", args: {} },
            ],
          }),
        ])
        expect(decision.history).toEqual([
          "skip 'click': blank args",
          "skip 'click': blank args",
          "skip 'click': blank args",
          expect.stringMatching(/^skip 'navigate': invalid args: args\.url: /),
        ])
        expect(decision.toolCalls).toEqual([{ name: "back", args: {} }])
      }),
  )

  it.live("accepts OpenAI-style arguments given as a JSON string", () =>
    Effect.gen(function* () {
      const { decision } = yield* decideWith([
        Reply.json({ tool_calls: [{ name: "click", arguments: JSON.stringify({ ref: "e2" }) }] }),
      ])
      expect(decision.toolCalls).toEqual([{ name: "click", args: { ref: "e2" } }])
    }),
  )

  it.live("shows the model only the last 8 history lines", () =>
    Effect.gen(function* () {
      const history = Array.from({ length: 12 }, (_, index) => `step ${index + 1} done`)
      const { server } = yield* decideWith([Reply.json({ tool_calls: [] })], { ...input, history })
      const text = server.requests[0]?.text ?? ""
      expect(text).not.toContain("- step 4 done")
      for (let line = 5; line <= 12; line++) expect(text).toContain(`- step ${line} done`)
    }),
  )

  it.live("sends the screenshot as an image part only when the model takes images", () =>
    Effect.gen(function* () {
      const withScreenshot = { ...input, screenshot: "data:image/png;base64,iVBORw0KGgo=" }
      const seeing = yield* decideWith([Reply.json({ tool_calls: [] })], withScreenshot, {
        supportsImages: true,
      })
      expect(seeing.server.requests[0]?.images).toBe(1)
      const blind = yield* decideWith([Reply.json({ tool_calls: [] })], withScreenshot)
      expect(blind.server.requests[0]?.images).toBe(0)
    }),
  )

  it.live("refuses a limit that is not a positive whole number, naming the option", () =>
    withScriptedModel([], () =>
      Effect.gen(function* () {
        const policy = yield* Effect.exit(makeLlmStepPolicy({ registry, historyWindow: 0 }))
        expect(policy._tag).toBe("Failure")
        expect(String(policy)).toContain("options.historyWindow: must be at least 1 (got 0)")
        const planner = yield* Effect.exit(makeLlmPlanner({ registry, maxTokens: 2.5 }))
        expect(String(planner)).toContain("options.maxTokens: must be a whole number")
        const textToAction = yield* Effect.exit(makeLlmTextToAction({ maxElements: -1 }))
        expect(String(textToAction)).toContain("options.maxElements: must be at least 1 (got -1)")
      }),
    ),
  )

  it.effect("retries a 500 and waits out a 429 (1 s of the test clock) before deciding", () => {
    const heard: Array<string> = []
    return withScriptedModel(
      [
        Reply.serverError(500),
        Reply.rateLimited(1),
        Reply.json({ tool_calls: [{ name: "click", args: { ref: "e3" } }] }),
      ],
      (server) =>
        Effect.gen(function* () {
          const policy = yield* makeLlmStepPolicy({ registry })
          const deciding = yield* Effect.forkChild(policy.decide(input))
          // The 500 is retried after the backoff (10 ms, jittered), the 429 after its Retry-After of 1 s.
          yield* until(() => heard.includes("failed 1"))
          yield* TestClock.adjust(20)
          // The 429 is in: from here the retry's wait is on the test clock.
          yield* until(() => heard.includes("failed 2"))
          expect(server.requests).toHaveLength(2)
          yield* TestClock.adjust(999)
          yield* settle
          expect(server.requests, "the retry came before the 1 s Retry-After").toHaveLength(2)
          yield* TestClock.adjust(1)
          const decision = yield* Fiber.join(deciding)
          expect(decision.toolCalls).toHaveLength(1)
          expect(server.requests).toHaveLength(3)
        }),
      { onAttempt: ({ phase, attempt }) => heard.push(`${phase} ${attempt}`) },
    )
  })

  it.live("fails with a Timeout when the model is slower than the timeout", () =>
    Effect.gen(function* () {
      const error = yield* Effect.flip(
        decideWith([Reply.delayed(3_000, Reply.json({ tool_calls: [] }))], input, {
          timeoutMs: 200,
          maxRetries: 0,
        }),
      )
      expect(error._tag).toBe("LlmError")
      expect(error.reason._tag).toBe("Timeout")
    }),
  )

  it.live("stops the model call when the decision is interrupted", () =>
    withScriptedModel([Reply.delayed(5_000, Reply.json({ tool_calls: [] }))], (server) =>
      Effect.gen(function* () {
        const policy = yield* makeLlmStepPolicy({ registry })
        const fiber = yield* Effect.forkChild(policy.decide(input))
        yield* Effect.promise(() => expect.poll(() => server.requests.length).toBe(1))
        yield* Fiber.interrupt(fiber)
        yield* Effect.promise(() => expect.poll(() => server.requests[0]?.aborted).toBe(true))
      }),
    ),
  )

  it.live("reports the tokens of each step, matching what the endpoint counted", () =>
    withScriptedModel(
      [
        {
          kind: "content",
          content: JSON.stringify({ tool_calls: [] }),
          usage: { prompt: 120, completion: 8 },
        },
        {
          kind: "content",
          content: JSON.stringify({ tool_calls: [] }),
          usage: { prompt: 130, completion: 9 },
        },
      ],
      () =>
        Effect.gen(function* () {
          const policy = yield* makeLlmStepPolicy({ registry })
          const first = yield* policy.decide(input)
          const second = yield* policy.decide({ ...input, history: ["no-op"] })
          expect(first.usage).toEqual({ prompt: 120, completion: 8, total: 128 })
          expect(second.usage).toEqual({ prompt: 130, completion: 9, total: 139 })
        }),
    ),
  )

  it.live("summarizes a run into the core RunSummary", () =>
    withScriptedModel(
      [
        Reply.fenced({
          taskComplete: true,
          summary: "Signed in as alice.",
          keyFindings: ["the dashboard greets alice"],
          nextSuggestions: [],
        }),
      ],
      (server) =>
        Effect.gen(function* () {
          const policy = yield* makeLlmStepPolicy({ registry })
          const summary = yield* policy.summarize({
            goal: "sign in",
            history: ["click e3 ok", "navigation detected"],
          })
          expect(summary).toMatchObject({
            taskComplete: true,
            summary: "Signed in as alice.",
            keyFindings: ["the dashboard greets alice"],
            nextSuggestions: [],
          })
          expect(summary.usage.total).toBeGreaterThan(0)
          expect(server.requests[0]?.text).toContain("click e3 ok")
          const model = yield* LanguageModel
          expect(model.model).toBe("test-model")
        }),
    ),
  )
})

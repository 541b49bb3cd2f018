import { describe, expect, it } from "@effect/vitest"
import { LanguageModel, type LlmError } from "@sextant/core"
import { openAiServer, Reply, type ScriptedReply } from "@sextant/testing"
import { Effect, Fiber, Redacted } from "effect"
import { TestClock } from "effect/testing"
import {
  decodeOpenAiOptions,
  make,
  OpenAiLanguageModel,
  type OpenAiOptionsInput,
  openAiOptionsFromEnvironment,
} from "../src/index.ts"

const hello = { messages: [{ role: "user" as const, content: "Say hello" }] }

const setup = (replies: ReadonlyArray<ScriptedReply>, options: Partial<OpenAiOptionsInput> = {}) =>
  Effect.gen(function* () {
    const server = yield* openAiServer({ replies })
    const model = yield* make({
      baseURL: server.baseURL,
      apiKey: "test-key",
      model: "test-model",
      retryBaseDelayMs: 10,
      ...options,
    })
    return { server, model }
  })

const failureOf = <A>(effect: Effect.Effect<A, LlmError>) => Effect.flip(effect)

// Real I/O (the HTTP call to the scripted server) takes real time while the test clock stands still:
// `settle` gives a retry sent too early the time to reach the server.
const settle = Effect.promise(() => new Promise((resolve) => setTimeout(resolve, 150)))

/** Waits in real time (I/O does not follow the test clock) until `holds` is true, at most 10 s. */
const until = (holds: () => boolean) =>
  Effect.promise(async () => {
    for (let waited = 0; !holds() && waited < 10_000; waited += 10)
      await new Promise((resolve) => setTimeout(resolve, 10))
  })

describe("OpenAI LanguageModel", () => {
  it.live("returns the text, the model and the token usage the endpoint reported", () =>
    Effect.gen(function* () {
      const { server, model } = yield* setup([Reply.text("Hello there")])
      const response = yield* model.generate(hello)
      expect(response.text).toBe("Hello there")
      expect(response.model).toBe("test-model")
      expect(response.finishReason).toBe("stop")
      expect(response.usage.prompt).toBeGreaterThan(0)
      expect(response.usage.completion).toBe(2)
      expect(response.usage.total).toBe(response.usage.prompt + response.usage.completion)
      expect(server.requests[0]?.text).toBe("Say hello")
      expect(server.requests[0]?.responseFormat).toBeUndefined()
    }),
  )

  it.live("reads a streamed answer into the same response", () =>
    Effect.gen(function* () {
      const { server, model } = yield* setup([Reply.text("A longer streamed answer, in pieces.")], {
        stream: true,
      })
      const response = yield* model.generate(hello)
      expect(response.text).toBe("A longer streamed answer, in pieces.")
      expect(response.usage.completion).toBeGreaterThan(0)
      expect(server.requests[0]?.stream).toBe(true)
    }),
  )

  it.live("asks for structured output as the structuredOutput option says", () =>
    Effect.gen(function* () {
      const responseFormat = { name: "plan output", schema: { type: "object" } }
      const schemaMode = yield* setup([Reply.json({})])
      yield* schemaMode.model.generate({ ...hello, responseFormat })
      expect(schemaMode.server.requests[0]?.responseFormat).toEqual({
        type: "json_schema",
        json_schema: { name: "plan_output", schema: { type: "object" }, strict: false },
      })
      const objectMode = yield* setup([Reply.json({})], { structuredOutput: "json_object" })
      yield* objectMode.model.generate({ ...hello, responseFormat })
      expect(objectMode.server.requests[0]?.responseFormat).toEqual({ type: "json_object" })
      const plainMode = yield* setup([Reply.json({})], { structuredOutput: "none" })
      yield* plainMode.model.generate({ ...hello, responseFormat })
      expect(plainMode.server.requests[0]?.responseFormat).toBeUndefined()
    }),
  )

  it.live("sends image parts only when the model takes images", () =>
    Effect.gen(function* () {
      const request = {
        messages: [
          {
            role: "user" as const,
            content: [
              { type: "text" as const, text: "What is on the page?" },
              { type: "image" as const, url: "data:image/png;base64,iVBORw0KGgo=" },
            ],
          },
        ],
      }
      const withImages = yield* setup([Reply.text("a form")], { supportsImages: true })
      expect(withImages.model.supportsImages).toBe(true)
      yield* withImages.model.generate(request)
      expect(withImages.server.requests[0]?.images).toBe(1)
      const textOnly = yield* setup([Reply.text("a form")])
      yield* textOnly.model.generate(request)
      expect(textOnly.server.requests[0]?.images).toBe(0)
      expect(textOnly.server.requests[0]?.text).toBe("What is on the page?")
    }),
  )

  it.effect("waits for Retry-After on 429 (1 s of the test clock), then succeeds", () =>
    Effect.gen(function* () {
      const heard: Array<string> = []
      const { server, model } = yield* setup([Reply.rateLimited(1), Reply.text("after the wait")], {
        onAttempt: ({ phase, attempt }) => heard.push(`${phase} ${attempt}`),
      })
      const call = yield* Effect.forkChild(model.generate(hello))
      // The 429 is in: from here the retry's wait is on the test clock.
      yield* until(() => heard.includes("failed 1"))
      expect(server.requests).toHaveLength(1)
      yield* TestClock.adjust(999)
      yield* settle
      expect(server.requests, "the retry came before the 1 s Retry-After").toHaveLength(1)
      yield* TestClock.adjust(1)
      expect((yield* Fiber.join(call)).text).toBe("after the wait")
      expect(server.requests).toHaveLength(2)
    }),
  )

  it.effect("caps a long Retry-After at maxRetryDelayMs (200 ms of the test clock, not 30 s)", () =>
    Effect.gen(function* () {
      const heard: Array<string> = []
      const { server, model } = yield* setup([Reply.rateLimited(30), Reply.text("soon enough")], {
        maxRetryDelayMs: 200,
        onAttempt: ({ phase, attempt }) => heard.push(`${phase} ${attempt}`),
      })
      const call = yield* Effect.forkChild(model.generate(hello))
      yield* until(() => heard.includes("failed 1"))
      yield* TestClock.adjust(199)
      yield* settle
      expect(server.requests, "the retry came before maxRetryDelayMs").toHaveLength(1)
      yield* TestClock.adjust(1)
      expect((yield* Fiber.join(call)).text).toBe("soon enough")
      expect(server.requests).toHaveLength(2)
    }),
  )

  it.live("retries a 500 with backoff and gives up after maxRetries", () =>
    Effect.gen(function* () {
      const recovered = yield* setup([Reply.serverError(500), Reply.serverError(502), Reply.text("ok")])
      expect((yield* recovered.model.generate(hello)).text).toBe("ok")
      expect(recovered.server.requests).toHaveLength(3)

      const broken = yield* setup([Reply.serverError(500), Reply.serverError(500), Reply.serverError(500)], {
        maxRetries: 2,
      })
      const error = yield* failureOf(broken.model.generate(hello))
      expect(error.reason._tag).toBe("LlmServerError")
      expect(error.message).toContain("HTTP 500")
      expect(broken.server.requests).toHaveLength(3)
    }),
  )

  it.live("does not retry a rejected request and says what to check", () =>
    Effect.gen(function* () {
      const { server, model } = yield* setup([
        Reply.error(404, "The model 'nope' does not exist", "invalid_request_error"),
      ])
      const error = yield* failureOf(model.generate(hello))
      expect(error.reason._tag).toBe("LlmRequestRejected")
      expect(error.isRetryable).toBe(false)
      expect(error.message).toContain("The model 'nope' does not exist")
      // A 404 answered in JSON is the endpoint's own: the model name is what it does not know.
      expect(error.message).toContain(`check the model name test-model: the endpoint ${server.baseURL}`)
      expect(server.requests).toHaveLength(1)
    }),
  )

  it.live("fails with a Timeout when an attempt takes longer than timeoutMs and hangs up", () =>
    Effect.gen(function* () {
      const { server, model } = yield* setup([Reply.delayed(3_000, Reply.text("late"))], {
        timeoutMs: 200,
        maxRetries: 0,
      })
      // The reply comes after 3 s and would succeed: failing with the 200 ms Timeout is the limit at work.
      const error = yield* failureOf(model.generate(hello))
      expect(error.reason._tag).toBe("Timeout")
      expect(error.message).toContain("200 ms")
      yield* Effect.promise(() => expect.poll(() => server.requests[0]?.aborted).toBe(true))
    }),
  )

  it.live("retries after a timeout when retries are allowed", () =>
    Effect.gen(function* () {
      const { server, model } = yield* setup(
        [Reply.delayed(3_000, Reply.text("late")), Reply.text("in time")],
        {
          timeoutMs: 300,
          maxRetries: 1,
        },
      )
      expect((yield* model.generate(hello)).text).toBe("in time")
      expect(server.requests).toHaveLength(2)
    }),
  )

  it.live("aborts the HTTP request when the fiber is interrupted", () =>
    Effect.gen(function* () {
      const { server, model } = yield* setup([Reply.delayed(5_000, Reply.text("never read"))])
      const fiber = yield* Effect.forkChild(model.generate(hello))
      yield* Effect.promise(() => expect.poll(() => server.requests.length).toBe(1))
      const started = Date.now()
      yield* Fiber.interrupt(fiber)
      // An interrupt that waited for the request would end when the reply comes, after 5 s.
      expect(Date.now() - started).toBeLessThan(2_500)
      yield* Effect.promise(() => expect.poll(() => server.requests[0]?.aborted).toBe(true))
    }),
  )

  it.live("maps an unreachable endpoint to LlmTransport", () =>
    Effect.gen(function* () {
      const { server, model } = yield* setup([], { maxRetries: 0 })
      yield* Effect.promise(() => server.close())
      const error = yield* failureOf(model.generate(hello))
      expect(error.reason._tag).toBe("LlmTransport")
      expect(error.message).toContain("check OPENAI_BASE_URL")
    }),
  )

  it.live("maps a body that is not a chat completion to LlmTransport", () =>
    Effect.gen(function* () {
      const { model } = yield* setup([Reply.raw('{"choices": [')], { maxRetries: 0 })
      const error = yield* failureOf(model.generate(hello))
      expect(error.reason._tag).toBe("LlmTransport")
      expect(error.message).toContain("could not be read")
    }),
  )

  it.live("reports an answer cut off at the token limit as OutputInvalid", () =>
    Effect.gen(function* () {
      const { model } = yield* setup([{ kind: "content", content: '{"steps": [', finishReason: "length" }])
      const error = yield* failureOf(
        model.generate({
          ...hello,
          maxTokens: 5,
          responseFormat: { name: "plan", schema: { type: "object" } },
        }),
      )
      expect(error.reason._tag).toBe("OutputInvalid")
      expect(error.message).toContain("cut off at the token limit (5)")
    }),
  )

  it.live("reports zero usage when the endpoint sends none, as some local servers do", () =>
    Effect.gen(function* () {
      const { model } = yield* setup([{ kind: "content", content: "no usage here", omitUsage: true }])
      const response = yield* model.generate(hello)
      expect(response.text).toBe("no usage here")
      expect(response.usage).toEqual({ prompt: 0, completion: 0, total: 0 })
    }),
  )

  it.live("maps a wrong key (401) to LlmRequestRejected without retrying", () =>
    Effect.gen(function* () {
      const server = yield* openAiServer({ replies: [Reply.text("never")], apiKey: "right-key" })
      const model = yield* make({
        baseURL: server.baseURL,
        apiKey: "wrong-key",
        model: "m",
        retryBaseDelayMs: 10,
      })
      const error = yield* failureOf(model.generate(hello))
      expect(error.reason._tag).toBe("LlmRequestRejected")
      expect(error.message).toContain("HTTP 401")
      expect(server.requests).toHaveLength(1)
    }),
  )

  it.live("layerConfig reads the endpoint, key and model from the environment", () =>
    Effect.gen(function* () {
      const server = yield* openAiServer({ replies: [Reply.text("from env")], apiKey: "env-key" })
      const environment = {
        OPENAI_BASE_URL: server.baseURL,
        OPENAI_API_KEY: "env-key",
        SEXTANT_MODEL: "env-model",
        SEXTANT_LLM_STREAM: "true",
      }
      const response = yield* Effect.gen(function* () {
        const model = yield* LanguageModel
        expect(model.model).toBe("env-model")
        return yield* model.generate(hello)
      }).pipe(Effect.provide(OpenAiLanguageModel.layerConfig(environment)))
      expect(response.text).toBe("from env")
      expect(server.requests[0]?.model).toBe("env-model")
    }),
  )

  it.live(
    "sends a key given as Redacted, and options read from code or the environment never print the key",
    () =>
      Effect.gen(function* () {
        const server = yield* openAiServer({ replies: [Reply.text("kept secret")], apiKey: "sk-live-123" })
        const response = yield* Effect.gen(function* () {
          return yield* (yield* LanguageModel).generate(hello)
        }).pipe(
          Effect.provide(
            OpenAiLanguageModel.layer({
              baseURL: server.baseURL,
              apiKey: Redacted.make("sk-live-123"),
              model: "m",
            }),
          ),
        )
        expect(response.text).toBe("kept secret")
        const fromCode = yield* decodeOpenAiOptions({ apiKey: "sk-live-123", model: "m" })
        const fromEnvironment = yield* openAiOptionsFromEnvironment({
          OPENAI_API_KEY: "sk-live-123",
          SEXTANT_MODEL: "m",
        })
        for (const options of [fromCode, fromEnvironment]) {
          expect(Redacted.value(options.apiKey)).toBe("sk-live-123")
          expect(JSON.stringify(options)).not.toContain("sk-live-123")
          expect(String(options.apiKey)).not.toContain("sk-live-123")
          expect(`${JSON.stringify(options)} ${String(options.apiKey)}`).toContain("<redacted")
        }
        const empty = yield* Effect.flip(decodeOpenAiOptions({ apiKey: Redacted.make("  "), model: "m" }))
        expect(empty.message).toContain("set an API key")
      }),
  )
})

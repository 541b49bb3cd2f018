import { assert, describe, it } from "@effect/vitest"
import { LanguageModel } from "@sextant/core"
import { Effect, Fiber } from "effect"
import { TestClock } from "effect/testing"
import { FakeLanguageModel, Reply } from "../../src/index.ts"

const ask = (text: string) => ({ messages: [{ role: "user" as const, content: text }] })

describe("FakeLanguageModel", () => {
  it.effect("answers the scripted replies in order and records every request", () =>
    Effect.gen(function* () {
      const fake = FakeLanguageModel.make(["hello", Reply.json({ steps: [] })], { model: "scripted" })
      const first = yield* fake.model.generate(ask("say hi"))
      const second = yield* fake.model.generate(ask("plan"))
      assert.strictEqual(first.text, "hello")
      assert.strictEqual(first.model, "scripted")
      assert.strictEqual(second.text, '{"steps":[]}')
      assert.isAbove(second.usage.total, 0)
      assert.strictEqual(second.usage.total, second.usage.prompt + second.usage.completion)
      assert.deepStrictEqual(
        fake.requests.map((request) => request.messages[0]?.content),
        ["say hi", "plan"],
      )
    }),
  )

  it.effect("fails a call past the script with LlmRequestRejected naming script_exhausted", () =>
    Effect.gen(function* () {
      const fake = FakeLanguageModel.make(["only one"])
      yield* fake.model.generate(ask("one"))
      const error = yield* Effect.flip(fake.model.generate(ask("two")))
      assert.strictEqual(error.reason._tag, "LlmRequestRejected")
      assert.include(error.message, "script_exhausted: call 2 but 1 replies scripted")
      assert.isFalse(error.isRetryable)
    }),
  )

  it.effect("turns the Reply helpers' HTTP errors into the adapter's typed reasons", () =>
    Effect.gen(function* () {
      const fake = FakeLanguageModel.make(
        [
          Reply.rateLimited(2),
          Reply.serverError(503),
          { kind: "error", status: 401, message: "bad key" },
          Reply.error(408, "request timeout"),
        ],
        { timeoutMs: 1234 },
      )
      const limited = yield* Effect.flip(fake.model.generate(ask("a")))
      const down = yield* Effect.flip(fake.model.generate(ask("b")))
      const refused = yield* Effect.flip(fake.model.generate(ask("c")))
      const late = yield* Effect.flip(fake.model.generate(ask("d")))
      assert.strictEqual(limited.reason._tag, "RateLimited")
      assert.strictEqual(limited.reason._tag === "RateLimited" && limited.reason.retryAfterMs, 2000)
      assert.strictEqual(down.reason._tag, "LlmServerError")
      assert.isTrue(down.isRetryable)
      assert.strictEqual(refused.reason._tag, "LlmRequestRejected")
      assert.isFalse(refused.isRetryable)
      // A 408 is the shared mapping's Timeout, as @sextant/openai reads it, with the fake's time limit.
      assert.strictEqual(late.reason._tag, "Timeout")
      assert.strictEqual(late.reason._tag === "Timeout" && late.reason.timeoutMs, 1234)
    }),
  )

  it.effect("waits a reply's delay on the Effect clock", () =>
    Effect.gen(function* () {
      const fake = FakeLanguageModel.make([Reply.text("late", { delayMs: 5000 })])
      const fiber = yield* Effect.forkChild(fake.model.generate(ask("slow")))
      yield* TestClock.adjust(4999)
      assert.isUndefined(fiber.pollUnsafe())
      yield* TestClock.adjust(1)
      const answer = yield* Fiber.join(fiber)
      assert.strictEqual(answer.text, "late")
    }),
  )

  it.effect("provides LanguageModel as a layer that starts its script afresh on each build", () =>
    Effect.gen(function* () {
      const layer = FakeLanguageModel.layerTest([Reply.json({ total: 42 })])
      const once = Effect.flatMap(LanguageModel, (model) => model.generate(ask("the total?")))
      const first = yield* Effect.provide(once, layer)
      const again = yield* Effect.provide(once, layer)
      assert.strictEqual(first.text, '{"total":42}')
      assert.strictEqual(again.text, '{"total":42}')
    }),
  )
})

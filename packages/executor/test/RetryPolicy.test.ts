import { assert, describe, it } from "@effect/vitest"
import {
  DialogOpen,
  DriverCrashed,
  DriverError,
  ElementNotFound,
  HttpError,
  RateLimited,
  StaleRef,
  Timeout,
} from "@sextant/core"
import { Clock, Effect, Fiber } from "effect"
import { TestClock } from "effect/testing"
import { type RetryOptions, recoveryFor, retryScheduleFor } from "../src/index.ts"

const driverError = (reason: DriverError["reason"]) => new DriverError({ method: "act", reason })
const notFound = driverError(new ElementNotFound({ target: "#go" }))
const stale = driverError(new StaleRef({ ref: "e5" }))
const timeout = driverError(new Timeout({ operation: "act", timeoutMs: 1000 }))
const crashed = driverError(new DriverCrashed({ detail: "gone" }))
const limited = (retryAfterMs?: number) =>
  new HttpError({ method: "fetch", reason: new RateLimited({ url: "http://shop.test/", retryAfterMs }) })

/** The delays between the attempts of an always-failing effect retried on the error's schedule. */
const delaysOf = (error: unknown, options: RetryOptions = {}) =>
  Effect.gen(function* () {
    const attempts: Array<number> = []
    const failing = Effect.flatMap(Clock.currentTimeMillis, (now) => {
      attempts.push(now)
      return Effect.fail(error)
    })
    const fiber = yield* Effect.forkChild(
      Effect.exit(Effect.retry(failing, retryScheduleFor(error, options))),
    )
    yield* TestClock.adjust(1_000_000)
    yield* Fiber.join(fiber)
    return attempts.slice(1).map((at, index) => at - attempts[index]!)
  })

/** Each delay lies within the jitter band (0.8x to 1.2x) of the expected one. */
const assertJittered = (delays: ReadonlyArray<number>, expected: ReadonlyArray<number>) => {
  assert.strictEqual(delays.length, expected.length, `delays ${delays.join(", ")}`)
  delays.forEach((delay, index) => {
    const wanted = expected[index]!
    assert.isAtLeast(delay, wanted * 0.8, `delay ${index + 1} of ${delays.join(", ")}`)
    assert.isAtMost(delay, wanted * 1.2, `delay ${index + 1} of ${delays.join(", ")}`)
  })
}

describe("retry schedules by error tag", () => {
  it("chooses the recovery by the reason's tag", () => {
    assert.deepStrictEqual([notFound, stale, timeout, limited(1000), crashed].map(recoveryFor), [
      "scroll-and-relook",
      "relook",
      "wait-longer",
      "honour-retry-after",
      "backoff",
    ])
  })

  it.effect("moves to a new tab at once after a tab crash, and never advises waiting longer for it", () =>
    Effect.gen(function* () {
      const tabCrashed = driverError(new DriverCrashed({ detail: "its renderer process crashed", tab: "T1" }))
      assert.strictEqual(recoveryFor(tabCrashed), "new-tab")
      assert.include(tabCrashed.message, "the tab crashed")
      assert.notInclude(tabCrashed.message, "wait longer")
      assert.deepStrictEqual(yield* delaysOf(tabCrashed), [0, 0, 0])
    }),
  )

  it("accepts an alert before trying again, and never answers a confirm or a prompt for the user", () => {
    const dialog = (type: "alert" | "confirm" | "prompt") =>
      driverError(new DialogOpen({ type, text: "Proceed?" }))
    assert.deepStrictEqual(
      ["alert", "confirm", "prompt"].map((type) => recoveryFor(dialog(type as "alert"))),
      ["accept-alert", "backoff", "backoff"],
    )
  })

  it.effect("ElementNotFound and StaleRef retry soon: exponential from half the base delay", () =>
    Effect.gen(function* () {
      assertJittered(yield* delaysOf(notFound), [100, 200, 400])
      assertJittered(yield* delaysOf(stale), [100, 200, 400])
    }),
  )

  it.effect("Timeout backs off from twice the base delay", () =>
    Effect.gen(function* () {
      assertJittered(yield* delaysOf(timeout), [400, 800, 1600])
    }),
  )

  it.effect("RateLimited waits exactly the server's Retry-After, with no jitter", () =>
    Effect.gen(function* () {
      assert.deepStrictEqual(yield* delaysOf(limited(7000)), [7000, 7000, 7000])
      assertJittered(yield* delaysOf(limited(undefined)), [1000, 2000, 4000])
    }),
  )

  it.effect("other retryable errors back off exponentially from the base delay up to the cap", () =>
    Effect.gen(function* () {
      assertJittered(yield* delaysOf(crashed), [200, 400, 800])
      const capped = yield* delaysOf(crashed, { maxRetries: 6, baseDelayMs: 200, maxDelayMs: 1000 })
      assertJittered(capped, [200, 400, 800, 1000, 1000, 1000])
    }),
  )

  it.effect("jitters the backoff, so agents that failed together do not retry together", () =>
    Effect.gen(function* () {
      const firstDelays = new Set<number>()
      for (let run = 0; run < 10; run++) firstDelays.add((yield* delaysOf(crashed, { maxRetries: 1 }))[0]!)
      assert.isAbove(firstDelays.size, 1)
    }),
  )

  it.effect("stops after maxRetries", () =>
    Effect.gen(function* () {
      assert.lengthOf(yield* delaysOf(crashed, { maxRetries: 1 }), 1)
      assert.lengthOf(yield* delaysOf(limited(500), { maxRetries: 5 }), 5)
    }),
  )
})

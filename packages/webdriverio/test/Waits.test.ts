import { describe, expect, it } from "@effect/vitest"
import type { DriverError, RecordedAction } from "@sextant/core"
import { Effect, Fiber } from "effect"
import { TestClock } from "effect/testing"
import { DriverOptions } from "../src/DriverOptions.ts"
import type { ActorCall } from "../src/internal/DriverContext.ts"
import type { Guard } from "../src/internal/Liveness.ts"
import { makeWaits, recordedWait } from "../src/internal/Waits.ts"

const unguarded: Guard = () => (effect) => effect

/** The wait part on a page whose script answers `answer` to every call; what it records goes to `kept`. */
const waitsAnswering = (answer: object, kept: Array<RecordedAction> = []) =>
  makeWaits({
    call: (): ActorCall => () => Effect.succeed(JSON.stringify(answer)),
    currentUrl: Effect.succeed("http://shop.test/"),
    options: DriverOptions.parse({}),
    recorded: (record) => (effect) =>
      Effect.tap(effect, (result) =>
        Effect.sync(() => {
          const action = record(result)
          if (action !== undefined) kept.push(action)
        }),
      ),
    guard: unguarded,
  })

describe("recordedWait", () => {
  it("keeps a wait on text or on a selector's state that held", () => {
    expect(recordedWait({ text: "Saved" }, { ok: true, elapsedMs: 5 })).toEqual({
      kind: "wait",
      condition: { text: "Saved" },
    })
    expect(recordedWait({ selector: ".toast", state: "hidden" }, { ok: true, elapsedMs: 5 })).toEqual({
      kind: "wait",
      condition: { selector: ".toast", state: "hidden" },
    })
  })

  it("keeps no wait that timed out, nor one on a ref or a JS condition", () => {
    expect(recordedWait({ text: "Saved" }, { ok: false, elapsedMs: 10_000 })).toBeUndefined()
    expect(recordedWait({ ref: "e4" }, { ok: true, elapsedMs: 5 })).toBeUndefined()
    expect(recordedWait({ js: "window.ready" }, { ok: true, elapsedMs: 5 })).toBeUndefined()
  })
})

describe("makeWaits", () => {
  it.effect("answers the page's verdict with whole milliseconds and records the wait that held", () =>
    Effect.gen(function* () {
      const kept: Array<RecordedAction> = []
      const result = yield* waitsAnswering({ ok: true, elapsedMs: 12.6 }, kept).waitFor({ text: "Saved" })
      expect(result).toEqual({ ok: true, elapsedMs: 13 })
      expect(kept).toEqual([{ kind: "wait", condition: { text: "Saved" } }])
    }),
  )

  it.effect("fails a wait on a ref the page no longer knows with StaleRef", () =>
    Effect.gen(function* () {
      const error: DriverError = yield* Effect.flip(waitsAnswering({ error: "stale" }).waitFor({ ref: "e9" }))
      expect(error.method).toBe("waitFor")
      expect(error.reason._tag).toBe("StaleRef")
    }),
  )

  it.effect("answers not ok when the URL has not changed by the time limit, and not before it", () =>
    Effect.gen(function* () {
      const wait = yield* Effect.forkChild(waitsAnswering({}).waitFor({ navigation: {} }, { timeoutMs: 60 }))
      // The URL is polled every 50 ms of Effect's clock: at 50 ms the limit is not reached yet.
      yield* TestClock.adjust(50)
      expect(wait.pollUnsafe()).toBeUndefined()
      yield* TestClock.adjust(50)
      const result = yield* Fiber.join(wait)
      expect(result).toEqual({ ok: false, elapsedMs: 100 })
    }),
  )

  it.live("answers ok as soon as the URL differs from the one it started from", () =>
    Effect.gen(function* () {
      const result = yield* waitsAnswering({}).waitFor({ navigation: { from: "http://shop.test/login" } })
      expect(result.ok).toBe(true)
    }),
  )
})

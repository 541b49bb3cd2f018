import { describe, expect, it } from "@effect/vitest"
import type { DriverError } from "@sextant/core"
import { Effect, Fiber } from "effect"
import { TestClock } from "effect/testing"
import { makeGuard } from "../src/internal/Liveness.ts"

const limits = { commandTimeoutMs: 50, crashCheckMs: 10 }

describe("makeGuard", () => {
  it.live("fails a call on a dead session as DriverCrashed, naming what died, without running it", () =>
    Effect.gen(function* () {
      let ran = false
      const guard = makeGuard({ crashed: () => "ChromeDriver (pid 812) exited" }, limits)
      const error: DriverError = yield* Effect.flip(
        guard("look")(
          Effect.sync(() => {
            ran = true
          }),
        ),
      )
      expect(ran).toBe(false)
      expect(error.reason._tag).toBe("DriverCrashed")
      expect(error.message).toContain("ChromeDriver (pid 812) exited")
    }),
  )

  it.effect(
    "fails a call waiting when the browser dies as DriverCrashed at the next crash check, long before its time limit",
    () =>
      Effect.gen(function* () {
        let died: string | undefined
        const guard = makeGuard({ crashed: () => died }, { commandTimeoutMs: 5_000, crashCheckMs: 10 })
        const call = yield* Effect.forkChild(Effect.flip(guard("act")(Effect.never)))
        yield* TestClock.adjust(30)
        expect(call.pollUnsafe()).toBeUndefined()
        died = "Chromium (pid 900) exited"
        // The test clock is at 40 ms of the 5 s limit: only the crash check can end the call.
        yield* TestClock.adjust(10)
        yield* Effect.yieldNow
        expect(call.pollUnsafe(), "the call was still waiting after the crash check").toBeDefined()
        const error: DriverError = yield* Fiber.join(call)
        expect(error.reason._tag).toBe("DriverCrashed")
        expect(error.message).toContain("Chromium (pid 900) exited")
      }),
  )

  it.live("fails a call that outlives its limit with Timeout naming the operation", () =>
    Effect.gen(function* () {
      const guard = makeGuard({}, limits)
      const error: DriverError = yield* Effect.flip(guard("tabs")(Effect.never))
      expect(error.reason).toMatchObject({ _tag: "Timeout", operation: "BrowserDriver.tabs", timeoutMs: 50 })
      const custom: DriverError = yield* Effect.flip(guard("act", 20)(Effect.never))
      expect(custom.reason).toMatchObject({ timeoutMs: 20 })
    }),
  )
})

import { describe, expect, it } from "@effect/vitest"
import type { DriverError } from "@sextant/core"
import { Effect } from "effect"
import { DriverOptions } from "../src/DriverOptions.ts"
import { makeDialogs } from "../src/internal/Dialogs.ts"
import { snapshotOf } from "../src/internal/DriverContext.ts"
import type { Guard } from "../src/internal/Liveness.ts"
import { makeLook } from "../src/internal/Look.ts"

const unguarded: Guard = () => (effect) => effect

/** The look part on a session whose every script throws `thrown`. */
const lookThrowing = (bidi: boolean, thrown: Error) =>
  makeLook({
    browser: {
      execute: async () => {
        throw thrown
      },
    } as unknown as WebdriverIO.Browser,
    bidi,
    channels: { bidi, cdp: false },
    dialogs: makeDialogs({ tracked: bidi, classicText: async () => "" }),
    call: () => () => Effect.die("no page script in this test"),
    options: DriverOptions.parse({}),
    state: { context: "A", lastSnapshot: undefined, newTabs: [], loading: undefined },
    snapshotOf: (json) => snapshotOf({}, json),
    guard: unguarded,
  })

describe("makeLook", () => {
  it.effect("reports a page script that threw as ScriptError on a BiDi session", () =>
    Effect.gen(function* () {
      const error: DriverError = yield* Effect.flip(
        lookThrowing(true, new Error("ReferenceError: total is not defined")).evaluate("return total"),
      )
      expect(error.method).toBe("evaluate")
      expect(error.reason._tag).toBe("ScriptError")
      expect(error.message).toContain("total is not defined")
    }),
  )

  it.effect("leaves an error WebDriver did not name as DriverUnknown on a Classic session", () =>
    Effect.gen(function* () {
      const error: DriverError = yield* Effect.flip(
        lookThrowing(false, new Error("boom")).evaluate("return 1"),
      )
      expect(error.reason._tag).toBe("DriverUnknown")
    }),
  )
})

describe("snapshotOf", () => {
  it.effect("fails an answer that is not a snapshot as a ScriptError of look", () =>
    Effect.gen(function* () {
      const error: DriverError = yield* Effect.flip(snapshotOf({}, "not json"))
      expect(error.method).toBe("look")
      expect(error.reason._tag).toBe("ScriptError")
    }),
  )
})

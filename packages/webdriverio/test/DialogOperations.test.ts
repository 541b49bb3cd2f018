import { describe, expect, it } from "@effect/vitest"
import type { DriverError } from "@sextant/core"
import { Effect } from "effect"
import { makeDialogOperations, makeDialogs } from "../src/internal/Dialogs.ts"
import type { Guard } from "../src/internal/Liveness.ts"

const unguarded: Guard = () => (effect) => effect

/** A BiDi driver's dialog operations; `answers` lists how the page's dialogs were answered. */
const bidiOperations = () => {
  const dialogs = makeDialogs({ tracked: true, classicText: async () => "" })
  const answers: Array<string> = []
  const operations = makeDialogOperations({
    browser: {} as WebdriverIO.Browser,
    tracked: true,
    dialogs,
    guard: unguarded,
  })
  const open = (type: string, message: string) =>
    dialogs.opened({
      type: () => type,
      message: () => message,
      accept: async (text) => answers.push(`accept ${text ?? ""}`.trim()),
      dismiss: async () => answers.push("dismiss"),
    })
  return { operations, open, answers }
}

describe("makeDialogOperations", () => {
  it.effect("refuses to answer when no dialog is open (BiDi)", () =>
    Effect.gen(function* () {
      const error: DriverError = yield* Effect.flip(bidiOperations().operations.respondToDialog(true))
      expect(error.method).toBe("respondToDialog")
      expect(error.reason._tag).toBe("InvalidArgument")
      expect(error.message).toContain("no dialog is open")
    }),
  )

  it.effect("answers the open prompt with the text given, after which no dialog is open", () =>
    Effect.gen(function* () {
      const { operations, open, answers } = bidiOperations()
      open("prompt", "Your name?")
      expect(yield* operations.dialog).toEqual({ type: "prompt", text: "Your name?" })
      yield* operations.respondToDialog(true, "Ada")
      expect(answers).toEqual(["accept Ada"])
      expect(yield* operations.dialog).toBeUndefined()
    }),
  )

  it.effect("reads no dialog in Classic when WebDriver answers no such alert", () =>
    Effect.gen(function* () {
      const noAlert = Object.assign(new Error("no such alert"), { name: "no such alert" })
      const operations = makeDialogOperations({
        browser: {
          getAlertText: async () => {
            throw noAlert
          },
        } as unknown as WebdriverIO.Browser,
        tracked: false,
        dialogs: makeDialogs({ tracked: false, classicText: async () => "" }),
        guard: unguarded,
      })
      expect(yield* operations.dialog).toBeUndefined()
    }),
  )
})

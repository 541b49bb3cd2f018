import { type BrowserDriverShape, DriverError, ScriptError } from "@sextant/core"
import { Effect, Exit } from "effect"
import { describe, expect, it } from "vitest"
import { withMaskedPage } from "../src/index.ts"

/** A driver whose page answers the masking calls from `answers`, recording each call by name. */
const recordingDriver = (answers: Record<string, unknown>) => {
  const calls: Array<string> = []
  const driver: Pick<BrowserDriverShape, "callPage"> = {
    // Recorded when the call runs, not when its effect is built.
    callPage: (name) =>
      Effect.suspend(() => {
        calls.push(name)
        return name in answers
          ? Effect.succeed(answers[name])
          : Effect.fail(
              new DriverError({ method: "callPage", reason: new ScriptError({ detail: `${name} threw` }) }),
            )
      }),
  }
  return { calls, driver }
}

const redact = (text: string) => text.replaceAll("hunter2", "<secret>")

describe("withMaskedPage's page calls", () => {
  it("masks with two page calls, naming to maskTexts only the texts redact changes, and restores with one", async () => {
    const { calls, driver } = recordingDriver({
      maskPage: [
        [0, "Welcome, hunter2"],
        [1, "Products"],
      ],
      maskTexts: 0,
      unmaskPage: undefined,
    })
    let masked: Array<unknown> = []
    const inner: Pick<BrowserDriverShape, "callPage"> = {
      callPage: (name, args) => {
        return Effect.suspend(() => {
          if (name === "maskTexts") masked = [...(args ?? [])]
          return driver.callPage(name, args)
        })
      },
    }
    const taken = await Effect.runPromise(
      withMaskedPage(
        inner,
        redact,
        Effect.sync(() => calls.length),
      ),
    )
    expect(taken).toBe(2)
    expect(masked).toEqual([[0]])
    expect(calls).toEqual(["maskPage", "maskTexts", "unmaskPage"])
  })

  it("takes nothing when a masked element still draws its text, and still gives the page back", async () => {
    const { calls, driver } = recordingDriver({ maskPage: [], maskTexts: 1, unmaskPage: undefined })
    let took = false
    const exit = await Effect.runPromiseExit(
      withMaskedPage(
        driver,
        redact,
        Effect.sync(() => (took = true)),
      ),
    )
    expect(took).toBe(false)
    expect(Exit.isFailure(exit) && JSON.stringify(exit.cause)).toContain("MaskingFailed")
    expect(calls).toEqual(["maskPage", "maskTexts", "unmaskPage"])
  })
})

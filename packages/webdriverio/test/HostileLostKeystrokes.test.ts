import { expect, layer } from "@effect/vitest"
import { ActOrigins, BrowserDriver } from "@sextant/core"
import { type FixtureSite, startFixtureSite } from "@sextant/fixture-site"
import { Effect } from "effect"
import { afterAll, beforeAll } from "vitest"
import { WebdriverioDriver } from "../src/index.ts"

let site: FixtureSite
beforeAll(async () => {
  site = await startFixtureSite({ port: 0, seed: 0 })
})
afterAll(async () => {
  await site?.close()
})

const PASSWORD = "open sesame+42"
/** The password or any part of it long enough to give it away, in the error's text or its fields. */
const leaks = (text: string): boolean =>
  text.includes(PASSWORD) || text.includes("open sesame+4") || text.toLowerCase().includes("opensesame")

layer(WebdriverioDriver.layerShared({ driver: { actionWaitMs: 300 } }), {
  excludeTestServices: true,
  timeout: "60 seconds",
})("a field that loses keystrokes of a secret", (it) => {
  it.effect("fails a password fill with lengths only, never the password or what the field holds", () =>
    Effect.gen(function* () {
      const driver = yield* BrowserDriver
      yield* driver.navigate(`${site.url}/typing/field?drop=always&type=password`)
      const error = yield* Effect.flip(driver.act({ selector: "#code" }, "input", PASSWORD))
      expect(error.reason._tag).toBe("ValueNotTaken")
      expect(error.message).toContain("holds 13 of 14 characters")
      expect(leaks(error.message)).toBe(false)
      expect(leaks(JSON.stringify(error.reason))).toBe(false)
    }),
  )

  it.effect("fails a secret fill of a plain text field that changes it with lengths only", () =>
    Effect.gen(function* () {
      const driver = yield* BrowserDriver
      yield* driver.navigate(`${site.url}/typing/phone`)
      const error = yield* Effect.flip(
        driver
          .act({ selector: "#phone" }, "input", PASSWORD)
          .pipe(Effect.provideService(ActOrigins, { typing: [site.url] })),
      )
      expect(error.reason._tag).toBe("ValueNotTaken")
      expect(error.message).toContain("of 14 characters")
      expect(error.message).toContain("only lengths are shown")
      expect(leaks(error.message)).toBe(false)
      expect(leaks(JSON.stringify(error.reason))).toBe(false)
    }),
  )
})

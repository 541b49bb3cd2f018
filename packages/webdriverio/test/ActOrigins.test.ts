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

const fieldValue = (selector: string) =>
  BrowserDriver.use((driver) =>
    driver.evaluate(`return document.querySelector(${JSON.stringify(selector)}).value`),
  )

layer(WebdriverioDriver.layerShared({ driver: { actionWaitMs: 300 } }), {
  excludeTestServices: true,
  timeout: "60 seconds",
})("act with ActOrigins", (it) => {
  it.effect("types nothing into a field whose form posts to another origin, and says where it would go", () =>
    Effect.gen(function* () {
      const driver = yield* BrowserDriver
      yield* driver.navigate(`${site.url}/hostile/offsite-form?to=http://127.0.0.1:9`)
      const error = yield* Effect.flip(
        driver
          .act({ selector: "#password" }, "input", "hunter2")
          .pipe(Effect.provideService(ActOrigins, { typing: [site.url] })),
      )
      expect(error.reason._tag).toBe("OriginRefused")
      expect(error.message).toContain("http://127.0.0.1:9")
      expect(yield* fieldValue("#password")).toBe("")
    }),
  )

  it.effect("types into a field of an allowed origin, and anywhere when no origins are set", () =>
    Effect.gen(function* () {
      const driver = yield* BrowserDriver
      yield* driver.navigate(`${site.url}/login`)
      yield* driver
        .act({ selector: "#password" }, "input", "hunter2")
        .pipe(Effect.provideService(ActOrigins, { typing: [site.url] }))
      expect(yield* fieldValue("#password")).toBe("hunter2")
      yield* driver.navigate(`${site.url}/hostile/offsite-form?to=http://127.0.0.1:9`)
      yield* driver.act({ selector: "#password" }, "input", "typed")
      expect(yield* fieldValue("#password")).toBe("typed")
    }),
  )

  it.effect("refuses a page that is itself on another origin than the allowed ones", () =>
    Effect.gen(function* () {
      const driver = yield* BrowserDriver
      yield* driver.navigate(`${site.url}/login`)
      const error = yield* Effect.flip(
        driver
          .act({ selector: "#password" }, "input", "hunter2")
          .pipe(Effect.provideService(ActOrigins, { typing: ["http://127.0.0.1:9"] })),
      )
      expect(error.reason._tag).toBe("OriginRefused")
      expect(yield* fieldValue("#password")).toBe("")
    }),
  )
})

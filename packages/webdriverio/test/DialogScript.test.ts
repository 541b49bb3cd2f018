import type { DriverError } from "@sextant/core"
import { type FixtureSite, startFixtureSite } from "@sextant/fixture-site"
import { Effect, Exit, Scope } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { launch, makeDriver } from "../src/index.ts"

let site: FixtureSite
beforeAll(async () => {
  site = await startFixtureSite({ port: 0, seed: 0 })
})
afterAll(async () => {
  await site?.close()
})

describe("a page script while an alert is open", () => {
  it("fails as DialogOpen naming the alert at once, instead of waiting for the dialog", {
    timeout: 60_000,
  }, async () => {
    const scope = await Effect.runPromise(Scope.make())
    try {
      const session = await Effect.runPromise(Scope.provide(launch({}), scope))
      const driver = await Effect.runPromise(
        Scope.provide(makeDriver(session, { lookTimeoutMs: 20_000 }), scope),
      )
      await Effect.runPromise(Effect.exit(driver.navigate(`${site.url}/faults/alert?text=soak`)))
      const started = Date.now()
      const error = await Effect.runPromise(
        Effect.flip(driver.evaluate("return 1 + 1") as Effect.Effect<unknown, DriverError>),
      )
      expect(error.reason._tag).toBe("DialogOpen")
      expect(error.message).toContain("soak")
      // Waiting for the dialog would take the 20 s look limit.
      expect(Date.now() - started).toBeLessThan(10_000)
    } finally {
      await Effect.runPromise(Scope.close(scope, Exit.void))
    }
  })
})

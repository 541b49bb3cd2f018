import type { BrowserDriverShape, DriverError } from "@sextant/core"
import {
  FIXTURE_PRODUCTS,
  type FixtureSite,
  PRODUCTS_PER_PAGE,
  startFixtureSite,
} from "@sextant/fixture-site"
import { Effect, Exit, Scope } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { launch, makeDriver } from "../src/index.ts"

// A page that commits and renders but never finishes loading (the fixture's /faults/unfinished sends
// every product card, then holds the connection open) is stopped after the page-load wait and used;
// a server that never answers still fails, saying so. Loads run on the tab's DevTools socket in both
// session kinds Sextant launches, so both are run.

const PAGE_LOAD_WAIT_MS = 1_000
const NAVIGATION_TIMEOUT_MS = 8_000

let site: FixtureSite
beforeAll(async () => {
  site = await startFixtureSite({ port: 0, seed: 0 })
})
afterAll(async () => {
  await site?.close()
})

const run = <A>(effect: Effect.Effect<A, DriverError>) => Effect.runPromise(effect)

const timed = async <A>(effect: Effect.Effect<A, DriverError>) => {
  const started = Date.now()
  const exit = await Effect.runPromise(Effect.exit(effect))
  return { exit, elapsedMs: Date.now() - started }
}

// The products of page 2, the page the tests load.
const pageTwo = FIXTURE_PRODUCTS.slice(PRODUCTS_PER_PAGE, 2 * PRODUCTS_PER_PAGE)

for (const bidi of [false, true]) {
  describe(`a page that never finishes loading (${bidi ? "BiDi" : "Classic with tab sockets"})`, () => {
    let scope: Scope.Closeable
    let driver: BrowserDriverShape

    beforeAll(async () => {
      scope = await Effect.runPromise(Scope.make())
      const session = await Effect.runPromise(Scope.provide(launch({ bidi }), scope))
      driver = await Effect.runPromise(
        Scope.provide(
          makeDriver(session, {
            pageLoadWaitMs: PAGE_LOAD_WAIT_MS,
            navigationTimeoutMs: NAVIGATION_TIMEOUT_MS,
            commandTimeoutMs: 5_000,
          }),
          scope,
        ),
      )
    }, 60_000)
    afterAll(async () => {
      if (scope !== undefined) await Effect.runPromise(Scope.close(scope, Exit.void))
    })

    it("is stopped after the page-load wait and answered as loaded, saying it was stopped", async () => {
      const url = `${site.url}/faults/unfinished?page=2`
      const { exit, elapsedMs } = await timed(driver.navigate(url))
      expect(Exit.isSuccess(exit), String(exit)).toBe(true)
      const result = Exit.isSuccess(exit) ? exit.value : undefined
      expect(result).toMatchObject({ url, status: 200 })
      expect(result?.stoppedLoadingAfterMs).toBeGreaterThanOrEqual(PAGE_LOAD_WAIT_MS)
      expect(result?.stoppedLoadingAfterMs).toBeLessThan(NAVIGATION_TIMEOUT_MS)
      expect(result?.hint).toContain(
        `still loading after ${result?.stoppedLoadingAfterMs} ms and was stopped`,
      )
      // Answered within the wait (plus the look at the page and the stop), not at the navigation's limit.
      expect(elapsedMs).toBeLessThan(PAGE_LOAD_WAIT_MS + 2_500)
      // The trace's recording of the navigation says it too.
      const recording = await Effect.runPromise(driver.takeRecording!)
      expect(recording.actions.at(-1)).toMatchObject({
        kind: "navigate",
        url,
        stoppedLoadingAfterMs: result?.stoppedLoadingAfterMs,
      })
    })

    it("shows every product card of the page to look() after it was stopped", async () => {
      await run(driver.navigate(`${site.url}/faults/unfinished?page=2`))
      const snapshot = await run(driver.look())
      for (const product of pageTwo) expect(snapshot.tree).toContain(product.name)
    })

    it("answers a page that finishes loading as before, with nothing about stopping", async () => {
      const result = await run(driver.navigate(`${site.url}/products?page=2`))
      expect(result.title).not.toBe("")
      expect(result.stoppedLoadingAfterMs).toBeUndefined()
      expect(result.hint).toBeUndefined()
    })

    it("still fails a server that never answers with Timeout at the navigation's limit, saying the server did not answer", async () => {
      const url = `${site.url}/faults/never`
      const started = Date.now()
      // A limit past the page-load wait: a server that never answers is not stopped and used at the wait.
      const error = await Effect.runPromise(Effect.flip(driver.navigate(url, { timeoutMs: 2_000 })))
      const elapsedMs = Date.now() - started
      expect(error.reason._tag).toBe("Timeout")
      expect(error.message).toContain(
        `loading ${url} (the server did not answer) did not finish within 2000 ms`,
      )
      expect(elapsedMs).toBeGreaterThanOrEqual(2_000)
      expect(elapsedMs).toBeLessThan(5_000)
      // The tab is usable afterwards.
      const next = await run(driver.navigate(`${site.url}/products?page=1`))
      expect(next.status).toBe(200)
    })
  })
}

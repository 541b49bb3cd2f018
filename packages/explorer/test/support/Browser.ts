import type { BrowserDriver } from "@sextant/core"
import { type FixtureSite, type FixtureSiteOptions, startFixtureSite } from "@sextant/fixture-site"
import { WebdriverioDriver } from "@sextant/webdriverio"
import { Effect, ManagedRuntime } from "effect"
import { afterAll, beforeAll } from "vitest"

/** One headless Chromium per test file and fixture sites started on demand, all closed after the file. */
export const useBrowser = () => {
  let runtime: ManagedRuntime.ManagedRuntime<BrowserDriver, unknown> | undefined
  const sites: Array<FixtureSite> = []
  beforeAll(async () => {
    runtime = ManagedRuntime.make(WebdriverioDriver.layerShared({}))
    await runtime.runPromise(Effect.void)
  })
  afterAll(async () => {
    await runtime?.dispose()
    await Promise.all(sites.map((site) => site.close()))
  })
  return {
    run: <A, E>(effect: Effect.Effect<A, E, BrowserDriver>): Promise<A> => {
      if (runtime === undefined) throw new Error("the browser is not started yet")
      return runtime.runPromise(effect)
    },
    site: async (options: FixtureSiteOptions = {}): Promise<FixtureSite> => {
      const site = await startFixtureSite(options)
      sites.push(site)
      return site
    },
  }
}

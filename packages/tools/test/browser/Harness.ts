import type { BrowserDriver, HttpSession } from "@sextant/core"
import { type FixtureSite, startFixtureSite } from "@sextant/fixture-site"
import { WebdriverioDriver } from "@sextant/webdriverio"
import { type Context, Effect, Exit, Layer, Scope } from "effect"
import * as FetchHttpSession from "../../src/session/FetchHttpSession.ts"

type Services = BrowserDriver | HttpSession

/**
 * One headless Chromium (through `@sextant/webdriverio`'s layer) and an `HttpSession` for a whole
 * test file, fixture sites for the seeds asked for, and a way to run effects on them.
 */
export interface Harness {
  readonly sites: ReadonlyMap<number, FixtureSite>
  /** An absolute URL on the site of `seed` (the first seed asked for by default). */
  readonly url: (path: string, seed?: number) => string
  readonly run: <A, E>(effect: Effect.Effect<A, E, Services>) => Promise<A>
  /** Runs the effect and answers its failure; rejects when it succeeds. */
  readonly fail: <A, E>(effect: Effect.Effect<A, E, Services>) => Promise<E>
  readonly close: () => Promise<void>
}

export const openHarness = async (seeds: ReadonlyArray<number> = [0]): Promise<Harness> => {
  const sites = new Map<number, FixtureSite>()
  const scope = await Effect.runPromise(Scope.make())
  const close = async () => {
    await Effect.runPromise(Scope.close(scope, Exit.void))
    await Promise.all([...sites.values()].map((site) => site.close()))
  }
  let context: Context.Context<Services>
  try {
    for (const seed of seeds) sites.set(seed, await startFixtureSite({ port: 0, seed }))
    context = await Effect.runPromise(
      Layer.buildWithScope(
        Layer.merge(
          // A short action wait keeps the tests that expect a missing element quick.
          WebdriverioDriver.layerShared({ driver: { actionWaitMs: 500 } }),
          FetchHttpSession.layer({ requestsPerSecondPerHost: 1_000, concurrencyPerHost: 8 }),
        ),
        scope,
      ),
    )
  } catch (error) {
    await close()
    throw error
  }
  return {
    sites,
    url: (path, seed = seeds[0] ?? 0) => `${sites.get(seed)?.url ?? "http://127.0.0.1:9"}${path}`,
    run: (effect) => Effect.runPromise(Effect.provide(effect, context)),
    fail: (effect) => Effect.runPromise(Effect.flip(Effect.provide(effect, context))),
    close,
  }
}

import type { BrowserDriver } from "@sextant/core"
import { type FixtureSite, startFixtureSite } from "@sextant/fixture-site"
import { layer } from "@sextant/webdriverio"
import { type Context, Effect, Exit, Layer, Scope } from "effect"

/** One headless Chromium and one fixture site for a whole test file, and a way to run effects on them. */
export interface Harness {
  readonly site: FixtureSite
  readonly url: (path: string) => string
  readonly run: <A, E>(effect: Effect.Effect<A, E, BrowserDriver>) => Promise<A>
  /** Runs the effect and answers its failure (the test expects one). */
  readonly fail: <A, E>(effect: Effect.Effect<A, E, BrowserDriver>) => Promise<E>
  readonly close: () => Promise<void>
}

/** Starts the fixture site with `seed` and a browser through `@sextant/webdriverio`'s layer. */
export const openHarness = async (seed: number): Promise<Harness> => {
  const site = await startFixtureSite({ port: 0, seed })
  const scope = await Effect.runPromise(Scope.make())
  let context: Context.Context<BrowserDriver>
  try {
    context = await Effect.runPromise(Layer.buildWithScope(layer({}), scope))
  } catch (error) {
    await Effect.runPromise(Scope.close(scope, Exit.void))
    await site.close()
    throw error
  }
  const run = <A, E>(effect: Effect.Effect<A, E, BrowserDriver>) =>
    Effect.runPromise(Effect.provide(effect, context))
  return {
    site,
    url: (path) => `${site.url}${path}`,
    run,
    fail: (effect) => Effect.runPromise(Effect.flip(Effect.provide(effect, context))),
    close: async () => {
      await Effect.runPromise(Scope.close(scope, Exit.void))
      await site.close()
    },
  }
}

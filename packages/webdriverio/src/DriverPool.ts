import { type BrowserDriverShape, DriverError, InvalidArgument } from "@sextant/core"
import { Effect, Exit, Scope, Semaphore } from "effect"
import { z } from "zod"
import type { DriverOptions } from "./DriverOptions.ts"
import {
  connectGrid,
  type DriverSession,
  type GridOptions,
  type LaunchOptions,
  launch,
  launchOptionsFor,
} from "./Session.ts"
import { makeDriver } from "./WebdriverioDriver.ts"

/** Options of {@link createDriverPool}. */
export const DriverPoolOptions = z.object({
  /** How many sessions may be out at once (and at most alive). */
  size: z.number().int().positive().default(2),
  /** How long the health check before handing out a session may take, in ms. */
  healthTimeoutMs: z.number().int().positive().default(3_000),
})
export type DriverPoolOptions = z.input<typeof DriverPoolOptions> & {
  /** How each session is launched. */
  readonly launch?: LaunchOptions
  /** Open each session on this Selenium Grid instead of launching it (see {@link connectGrid}). */
  readonly grid?: GridOptions
  /** How each session's driver looks and waits. */
  readonly driver?: DriverOptions
}

/** A session handed out by the pool, with its driver. */
export interface PooledDriver {
  readonly session: DriverSession
  readonly driver: BrowserDriverShape
}

/** Sessions shared by many agents, at most `size` at once, each checked healthy before it is handed out. */
export interface DriverPool {
  /** A healthy session for the current scope; it returns to the pool when the scope closes. */
  readonly acquire: Effect.Effect<PooledDriver, DriverError, Scope.Scope>
  /** How many sessions are alive (idle or out). */
  readonly alive: Effect.Effect<number>
  /** How many crashed sessions were replaced so far. */
  readonly replaced: Effect.Effect<number>
}

interface Entry extends PooledDriver {
  readonly scope: Scope.Closeable
}

/**
 * A pool of launched sessions (or of sessions on a Selenium Grid, `grid`). A session whose browser no longer answers (crashed, killed) is
 * closed and replaced before anyone gets it. Closing the pool's scope ends every session.
 *
 * @example
 * ```ts
 * import { Effect } from "effect"
 * import { createDriverPool } from "@sextant/webdriverio"
 * const program = Effect.scoped(
 *   Effect.gen(function* () {
 *     const pool = yield* createDriverPool({ size: 2 })
 *     const titles = yield* Effect.forEach(["http://127.0.0.1:4000/", "http://127.0.0.1:4000/login"], (url) =>
 *       Effect.scoped(Effect.flatMap(pool.acquire, ({ driver }) => driver.navigate(url))),
 *       { concurrency: 2 },
 *     )
 *     return titles
 *   }),
 * )
 * ```
 */
export const createDriverPool = Effect.fn("webdriverio.createDriverPool")(function* (
  input: DriverPoolOptions = {},
) {
  const parsed = DriverPoolOptions.safeParse(input)
  if (!parsed.success) {
    return yield* Effect.fail(
      new DriverError({
        method: "createDriverPool",
        reason: new InvalidArgument({
          detail: parsed.error.issues
            .map((issue) => `pool.${issue.path.join(".")}: ${issue.message}`)
            .join("; "),
        }),
      }),
    )
  }
  const options = parsed.data
  const permits = yield* Semaphore.make(options.size)
  const idle: Array<Entry> = []
  const all = new Set<Entry>()
  let replacedCount = 0

  const open = Effect.gen(function* () {
    const scope = yield* Scope.make()
    const built = yield* Effect.gen(function* () {
      const session =
        input.grid === undefined
          ? yield* launch(launchOptionsFor(input.launch ?? {}, input.driver))
          : yield* connectGrid(input.grid)
      const driver = yield* makeDriver(session, input.driver ?? {})
      return { session, driver }
    }).pipe(
      Scope.provide(scope),
      Effect.onError((cause) => Scope.close(scope, Exit.failCause(cause))),
    )
    const entry: Entry = { ...built, scope }
    all.add(entry)
    return entry
  })

  const discard = (entry: Entry) =>
    Effect.suspend(() => {
      all.delete(entry)
      return Scope.close(entry.scope, Exit.void)
    })

  const healthy = (entry: Entry) =>
    Effect.tryPromise(() => entry.session.browser.getUrl()).pipe(
      Effect.timeout(options.healthTimeoutMs),
      Effect.as(true),
      Effect.catch(() => Effect.succeed(false)),
    )

  const take: Effect.Effect<Entry, DriverError> = Effect.gen(function* () {
    for (;;) {
      const candidate = idle.pop()
      if (candidate === undefined) return yield* open
      if (yield* healthy(candidate)) return candidate
      replacedCount++
      yield* discard(candidate)
    }
  })

  yield* Effect.addFinalizer(() =>
    Effect.forEach([...all], discard, { discard: true, concurrency: "unbounded" }),
  )

  const acquire: DriverPool["acquire"] = Effect.gen(function* () {
    yield* Effect.acquireRelease(permits.take(1), () => permits.release(1))
    const entry = yield* Effect.acquireRelease(take, (taken) =>
      Effect.sync(() => {
        if (all.has(taken)) idle.push(taken)
      }),
    )
    return { session: entry.session, driver: entry.driver }
  })

  return {
    acquire,
    alive: Effect.sync(() => all.size),
    replaced: Effect.sync(() => replacedCount),
  } satisfies DriverPool as DriverPool
})

/** The pool with Promises. */
export interface PromiseDriverPool {
  /** A healthy session; call `release()` to give it back. */
  readonly acquire: () => Promise<PooledDriver & { readonly release: () => Promise<void> }>
  /** Ends every session. */
  readonly close: () => Promise<void>
}

/**
 * {@link createDriverPool} with Promises.
 *
 * @example
 * ```ts
 * import { openDriverPool } from "@sextant/webdriverio"
 * const pool = await openDriverPool({ size: 2 })
 * const { driver, release } = await pool.acquire()
 * await release()
 * await pool.close()
 * ```
 */
export const openDriverPool = async (options: DriverPoolOptions = {}): Promise<PromiseDriverPool> => {
  const scope = await Effect.runPromise(Scope.make())
  const pool = await Effect.runPromise(Scope.provide(createDriverPool(options), scope)).catch(
    async (error: unknown) => {
      await Effect.runPromise(Scope.close(scope, Exit.void))
      throw error
    },
  )
  return {
    acquire: async () => {
      const lease = await Effect.runPromise(Scope.make())
      const taken = await Effect.runPromise(Scope.provide(pool.acquire, lease)).catch(
        async (error: unknown) => {
          await Effect.runPromise(Scope.close(lease, Exit.void))
          throw error
        },
      )
      return { ...taken, release: () => Effect.runPromise(Scope.close(lease, Exit.void)) }
    },
    close: () => Effect.runPromise(Scope.close(scope, Exit.void)),
  }
}

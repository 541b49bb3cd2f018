import { type BrowserDriverShape, DriverCrashed, DriverError, InvalidArgument } from "@sextant/core"
import { Clock, Effect, Exit, Fiber, Scope, Semaphore } from "effect"
import { z } from "zod"
import { type SharedChromedriver, startSharedChromedriver } from "./Chromedriver.ts"
import { toDriverError } from "./DriverErrors.ts"
import type { DriverOptions } from "./DriverOptions.ts"
import { switchToFreshContext } from "./internal/BrowserContexts.ts"
import { isSameProcess, processIdentity, signalSameProcess } from "./internal/Processes.ts"
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
  /** How many sessions may be out at once (and at most alive): one browser per slot. */
  size: z.number().int().positive().default(2),
  /** How many browsers start with the pool, before the first acquire (default 0: each on first need). */
  warm: z.number().int().nonnegative().default(0),
  /** How long the health check before handing out a session may take, in ms. */
  healthTimeoutMs: z.number().int().positive().default(3_000),
  /**
   * A slot made ready for its next holder within this many ms is handed out after a look at its
   * processes only (ChromeDriver and Chromium still run): making it ready just talked to the browser.
   * A slot idle for longer is asked for its URL first (the health check), which finds a browser that
   * hangs, in ms.
   */
  recheckAfterMs: z.number().int().nonnegative().default(1_000),
  /**
   * Run every browser of the pool on one ChromeDriver (default true), started with the pool and
   * replaced when it dies; false starts one ChromeDriver per browser.
   */
  sharedChromedriver: z.boolean().default(true),
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

/**
 * Warm browsers shared by many agents, at most `size` out at once. Every acquire gets a fresh browser
 * context: cookies, storage, cache and tabs of the previous holder are gone, and holders at the same
 * time run in different browsers.
 */
export interface DriverPool {
  /** A healthy session in a fresh browser context for the current scope; it returns to the pool when the scope closes. */
  readonly acquire: Effect.Effect<PooledDriver, DriverError, Scope.Scope>
  /** How many sessions are alive (idle or out). */
  readonly alive: Effect.Effect<number>
  /** How many crashed sessions were replaced so far. */
  readonly replaced: Effect.Effect<number>
  /** How many times the pool's shared ChromeDriver died and was replaced (0 without one). */
  readonly chromedriverRestarts: Effect.Effect<number>
}

/** A driver on a slot's current browser context, with the scope that ends it. */
interface Lease {
  readonly driver: BrowserDriverShape
  readonly scope: Scope.Closeable
  /** When it was made ready, in ms since the epoch. */
  readonly readyAt: number
}

/** One slot: a warm browser, its current context and the driver being made ready for the next holder. */
interface Entry {
  readonly session: DriverSession
  /**
   * The launched browser process as {@link processIdentity} names it, read when the slot opened: what
   * `endUnanswering` may kill, and nothing the kernel later gives the same pid.
   */
  readonly browser: string | undefined
  readonly scope: Scope.Closeable
  /** The browser context the next holder gets. */
  context: string | undefined
  /** The next holder's driver, made while the slot waits. */
  next: Fiber.Fiber<Lease, DriverError>
}

/**
 * A pool of warm launched browsers. A session is handed out in a browser context of its own,
 * prepared while the slot was idle (a new context and tab, the previous holder's context closed, the
 * driver started), so an acquire costs a look at its processes (plus a health check after a long idle). A session whose browser or ChromeDriver no
 * longer answers is closed and replaced before anyone gets it. Closing the pool's scope ends every
 * browser and the ChromeDriver.
 *
 * Isolation is a browser context per holder, as Playwright's `browser.newContext()`: the previous
 * holder's cookies, localStorage, IndexedDB, cache and tabs are gone; what is the browser's rather
 * than a context's (the process, its memory, a page's renderer crash of another holder) is not.
 *
 * With `grid`, the pool's sessions are on a Selenium Grid: each holder gets a new grid session (the
 * previous holder's is ended when it gives it back), since a grid session offers no DevTools socket to
 * switch browser contexts on.
 *
 * @example
 * ```ts
 * import { Effect } from "effect"
 * import { createDriverPool } from "@sextant/webdriverio"
 * const program = Effect.scoped(
 *   Effect.gen(function* () {
 *     const pool = yield* createDriverPool({ size: 2, warm: 2 })
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
  if (options.warm > options.size) {
    return yield* new DriverError({
      method: "createDriverPool",
      reason: new InvalidArgument({
        detail: `pool.warm (${options.warm}) must not exceed pool.size (${options.size})`,
      }),
    })
  }
  const poolScope = yield* Effect.scope
  const permits = yield* Semaphore.make(options.size)
  const idle: Array<Entry> = []
  const all = new Set<Entry>()
  let replacedCount = 0
  // Started before any browser, so its finalizer runs after theirs.
  const chromedriver: SharedChromedriver | undefined =
    options.sharedChromedriver && input.grid === undefined
      ? yield* startSharedChromedriver({
          ...(input.launch?.chromedriverPath === undefined
            ? {}
            : { chromedriverPath: input.launch.chromedriverPath }),
          ...(input.launch?.startTimeoutMs === undefined
            ? {}
            : { startTimeoutMs: input.launch.startTimeoutMs }),
        })
      : undefined
  const launchOptions: LaunchOptions = {
    ...launchOptionsFor(input.launch ?? {}, input.driver),
    ...(chromedriver === undefined ? {} : { chromedriver }),
  }

  // The driver for the next holder: in a new context unless the slot's browser was just launched
  // (whose context nobody used yet).
  const prepare = (entry: Entry, fresh: boolean): Effect.Effect<Lease, DriverError> =>
    Effect.gen(function* () {
      if (!fresh) {
        const browser = entry.session.browser
        const previous = entry.context
        entry.context = yield* Effect.tryPromise({
          try: async () =>
            switchToFreshContext(
              browser,
              browser.isBidi === true,
              previous === undefined ? { tab: await browser.getWindowHandle() } : { context: previous },
            ),
          catch: toDriverError("acquire"),
        }).pipe(
          Effect.timeoutOrElse({
            duration: options.healthTimeoutMs * 3,
            orElse: () =>
              Effect.fail(
                new DriverError({
                  method: "acquire",
                  reason: new DriverCrashed({
                    detail: `Chromium did not open a fresh browser context within ${options.healthTimeoutMs * 3} ms`,
                  }),
                }),
              ),
          }),
        )
      }
      const scope = yield* Scope.make()
      const driver = yield* makeDriver(entry.session, input.driver ?? {}).pipe(
        Scope.provide(scope),
        Effect.onError((cause) => Scope.close(scope, Exit.failCause(cause))),
      )
      return { driver, scope, readyAt: yield* Clock.currentTimeMillis }
    })

  const open = Effect.gen(function* () {
    const scope = yield* Scope.make()
    const session = yield* (input.grid === undefined ? launch(launchOptions) : connectGrid(input.grid)).pipe(
      Scope.provide(scope),
      Effect.onError((cause) => Scope.close(scope, Exit.failCause(cause))),
    )
    const entry: Entry = {
      session,
      browser:
        session.kind === "launched" && session.browserPid !== undefined
          ? processIdentity(session.browserPid)
          : undefined,
      scope,
      context: session.browserContext,
      next: undefined as unknown as Fiber.Fiber<Lease, DriverError>,
    }
    entry.next = yield* Effect.forkIn(prepare(entry, true), poolScope)
    all.add(entry)
    return entry
  })

  const discard = (entry: Entry) =>
    Effect.suspend(() => {
      all.delete(entry)
      return Effect.andThen(Fiber.interrupt(entry.next), Scope.close(entry.scope, Exit.void))
    })

  const healthy = (entry: Entry) =>
    Effect.suspend(() =>
      entry.session.crashed?.() === undefined
        ? Effect.tryPromise(() => entry.session.browser.getUrl()).pipe(
            Effect.timeout(options.healthTimeoutMs),
            Effect.as(true),
            Effect.catch(() => Effect.succeed(false)),
          )
        : Effect.succeed(false),
    )

  // A launched browser that failed its health check is running but does not answer: ended here, its
  // session's close does not wait out the time limit of asking a running browser to end the session
  // (5 s); ChromeDriver answers at once for a dead one, and forgets its session.
  const endUnanswering = (entry: Entry) =>
    Effect.gen(function* () {
      // Only the process the slot launched: a browser that already ended may have left its pid to
      // another process. Where the start time cannot be read, nothing is killed and the session's
      // close ends it.
      const browser = entry.browser
      if (browser === undefined || !(yield* Effect.sync(() => signalSameProcess(browser, "SIGKILL")))) return
      // The kernel ends it at once; until then the session would still see a running browser.
      for (let waited = 0; isSameProcess(browser) && waited < 1_000; waited += 10) yield* Effect.sleep(10)
    })

  // A slot's next driver, or undefined when the slot broke (its browser, driver or context failed).
  const ready = (entry: Entry): Effect.Effect<Lease | undefined> =>
    Effect.gen(function* () {
      const prepared = yield* Effect.exit(Fiber.join(entry.next))
      if (Exit.isFailure(prepared)) return undefined
      const idleMs = (yield* Clock.currentTimeMillis) - prepared.value.readyAt
      const running = entry.session.crashed?.() === undefined
      if (running && idleMs < options.recheckAfterMs) return prepared.value
      if (running && (yield* healthy(entry))) return prepared.value
      if (running) yield* endUnanswering(entry)
      yield* Scope.close(prepared.value.scope, Exit.void)
      return undefined
    })

  const take: Effect.Effect<{ readonly entry: Entry; readonly lease: Lease }, DriverError> = Effect.gen(
    function* () {
      for (;;) {
        const candidate = idle.pop() ?? (yield* open)
        const lease = yield* ready(candidate)
        if (lease !== undefined) return { entry: candidate, lease }
        replacedCount++
        yield* discard(candidate)
      }
    },
  )

  // The holder's driver ends, and the slot starts making the next holder's context and driver.
  const giveBack = ({ entry, lease }: { readonly entry: Entry; readonly lease: Lease }) =>
    Effect.gen(function* () {
      yield* Scope.close(lease.scope, Exit.void)
      if (!all.has(entry)) return
      // A grid session is not reused: the next holder gets a new session, isolated by the grid.
      if (input.grid !== undefined) return yield* discard(entry)
      entry.next = yield* Effect.forkIn(prepare(entry, false), poolScope)
      idle.push(entry)
    })

  yield* Effect.addFinalizer(() =>
    Effect.forEach([...all], discard, { discard: true, concurrency: "unbounded" }),
  )

  if (options.warm > 0) {
    const started = yield* Effect.forEach(Array.from({ length: options.warm }), () => open, {
      concurrency: 2,
    })
    idle.push(...started)
  }

  const acquire: DriverPool["acquire"] = Effect.gen(function* () {
    yield* Effect.acquireRelease(permits.take(1), () => permits.release(1))
    const taken = yield* Effect.acquireRelease(take, giveBack)
    return { session: taken.entry.session, driver: taken.lease.driver }
  })

  return {
    acquire,
    alive: Effect.sync(() => all.size),
    replaced: Effect.sync(() => replacedCount),
    chromedriverRestarts: chromedriver?.restarts ?? Effect.succeed(0),
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

import { accessSync, constants } from "node:fs"
import { DriverError, InvalidArgument } from "@sextant/core"
import { Effect, Exit, Scope, Semaphore } from "effect"
import { z } from "zod"
import {
  isRunning,
  type StartedChromedriver,
  startChromedriver,
  stopProcesses,
} from "./internal/Processes.ts"

/** Options of {@link startSharedChromedriver}; every field is optional. */
export const SharedChromedriverOptions = z.object({
  /** The ChromeDriver binary; default `SEXTANT_CHROMEDRIVER`, then `/usr/bin/chromedriver`. */
  chromedriverPath: z.string().min(1).optional(),
  /** How long ChromeDriver may take to answer `/status`, in ms. */
  startTimeoutMs: z.number().int().positive().default(30_000),
})
export type SharedChromedriverOptions = z.input<typeof SharedChromedriverOptions>

/** The ChromeDriver process a shared ChromeDriver runs now. */
export interface RunningChromedriver {
  readonly port: number
  readonly pid: number | undefined
  /** What happened to it (`"the shared ChromeDriver (pid 812) exited"`), or undefined while it runs. */
  readonly exited: () => string | undefined
}

/**
 * One ChromeDriver process serving many sessions (`launch({ chromedriver })`), instead of one per
 * session: a launch skips ChromeDriver's start and a pool runs one driver process for all its browsers.
 * When the process dies, the sessions it served fail their next call with `DriverCrashed` naming it,
 * and the next launch starts a new one in its place.
 */
export interface SharedChromedriver {
  /** The running ChromeDriver; starts a new one first when the previous one died. */
  readonly running: Effect.Effect<RunningChromedriver, DriverError>
  /** How many times a dead ChromeDriver was replaced. */
  readonly restarts: Effect.Effect<number>
  /** The ChromeDriver binary it starts. */
  readonly binary: string
}

const describeExit = (started: StartedChromedriver): string | undefined => {
  const child = started.process
  if (child.exitCode === null && child.signalCode === null && isRunning(child.pid ?? 0)) return undefined
  return `the shared ChromeDriver (pid ${child.pid}) exited${child.signalCode === null ? "" : ` on ${child.signalCode}`}`
}

/**
 * Starts one ChromeDriver for the sessions launched with it, in a Scope; closing the scope ends it
 * (close the sessions first: their scopes end their browsers). A ChromeDriver that died is replaced
 * at the next launch and counted in `restarts`.
 *
 * @example
 * ```ts
 * import { Effect } from "effect"
 * import { launch, startSharedChromedriver } from "@sextant/webdriverio"
 * const program = Effect.scoped(
 *   Effect.gen(function* () {
 *     const chromedriver = yield* startSharedChromedriver()
 *     const first = yield* launch({ chromedriver })
 *     const second = yield* launch({ chromedriver })
 *     return first.chromedriverPid === second.chromedriverPid // true
 *   }),
 * )
 * ```
 */
export const startSharedChromedriver = Effect.fn("webdriverio.startSharedChromedriver")(function* (
  input: SharedChromedriverOptions = {},
) {
  const parsed = SharedChromedriverOptions.safeParse(input)
  if (!parsed.success) {
    return yield* new DriverError({
      method: "startSharedChromedriver",
      reason: new InvalidArgument({
        detail: parsed.error.issues
          .map((issue) => `startSharedChromedriver.${issue.path.join(".")}: ${issue.message}`)
          .join("; "),
      }),
    })
  }
  const options = parsed.data
  const binary = options.chromedriverPath ?? process.env.SEXTANT_CHROMEDRIVER ?? "/usr/bin/chromedriver"
  yield* Effect.try({
    try: () => accessSync(binary, constants.X_OK),
    catch: (cause) =>
      new DriverError({
        method: "startSharedChromedriver",
        reason: new InvalidArgument({
          detail: `ChromeDriver was not found at ${binary}: install it or set SEXTANT_CHROMEDRIVER to its path`,
        }),
        cause,
      }),
  })
  const scope = yield* Effect.scope
  const lock = yield* Semaphore.make(1)
  let current: StartedChromedriver | undefined
  let restarts = 0
  let closed = false
  yield* Scope.addFinalizer(
    scope,
    Effect.sync(() => {
      closed = true
      if (current !== undefined) stopProcesses(current.process, undefined)
      current = undefined
    }),
  )

  const view = (started: StartedChromedriver): RunningChromedriver => ({
    port: started.port,
    pid: started.process.pid,
    exited: () => describeExit(started),
  })

  const start = startChromedriver(binary, undefined, options.startTimeoutMs).pipe(
    Effect.mapError(
      (error) =>
        new DriverError({ method: "startSharedChromedriver", reason: error.reason, cause: error.cause }),
    ),
  )

  const running: SharedChromedriver["running"] = lock.withPermits(1)(
    Effect.gen(function* () {
      if (current !== undefined && describeExit(current) === undefined) return view(current)
      if (closed) {
        return yield* new DriverError({
          method: "launch",
          reason: new InvalidArgument({
            detail: "the shared ChromeDriver was closed (its scope ended): start another one",
          }),
        })
      }
      const dead = current
      if (dead !== undefined) {
        stopProcesses(dead.process, undefined)
        restarts++
      }
      current = yield* start
      return view(current)
    }),
  )

  // The first ChromeDriver starts at once, so the first launch finds it ready.
  yield* running
  return {
    running,
    restarts: Effect.sync(() => restarts),
    binary,
  } satisfies SharedChromedriver as SharedChromedriver
})

/**
 * {@link startSharedChromedriver} with Promises: `close()` ends it.
 *
 * @example
 * ```ts
 * import { openSharedChromedriver } from "@sextant/webdriverio"
 * const chromedriver = await openSharedChromedriver()
 * await chromedriver.close()
 * ```
 */
export const openSharedChromedriver = async (
  options: SharedChromedriverOptions = {},
): Promise<{ readonly chromedriver: SharedChromedriver; readonly close: () => Promise<void> }> => {
  const scope = await Effect.runPromise(Scope.make())
  const chromedriver = await Effect.runPromise(Scope.provide(startSharedChromedriver(options), scope)).catch(
    async (error: unknown) => {
      await Effect.runPromise(Scope.close(scope, Exit.void))
      throw error
    },
  )
  return { chromedriver, close: () => Effect.runPromise(Scope.close(scope, Exit.void)) }
}

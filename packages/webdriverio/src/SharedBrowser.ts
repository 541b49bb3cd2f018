import { DriverCrashed, DriverError } from "@sextant/core"
import { Effect, Exit, Scope } from "effect"
import type { RunningChromedriver, SharedChromedriver } from "./Chromedriver.ts"
import { toDriverError } from "./DriverErrors.ts"
import { closeAndWait, listTabs, switchToFreshContext } from "./internal/BrowserContexts.ts"
import { devtoolsSockets } from "./internal/DevtoolsSocket.ts"
import { isRunning, processesMentioning } from "./internal/Processes.ts"
import { type DriverSession, LaunchOptions, launch } from "./Session.ts"

/**
 * The environment variable that names a running ChromeDriver (`http://127.0.0.1:<port>`) for the
 * shared browser of {@link layerShared} to run on, instead of one of the process's own: a test
 * runner's global setup starts one ChromeDriver and every worker process uses it.
 */
export const SHARED_CHROMEDRIVER_ENV = "SEXTANT_CHROMEDRIVER_URL"

/** How long handing the shared browser to the next holder may take, in ms. */
const HANDOVER_TIMEOUT_MS = 10_000

/** The process's one shared Chromium, between holders or held. */
interface Held {
  /** The launch options it was started with (JSON), which a holder must ask for to get it. */
  readonly key: string
  readonly session: DriverSession
  readonly scope: Scope.Closeable
  readonly windowSize: { readonly width: number; readonly height: number }
  /** The browser context the current or last holder used. */
  context: string | undefined
  busy: boolean
  /** How many holders it served. */
  served: number
}

/** What the process shares; on `globalThis`, so a module evaluated again (a test runner's) finds it too. */
interface SharedState {
  held: Held | undefined
  launched: number
}

const STATE = Symbol.for("@sextant/webdriverio/SharedBrowser")
const shared = (): SharedState => {
  const global = globalThis as { [STATE]?: SharedState }
  global[STATE] ??= { held: undefined, launched: 0 }
  return global[STATE]
}

/** How the shared browser stands now, for tests and diagnostics. */
export interface SharedBrowserStatus {
  /** How many Chromium processes {@link layerShared} launched in this process so far. */
  readonly launched: number
  /** How many holders the current shared Chromium served (0 with none). */
  readonly served: number
  /** The process id of the current shared Chromium's browser process. */
  readonly browserPid: number | undefined
  /** The ChromeDriver it runs on. */
  readonly chromedriverPid: number | undefined
  /** Whether a holder has it now. */
  readonly busy: boolean
}

/**
 * The shared browser of this process as it stands.
 *
 * @example
 * ```ts
 * import { sharedBrowserStatus } from "@sextant/webdriverio"
 * sharedBrowserStatus().launched // 1 after many test files in one worker
 * ```
 */
export const sharedBrowserStatus = (): SharedBrowserStatus => {
  const state = shared()
  return {
    launched: state.launched,
    served: state.held?.served ?? 0,
    browserPid: state.held?.session.browserPid,
    chromedriverPid: state.held?.session.chromedriverPid,
    busy: state.held?.busy ?? false,
  }
}

/** The ChromeDriver named by {@link SHARED_CHROMEDRIVER_ENV}, as a shared ChromeDriver a launch uses. */
const chromedriverFromEnvironment = (): SharedChromedriver | undefined => {
  const url = process.env[SHARED_CHROMEDRIVER_ENV]
  if (url === undefined || url === "") return undefined
  const port = Number(new URL(url).port)
  const pid = processesMentioning(`--port=${port}`).find((candidate) => isRunning(candidate))
  const running: RunningChromedriver = {
    port,
    pid,
    exited: () =>
      pid === undefined || isRunning(pid)
        ? undefined
        : `the shared ChromeDriver at ${url} (pid ${pid}, ${SHARED_CHROMEDRIVER_ENV}) exited`,
  }
  return { running: Effect.succeed(running), restarts: Effect.succeed(0), binary: "chromedriver" }
}

/** Sizes the window of the new tab so the viewport is `size` again (a holder may have resized it). */
const restoreViewport = (browser: WebdriverIO.Browser, size: Held["windowSize"]) =>
  Effect.tryPromise({
    try: async () => {
      const [innerWidth, innerHeight, outerWidth, outerHeight] = (await browser.execute(
        "return [window.innerWidth, window.innerHeight, window.outerWidth, window.outerHeight]",
      )) as [number, number, number, number]
      if (innerWidth === size.width && innerHeight === size.height) return
      await browser.setWindowSize(
        size.width + outerWidth - innerWidth,
        size.height + outerHeight - innerHeight,
      )
    },
    catch: toDriverError("acquire"),
  })

/**
 * Moves the held browser into a fresh browser context and closes every other tab: the previous
 * holder's context with its cookies, storage, cache and tabs is disposed, and so is any tab it opened
 * elsewhere.
 */
const handOver = (held: Held) =>
  Effect.gen(function* () {
    const browser = held.session.browser
    if (held.session.crashed?.() !== undefined) {
      return yield* new DriverError({
        method: "acquire",
        reason: new DriverCrashed({ detail: held.session.crashed?.() ?? "the shared browser died" }),
      })
    }
    const context = yield* Effect.tryPromise({
      try: async () => {
        const previous =
          held.context === undefined ? { tab: await browser.getWindowHandle() } : { context: held.context }
        const made = await switchToFreshContext(browser, false, previous)
        const tab = await browser.getWindowHandle()
        const sockets = devtoolsSockets(browser)
        try {
          for (const other of await listTabs(sockets)) {
            if (typeof other.targetId === "string" && other.targetId !== tab) {
              await closeAndWait(sockets, { tab: other.targetId })
            }
          }
        } finally {
          sockets.close()
        }
        return made
      },
      catch: toDriverError("acquire"),
    })
    held.context = context
    yield* restoreViewport(browser, held.windowSize)
  }).pipe(
    Effect.timeoutOrElse({
      duration: HANDOVER_TIMEOUT_MS,
      orElse: () =>
        Effect.fail(
          new DriverError({
            method: "acquire",
            reason: new DriverCrashed({
              detail: `the shared Chromium did not open a fresh browser context within ${HANDOVER_TIMEOUT_MS} ms`,
            }),
          }),
        ),
    }),
  )

const closeHeld = (held: Held) => Scope.close(held.scope, Exit.void)

/**
 * The session a holder gets, and how to give it back: the process's shared Chromium in a fresh
 * context when it is free and was launched with the same options, otherwise a launch of the holder's
 * own (a second holder at the same time, or a BiDi session), ended when it gives it back.
 */
const take = (options: LaunchOptions) =>
  Effect.gen(function* () {
    const state = shared()
    const ownLaunch = Effect.gen(function* () {
      const scope = yield* Scope.make()
      const session = yield* launch(options).pipe(
        Scope.provide(scope),
        Effect.onError((cause) => Scope.close(scope, Exit.failCause(cause))),
      )
      return { session, release: Scope.close(scope, Exit.void) }
    })
    const parsed = LaunchOptions.safeParse(options)
    // Invalid options fail in the launch, as with `layer`.
    if (!parsed.success || parsed.data.bidi || parsed.data.chromedriver !== undefined) return yield* ownLaunch
    // Options spelled differently but alike ({} and { bidi: false }) share one browser.
    const key = JSON.stringify({ ...parsed.data, logLevel: undefined, watchdog: undefined })
    const current = state.held
    if (current?.busy === true) return yield* ownLaunch
    if (current !== undefined) {
      if (current.key === key) {
        const handedOver = yield* Effect.exit(handOver(current))
        if (Exit.isSuccess(handedOver)) {
          current.busy = true
          current.served += 1
          return {
            session: { ...current.session, browserContext: current.context },
            release: giveBack(current),
          }
        }
      }
      // Launched with other options, or it broke: a new one takes its place.
      state.held = undefined
      yield* closeHeld(current)
    }
    const chromedriver = chromedriverFromEnvironment()
    const scope = yield* Scope.make()
    const session = yield* launch({
      ...options,
      ...(chromedriver === undefined ? {} : { chromedriver }),
    }).pipe(
      Scope.provide(scope),
      Effect.onError((cause) => Scope.close(scope, Exit.failCause(cause))),
    )
    state.launched += 1
    const held: Held = {
      key,
      session,
      scope,
      windowSize: parsed.data.windowSize,
      context: session.browserContext,
      busy: true,
      served: 1,
    }
    state.held = held
    return { session, release: giveBack(held) }
  })

const giveBack = (held: Held) =>
  Effect.sync(() => {
    held.busy = false
  })

/**
 * This process's shared headless Chromium for the current scope, in a fresh browser context: the
 * first call launches it, and every later one (one at a time) gets the same browser with the previous
 * holder's context disposed and every other tab closed, so no cookie, storage, cache entry or tab
 * passes from one holder to the next; the window is sized back to `windowSize`. Closing the scope
 * gives the browser back; it ends with the process (its exit hook and watchdog, as for every launch).
 * A call while another scope holds it, or with `bidi` or `chromedriver`, launches a Chromium of its
 * own, ended with the scope; other launch options than the shared browser's (another window size,
 * other switches) replace it with a new one. With {@link SHARED_CHROMEDRIVER_ENV} set, the shared
 * Chromium runs on that ChromeDriver. `WebdriverioDriver.layerShared` builds the driver on it.
 *
 * @example
 * ```ts
 * import { Effect } from "effect"
 * import { sharedSession } from "@sextant/webdriverio"
 * const program = Effect.scoped(Effect.map(sharedSession({}), (session) => session.browserContext))
 * ```
 */
export const sharedSession = (
  options: LaunchOptions = {},
): Effect.Effect<DriverSession, DriverError, Scope.Scope> =>
  Effect.map(
    Effect.acquireRelease(take(options), (taken) => taken.release),
    (taken) => taken.session,
  )

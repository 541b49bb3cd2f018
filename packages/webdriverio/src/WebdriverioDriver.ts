import { BrowserDriver, type DriverError, InvalidArgument } from "@sextant/core"
import { Effect, Layer } from "effect"
import { DriverOptions } from "./DriverOptions.ts"
import { makeAct } from "./internal/Act.ts"
import { makeDialogOperations } from "./internal/Dialogs.ts"
import { openDriverContext } from "./internal/DriverContext.ts"
import { fail } from "./internal/Fail.ts"
import { makeLook } from "./internal/Look.ts"
import { makeNavigation } from "./internal/Navigation.ts"
import { makeTabRecovery } from "./internal/TabCrashes.ts"
import { makeTabs } from "./internal/Tabs.ts"
import { makeWaits } from "./internal/Waits.ts"
import {
  type ConnectOptions,
  connect,
  connectGrid,
  type DriverSession,
  fromBrowser,
  type GridOptions,
  type LaunchOptions,
  launch,
  launchOptionsFor,
} from "./Session.ts"
import { sharedSession } from "./SharedBrowser.ts"

export { retryAfterMs } from "./internal/Navigation.ts"

/**
 * Builds the `BrowserDriver` service on a session: one round trip per look, trusted input for every
 * action, errors mapped by their W3C code. The session's lifetime is the caller's.
 *
 * @example
 * ```ts
 * import { Effect } from "effect"
 * import { launch, makeDriver } from "@sextant/webdriverio"
 * const program = Effect.scoped(
 *   Effect.gen(function* () {
 *     const driver = yield* makeDriver(yield* launch({}))
 *     yield* driver.navigate("http://127.0.0.1:4000/login")
 *     return (yield* driver.look()).tree
 *   }),
 * )
 * ```
 */
export const makeDriver = Effect.fn("webdriverio.makeDriver")(function* (
  session: DriverSession,
  input: DriverOptions = {},
) {
  const parsed = DriverOptions.safeParse(input)
  if (!parsed.success) {
    return yield* fail(
      "makeDriver",
      new InvalidArgument({
        detail: parsed.error.issues
          .map((issue) => `options.${issue.path.join(".")}: ${issue.message}`)
          .join("; "),
      }),
    )
  }
  const driver = yield* openDriverContext(session, parsed.data)
  return BrowserDriver.of({
    ...makeNavigation(driver),
    ...makeLook(driver),
    ...makeAct(driver),
    ...makeWaits(driver),
    ...makeTabs(driver),
    ...makeTabRecovery(driver),
    ...makeDialogOperations(driver),
    takeRecording: Effect.promise(() => driver.recorder.take()),
    guardSecrets: (options) => driver.secretGuard.guardSecrets(options).pipe(driver.guard("guardSecrets")),
  })
})

/**
 * The `BrowserDriver` on a freshly launched headless Chromium; the session ends with the layer.
 *
 * @example
 * ```ts
 * import { Effect } from "effect"
 * import { BrowserDriver } from "@sextant/core"
 * import { WebdriverioDriver } from "@sextant/webdriverio"
 * const program = Effect.gen(function* () {
 *   const driver = yield* BrowserDriver
 *   return yield* driver.navigate("http://127.0.0.1:4000/")
 * }).pipe(Effect.provide(WebdriverioDriver.layer({})))
 * ```
 */
export const layer = (
  options: LaunchOptions & { readonly driver?: DriverOptions } = {},
): Layer.Layer<BrowserDriver, DriverError> =>
  Layer.effect(
    BrowserDriver,
    Effect.flatMap(launch(launchOptionsFor(options, options.driver)), (session) =>
      makeDriver(session, options.driver),
    ),
  )

/**
 * The `BrowserDriver` on a remote WebDriver endpoint; the remote session ends with the layer.
 *
 * @example
 * ```ts
 * import { WebdriverioDriver } from "@sextant/webdriverio"
 * const grid = WebdriverioDriver.layerConnect({ hostname: "grid.internal", port: 4444, path: "/wd/hub" })
 * ```
 */
export const layerConnect = (
  options: ConnectOptions & { readonly driver?: DriverOptions },
): Layer.Layer<BrowserDriver, DriverError> =>
  Layer.effect(
    BrowserDriver,
    Effect.flatMap(connect(options), (session) => makeDriver(session, options.driver)),
  )

/**
 * The `BrowserDriver` on a headless Chromium session of a Selenium Grid 4 ({@link connectGrid}); the
 * session ends with the layer.
 *
 * @example
 * ```ts
 * import { WebdriverioDriver } from "@sextant/webdriverio"
 * const grid = WebdriverioDriver.layerGrid({ url: "http://grid.internal:4444" })
 * ```
 */
export const layerGrid = (
  options: GridOptions & { readonly driver?: DriverOptions },
): Layer.Layer<BrowserDriver, DriverError> =>
  Layer.effect(
    BrowserDriver,
    Effect.flatMap(connectGrid(options), (session) => makeDriver(session, options.driver)),
  )

/**
 * The `BrowserDriver` on a WebdriverIO browser you own; the layer never ends it.
 *
 * @example
 * ```ts
 * import { WebdriverioDriver } from "@sextant/webdriverio"
 * const driverLayer = WebdriverioDriver.layerFromBrowser(browser)
 * ```
 */
export const layerFromBrowser = (
  browser: WebdriverIO.Browser,
  options: DriverOptions = {},
): Layer.Layer<BrowserDriver, DriverError> =>
  Layer.effect(BrowserDriver, makeDriver(fromBrowser(browser), options))

/**
 * The `BrowserDriver` on this process's shared headless Chromium ({@link sharedSession}): the first
 * layer launches it, and each later one (one at a time) gets the same browser in a fresh browser
 * context with the previous holder's tabs closed. The Chromium outlives the layer and ends with the
 * process. Meant for test suites that open a browser per test file: a test that kills or relaunches
 * browsers wants its own (`layer`).
 *
 * @example
 * ```ts
 * import { WebdriverioDriver } from "@sextant/webdriverio"
 * const driverLayer = WebdriverioDriver.layerShared({ driver: { actionWaitMs: 500 } })
 * ```
 */
export const layerShared = (
  options: LaunchOptions & { readonly driver?: DriverOptions } = {},
): Layer.Layer<BrowserDriver, DriverError> => {
  const { driver, ...launchOptions } = options
  return Layer.effect(
    BrowserDriver,
    Effect.flatMap(sharedSession(launchOptionsFor(launchOptions, driver)), (session) =>
      makeDriver(session, driver),
    ),
  )
}

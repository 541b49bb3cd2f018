/**
 * @sextant/webdriverio — the `BrowserDriver` on WebdriverIO: launch the system Chromium, connect to
 * any WebDriver endpoint or wrap a browser you have; one round trip per look, trusted input per
 * action, a session pool, and the agent API (look, act, go, wait, eval).
 */
export * from "./AgentApi.ts"
export * from "./Chromedriver.ts"
export * from "./DriverErrors.ts"
export * from "./DriverOptions.ts"
export * from "./DriverPool.ts"
export * from "./Session.ts"
export * from "./SharedBrowser.ts"
/** The WebdriverIO adapter: `WebdriverioDriver.layer`, `.layerConnect`, `.layerGrid`, `.layerFromBrowser`, `.layerShared`, `.makeDriver`. */
export * as WebdriverioDriver from "./WebdriverioDriver.ts"
export { makeDriver, retryAfterMs } from "./WebdriverioDriver.ts"

// The public API names webdriverio's global `WebdriverIO.Browser` (a session you already have). Declaring
// the namespace here keeps the published .d.ts self-contained: a consumer compiling with
// `skipLibCheck: false` does not have to load webdriverio's own declarations (which need puppeteer-core
// and clash with @types/node over URLPattern); one that imports webdriverio gets them merged in.
declare global {
  namespace WebdriverIO {
    interface Browser {}
  }
}

/**
 * @sextant/webdriverio — the `BrowserDriver` on WebdriverIO: launch the system Chromium, connect to
 * any WebDriver endpoint or wrap a browser you have; one round trip per look, trusted input per
 * action, a session pool, and the agent API (look, act, go, wait, eval).
 */
export * from "./AgentApi.ts"
export * from "./DriverErrors.ts"
export * from "./DriverPool.ts"
export * from "./Session.ts"
export * from "./WebdriverioDriver.ts"

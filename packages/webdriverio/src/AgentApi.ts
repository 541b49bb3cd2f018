import { type AgentApi, agentApiOf, type BrowserDriverShape } from "@sextant/core"
import { withMaskedPage } from "@sextant/perception"
import { Effect, Exit, Scope } from "effect"
import type { DriverOptions } from "./DriverOptions.ts"
import {
  connectGrid,
  fromBrowser,
  type GridOptions,
  type LaunchOptions,
  launch,
  launchOptionsFor,
} from "./Session.ts"
import { makeDriver } from "./WebdriverioDriver.ts"

// The agent API itself is driver-agnostic and lives in @sextant/core; it stays reachable from here.
export {
  type AgentAct,
  type AgentApi,
  type AgentApiOptions,
  type AgentEval,
  type AgentFailure,
  type AgentGo,
  type AgentLook,
  type AgentScreenshot,
  type AgentWait,
  agentApiOf,
  makeAgentApi,
} from "@sextant/core"

// A page agent knows no secrets: what it typed is in the page's text fields, so every text field's
// value is drawn masked (no text is a known secret). A page that cannot be masked gets no screenshot.
const knowsNoSecret = (text: string): string => text

const pageAgentApi = (driver: BrowserDriverShape): AgentApi =>
  agentApiOf(driver, { maskPage: (take) => withMaskedPage(driver, knowsNoSecret, take) })

type Promised<T> = {
  readonly [K in keyof T]: T[K] extends (...args: infer A) => Effect.Effect<infer R>
    ? (...args: A) => Promise<R>
    : never
}

/**
 * The agent API with Promises, for code that does not use Effect. Its `screenshot()` draws the value of
 * every text field masked while the image is taken (what the agent typed — a token, a card number —
 * must not show), through `withMaskedPage` of `@sextant/perception`; a page that cannot be masked gets
 * no image: the answer is `{ ok: false, reason: "MaskingFailed" }`.
 */
export type PageAgent = Promised<AgentApi> & {
  /** Releases what the agent set up on the browser; a wrapped browser keeps running. */
  readonly close: () => Promise<void>
  readonly [Symbol.asyncDispose]: () => Promise<void>
}

/**
 * The agent API with Promises over a WebdriverIO browser you own (e.g. in a WDIO test). `close()`
 * releases Sextant's listeners but leaves the session running.
 *
 * @example
 * ```ts
 * import { remote } from "webdriverio"
 * import { createPageAgent } from "@sextant/webdriverio"
 * const browser = await remote({ capabilities: { browserName: "chrome" } })
 * const agent = await createPageAgent(browser)
 * await agent.go("http://127.0.0.1:4000/login")
 * console.log((await agent.look()).tree)
 * await agent.close()
 * ```
 */
export const createPageAgent = async (
  browser: WebdriverIO.Browser,
  options: DriverOptions = {},
): Promise<PageAgent> => {
  const scope = await Effect.runPromise(Scope.make())
  const driver = await Effect.runPromise(
    Scope.provide(makeDriver(fromBrowser(browser), options), scope),
  ).catch(async (error: unknown) => {
    await Effect.runPromise(Scope.close(scope, Exit.void))
    throw error
  })
  return promised(pageAgentApi(driver), () => Effect.runPromise(Scope.close(scope, Exit.void)))
}

/** Wraps an agent API in Promises; `release` runs once on close. */
export const promised = (api: AgentApi, release: () => Promise<void>): PageAgent => {
  let closed: Promise<void> | undefined
  const close = () => {
    closed ??= release()
    return closed
  }
  const run =
    <A extends ReadonlyArray<unknown>, R>(method: (...args: A) => Effect.Effect<R>) =>
    (...args: A) =>
      Effect.runPromise(method(...args))
  return {
    look: run(api.look),
    act: run(api.act),
    go: run(api.go),
    wait: run(api.wait),
    eval: run(api.eval),
    back: run(api.back),
    refresh: run(api.refresh),
    screenshot: run(api.screenshot),
    close,
    [Symbol.asyncDispose]: close,
  }
}

/**
 * Launches headless Chromium and returns the agent API over it with Promises; `close()` ends the
 * browser and every process it started.
 *
 * @example
 * ```ts
 * import { launchPageAgent } from "@sextant/webdriverio"
 * await using agent = await launchPageAgent()
 * await agent.go("http://127.0.0.1:4000/login")
 * console.log((await agent.look()).tree)
 * ```
 */
export const launchPageAgent = async (
  options: LaunchOptions & { readonly driver?: DriverOptions } = {},
): Promise<PageAgent> => {
  const scope = await Effect.runPromise(Scope.make())
  const driver = await Effect.runPromise(
    Scope.provide(
      Effect.flatMap(launch(launchOptionsFor(options, options.driver)), (session) =>
        makeDriver(session, options.driver),
      ),
      scope,
    ),
  ).catch(async (error: unknown) => {
    await Effect.runPromise(Scope.close(scope, Exit.void))
    throw error
  })
  return promised(pageAgentApi(driver), () => Effect.runPromise(Scope.close(scope, Exit.void)))
}

/**
 * Opens a headless Chromium session on a Selenium Grid 4 ({@link connectGrid}) and returns the agent
 * API over it with Promises; `close()` ends the grid session.
 *
 * @example
 * ```ts
 * import { gridPageAgent } from "@sextant/webdriverio"
 * await using agent = await gridPageAgent({ url: "http://grid.internal:4444" })
 * await agent.go("https://example.com/")
 * console.log((await agent.look()).tree)
 * ```
 */
export const gridPageAgent = async (
  options: GridOptions & { readonly driver?: DriverOptions },
): Promise<PageAgent> => {
  const scope = await Effect.runPromise(Scope.make())
  const driver = await Effect.runPromise(
    Scope.provide(
      Effect.flatMap(connectGrid(options), (session) => makeDriver(session, options.driver)),
      scope,
    ),
  ).catch(async (error: unknown) => {
    await Effect.runPromise(Scope.close(scope, Exit.void))
    throw error
  })
  return promised(pageAgentApi(driver), () => Effect.runPromise(Scope.close(scope, Exit.void)))
}

import {
  ActionOp,
  type ActValue,
  BrowserDriver,
  type BrowserDriverShape,
  type DriverError,
  type PageAction,
  parseTarget,
  refPattern,
  type Signal,
} from "@sextant/core"
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

/** A failed call: the error in words, what kind it was, and whether trying again may help. */
export interface AgentFailure {
  readonly ok: false
  readonly error: string
  readonly reason: string
  readonly retryable: boolean
}

/** What `look()` answers. */
export interface AgentLook {
  readonly url: string
  readonly title: string
  readonly tree: string
  readonly actions: ReadonlyArray<PageAction>
}

/** What `act()` answers: no extra look needed to know what happened. */
export type AgentAct =
  | {
      readonly ok: true
      readonly changed: boolean
      readonly signals: ReadonlyArray<Signal>
      readonly actions: ReadonlyArray<PageAction>
      readonly hint: string
    }
  | AgentFailure

/** What `go()`, `back()` and `refresh()` answer. */
export type AgentGo =
  | {
      readonly ok: true
      readonly url: string
      readonly title: string
      readonly actions: ReadonlyArray<PageAction>
    }
  | AgentFailure

/** What `wait()` answers; `ok: false` with no error means the condition did not hold in time. */
export type AgentWait =
  | { readonly ok: boolean; readonly elapsed: number; readonly actions: ReadonlyArray<PageAction> }
  | AgentFailure

/** What `eval()` answers. */
export type AgentEval =
  | { readonly ok: true; readonly result: unknown; readonly actions: ReadonlyArray<PageAction> }
  | AgentFailure

/** What `screenshot()` answers: a PNG as base64. */
export type AgentScreenshot = { readonly ok: true; readonly png: string } | AgentFailure

/**
 * The agent API of Sextant: a handful of verbs whose answers are plain JSON an agent (or a model)
 * can read. Failures are answers too (`{ ok: false, error }`), never exceptions.
 */
export interface AgentApi {
  readonly look: () => Effect.Effect<AgentLook | AgentFailure>
  readonly act: (ref: string, op: string, value?: ActValue) => Effect.Effect<AgentAct>
  readonly go: (url: string) => Effect.Effect<AgentGo>
  readonly wait: (refOrCondition: string, timeoutMs?: number) => Effect.Effect<AgentWait>
  readonly eval: (script: string) => Effect.Effect<AgentEval>
  readonly back: () => Effect.Effect<AgentGo>
  readonly refresh: () => Effect.Effect<AgentGo>
  readonly screenshot: (ref?: string) => Effect.Effect<AgentScreenshot>
}

const failure = (error: DriverError): AgentFailure => ({
  ok: false,
  error: error.reason.message,
  reason: error.reason._tag,
  retryable: error.isRetryable,
})

const answer = <A>(effect: Effect.Effect<A, DriverError>): Effect.Effect<A | AgentFailure> =>
  Effect.catch(effect, (error) => Effect.succeed(failure(error)))

const invalid = (error: string): AgentFailure => ({
  ok: false,
  error,
  reason: "InvalidArgument",
  retryable: false,
})

// A CSS selector starts with #, . or [ or a tag name (`#done`, `.toast`, `li.result`); anything that
// calls, compares or reads a global (`window.ready`, `document.title === 'Done'`) is JavaScript.
const looksLikeSelector = (text: string): boolean =>
  !/[()=<>!&|]/.test(text) &&
  !/^(window|document|globalThis|location|navigator)\b/.test(text) &&
  /^[#.[]|^[a-z][a-z0-9-]*([#.[:\s>+~]|$)/i.test(text)

/**
 * Builds the agent API over any `BrowserDriver` implementation (this package's, or a fake one).
 *
 * @example
 * ```ts
 * import { Effect } from "effect"
 * import { BrowserDriver } from "@sextant/core"
 * import { agentApiOf } from "@sextant/webdriverio"
 * const program = Effect.gen(function* () {
 *   const agent = agentApiOf(yield* BrowserDriver)
 *   yield* agent.go("http://127.0.0.1:4000/login")
 *   return yield* agent.look()
 * })
 * ```
 */
export const agentApiOf = (driver: BrowserDriverShape): AgentApi => {
  const withActions = <A extends object>(effect: Effect.Effect<A, DriverError>) =>
    Effect.flatMap(effect, (value) =>
      Effect.map(driver.look(), (snapshot) => ({ ...value, actions: snapshot.actions })),
    )

  const page = (effect: Effect.Effect<{ readonly url: string; readonly title: string }, DriverError>) =>
    answer(withActions(Effect.map(effect, ({ url, title }) => ({ ok: true as const, url, title }))))

  return {
    look: () =>
      answer(
        Effect.map(driver.look(), (snapshot) => ({
          url: snapshot.url,
          title: snapshot.title,
          tree: snapshot.tree,
          actions: snapshot.actions,
        })),
      ),
    act: (ref, op, value) => {
      const parsedOp = ActionOp.safeParse(op)
      if (!parsedOp.success) {
        return Effect.succeed(
          invalid(`unknown operation ${JSON.stringify(op)}: use one of ${ActionOp.options.join(", ")}`),
        )
      }
      if (ref.trim() === "") return Effect.succeed(invalid("act needs a ref from look(), e.g. e3"))
      return answer(
        Effect.map(driver.act(parseTarget(ref), parsedOp.data, value), (result) => ({
          ok: true as const,
          changed: result.changed,
          signals: result.signals,
          actions: result.actions,
          hint: result.hint,
        })),
      )
    },
    go: (url) => page(driver.navigate(url)),
    wait: (refOrCondition, timeoutMs) => {
      const text = refOrCondition.trim()
      const condition = refPattern.test(text)
        ? { ref: text }
        : looksLikeSelector(text)
          ? { selector: text }
          : { js: text }
      return answer(
        withActions(
          Effect.map(
            driver.waitFor(condition, timeoutMs === undefined ? undefined : { timeoutMs }),
            (result) => ({
              ok: result.ok,
              elapsed: result.elapsedMs,
            }),
          ),
        ),
      )
    },
    eval: (script) => {
      const body = /^\s*return\b/.test(script) || /;\s*\S/.test(script) ? script : `return (${script})`
      return answer(
        withActions(Effect.map(driver.evaluate(body), (result) => ({ ok: true as const, result }))),
      )
    },
    back: () => page(driver.back),
    refresh: () => page(driver.refresh),
    screenshot: (ref) =>
      answer(
        Effect.map(driver.screenshot(ref === undefined ? {} : { target: parseTarget(ref) }), (png) => ({
          ok: true as const,
          png: Buffer.from(png).toString("base64"),
        })),
      ),
  }
}

/**
 * The agent API over the `BrowserDriver` in context.
 *
 * @example
 * ```ts
 * import { Effect } from "effect"
 * import { makeAgentApi, WebdriverioDriver } from "@sextant/webdriverio"
 * const program = Effect.gen(function* () {
 *   const agent = yield* makeAgentApi
 *   return yield* agent.go("http://127.0.0.1:4000/")
 * }).pipe(Effect.provide(WebdriverioDriver.layer({})))
 * ```
 */
export const makeAgentApi: Effect.Effect<AgentApi, never, BrowserDriver> = Effect.gen(function* () {
  return agentApiOf(yield* BrowserDriver)
})

type Promised<T> = {
  readonly [K in keyof T]: T[K] extends (...args: infer A) => Effect.Effect<infer R>
    ? (...args: A) => Promise<R>
    : never
}

/** The agent API with Promises, for code that does not use Effect. */
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
  return promised(agentApiOf(driver), () => Effect.runPromise(Scope.close(scope, Exit.void)))
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
  return promised(agentApiOf(driver), () => Effect.runPromise(Scope.close(scope, Exit.void)))
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
  return promised(agentApiOf(driver), () => Effect.runPromise(Scope.close(scope, Exit.void)))
}

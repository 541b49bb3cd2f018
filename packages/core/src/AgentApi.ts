import { Effect } from "effect"
import { type ActValue, BrowserDriver, type BrowserDriverShape } from "./BrowserDriver.ts"
import { DriverError, MaskingFailed } from "./errors/Driver.ts"
import type { Signal } from "./Observation.ts"
import { ActionOp, type PageAction } from "./PageSnapshot.ts"
import { parseTarget, refPattern } from "./Target.ts"

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

/** What `screenshot()` answers: a PNG as base64, taken with the page masked (see {@link AgentApiOptions}). */
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
 * How `wait()` reads its argument: a ref (`e12`), a CSS selector (`#done`, `li.result`), or else a
 * JavaScript condition (`window.ready === true`).
 *
 * @example
 * ```ts
 * import { waitConditionOf } from "@sextant/core"
 * waitConditionOf("document.title === 'Done'") // { js: "document.title === 'Done'" }
 * ```
 */
export const waitConditionOf = (
  refOrCondition: string,
): { readonly ref: string } | { readonly selector: string } | { readonly js: string } => {
  const text = refOrCondition.trim()
  return refPattern.test(text) ? { ref: text } : looksLikeSelector(text) ? { selector: text } : { js: text }
}

/** How {@link agentApiOf} takes its screenshots. */
export interface AgentApiOptions {
  /**
   * Runs `take` (the screenshot) with the page masked, failing with `DriverError` reason `MaskingFailed`
   * (and not running `take`) when the page cannot be masked: `withMaskedPage` of `@sextant/perception`,
   * e.g. `(take) => withMaskedPage(driver, redact, take)`. An agent types into fields (a token, a card
   * number) and an image cannot be redacted afterwards, so without `maskPage` `screenshot()` takes no
   * image and answers `MaskingFailed`: core holds no page masking of its own. `@sextant/webdriverio`'s
   * page agents (`launchPageAgent`, `createPageAgent`, `gridPageAgent`) pass one.
   */
  readonly maskPage?: (take: Effect.Effect<Uint8Array, DriverError>) => Effect.Effect<Uint8Array, DriverError>
}

// Without a masking there is no screenshot: one taken unmasked could show what the agent typed.
const unmaskable = (): Effect.Effect<never, DriverError> =>
  Effect.fail(
    new DriverError({
      method: "screenshot",
      reason: new MaskingFailed({
        detail:
          "this agent API has no page masking: build it with agentApiOf(driver, { maskPage }), e.g. maskPage: (take) => withMaskedPage(driver, redact, take) of @sextant/perception",
      }),
    }),
  )

/**
 * Builds the agent API over any `BrowserDriver` implementation (this package's, or a fake one).
 * `screenshot()` goes through `options.maskPage`; without it, it answers `MaskingFailed`.
 *
 * @example
 * ```ts
 * import { Effect } from "effect"
 * import { BrowserDriver } from "@sextant/core"
 * import { agentApiOf } from "@sextant/core"
 * import { withMaskedPage } from "@sextant/perception"
 * const program = Effect.gen(function* () {
 *   const driver = yield* BrowserDriver
 *   // No secrets known: every text field's value is drawn masked in a screenshot.
 *   const agent = agentApiOf(driver, { maskPage: (take) => withMaskedPage(driver, (text) => text, take) })
 *   yield* agent.go("http://127.0.0.1:4000/login")
 *   return yield* agent.look()
 * })
 * ```
 */
export const agentApiOf = (driver: BrowserDriverShape, options: AgentApiOptions = {}): AgentApi => {
  const maskPage: NonNullable<AgentApiOptions["maskPage"]> = options.maskPage ?? unmaskable
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
    wait: (refOrCondition, timeoutMs) =>
      answer(
        withActions(
          Effect.map(
            driver.waitFor(
              waitConditionOf(refOrCondition),
              timeoutMs === undefined ? undefined : { timeoutMs },
            ),
            (result) => ({
              ok: result.ok,
              elapsed: result.elapsedMs,
            }),
          ),
        ),
      ),
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
        Effect.map(
          maskPage(driver.screenshot(ref === undefined ? {} : { target: parseTarget(ref) })),
          (png) => ({
            ok: true as const,
            png: base64(png),
          }),
        ),
      ),
  }
}

/**
 * The agent API over the `BrowserDriver` in context, built with no page masking: its `screenshot()`
 * answers `MaskingFailed`. For screenshots, build it with `agentApiOf(driver, { maskPage })`.
 *
 * @example
 * ```ts
 * import { Effect } from "effect"
 * import { makeAgentApi } from "@sextant/core"
 * import { WebdriverioDriver } from "@sextant/webdriverio"
 * const program = Effect.gen(function* () {
 *   const agent = yield* makeAgentApi
 *   return yield* agent.go("http://127.0.0.1:4000/")
 * }).pipe(Effect.provide(WebdriverioDriver.layer({})))
 * ```
 */
export const makeAgentApi: Effect.Effect<AgentApi, never, BrowserDriver> = Effect.gen(function* () {
  return agentApiOf(yield* BrowserDriver)
})

// Base64 without Node's Buffer (core runs wherever Effect does); chunks keep the argument list short.
const base64 = (bytes: Uint8Array): string => {
  let binary = ""
  for (let start = 0; start < bytes.length; start += 0x8000) {
    binary += String.fromCharCode(...bytes.subarray(start, start + 0x8000))
  }
  return btoa(binary)
}

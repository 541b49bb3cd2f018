import type { LookOptions } from "@sextant/core"
import { actorRuntimeSource, pageRuntimeSource } from "./internal/PageRuntime.generated.ts"

/**
 * Version of the in-page runtime. A page that holds an older runtime gets it replaced on the next
 * call; a page that holds this one or a newer one keeps it, with its refs.
 */
export const pageScriptVersion = 1

/**
 * The in-page runtime as JavaScript source: no imports, no module syntax. Built from the modules in
 * `src/page/` into the git-ignored `internal/PageRuntime.generated.ts` (`pnpm bundle:page`; setup, build,
 * typecheck and the test setup generate it).
 * Evaluating it in a page installs `globalThis.__sextant` (idempotently, versioned) with:
 *
 * - `look(options)` → one JSON string, the raw snapshot that `parseSnapshot` reads;
 * - `resolve(ref, { scroll })` → `{ ok: true, ref, element, tag, box, x, y, frame, inViewport }` where
 *   `x`/`y` is the centre in top-level viewport CSS pixels (same-origin iframe offsets included) and
 *   `element` is the node when it lives in the top document (null inside iframes: act by coordinates),
 *   or `{ ok: false, stale: true, ref, message }`;
 * - `act(ref, op, value)` → in-page operations trusted input cannot express well: `select`, `set`,
 *   `clear`, `focus`, `check`, `uncheck`, `input`, `click`; and `act("_page", "scroll down" | "scroll up" |
 *   "scroll top" | "scroll bottom" | "back" | "refresh")`.
 *
 * @example
 * ```ts
 * import { pageScriptSource } from "@sextant/perception"
 * await browser.execute(pageScriptSource) // preload once per document; optional
 * ```
 */
export const pageScriptSource: string = `${pageRuntimeSource}(${pageScriptVersion});`

/**
 * The actor as JavaScript source: the in-page half of a driver's actions, built from the same
 * modules in `src/page/` as the runtime (one visibility rule, one frame-offset rule, one select
 * handler). Evaluating it puts `globalThis.__sextant.actor` in place once per document, creating
 * `__sextant` without a version when the runtime is not there yet; the runtime installs over it
 * and keeps the actor. A driver installs it before a page's own scripts (a BiDi preload script,
 * `Page.addScriptToEvaluateOnNewDocument`), since it watches the requests, timers and DOM changes
 * those start, and the much larger runtime on first use. Its operations answer JSON strings:
 *
 * - `prepare(spec)`: finds the element, scrolls it into view, checks it can take input and answers
 *   where to aim, in top-level viewport CSS pixels;
 * - `settle(options)`: waits until an action's effects are in (requests, DOM changes, short timers);
 * - `waitFor(condition, timeoutMs)`, `scroll(spec)`, `scrollSettled(spec)`, `currentValue(spec)`;
 * - `markedElement(mark)`: an element `prepare` marked for a WebDriver element lookup.
 *
 * @example
 * ```ts
 * import { actorScriptSource } from "@sextant/perception"
 * await browser.scriptAddPreloadScript({ functionDeclaration: `() => { ${actorScriptSource} }` })
 * ```
 */
export const actorScriptSource: string = `${actorRuntimeSource}();`

/** The options the page itself reads; the rest (`maxTokens`, `since`) apply in `parseSnapshot`. */
const pageOptions = (options: LookOptions = {}) => ({
  ...(options.mode === undefined ? {} : { mode: options.mode }),
  ...(options.within === undefined ? {} : { within: options.within }),
  ...(options.secretSelectors === undefined ? {} : { secretSelectors: [...options.secretSelectors] }),
  ...(options.maxTextLength === undefined ? {} : { maxTextLength: options.maxTextLength }),
})

// `!(s.version>=…)`: a `__sextant` holding only the actor has no version, and the runtime goes in.
const ensure = `var s=globalThis.__sextant;if(!s||!(s.version>=${pageScriptVersion})){${pageScriptSource}s=globalThis.__sextant;}`

/**
 * The body of ONE WebDriver `execute` call that installs the runtime when it is missing and returns
 * the raw snapshot as a JSON string: pass its result to `parseSnapshot`.
 *
 * @example
 * ```ts
 * import { lookScript, parseSnapshot } from "@sextant/perception"
 * const json = await browser.execute(lookScript({ mode: "interactive" }))
 * const snapshot = parseSnapshot(json as string, { mode: "interactive" })
 * ```
 */
export const lookScript = (options?: LookOptions): string =>
  `${ensure}return s.look(${JSON.stringify(pageOptions(options))});`

/**
 * The body of one `execute` call that resolves a ref to its element and top-level viewport centre
 * (scrolling it into view unless `scroll` is false). Installs the runtime when missing.
 *
 * @example
 * ```ts
 * import { resolveScript } from "@sextant/perception"
 * const target = await browser.execute(resolveScript("e3"))
 * // { ok: true, x: 120, y: 48, element, ... } or { ok: false, stale: true, message }
 * ```
 */
export const resolveScript = (ref: string, options: { readonly scroll?: boolean } = {}): string =>
  `${ensure}return s.resolve(${JSON.stringify(ref)},${JSON.stringify({ scroll: options.scroll !== false })});`

/**
 * The body of one `execute` call that runs an in-page action on a ref (`select`, `set`, `clear`,
 * `focus`, `check`, `uncheck`, `input`, `click`) or a page action on `_page`. Answers `{ ok, message? }`
 * or `{ ok: false, stale: true, message }`.
 *
 * @example
 * ```ts
 * import { actScript } from "@sextant/perception"
 * await browser.execute(actScript("e7", "select", "Germany"))
 * ```
 */
export const actScript = (ref: string, op: string, value?: string | number | ReadonlyArray<string>): string =>
  `${ensure}return s.act(${JSON.stringify(ref)},${JSON.stringify(op)}${value === undefined ? "" : `,${JSON.stringify(value)}`});`

import type { LookOptions } from "@sextant/core"
import { actorRuntimeSource, pageRuntimeSource } from "./internal/PageRuntime.generated.ts"

/**
 * Version of the in-page runtime. A page that holds an older runtime gets it replaced on the next
 * call; a page that holds this one or a newer one keeps it, with its refs.
 */
export const pageScriptVersion = 2

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

/** What a page-call declaration answers when the document has no runtime yet: send the installing one. */
export const pageCallMissing = "__sextant_missing__"

// The call itself, shared by both declarations: its answer is one JSON string, `{ value }` (absent for
// undefined), `{ unknown: name }` for a name `calls` does not have, or `{ error }` when the function threw.
const callBody = `const f=Object.prototype.hasOwnProperty.call(s.calls,name)?s.calls[name]:undefined;
if(typeof f!=="function")return JSON.stringify({unknown:String(name)});
try{return JSON.stringify({value:await f(...JSON.parse(argument))})}
catch(e){return JSON.stringify({error:String(e&&e.stack||e)})}`

/**
 * A function declaration `(name, argument)` for a driver's page call: calls
 * `globalThis.__sextant.calls[name](...JSON.parse(argument))` in the document it runs in and answers
 * one JSON string for {@link decodePageCall}, or {@link pageCallMissing} when the document has no
 * runtime yet (then send {@link pageCallInstallDeclaration}). Short, so a page compiles it at once.
 *
 * @example
 * ```ts
 * import { decodePageCall, pageCallDeclaration } from "@sextant/perception"
 * const answer = await browser.execute(`return (${pageCallDeclaration}).apply(null, arguments)`, "criteriaFacts", "[{\"selectors\":[],\"texts\":[]}]")
 * ```
 */
export const pageCallDeclaration = `async function (name, argument) {
var s=globalThis.__sextant;if(!s||!(s.version>=${pageScriptVersion})||!s.calls)return ${JSON.stringify(pageCallMissing)};
${callBody}}`

/**
 * {@link pageCallDeclaration} that installs the runtime first where the document lacks it: sent once
 * per document, after the short one answered {@link pageCallMissing}.
 */
export const pageCallInstallDeclaration = `async function (name, argument) {
${ensure}
${callBody}}`

/** A page call's answer, decoded: its value, or why there is none. */
export type PageCallAnswer =
  | { readonly _tag: "value"; readonly value: unknown }
  | { readonly _tag: "unknown"; readonly name: string }
  | { readonly _tag: "error"; readonly error: string }
  | { readonly _tag: "missing" }
  | { readonly _tag: "malformed"; readonly detail: string }

/**
 * Reads what {@link pageCallDeclaration} or {@link pageCallInstallDeclaration} answered.
 *
 * @example
 * ```ts
 * import { decodePageCall } from "@sextant/perception"
 * decodePageCall('{"value":3}') // { _tag: "value", value: 3 }
 * ```
 */
export const decodePageCall = (answer: unknown): PageCallAnswer => {
  if (answer === pageCallMissing) return { _tag: "missing" }
  if (typeof answer !== "string")
    return {
      _tag: "malformed",
      detail: `the page answered ${answer === null ? "null" : typeof answer}, not JSON`,
    }
  let parsed: unknown
  try {
    parsed = JSON.parse(answer)
  } catch {
    return { _tag: "malformed", detail: `the page answered text that is not JSON: ${answer.slice(0, 80)}` }
  }
  if (typeof parsed !== "object" || parsed === null)
    return { _tag: "malformed", detail: `the page answered ${answer.slice(0, 80)}, not an object` }
  const record = parsed as { readonly value?: unknown; readonly unknown?: unknown; readonly error?: unknown }
  if (typeof record.unknown === "string") return { _tag: "unknown", name: record.unknown }
  if (typeof record.error === "string") return { _tag: "error", error: record.error }
  return { _tag: "value", value: record.value }
}

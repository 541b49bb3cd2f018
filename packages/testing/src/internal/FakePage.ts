import { createContext, Script } from "node:vm"
import type { DriverErrorReason } from "@sextant/core"
import { decodePageCall, pageCallInstallDeclaration, pageCallReason } from "@sextant/perception"
import * as linkedom from "linkedom"

/*
 * The fake driver's page: a window of its own (a `node:vm` context) around the fake's linkedom
 * document, in which perception's page runtime is installed as a browser installs it, so `callPage`
 * runs the very functions a real page runs. linkedom lays nothing out: every element has an empty box,
 * so nothing counts as shown, and the window has no events and no frames.
 */

/** A fake document's window, with perception's page runtime in it. */
export interface FakePage {
  /** perception's page-call declaration, compiled in the window: `(name, argument) => Promise<JSON answer>`. */
  readonly call: (name: string, argument: string) => Promise<unknown>
}

/** The viewport the fake's window claims (no layout happens in it). */
const viewport = { innerWidth: 1280, innerHeight: 720 }

// What getComputedStyle answers without a layout engine: the inline style, else what an unstyled
// element has.
const computedStyle = (element: Element): CSSStyleDeclaration => {
  const style = (element as HTMLElement).style
  const defaults: Record<string, string> = { display: "block", visibility: "visible", overflow: "visible" }
  return new Proxy({} as CSSStyleDeclaration, {
    get: (_, name) => {
      if (name === "getPropertyValue") return (property: string) => style?.getPropertyValue(property) ?? ""
      if (typeof name !== "string") return undefined
      const own = (style as unknown as Record<string, unknown> | undefined)?.[name]
      return typeof own === "string" && own !== "" ? own : (defaults[name] ?? "")
    },
  })
}

// linkedom's DOM classes (Node, Element, HTMLInputElement, NodeFilter, …), as a window has them.
const domClasses = Object.fromEntries(
  Object.entries(linkedom).filter(([name, value]) => /^[A-Z]/.test(name) && value !== undefined),
)

let declaration: Script | undefined

/** Opens a window around `document`, loaded from `url`, and compiles the page-call declaration in it. */
export const openFakePage = (document: Document, url: string): FakePage => {
  const location = new URL(url)
  const sandbox: Record<string, unknown> = {
    ...domClasses,
    ...viewport,
    document,
    location,
    origin: location.protocol === "http:" || location.protocol === "https:" ? location.origin : "null",
    frames: [],
    getComputedStyle: computedStyle,
  }
  sandbox.window = sandbox
  sandbox.self = sandbox
  const context = createContext(sandbox)
  // Compiled once: perception's declaration carries the whole runtime (installed on the first call).
  declaration ??= new Script(`(${pageCallInstallDeclaration})`, { filename: "sextant-page-call.js" })
  const call = declaration.runInContext(context) as (name: string, argument: string) => Promise<unknown>
  return { call }
}

/** Calls the page function `name` in the fake's window, as a driver's `callPage` does. */
export const callFakePage = async (
  page: FakePage,
  name: string,
  args: ReadonlyArray<unknown>,
): Promise<
  { readonly ok: true; readonly value: unknown } | { readonly ok: false; readonly reason: DriverErrorReason }
> => {
  const answer = decodePageCall(await page.call(name, JSON.stringify(args)))
  return answer._tag === "value"
    ? { ok: true, value: answer.value }
    : { ok: false, reason: pageCallReason(name, answer) }
}

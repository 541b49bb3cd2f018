import type { PageSnapshot } from "@sextant/core"
import { lookScript, type ParseOptions, parseSnapshot, resolveScript } from "../../src/index.ts"

/** One look through one execute call, as a driver does it. */
export const look = async (browser: WebdriverIO.Browser, options: ParseOptions = {}): Promise<PageSnapshot> =>
  parseSnapshot(await browser.execute(lookScript(options)), options)

/** The raw JSON string of one look, for tests that grep everything the page answered. */
export const lookJson = async (browser: WebdriverIO.Browser, options: ParseOptions = {}): Promise<string> =>
  String(await browser.execute(lookScript(options)))

export interface Resolved {
  readonly ok: boolean
  readonly stale?: boolean
  readonly message?: string
  readonly x: number
  readonly y: number
  readonly frame: ReadonlyArray<string>
  readonly box: { readonly x: number; readonly y: number; readonly width: number; readonly height: number }
}

export const resolve = async (browser: WebdriverIO.Browser, ref: string): Promise<Resolved> =>
  (await browser.execute(resolveScript(ref))) as Resolved

/** A trusted click at the top-level viewport point `resolve` answered. */
export const clickAt = async (browser: WebdriverIO.Browser, ref: string): Promise<void> => {
  const target = await resolve(browser, ref)
  if (!target.ok) throw new Error(target.message)
  await browser
    .action("pointer", { parameters: { pointerType: "mouse" } })
    .move({ x: target.x, y: target.y, origin: "viewport" })
    .down()
    .up()
    .perform()
}

/** The ref of the first element with this role and name. */
export const refOf = (snapshot: PageSnapshot, role: string, name: string | RegExp): string => {
  const element = Object.values(snapshot.elements).find(
    (candidate) =>
      candidate.role === role &&
      (typeof name === "string" ? candidate.name === name : name.test(candidate.name)),
  )
  if (element === undefined) throw new Error(`no ${role} named ${String(name)} in:\n${snapshot.tree}`)
  return element.ref
}

/** Refs printed in an outline (full: `[ref=e1]`; interactive: `e1 role …`, `e1 name` under `role:`), in order. */
export const refsIn = (tree: string): Array<string> =>
  tree.includes("[ref=")
    ? [...tree.matchAll(/\[ref=(e\d+)\]/g)].map((match) => match[1]!)
    : [...tree.matchAll(/(?<![\w"])(e\d+)(?=[ \n]|$)/g)].map((match) => match[1]!)

/** The document a link leads to, as the interactive view compares links: the href without its fragment. */
const documentOf = (snapshot: PageSnapshot, ref: string): string | undefined => {
  const href = snapshot.elements[ref]?.attributes.href
  return href === undefined ? undefined : new URL(href, snapshot.url).href.replace(/#.*$/, "")
}

const words = (name: string): string =>
  name
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, " ")
    .trim()

/**
 * The refs of the full outline that the interactive view leaves out unexplained: each left out must
 * be a link to a document that a link before it leads to, under a name that says as much.
 */
export const refsLeftOut = (full: PageSnapshot, interactive: PageSnapshot): Array<string> => {
  const shown = refsIn(interactive.tree)
  const listed = new Map<string, string[]>()
  const unexplained: string[] = []
  for (const ref of refsIn(full.tree)) {
    const target = documentOf(full, ref)
    const name = words(full.elements[ref]?.name ?? "")
    const names = target === undefined ? undefined : listed.get(target)
    if (!shown.includes(ref) && !(names ?? []).some((earlier) => earlier.includes(name)))
      unexplained.push(ref)
    if (target !== undefined) listed.set(target, [...(names ?? []), name])
  }
  return unexplained
}

import { frameOf } from "./frames.ts"
import { refAssigner, refs } from "./refs.ts"
import { renderInteractive, renderOutline } from "./render.ts"
import { countCache, withPathCache } from "./selectors.ts"
import { stringify } from "./text.ts"
import type { Frame, Item, LookOptions, RawElement } from "./types.ts"
import { rendered } from "./visibility.ts"
import { createWalk } from "./walk.ts"

/* look(): one walk of the page into the outline and the raw snapshot that `parseSnapshot` reads. */

/**
 * The line the last whole-page full look printed for each element that has a line of its own but no
 * ref (a heading, an image, a meter), without its indentation and dash: `h2 "Prices"`; for a table's
 * row and cells, which share one line, the role and name the line shows each as (`row`,
 * `columnheader "Price"`, `cell "$3"`).
 */
let printedLines = new WeakMap<Element, string>()

/**
 * The line the last whole-page full look printed for an element that has a line of its own but no
 * ref (`h2 "Prices"`, `img "Logo"`), or undefined: an element with a ref (see `refOf`), or one the
 * outline folds into its parent's lines. A table's row and its cells share the row's line (`Tea |
 * $3`, a header cell in bold): for them, the role and name that line shows each as — `row`, a bold
 * cell of a row of bold cells `columnheader "Item"`, a bold cell beside data cells `rowheader "Tea"`,
 * a data cell `cell "$3"` (`gridcell` under a grid or treegrid). For a reader that measures the
 * outline from the page.
 */
export const printedAs = (element: Element): string | undefined => printedLines.get(element)

/** The raw snapshot without its version; see `RawSnapshot` in `../internal/RawSnapshot.ts`. */
export const look = (options: LookOptions = {}) => {
  const started = performance.now()
  const mode = options.mode === "interactive" ? "interactive" : "full"
  const partial = options.within !== undefined
  const location = window.location
  countCache.clear()
  const walk = createWalk({
    secretSelectors: options.secretSelectors ?? [],
    maxText: options.maxTextLength ?? 3000,
    maxName: options.maxNameLength ?? 100,
    // A look within one element is asked for the whole of it: every option of a select.
    maxOptions: partial ? Number.POSITIVE_INFINITY : (options.maxOptions ?? 12),
    location,
    assignRef: refAssigner(refs, partial),
  })

  const top: Frame = { x: 0, y: 0, path: [], root: document }
  const items: Item[] = []
  let stale = ""
  if (options.within !== undefined) {
    const entry = find(options.within)
    if (entry === undefined) stale = options.within
    else walk.walkElement(entry.element, items, entry.frame, false)
  } else if (document.body !== null) walk.walkChildren(document.body, items, top, false)
  const finished = walk.finish(items)
  const { lines, anchors, shown } =
    mode === "interactive" ? renderInteractive(finished) : renderOutline(finished)
  if (mode === "full" && !partial)
    printedLines = new WeakMap(
      shown.map(([element, line, as]) => [element, as ?? lines[line]!.replace(/^\s*- /, "")]),
    )

  const scrolling = document.scrollingElement ?? document.documentElement
  return {
    url: location.href,
    title: document.title,
    mode,
    lines,
    anchors,
    elements: walk.elements,
    forms: walk.forms,
    texts: walk.texts,
    nodes: walk.nodes(),
    ms: Math.round((performance.now() - started) * 100) / 100,
    scroll: {
      y: Math.round(scrolling.scrollTop),
      height: Math.round(scrolling.scrollHeight),
      viewportHeight: window.innerHeight,
    },
    ...(stale ? { stale } : {}),
  }
}

/**
 * One element as a row, the form `lookString` sends (see `PackedElement` in
 * `../internal/RawSnapshot.ts`): `[ref, key, role, name, tag, attributes, visible (1 or 0), x, y,
 * width, height, selectors, region]`, then an object of the fields an element has only at times
 * (`guess`, `value`, `checked`, `frame`, `form` …) when it has any. A page's elements are most of a
 * look's JSON, and their field names a good part of each element: rows make the string a look sends
 * about a fifth shorter (22% on ten corpus pages), which the page writes, the protocol carries and
 * Node reads that much faster.
 */
export const packElement = (element: RawElement): ReadonlyArray<unknown> => {
  const { ref, key, role, name, tag, attributes, visible, box, selectors, region, ...rest } = element
  const row: Array<unknown> = [
    ref,
    key,
    role,
    name,
    tag,
    attributes,
    visible ? 1 : 0,
    box.x,
    box.y,
    box.width,
    box.height,
    selectors,
    region,
  ]
  if (Object.keys(rest).length > 0) row.push(rest)
  return row
}

/**
 * One look as one JSON string (WebDriver serialises one string far faster than an object tree),
 * its elements as rows (see {@link packElement}), or `{ v, failure }` with the error's stack when
 * the walk throws.
 */
export const lookString = (version: number, options?: LookOptions): string => {
  try {
    const raw = withPathCache(() => look(options))
    return stringify({ v: version, ...raw, elements: raw.elements.map(packElement) })
  } catch (error) {
    return stringify({ v: version, failure: String((error as Error)?.stack ?? error) })
  }
}

/**
 * The live element of a ref: the same node, or the node that now carries its identity key (found
 * by a fresh look when the ref's element is gone or no longer rendered).
 */
export const find = (ref: string): { element: Element; frame: Frame } | undefined => {
  let entry = refs.byRef.get(ref)
  let element = entry?.element.deref()
  if (entry === undefined) return undefined
  if (element === undefined || !rendered(element)) {
    look({ mode: "interactive" })
    entry = refs.byRef.get(ref)
    element = entry?.element.deref()
    if (element === undefined || !rendered(element)) return undefined
  }
  return { element, frame: frameOf(element) }
}

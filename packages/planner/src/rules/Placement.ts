import { ancestryFromOutline, containerNamed, HOLDER_ROLES } from "./Grounding.ts"

/**
 * Where the control a step pressed sat on the page it was pressed on, read from that page's outline the
 * way the grounding reads containers: so a goal check can tell whose control was pressed ("Call" of
 * Tom Okafor's row, the "Details" of order 1043's card) without trusting the grounding that chose it.
 */

/** One container around an element: its role and its name as the outline reading gives it. */
export interface Container {
  readonly role: string
  readonly name: string
}

/**
 * Whether the element `ref` of the outline sits in a container named by `words` (`inside`), or the
 * outline shows such a container only around other elements (`elsewhere`), or shows none (`absent`).
 *
 * @example
 * ```ts
 * import { placeInOutline } from "@sextant/planner"
 * const outline = '- table:\n  - Tom Okafor | Bluegate | button "Call" [ref=e13]\n  - Ana Lopez | Northwind | button "Call" [ref=e14]'
 * placeInOutline(outline, "e14", "Tom Okafor | Bluegate") // "elsewhere"
 * ```
 */
export const placeInOutline = (
  outline: string,
  ref: string,
  words: string,
): "inside" | "elsewhere" | "absent" => {
  const ancestry = ancestryFromOutline(outline)
  const phrase = { raw: words, text: words }
  const named = (ancestors: ReadonlyArray<Container> | undefined) =>
    (ancestors ?? []).some((ancestor) => containerNamed(ancestor, phrase))
  if (named(ancestry.get(ref))) return "inside"
  return [...ancestry.values()].some(named) ? "elsewhere" : "absent"
}

/**
 * The item each element of an outline sits in: the innermost row, list item, tree item, option, card
 * (article) or named group around it, as the outline reading gives it (a table row printed on one line
 * is a row named by its cells of text; a list of items folded into the lines around their controls is
 * a list item per control). Elements in no item are left out.
 *
 * @example
 * ```ts
 * import { itemsInOutline } from "@sextant/planner"
 * itemsInOutline('- table:\n  - Tom Okafor | Bluegate | button "Call" [ref=e13]').get("e13")
 * // { role: "row", name: "Tom Okafor | Bluegate" }
 * ```
 */
export const itemsInOutline = (outline: string): ReadonlyMap<string, Container> => {
  const items = new Map<string, Container>()
  for (const [ref, ancestors] of ancestryFromOutline(outline)) {
    const item = ancestors.findLast((ancestor) => HOLDER_ROLES.has(ancestor.role) && ancestor.name !== "")
    if (item !== undefined) items.set(ref, { role: item.role, name: item.name })
  }
  return items
}

import type { PageElement } from "@sextant/core"
import { locatorOf } from "../PageAnalysis.ts"
import type { Locator } from "../PageModel.ts"

/**
 * When a locator's selector matches nothing, `sextant test` (the runner) and the exported WebdriverIO
 * script both look for the element by its role and accessible name (its label, or its text for a button
 * or a link). These are the rules they share, so the two cannot disagree on what the same spec finds.
 */

/**
 * Roles that stand for one another: a search field is a `textbox` to one page and a `searchbox` or a
 * `combobox` (a suggestion list) to another, and Chromium's computed role may differ from the explorer's.
 */
export const ROLE_ALIASES: Readonly<Record<string, ReadonlyArray<string>>> = {
  textbox: ["searchbox", "combobox"],
  searchbox: ["textbox", "combobox"],
  combobox: ["textbox", "searchbox"],
}

/** Whether an element of role `actual` is what a locator of role `wanted` means. */
export const sameRole = (wanted: string, actual: string): boolean =>
  wanted === actual || (ROLE_ALIASES[wanted] ?? []).includes(actual)

/** What a role-and-name search on the page found. */
export type FallbackMatch =
  | { readonly _tag: "Found"; readonly locator: Locator }
  | { readonly _tag: "None" }
  | { readonly _tag: "Several"; readonly count: number }

/**
 * The one element of the main frame with the locator's role (or an alias of it) and exactly its name.
 * None or several is no match: a test never acts on a guess between two elements.
 */
export const findByRoleAndName = (elements: ReadonlyArray<PageElement>, locator: Locator): FallbackMatch => {
  const same = elements.filter(
    (element) =>
      element.frame.length === 0 && element.name === locator.name && sameRole(locator.role, element.role),
  )
  // An element of the very role wins over aliases: a textbox and a combobox of one name are not ambiguous.
  const exact = same.filter((element) => element.role === locator.role)
  const candidates = exact.length === 1 ? exact : same
  if (candidates.length === 0) return { _tag: "None" }
  if (candidates.length > 1) return { _tag: "Several", count: candidates.length }
  const found = locatorOf(candidates[0] as PageElement)
  return found === undefined ? { _tag: "None" } : { _tag: "Found", locator: found }
}

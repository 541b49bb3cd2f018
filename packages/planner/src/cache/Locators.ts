import type { PageElement } from "@sextant/core"
import { z } from "zod"

/**
 * One way to find a cached element again on a new `look()`, tried in this order:
 * - `key`: perception's semantic identity (`PageElement.key`: role, name, stable context, position);
 * - `role`: the role and accessible name, when exactly one element has them;
 * - `selector`: one of the element's verified selector candidates (with its frame path).
 */
export const CachedLocator = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("key"), key: z.string().min(1) }),
  z.object({ kind: z.literal("role"), role: z.string().min(1), name: z.string() }),
  z.object({
    kind: z.literal("selector"),
    selector: z.string().min(1),
    frame: z.array(z.string()).default([]),
  }),
])
export type CachedLocator = z.output<typeof CachedLocator>

/**
 * The locators of an element, most specific first: identity key, role + name, then each selector.
 *
 * @example
 * ```ts
 * import { locatorsFor } from "@sextant/planner"
 * locatorsFor(snapshot.elements.e13!)
 * // [{ kind: "key", key: "textbox|Email|…" }, { kind: "role", role: "textbox", name: "Email" }, { kind: "selector", selector: "#email", frame: [] }, …]
 * ```
 */
export const locatorsFor = (element: PageElement): ReadonlyArray<CachedLocator> => [
  ...(element.key === undefined ? [] : [{ kind: "key" as const, key: element.key }]),
  { kind: "role", role: element.role, name: element.name },
  ...element.selectors.map((selector) => ({
    kind: "selector" as const,
    selector,
    frame: [...element.frame],
  })),
]

const sameName = (left: string, right: string): boolean =>
  left.normalize("NFKC").replace(/\s+/g, " ").trim().toLowerCase() ===
  right.normalize("NFKC").replace(/\s+/g, " ").trim().toLowerCase()

const sameFrame = (left: ReadonlyArray<string>, right: ReadonlyArray<string>): boolean =>
  left.length === right.length && left.every((entry, index) => entry === right[index])

/** Where a locator leads on a page: the one element it names, or nothing (none, or more than one). */
const findOne = (locator: CachedLocator, elements: ReadonlyArray<PageElement>): PageElement | undefined => {
  const matches = (element: PageElement): boolean => {
    switch (locator.kind) {
      case "key":
        return element.key === locator.key
      case "role":
        return element.role === locator.role && sameName(element.name, locator.name)
      case "selector":
        return element.selectors.includes(locator.selector) && sameFrame(element.frame, locator.frame)
    }
  }
  const found = elements.filter(matches)
  return found.length === 1 ? found[0] : undefined
}

/** A cached element found again: the element and which locator found it. */
export interface ResolvedLocator {
  readonly element: PageElement
  /** Position of the locator that matched in the cached list. */
  readonly index: number
  readonly locator: CachedLocator
}

/**
 * Tries each cached locator on the elements of the current `look()`, in order, and returns the first
 * that names exactly one element (`undefined` when none does: the step must be grounded again).
 *
 * @example
 * ```ts
 * import { resolveLocators } from "@sextant/planner"
 * const found = resolveLocators(cached.locators, Object.values(snapshot.elements))
 * found?.element.ref // "e13"
 * ```
 */
export const resolveLocators = (
  locators: ReadonlyArray<CachedLocator>,
  elements: ReadonlyArray<PageElement>,
): ResolvedLocator | undefined => {
  for (const [index, locator] of locators.entries()) {
    const element = findOne(locator, elements)
    if (element !== undefined) return { element, index, locator }
  }
  return undefined
}

/** A short label of a locator for history lines: `key`, `role+name`, `selector #email`. */
export const describeLocator = (locator: CachedLocator): string =>
  locator.kind === "key"
    ? "identity key"
    : locator.kind === "role"
      ? "role+name"
      : `selector ${locator.selector}`

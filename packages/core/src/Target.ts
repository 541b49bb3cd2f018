import { z } from "zod"

/** A ref from look(): `e` followed by digits. */
export const refPattern = /^e\d+$/

/**
 * What an action is aimed at: a ref from look() or a CSS selector. Both work everywhere a target
 * is taken.
 */
export const Target = z.union([
  z.object({ ref: z.string().regex(refPattern, "a ref looks like e12") }),
  z.object({ selector: z.string().min(1) }),
])
export type Target = z.output<typeof Target>

/**
 * Reads a target written as one string, as models and people write it: `e12` is a ref,
 * anything else a CSS selector.
 *
 * @example
 * ```ts
 * import { parseTarget } from "@sextant/core"
 * parseTarget("e12") // { ref: "e12" }
 * parseTarget("#login") // { selector: "#login" }
 * ```
 */
export const parseTarget = (text: string): Target => {
  const trimmed = text.trim()
  return refPattern.test(trimmed) ? { ref: trimmed } : { selector: trimmed }
}

/** The string form of a target, for messages and history lines. */
export const formatTarget = (target: Target): string => ("ref" in target ? target.ref : target.selector)

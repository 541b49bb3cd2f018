import { PageAction, Signal } from "@sextant/core"
import { z } from "zod"

/**
 * A target as tools take it: a ref from look() (`e12`) or a CSS selector (`#login`, `form button`).
 * Read with `parseTarget` from `@sextant/core`.
 */
export const TargetText = z
  .string()
  .trim()
  .min(1)
  .describe("A ref from look() such as e12, or a CSS selector such as #email or form button[type=submit]")

/**
 * What an action on the page did: whether the page changed, the semantic signals of the change, the
 * actions available now and a hint in words, so the caller needs no extra look to know what happened.
 *
 * @example
 * ```ts
 * import { ActionOutput } from "@sextant/tools"
 * ActionOutput.parse({ ok: true, changed: true, signals: ["NavigationOccurred"], hint: "navigation detected", url: "http://127.0.0.1/", actions: [] })
 * ```
 */
export const ActionOutput = z.object({
  ok: z.boolean(),
  changed: z.boolean(),
  signals: z.array(Signal).readonly(),
  hint: z.string(),
  url: z.string(),
  actions: z.array(PageAction).readonly(),
  /** A JavaScript dialog the action opened; it blocks the page until it is answered. */
  dialog: z
    .object({ type: z.enum(["alert", "confirm", "prompt", "beforeunload"]), text: z.string() })
    .optional(),
  /** Handles of tabs the action opened. */
  newTabs: z.array(z.string()).readonly().optional(),
})
export type ActionOutput = z.output<typeof ActionOutput>

/**
 * Where a navigation (navigate, back, refresh, stop) ended.
 *
 * @example
 * ```ts
 * import { NavigationOutput } from "@sextant/tools"
 * NavigationOutput.parse({ url: "http://127.0.0.1/login", title: "Sign in" })
 * ```
 */
export const NavigationOutput = z.object({ url: z.string(), title: z.string() })
export type NavigationOutput = z.output<typeof NavigationOutput>

/**
 * The scroll position after a scroll, in CSS pixels.
 *
 * @example
 * ```ts
 * import { ScrollOutput } from "@sextant/tools"
 * ScrollOutput.parse({ y: 800, height: 3000, viewportHeight: 800, atBottom: false })
 * ```
 */
export const ScrollOutput = z.object({
  y: z.number(),
  height: z.number(),
  viewportHeight: z.number(),
  atBottom: z.boolean(),
})
export type ScrollOutput = z.output<typeof ScrollOutput>

import { BrowserDriver, defineTool, parseTarget, type ScrollOp } from "@sextant/core"
import { Effect } from "effect"
import { z } from "zod"
import { clearTextMarks, targetByText } from "./internal/Locate.ts"
import { ScrollOutput, TargetText } from "./Outputs.ts"

const scrollBy = (op: ScrollOp) => BrowserDriver.use((driver) => driver.scroll(op))

const count = z.number().int().positive().max(50).default(1).describe("How many screens to scroll")

/**
 * The `scrollDown` tool: scroll the page down by whole screens.
 *
 * @deprecated Use `scroll({ direction: "down", count })`. Kept for one release so stored plans and cached
 * actions that name it still run; never listed in a prompt.
 *
 * @example
 * ```ts
 * import { scrollDownTool } from "@sextant/tools"
 * const position = scrollDownTool.run({ count: 2 })
 * ```
 */
export const scrollDownTool = defineTool({
  name: "scrollDown",
  deprecated: 'scroll({ direction: "down", count })',
  description:
    "Scroll the page down by count screens (default 1), e.g. to load more of an endless list. Returns the new position and whether the bottom is reached.",
  input: z.object({ count }),
  output: ScrollOutput,
  run: ({ count }) => scrollBy({ direction: "down", count }),
})

/**
 * The `scrollUp` tool: scroll the page up by whole screens.
 *
 * @deprecated Use `scroll({ direction: "up", count })`. Kept for one release so stored plans and cached actions that
 * name it still run; never listed in a prompt.
 *
 * @example
 * ```ts
 * import { scrollUpTool } from "@sextant/tools"
 * const position = scrollUpTool.run({ count: 1 })
 * ```
 */
export const scrollUpTool = defineTool({
  name: "scrollUp",
  deprecated: 'scroll({ direction: "up", count })',
  description: "Scroll the page up by count screens (default 1). Returns the new position.",
  input: z.object({ count }),
  output: ScrollOutput,
  run: ({ count }) => scrollBy({ direction: "up", count }),
})

/**
 * The `scrollToTop` tool.
 *
 * @deprecated Use `scroll({ to: "top" })`. Kept for one release so stored plans and cached actions that
 * name it still run; never listed in a prompt.
 *
 * @example
 * ```ts
 * import { scrollToTopTool } from "@sextant/tools"
 * const position = scrollToTopTool.run({})
 * ```
 */
export const scrollToTopTool = defineTool({
  name: "scrollToTop",
  deprecated: 'scroll({ to: "top" })',
  description: "Scroll to the top of the page. Returns the new position.",
  input: z.object({}),
  output: ScrollOutput,
  effects: { idempotent: true },
  run: () => scrollBy({ to: "top" }),
})

/**
 * The `scrollToBottom` tool.
 *
 * @deprecated Use `scroll({ to: "bottom" })`. Kept for one release so stored plans and cached actions that
 * name it still run; never listed in a prompt.
 *
 * @example
 * ```ts
 * import { scrollToBottomTool } from "@sextant/tools"
 * const position = scrollToBottomTool.run({})
 * ```
 */
export const scrollToBottomTool = defineTool({
  name: "scrollToBottom",
  deprecated: 'scroll({ to: "bottom" })',
  description:
    "Scroll to the bottom of the page (an endless list may load more there). Returns the new position and whether the bottom is reached.",
  input: z.object({}),
  output: ScrollOutput,
  effects: { idempotent: true },
  run: () => scrollBy({ to: "bottom" }),
})

/**
 * The `scrollToMiddle` tool: scroll to a fraction of the page's height.
 *
 * @deprecated Use `scroll({ ratio })`. Kept for one release so stored plans and cached actions that
 * name it still run; never listed in a prompt.
 *
 * @example
 * ```ts
 * import { scrollToMiddleTool } from "@sextant/tools"
 * const position = scrollToMiddleTool.run({ ratio: 0.5 })
 * ```
 */
export const scrollToMiddleTool = defineTool({
  name: "scrollToMiddle",
  deprecated: "scroll({ ratio })",
  description:
    "Scroll to a point between the top (ratio 0) and the bottom (ratio 1) of the page; 0.5, the default, is the middle.",
  input: z.object({
    ratio: z.number().min(0).max(1).default(0.5).describe("0 is the top, 1 the bottom"),
  }),
  output: ScrollOutput,
  effects: { idempotent: true },
  run: ({ ratio }) => scrollBy({ ratio }),
})

/**
 * The `scrollToScreen` tool: scroll so that screen `n` (the first is 1) fills the viewport.
 *
 * @deprecated Use `scroll({ screen: n })`. Kept for one release so stored plans and cached actions that
 * name it still run; never listed in a prompt.
 *
 * @example
 * ```ts
 * import { scrollToScreenTool } from "@sextant/tools"
 * const position = scrollToScreenTool.run({ n: 3 })
 * ```
 */
export const scrollToScreenTool = defineTool({
  name: "scrollToScreen",
  deprecated: "scroll({ screen: n })",
  description:
    "Scroll so that screen n of the page (screen 1 is the top, each screen one viewport high) fills the viewport.",
  input: z.object({ n: z.number().int().positive().max(1_000).describe("Screen number, 1 is the top") }),
  output: ScrollOutput,
  effects: { idempotent: true },
  // The driver counts screens from 0 at the top; people count from 1.
  run: ({ n }) => scrollBy({ screen: n - 1 }),
})

/**
 * The `scroll` tool: every page scroll in one call — by screens, to the top, bottom or middle, to a
 * fraction of the page or a numbered screen, or an element into view. It replaces `scrollDown`,
 * `scrollUp`, `scrollToTop`, `scrollToBottom`, `scrollToMiddle` and `scrollToScreen`.
 *
 * @example
 * ```ts
 * import { scrollTool } from "@sextant/tools"
 * const position = scrollTool.run({ direction: "down", count: 2 })
 * ```
 */
export const scrollTool = defineTool({
  name: "scroll",
  group: "core",
  description:
    "Scroll the page: direction up/down by count screens; to top/bottom/middle; ratio 0-1 of the page's height; screen n (1 is the top); or an element into view (target: ref or CSS selector; text: the words of an element with no ref, such as a heading). Give exactly one of direction, to, ratio, screen, target or text.",
  input: z
    .object({
      direction: z.enum(["down", "up"]).optional(),
      count: count.optional(),
      to: z.enum(["top", "bottom", "middle"]).optional(),
      ratio: z.number().min(0).max(1).optional(),
      screen: z.number().int().positive().max(1_000).optional(),
      target: TargetText.optional(),
      text: z
        .string()
        .trim()
        .min(1)
        .optional()
        .describe("The words of an element with no ref to bring into view, e.g. a section heading"),
    })
    .refine(
      (input) =>
        [input.direction, input.to, input.ratio, input.screen, input.target, input.text].filter(
          (value) => value !== undefined,
        ).length === 1,
      {
        message: "give exactly one of direction, to, ratio, screen, target or text",
        path: ["direction"],
      },
    ),
  output: ScrollOutput,
  run: ({ direction, count, to, ratio, screen, target, text }) =>
    text !== undefined
      ? Effect.flatMap(targetByText("scroll", text), (element) => scrollBy({ target: element })).pipe(
          Effect.ensuring(clearTextMarks),
        )
      : scrollBy(
          target !== undefined
            ? { target: parseTarget(target) }
            : to !== undefined
              ? { to }
              : ratio !== undefined
                ? { ratio }
                : // The driver counts screens from 0 at the top; people count from 1.
                  screen !== undefined
                  ? { screen: screen - 1 }
                  : { direction: direction ?? "down", count: count ?? 1 },
        ),
})

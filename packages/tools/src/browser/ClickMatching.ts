import { BrowserDriver, DriverError, defineTool, ElementNotFound, InvalidArgument } from "@sextant/core"
import { type PickSpec, pageCall } from "@sextant/perception"
import { Effect } from "effect"
import { z } from "zod"
import { RegexPattern as Pattern } from "../internal/RegexPattern.ts"
import { ActionOutput } from "./Outputs.ts"

/** Elements a person would click, for `clickTextMatches` without a selector. */
const clickableSelector =
  "a[href], button, [role=button], [role=link], [role=tab], [role=menuitem], [role=option], input[type=submit], input[type=button], summary, [onclick]"

/**
 * What the click-by-match tools answer.
 *
 * @example
 * ```ts
 * import { ClickedOutput } from "@sextant/tools"
 * ClickedOutput.shape.clicked // the elements clicked, in order
 * ```
 */
export const ClickedOutput = z.object({
  /** The elements clicked, in order. */
  clicked: z.array(z.object({ text: z.string(), tag: z.string(), href: z.string().optional() })),
  /** How many visible elements matched before the first click. */
  matches: z.number().int().nonnegative(),
  /** What the last click did. */
  result: ActionOutput,
})
export type ClickedOutput = z.output<typeof ClickedOutput>

let markCounter = 0

/**
 * Clicks up to `count` matching elements in turn, finding the matches again before each click (a
 * click may re-render the page); stops early when a click navigates away.
 */
const clickEach = Effect.fn("tools.clickEach")(function* (
  method: string,
  spec: Omit<PickSpec, "mark">,
  count: number,
  described: string,
) {
  const driver = yield* BrowserDriver
  const clicked: Array<ClickedOutput["clicked"][number]> = []
  let matches = 0
  let result: ActionOutput | undefined
  for (let step = 0; step < count; step++) {
    const mark = `p${++markCounter}`
    const index = spec.index < 0 ? spec.index - step : spec.index + step
    const picked = yield* pageCall(driver, "pickElement", { ...spec, index, mark })
    if (picked.error !== undefined) {
      return yield* new DriverError({
        method,
        reason:
          picked.error === "root"
            ? new ElementNotFound({ target: spec.root ?? "" })
            : picked.error === "frame"
              ? new InvalidArgument({
                  detail: `${described} is also in the ${picked.detail ?? "frame"} being typed into, which ${method} cannot press: nothing was clicked; press it by its ref (look() lists it) or use the step-wise agent`,
                })
              : new InvalidArgument({ detail: `not a valid CSS selector: ${picked.detail ?? ""}` }),
      })
    }
    if (step === 0) matches = picked.count
    if (picked.picked === undefined) break
    result = yield* driver.act({ selector: `[data-sextant-pick="${mark}"]` }, "click")
    clicked.push(picked.picked)
    if (result.signals.includes("NavigationOccurred")) break
  }
  if (result === undefined) {
    return yield* new DriverError({ method, reason: new ElementNotFound({ target: described }) })
  }
  return { clicked, matches, result }
})

const count = z
  .number()
  .int()
  .positive()
  .max(50)
  .default(1)
  .describe("How many matching elements to click, in page order")

/**
 * The `clickTextMatches` tool: click elements by their visible text.
 *
 * @example
 * ```ts
 * import { clickTextMatchesTool } from "@sextant/tools"
 * const result = clickTextMatchesTool.run({ text: "Next" })
 * ```
 */
export const clickTextMatchesTool = defineTool({
  name: "clickTextMatches",
  group: "gestures",
  description: [
    "Click the visible element(s) whose text contains text (case-insensitive; an exact match is preferred) and/or matches pattern (a regular expression, case-insensitive).",
    "selector narrows the candidates (default: links, buttons and other clickable elements); count clicks that many matches in page order.",
  ].join(" "),
  input: z
    .object({
      text: z.string().trim().min(1).optional().describe("Text the element shows, e.g. Next"),
      pattern: Pattern.optional().describe("Regular expression its text must match, e.g. ^Page \\d+$"),
      selector: z.string().trim().min(1).optional().describe("CSS selector of the candidates"),
      count,
    })
    .refine((input) => input.text !== undefined || input.pattern !== undefined, {
      message: "give the text to look for, or a pattern",
      path: ["text"],
    }),
  output: ClickedOutput,
  effects: { clicks: true },
  run: ({ text, pattern, selector, count }) =>
    clickEach(
      "clickTextMatches",
      { selector: selector ?? clickableSelector, text, pattern, index: 0 },
      count,
      `a clickable element with the text ${JSON.stringify(text ?? pattern)}`,
    ),
})

/**
 * The `clickMatches` tool: click elements whose attribute matches a pattern.
 *
 * @example
 * ```ts
 * import { clickMatchesTool } from "@sextant/tools"
 * const result = clickMatchesTool.run({ selector: "a", attribute: "href", pattern: "/products/\\d+$" })
 * ```
 */
export const clickMatchesTool = defineTool({
  name: "clickMatches",
  group: "gestures",
  description:
    "Click the visible element(s) matching selector whose attribute (e.g. href, aria-label, data-id) matches pattern, a regular expression (case-insensitive); count clicks that many matches in page order.",
  input: z.object({
    selector: z.string().trim().min(1).describe("CSS selector of the candidates, e.g. a"),
    attribute: z.string().trim().min(1).describe("Attribute to test, e.g. href"),
    pattern: Pattern.describe("Regular expression the attribute must match"),
    count,
  }),
  output: ClickedOutput,
  effects: { clicks: true },
  run: ({ selector, attribute, pattern, count }) =>
    clickEach(
      "clickMatches",
      { selector, attribute, pattern, index: 0 },
      count,
      `${selector} with ${attribute} matching /${pattern}/`,
    ),
})

/**
 * The `clickNthAnchor` tool: click the n-th visible link, optionally inside a container.
 *
 * @example
 * ```ts
 * import { clickNthAnchorTool } from "@sextant/tools"
 * const result = clickNthAnchorTool.run({ index: 0, rootSelector: "main" })
 * ```
 */
export const clickNthAnchorTool = defineTool({
  name: "clickNthAnchor",
  group: "gestures",
  description:
    "Click the link at index among the visible links (a[href]) inside rootSelector (default: the whole page), in page order. index 0 is the first link, -1 the last.",
  input: z.object({
    index: z.number().int().min(-1_000).max(1_000).describe("0 is the first link, -1 the last"),
    rootSelector: z.string().trim().min(1).optional().describe("CSS selector of the container, e.g. main"),
  }),
  output: ClickedOutput,
  effects: { clicks: true },
  run: ({ index, rootSelector }) =>
    clickEach(
      "clickNthAnchor",
      { selector: "a[href]", root: rootSelector, index },
      1,
      `link number ${index} ${rootSelector === undefined ? "on the page" : `inside ${rootSelector}`}`,
    ),
})

import {
  BrowserDriver,
  DriverError,
  defineTool,
  ElementNotFound,
  InvalidArgument,
  parseTarget,
  StaleRef,
} from "@sextant/core"
import { pageCall } from "@sextant/perception"
import { Effect } from "effect"
import { z } from "zod"
import { TargetText } from "./Outputs.ts"

/**
 * The `extract` tool: read the text, an attribute or the HTML of one element or of all that match.
 *
 * @example
 * ```ts
 * import { extractTool } from "@sextant/tools"
 * const names = extractTool.run({ target: "main h2", all: true })
 * ```
 */
export const extractTool = defineTool({
  name: "extract",
  group: "core",
  description: [
    "Read from the page: the text (mode text, default), an attribute (mode attr with attribute, e.g. href — links come back absolute) or the outer HTML (mode html) of target, a ref from look() or a CSS selector.",
    "With all true it reads every element the selector matches (up to limit), otherwise the first.",
  ].join(" "),
  input: z.object({
    target: TargetText,
    mode: z.enum(["text", "attr", "html"]).default("text"),
    attribute: z.string().trim().min(1).optional().describe("Attribute to read in mode attr (default href)"),
    all: z.boolean().default(false).describe("Read every match instead of the first"),
    limit: z.number().int().positive().max(10_000).default(500).describe("Most values to return with all"),
  }),
  output: z.object({
    /** The first value, or null when the element has no such attribute. */
    value: z.string().nullable(),
    /** Every value read (one unless all is true). */
    values: z.array(z.string().nullable()),
    /** How many elements matched. */
    count: z.number().int().nonnegative(),
  }),
  effects: { reads: true, idempotent: true },
  run: ({ target, mode, attribute, all, limit }) =>
    Effect.gen(function* () {
      const driver = yield* BrowserDriver
      const parsed = parseTarget(target)
      const spec = { ...parsed, mode, attribute, all, limit }
      const answer = yield* pageCall(driver, "extractValues", spec)
      if (answer.error === "stale" && "ref" in parsed) {
        return yield* new DriverError({ method: "extract", reason: new StaleRef({ ref: parsed.ref }) })
      }
      if (answer.error !== undefined) {
        return yield* new DriverError({
          method: "extract",
          reason: new InvalidArgument({
            detail: `${target} is not a valid CSS selector (${answer.detail ?? ""})`,
          }),
        })
      }
      if (answer.count === 0) {
        return yield* new DriverError({ method: "extract", reason: new ElementNotFound({ target }) })
      }
      return { value: answer.values[0] ?? null, values: [...answer.values], count: answer.count }
    }),
})

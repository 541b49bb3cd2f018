import { BrowserDriver, defineTool } from "@sextant/core"
import { pageCall } from "@sextant/perception"
import { Effect } from "effect"
import { z } from "zod"
import { FieldSpec } from "../session/Crawl.ts"
import { CompoundError, ListNotFound } from "./CompoundError.ts"
import { checkRecords, fieldPlans, recordValidator } from "./internal/Records.ts"
import { RecordSchemaInput, RejectedRecord } from "./RecordSchema.ts"

/**
 * What to read from each item of a list, and how to check it; shared by extractList and pagination.
 *
 * @example
 * ```ts
 * import { ExtractionInput } from "@sextant/tools"
 * ExtractionInput.parse({ item: { name: "h2", url: { selector: "a", attribute: "href" } }, schema: { name: "string", url: "url" } })
 * ```
 */
export const ExtractionInput = z.object({
  listSelector: z
    .string()
    .trim()
    .min(1)
    .optional()
    .describe("CSS selector matching each item; omitted, the repeated item container is found by structure"),
  item: z
    .record(z.string(), FieldSpec)
    .optional()
    .describe(
      "Field name → CSS selector inside the item (its text), or { selector, attribute?, pattern? } to read an attribute or the first match whose text fits the pattern",
    ),
  fields: z
    .array(z.string().trim().min(1))
    .optional()
    .describe(
      "Field names to read without selectors, inferred from the name: name/title, price, rating, url, image, id, or any label shown next to its value",
    ),
  schema: RecordSchemaInput.optional().describe(
    'Record schema: { price: "number", note: "string?" } or a JSON Schema object; text is converted to numbers, booleans and URLs',
  ),
  limit: z.number().int().positive().max(10_000).default(500).describe("Most items to read"),
  onInvalid: z
    .enum(["skip", "fail"])
    .default("skip")
    .describe("A record that does not fit the schema is skipped and listed in rejected, or fails the call"),
})
export type ExtractionInput = z.input<typeof ExtractionInput>

/**
 * What extractList answers.
 *
 * @example
 * ```ts
 * import { ExtractedList } from "@sextant/tools"
 * ExtractedList.parse({ url: "http://127.0.0.1/products", listSelector: "#product-list > li", count: 0, records: [], rejected: [] })
 * ```
 */
export const ExtractedList = z.object({
  url: z.string(),
  /** The selector the items were read with (found by structure when none was given). */
  listSelector: z.string(),
  /** How many items the page holds (before `limit`). */
  count: z.number().int().nonnegative(),
  records: z.array(z.record(z.string(), z.unknown())),
  /** Records that did not fit the schema, each with one line per failing field. */
  rejected: z.array(RejectedRecord),
})
export type ExtractedList = z.output<typeof ExtractedList>

/**
 * Reads the list on the current page: one record per item, validated by the schema. The work
 * behind the `extractList` tool, also used page by page by `pagination`.
 *
 * @example
 * ```ts
 * import { extractListOnPage } from "@sextant/tools"
 * const list = extractListOnPage({ fields: ["name", "price", "url"], schema: { name: "string", price: "number", url: "url" } })
 * ```
 */
export const extractListOnPage = Effect.fn("tools.extractList")(function* (
  raw: ExtractionInput,
  tool = "extractList",
  offset = 0,
) {
  const input = ExtractionInput.parse(raw)
  const driver = yield* BrowserDriver
  const schema = yield* recordValidator(tool, input.schema)
  const fields = fieldPlans(input)
  const answer = yield* pageCall(driver, "listRecords", {
    listSelector: input.listSelector,
    fields,
    limit: input.limit,
  })
  const url = yield* driver.currentUrl
  if (answer.error !== undefined || answer.selector === undefined || answer.count === 0) {
    return yield* new CompoundError({ tool, reason: new ListNotFound({ url, selector: input.listSelector }) })
  }
  const checked = yield* checkRecords(tool, schema, answer.records, input.onInvalid, offset)
  return {
    url,
    listSelector: answer.selector,
    count: answer.count ?? 0,
    records: checked.valid,
    rejected: checked.rejected,
  }
})

/**
 * The `extractList` tool: read a list of items (cards, rows, entries) from the page as validated records.
 *
 * @example
 * ```ts
 * import { extractListTool } from "@sextant/tools"
 * const list = extractListTool.run(extractListTool.input.parse({ fields: ["name", "price"], schema: { name: "string", price: "number" } }))
 * ```
 */
export const extractListTool = defineTool({
  name: "extractList",
  group: "extraction",
  description: [
    "Read the repeated items of the current page (product cards, result rows, list entries) as records.",
    "Without listSelector the item container is found by structure. Fields come from item (field → CSS selector) or from fields (names inferred: name, price, rating, url, image, id, or a label shown next to a value).",
    "With schema, each record is converted (numbers, booleans, URLs) and checked; records that do not fit are listed in rejected with the failing field named.",
  ].join(" "),
  input: ExtractionInput,
  output: ExtractedList,
  effects: { reads: true, idempotent: true },
  run: (input) => extractListOnPage(input),
})

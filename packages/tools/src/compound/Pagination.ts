import { BrowserDriver, defineTool } from "@sextant/core"
import { pageCall } from "@sextant/perception"
import { Effect } from "effect"
import { z } from "zod"
import { clickTool } from "../browser/Input.ts"
import { TargetText } from "../browser/Outputs.ts"
import { ExtractionInput, extractListOnPage } from "./ExtractList.ts"
import { RejectedRecord } from "./RecordSchema.ts"

/**
 * Labels of a "next page" control, in the languages the rule planner reads: perception's `markNext`
 * marks the first shown, enabled link or button with `rel=next` or such a label as `data-sextant-next`.
 */
const nextLabelPattern = /^(next|next page|next ›|next »|more results|›|»|>|→|下一页|下页|下一頁|次へ)$/i

/** What one visited page gave. */
const VisitedPage = z.object({
  url: z.string(),
  /** Items found on the page when extracting. */
  count: z.number().int().nonnegative().optional(),
})

/**
 * The `pagination` tool: walk through the pages of a paginated list by its Next control,
 * optionally extracting the list on every page.
 *
 * @example
 * ```ts
 * import { paginationTool } from "@sextant/tools"
 * const walked = paginationTool.run(paginationTool.input.parse({ limit: 5, extract: { fields: ["name", "price"] } }))
 * ```
 */
export const paginationTool = defineTool({
  name: "pagination",
  group: "extraction",
  description: [
    "Go through the pages of a paginated list, starting with the current page, by clicking Next up to limit pages in all.",
    "Next is found by rel=next or its label (Next, ›, », 下一页…) unless next (a ref or CSS selector) is given.",
    "With extract (the extractList arguments) the list of every page is read and the records joined.",
    "Stops early when there is no Next control or it leads nowhere new.",
  ].join(" "),
  input: z.object({
    limit: z
      .number()
      .int()
      .positive()
      .max(200)
      .default(5)
      .describe("Most pages to visit, the current one included"),
    next: TargetText.optional().describe(
      "Ref or CSS selector of the Next control, when it cannot be found by label",
    ),
    extract: ExtractionInput.optional().describe("Read the list on each page, as extractList does"),
  }),
  output: z.object({
    pages: z.array(VisitedPage),
    records: z.array(z.record(z.string(), z.unknown())),
    rejected: z.array(RejectedRecord),
    stoppedBecause: z.enum(["limit", "no-next", "no-change", "loop"]),
  }),
  effects: { clicks: true, navigates: true, reads: true },
  run: ({ limit, next, extract }) =>
    Effect.gen(function* () {
      const driver = yield* BrowserDriver
      const pages: Array<z.output<typeof VisitedPage>> = []
      const records: Array<Record<string, unknown>> = []
      const rejected: Array<RejectedRecord> = []
      const seen = new Set<string>()
      let stoppedBecause: "limit" | "no-next" | "no-change" | "loop" = "limit"
      for (;;) {
        const url = yield* driver.currentUrl
        seen.add(url)
        if (extract === undefined) pages.push({ url })
        else {
          const list = yield* extractListOnPage(extract, "pagination", records.length + rejected.length)
          records.push(...list.records)
          rejected.push(...list.rejected)
          pages.push({ url, count: list.count })
        }
        if (pages.length >= limit) break
        if (next === undefined && !(yield* pageCall(driver, "markNext", nextLabelPattern.source))) {
          stoppedBecause = "no-next"
          break
        }
        const result = yield* clickTool.run({ target: next ?? "[data-sextant-next]" }).pipe(
          // A given Next control that is gone means the last page.
          Effect.catchIf(
            (error) => next !== undefined && error.reason._tag === "ElementNotFound",
            () => Effect.succeed(undefined),
          ),
        )
        if (result === undefined) {
          stoppedBecause = "no-next"
          break
        }
        if (!result.changed && result.url === url) {
          stoppedBecause = "no-change"
          break
        }
        if (result.url !== url && seen.has(result.url)) {
          stoppedBecause = "loop"
          break
        }
      }
      return { pages, records, rejected, stoppedBecause }
    }),
})

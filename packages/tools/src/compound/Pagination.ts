import { BrowserDriver, defineTool } from "@sextant/core"
import { Effect } from "effect"
import { z } from "zod"
import { clickTool } from "../browser/Input.ts"
import { TargetText } from "../browser/Outputs.ts"
import { ExtractionInput, extractListOnPage } from "./ExtractList.ts"
import { RejectedRecord } from "./RecordSchema.ts"

/** Labels of a "next page" control, in the languages the rule planner reads. */
const nextLabelPattern = /^(next|next page|next ›|next »|more results|›|»|>|→|下一页|下页|下一頁|次へ)$/i

/**
 * Marks the page's "next page" control with `data-sextant-next` and answers whether there is one:
 * a link or button with `rel=next`, else one whose text, aria-label or title reads like Next.
 * Disabled controls and the current page link do not count.
 */
const findNextScript = `
  for (const old of document.querySelectorAll("[data-sextant-next]")) old.removeAttribute("data-sextant-next")
  const pattern = new RegExp(${JSON.stringify(nextLabelPattern.source)}, "i")
  const usable = (element) =>
    element.getClientRects().length > 0 &&
    !element.disabled &&
    element.getAttribute("aria-disabled") !== "true" &&
    element.getAttribute("aria-current") === null
  const controls = [...document.querySelectorAll("a[href], button, [role=button], [role=link], input[type=submit], input[type=button]")].filter(usable)
  const label = (element) =>
    [element.innerText, element.getAttribute("aria-label"), element.getAttribute("title"), element.value]
      .map((text) => (text || "").replace(/\\s+/g, " ").trim())
      .filter((text) => text !== "")
  const next =
    controls.find((element) => /(^|\\s)next(\\s|$)/i.test(element.getAttribute("rel") || "")) ||
    controls.find((element) => label(element).some((text) => pattern.test(text)))
  if (!next) return false
  next.setAttribute("data-sextant-next", "")
  return true`

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
        if (next === undefined && (yield* driver.evaluate(findNextScript)) !== true) {
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

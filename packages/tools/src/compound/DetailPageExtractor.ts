import { BrowserDriver, defineTool, type HttpError } from "@sextant/core"
import { type FieldPlan, pageCall, readRecord } from "@sextant/perception"
import { Effect } from "effect"
import { z } from "zod"
import { FieldSpec } from "../session/Crawl.ts"
import { parseDocument } from "../session/internal/Dom.ts"
import { loadHtml } from "../session/LoadAndParse.ts"
import { CompoundError, ListNotFound } from "./CompoundError.ts"
import { checkRecords, fieldPlans, recordValidator } from "./internal/Records.ts"
import { RecordSchemaInput, RejectedRecord } from "./RecordSchema.ts"

type Raw = Record<string, string | null>

/** Reads a detail page over HTTP with the session tools and linkedom: no browser, no JavaScript. */
const readOverHttp = (url: string, fields: ReadonlyArray<FieldPlan>) =>
  Effect.map(loadHtml(url), (response) => {
    const document = parseDocument(response.body)
    const root = document.querySelector("main, [role=main]") ?? document.body
    return readRecord(root, fields, response.url)
  })

/** Reads a detail page in the browser, after its scripts ran. */
const readInBrowser = (url: string, fields: ReadonlyArray<FieldPlan>) =>
  Effect.gen(function* () {
    const driver = yield* BrowserDriver
    yield* driver.navigate(url)
    return yield* pageCall(driver, "pageRecord", fields)
  })

const sameRecord = (left: Raw, right: Raw): boolean =>
  Object.keys(left).every((key) => left[key] === right[key]) &&
  Object.values(left).some((value) => value !== null)

/**
 * The `detailPageExtractor` tool: open the detail page behind each item of the current list and
 * read the same fields from each.
 *
 * Mode `auto` (the default) reads the first detail page both in the browser and over HTTP with the
 * session tools (no JavaScript): when every field comes out the same, the other pages are fetched
 * over HTTP, `concurrency` at a time; otherwise (a page that needs scripts or the browser's login)
 * they are opened one by one in the browser. `http` and `browser` force a mode. In browser mode the
 * browser returns to the list page at the end.
 *
 * @example
 * ```ts
 * import { detailPageExtractorTool } from "@sextant/tools"
 * const details = detailPageExtractorTool.run(detailPageExtractorTool.input.parse({ fields: ["name", "sku", "material"], limit: 12 }))
 * ```
 */
export const detailPageExtractorTool = defineTool({
  name: "detailPageExtractor",
  group: "extraction",
  description: [
    "From the current list page, open the detail page of each item (the links linksSelector matches, or the first link of each repeated item found by structure) and read fields from each, up to limit pages.",
    "Fields come from item (field → CSS selector) or from fields (names inferred: name, price, rating, image, or any label shown next to its value, such as SKU in a spec table).",
    "mode auto reads over HTTP without a browser when the first page reads the same both ways, else in the browser; schema converts and checks each record.",
  ].join(" "),
  input: z.object({
    linksSelector: z
      .string()
      .trim()
      .min(1)
      .optional()
      .describe("CSS selector of the detail links (or of elements holding one)"),
    item: z.record(z.string(), FieldSpec).optional().describe("Field name → CSS selector on the detail page"),
    fields: z.array(z.string().trim().min(1)).optional().describe("Field names to infer on the detail page"),
    schema: RecordSchemaInput.optional(),
    onInvalid: z.enum(["skip", "fail"]).default("skip"),
    limit: z.number().int().positive().max(1_000).default(20).describe("Most detail pages to read"),
    concurrency: z.number().int().positive().max(16).default(4).describe("Pages fetched at once over HTTP"),
    mode: z.enum(["auto", "http", "browser"]).default("auto"),
  }),
  output: z.object({
    mode: z.enum(["http", "browser"]),
    why: z.string(),
    listUrl: z.string(),
    records: z.array(z.record(z.string(), z.unknown())),
    rejected: z.array(RejectedRecord),
    failed: z.array(z.object({ url: z.string(), error: z.string() })),
    durationMs: z.number().nonnegative(),
  }),
  effects: { navigates: true, reads: true },
  run: (input) =>
    Effect.gen(function* () {
      const started = performance.now()
      const driver = yield* BrowserDriver
      const schema = yield* recordValidator("detailPageExtractor", input.schema)
      const fields = fieldPlans(input)
      const listUrl = yield* driver.currentUrl
      const links = (yield* pageCall(driver, "itemLinks", { linksSelector: input.linksSelector })).slice(
        0,
        input.limit,
      )
      const first = links[0]
      if (first === undefined) {
        return yield* new CompoundError({
          tool: "detailPageExtractor",
          reason: new ListNotFound({ url: listUrl, selector: input.linksSelector }),
        })
      }

      const read: Array<{ url: string; record: Raw }> = []
      const failed: Array<{ url: string; error: string }> = []
      let mode: "http" | "browser" = input.mode === "http" ? "http" : "browser"
      let why = input.mode === "auto" ? "" : `mode ${input.mode} was asked for`
      let rest = links
      if (input.mode === "auto") {
        const inBrowser = yield* readInBrowser(first, fields)
        const overHttp = yield* readOverHttp(first, fields).pipe(
          Effect.map((record): Raw | HttpError => record),
          Effect.catch((error: HttpError) => Effect.succeed(error)),
        )
        read.push({ url: first, record: inBrowser })
        rest = links.slice(1)
        if ("_tag" in overHttp)
          why = `the first detail page could not be fetched over HTTP (${overHttp.message})`
        else if (sameRecord(inBrowser, overHttp as Raw)) {
          mode = "http"
          why = "the first detail page read the same over HTTP as in the browser"
        } else
          why =
            "the first detail page read differently over HTTP than in the browser (scripts or a login shape it)"
      }

      if (mode === "http") {
        const results = yield* Effect.forEach(
          rest,
          (url) =>
            readOverHttp(url, fields).pipe(
              Effect.map((record) => ({ url, record })),
              Effect.catch((error: HttpError) => Effect.succeed({ url, error: error.message })),
            ),
          { concurrency: input.concurrency },
        )
        for (const result of results) {
          if ("record" in result) read.push(result)
          else failed.push(result)
        }
      } else {
        for (const url of rest) read.push({ url, record: yield* readInBrowser(url, fields) })
      }
      if (mode === "browser" || input.mode === "auto") yield* driver.navigate(listUrl)

      const records: Array<Record<string, unknown>> = []
      const rejected: Array<RejectedRecord> = []
      for (const [index, { url, record }] of read.entries()) {
        const checked = yield* checkRecords("detailPageExtractor", schema, [record], input.onInvalid, index)
        for (const valid of checked.valid) records.push({ url, ...valid })
        for (const bad of checked.rejected) rejected.push({ ...bad, record: { url, ...bad.record } })
      }
      return { mode, why, listUrl, records, rejected, failed, durationMs: performance.now() - started }
    }),
})

import {
  defineTool,
  type FrontierEntry,
  type FrontierStats,
  type HttpError,
  type HttpSession,
  Store,
  type StoredRecord,
  type StoreError,
} from "@sextant/core"
import { Effect } from "effect"
import { z } from "zod"
import { RegexPattern as Pattern } from "../internal/RegexPattern.ts"
import { absoluteHttpUrl, parseDocument, selectAll, textOf } from "./internal/Dom.ts"
import { loadHtml, type ParsedPage, ParseOptions, parsePage } from "./LoadAndParse.ts"

/** A URL {@link submitUrls} did not add, and why. */
export interface SkippedUrl {
  readonly url: string
  readonly why: string
}

/** Options of {@link submitUrls}. */
export interface SubmitUrlsOptions {
  /** Depth of the submitted URLs: 0 for start URLs, the parent's depth + 1 for discovered links. */
  readonly depth?: number
  /** The page the URLs were found on; with `sameOrigin` they must share its origin. */
  readonly parent?: string
  /** URLs deeper than this are not added. Default 3. */
  readonly maxDepth?: number
  /** Only add URLs of the parent's origin (or of `allowedOrigins`). Default true. */
  readonly sameOrigin?: boolean
  /** Origins URLs may have, e.g. `["http://127.0.0.1:4000"]`. */
  readonly allowedOrigins?: ReadonlyArray<string>
}

/** The default of {@link SubmitUrlsOptions.maxDepth} and of the crawl's `maxDepth`. */
export const DEFAULT_MAX_DEPTH = 3

/**
 * Adds URLs to a persistent crawl frontier in the `Store`: fragments dropped, each URL once per
 * frontier, none deeper than `maxDepth`, none of another origin when `sameOrigin` holds.
 *
 * @example
 * ```ts
 * import { submitUrls } from "@sextant/tools"
 * const added = submitUrls("shop", ["http://127.0.0.1:4000/products?page=1"])
 * ```
 */
export const submitUrls = Effect.fn("submitUrls")(function* (
  frontier: string,
  urls: ReadonlyArray<string>,
  options: SubmitUrlsOptions = {},
) {
  const store = yield* Store
  const depth = options.depth ?? 0
  const maxDepth = options.maxDepth ?? DEFAULT_MAX_DEPTH
  const sameOrigin = options.sameOrigin ?? true
  const parentOrigin = options.parent === undefined ? undefined : new URL(options.parent).origin
  const allowed = new Set(options.allowedOrigins?.map((origin) => new URL(origin).origin) ?? [])
  if (parentOrigin !== undefined) allowed.add(parentOrigin)

  const skipped: Array<SkippedUrl> = []
  const entries = new Map<string, FrontierEntry>()
  for (const raw of urls) {
    const url = absoluteHttpUrl(raw, options.parent ?? "http://invalid.invalid/")
    if (url === undefined || (options.parent === undefined && !/^https?:\/\//i.test(raw))) {
      skipped.push({ url: raw, why: "not an absolute http(s) URL" })
    } else if (depth > maxDepth) {
      skipped.push({ url, why: `deeper than maxDepth ${maxDepth}` })
    } else if (sameOrigin && allowed.size > 0 && !allowed.has(new URL(url).origin)) {
      skipped.push({ url, why: `origin ${new URL(url).origin} is not ${[...allowed].join(" or ")}` })
    } else if (!entries.has(url)) {
      entries.set(url, options.parent === undefined ? { url, depth } : { url, depth, parent: options.parent })
    }
  }
  const added = entries.size === 0 ? 0 : yield* store.frontierAdd(frontier, [...entries.values()])
  return { added, skipped }
})

/** A page the crawl loaded: its frontier entry, the parsed page, and the raw HTML for custom extraction. */
export interface CrawledPage {
  readonly entry: FrontierEntry
  readonly page: ParsedPage
  readonly html: string
}

/** Options of {@link crawl}. */
export interface CrawlOptions {
  /** The frontier to drain; created by `startUrls` or earlier {@link submitUrls} calls. */
  readonly frontier: string
  /** The run whose records the extracted records become (one per key). */
  readonly runId: string
  /** Added at depth 0 before the crawl starts; already-known URLs are not added again. */
  readonly startUrls?: ReadonlyArray<string>
  /** Links deeper than this are not followed. Default 3. */
  readonly maxDepth?: number
  /** Most pages this call loads; the rest stay pending for a later call. Default 1000. */
  readonly maxPages?: number
  /** Pages loaded at once. Default 4. */
  readonly concurrency?: number
  /** Follow links of the page's own origin only. Default true. */
  readonly sameOrigin?: boolean
  /** Which links to follow: a pattern tested against each absolute link URL. Default: every link. */
  readonly followPattern?: RegExp
  /** Records to store for a page. Default: none (the crawl only walks). */
  readonly extract?: (page: CrawledPage) => ReadonlyArray<StoredRecord>
  /** Limits for the parsed page handed to `extract`. */
  readonly parse?: ParseOptions
  /** How long an idle worker waits for other workers' pages to add links. Default 25 ms. */
  readonly idlePollMs?: number
}

/** What one {@link crawl} call did. */
export const CrawlSummary = z.object({
  /** Claimed URLs of an earlier, interrupted crawl that were put back to pending at the start. */
  released: z.number().int().nonnegative(),
  pagesLoaded: z.number().int().nonnegative(),
  pagesFailed: z.number().int().nonnegative(),
  linksAdded: z.number().int().nonnegative(),
  recordsAdded: z.number().int().nonnegative(),
  frontier: z.object({
    pending: z.number().int().nonnegative(),
    claimed: z.number().int().nonnegative(),
    done: z.number().int().nonnegative(),
    failed: z.number().int().nonnegative(),
  }),
})
export type CrawlSummary = z.output<typeof CrawlSummary>

/**
 * Drains a crawl frontier with bounded concurrency: each worker claims a URL, loads and parses it
 * through the `HttpSession`, stores the records `extract` finds and adds the links it may follow, and
 * only then marks the URL done. A crash therefore loses at most the pages in flight, and records
 * found twice are stored once. On start it releases URLs an earlier crawl claimed but never finished,
 * so call it again after a crash to resume (one crawl per frontier at a time).
 *
 * @example
 * ```ts
 * import { Effect, Layer } from "effect"
 * import { SqliteStore } from "@sextant/memory"
 * import { crawl, FetchHttpSession } from "@sextant/tools"
 * const summary = crawl({
 *   frontier: "shop",
 *   runId: "shop-products",
 *   startUrls: ["http://127.0.0.1:4000/products?page=1"],
 *   followPattern: /\/products\?page=\d+$/,
 *   extract: ({ page }) => page.lists.flatMap((list) => list.items).map((item) => ({ key: item.links[0] ?? item.text, source: page.url, data: item.cells })),
 * }).pipe(Effect.provide(Layer.merge(FetchHttpSession.layer(), SqliteStore.layer({ path: "crawl.db" }))))
 * ```
 */
export const crawl = (options: CrawlOptions): Effect.Effect<CrawlSummary, StoreError, Store | HttpSession> =>
  Effect.gen(function* () {
    const store = yield* Store
    const maxDepth = options.maxDepth ?? DEFAULT_MAX_DEPTH
    const maxPages = options.maxPages ?? 1_000
    const concurrency = Math.max(1, options.concurrency ?? 4)
    const idlePollMs = options.idlePollMs ?? 25
    const parseOptions = ParseOptions.parse(options.parse ?? {})

    const released = yield* store.frontierRelease(options.frontier)
    if (options.startUrls !== undefined && options.startUrls.length > 0) {
      yield* submitUrls(options.frontier, options.startUrls, { depth: 0, maxDepth, sameOrigin: false })
    }

    let started = 0
    let inFlight = 0
    let pagesLoaded = 0
    let pagesFailed = 0
    let linksAdded = 0
    let recordsAdded = 0

    const visit = (entry: FrontierEntry): Effect.Effect<void, StoreError, Store | HttpSession> =>
      Effect.gen(function* () {
        const loaded = yield* Effect.result(loadHtml(entry.url))
        if (loaded._tag === "Failure") {
          pagesFailed++
          yield* Effect.logWarning(`crawl: ${(loaded.failure as HttpError).message}`)
          return yield* store.frontierComplete(options.frontier, entry.url, false)
        }
        const response = loaded.success
        const page = parsePage(response.body, response.url, parseOptions, response)
        const records = options.extract?.({ entry, page, html: response.body }) ?? []
        if (records.length > 0) recordsAdded += yield* store.appendRecords(options.runId, records)
        const links = page.links
          .map((link) => link.url)
          .filter((url) => options.followPattern === undefined || options.followPattern.test(url))
        if (links.length > 0 && entry.depth + 1 <= maxDepth) {
          const submitted = yield* submitUrls(options.frontier, links, {
            depth: entry.depth + 1,
            parent: response.url,
            maxDepth,
            sameOrigin: options.sameOrigin ?? true,
          })
          linksAdded += submitted.added
        }
        pagesLoaded++
        yield* store.frontierComplete(options.frontier, entry.url, true)
      })

    const worker = Effect.gen(function* () {
      while (started < maxPages) {
        const claimed = yield* store.frontierClaim(options.frontier, 1)
        const entry = claimed[0]
        if (entry === undefined) {
          // Other workers' pages may still add links; stop only when nothing is pending or in flight.
          if (inFlight === 0) return
          yield* Effect.sleep(idlePollMs)
          continue
        }
        started++
        inFlight++
        yield* visit(entry).pipe(
          Effect.ensuring(
            Effect.sync(() => {
              inFlight--
            }),
          ),
        )
      }
    })

    yield* Effect.forEach(
      Array.from({ length: concurrency }, (_, index) => index),
      () => worker,
      { concurrency, discard: true },
    )
    const frontier: FrontierStats = yield* store.frontierStats(options.frontier)
    return { released, pagesLoaded, pagesFailed, linksAdded, recordsAdded, frontier }
  }).pipe(Effect.withSpan("crawl", { attributes: { frontier: options.frontier } }))

const isSelector = (selector: string): boolean => {
  try {
    parseDocument("<p></p>").querySelector(selector)
    return true
  } catch {
    return false
  }
}
const Selector = z.string().min(1).refine(isSelector, "must be a valid CSS selector")

/**
 * A field to read from each extracted item: a CSS selector for its text, or a selector with an
 * attribute to read instead, and/or a pattern the text must fit (the first match that fits wins).
 */
export const FieldSpec = z.union([
  Selector,
  z.object({
    selector: Selector,
    attribute: z.string().min(1).optional(),
    pattern: Pattern.optional(),
  }),
])
export type FieldSpec = z.output<typeof FieldSpec>

/** A declarative extraction a model can write: items by selector, fields by selector. */
export const ItemExtraction = z.object({
  /** Only pages whose URL matches this pattern are extracted. */
  urlPattern: Pattern.optional(),
  itemSelector: Selector,
  fields: z.record(z.string(), FieldSpec),
  /** The field whose value keys the record (one record per key); default: page URL and item position. */
  key: z.string().min(1).optional(),
})
export type ItemExtraction = z.output<typeof ItemExtraction>

/**
 * Turns an {@link ItemExtraction} into an `extract` function for {@link crawl}. A field selector that
 * matches the item itself reads the item. Throws a `SyntaxError` for an invalid selector or pattern.
 *
 * @example
 * ```ts
 * import { extractItems } from "@sextant/tools"
 * const extract = extractItems({ itemSelector: "[data-product-id]", fields: { name: "h2" }, key: "name" })
 * ```
 */
export const extractItems = (
  extraction: ItemExtraction,
): ((page: CrawledPage) => ReadonlyArray<StoredRecord>) => {
  const urlPattern = extraction.urlPattern === undefined ? undefined : new RegExp(extraction.urlPattern)
  const fields = Object.entries(extraction.fields).map(([name, spec]) => {
    const full = typeof spec === "string" ? { selector: spec } : spec
    return [
      name,
      {
        selector: full.selector,
        attribute: "attribute" in full ? full.attribute : undefined,
        pattern: "pattern" in full && full.pattern !== undefined ? new RegExp(full.pattern) : undefined,
      },
    ] as const
  })
  return ({ page, html }) => {
    if (urlPattern !== undefined && !urlPattern.test(page.url)) return []
    return selectAll(parseDocument(html), extraction.itemSelector).map((item, index) => {
      const data: Record<string, string | null> = {}
      for (const [name, spec] of fields) {
        const candidates = selectAll(item, spec.selector)
        const element =
          spec.pattern === undefined
            ? candidates[0]
            : candidates.find((candidate) => spec.pattern!.test(textOf(candidate)))
        data[name] =
          element === undefined
            ? null
            : spec.attribute === undefined
              ? textOf(element)
              : element.getAttribute(spec.attribute)
      }
      const keyValue = extraction.key === undefined ? undefined : data[extraction.key]
      return { key: keyValue ?? `${page.url}#${index}`, source: page.url, data }
    })
  }
}

const frontierName = z
  .string()
  .min(1)
  .max(200)
  .describe("Name of the persistent frontier (one per crawl job)")

/**
 * The `submitUrls` tool: queue URLs in a persistent crawl frontier.
 *
 * @example
 * ```ts
 * import { submitUrlsTool } from "@sextant/tools"
 * submitUrlsTool.name // "submitUrls"
 * ```
 */
export const submitUrlsTool = defineTool({
  name: "submitUrls",
  group: "session",
  description:
    "Queue absolute http(s) URLs in a persistent crawl frontier for a later crawl. Each URL is kept once per frontier; URLs deeper than maxDepth are skipped. Returns how many were new and which were skipped and why.",
  input: z.object({
    frontier: frontierName,
    urls: z.array(z.string().min(1)).min(1).max(1_000),
    depth: z.number().int().nonnegative().optional().describe("Depth of these URLs; 0 for start pages"),
    maxDepth: z.number().int().nonnegative().optional(),
  }),
  output: z.object({
    added: z.number().int().nonnegative(),
    skipped: z.array(z.object({ url: z.string(), why: z.string() })),
  }),
  effects: { reads: true, idempotent: true },
  run: ({ frontier, urls, depth, maxDepth }) =>
    submitUrls(frontier, urls, {
      ...(depth === undefined ? {} : { depth }),
      ...(maxDepth === undefined ? {} : { maxDepth }),
    }),
})

/**
 * The `crawl` tool: drain a frontier over HTTP, storing the items it extracts.
 *
 * @example
 * ```ts
 * import { crawlTool } from "@sextant/tools"
 * crawlTool.name // "crawl"
 * ```
 */
export const crawlTool = defineTool({
  name: "crawl",
  group: "session",
  description: [
    "Crawl pages over HTTP without a browser, from startUrls and the frontier's pending URLs, following same-origin links that match followPattern (a regular expression on the absolute URL) up to maxDepth.",
    "On pages matching extract.urlPattern it stores one record per element matching extract.itemSelector, with fields read by CSS selector (its text, or an attribute; with a pattern, the first match whose text fits it), keyed by extract.key so each item is stored once.",
    "Resumable: calling it again after an interruption finishes the remaining pages.",
  ].join(" "),
  input: z.object({
    frontier: frontierName,
    runId: z.string().min(1).max(200).describe("Run whose records the items become"),
    startUrls: z
      .array(z.url({ protocol: /^https?$/ }))
      .max(100)
      .optional(),
    followPattern: Pattern.optional(),
    maxDepth: z.number().int().nonnegative().max(10).optional(),
    maxPages: z.number().int().positive().max(10_000).optional(),
    concurrency: z.number().int().positive().max(16).optional(),
    extract: ItemExtraction.optional(),
  }),
  output: CrawlSummary,
  effects: { reads: true, idempotent: true },
  run: (input) =>
    crawl({
      frontier: input.frontier,
      runId: input.runId,
      ...(input.startUrls === undefined ? {} : { startUrls: input.startUrls }),
      ...(input.followPattern === undefined ? {} : { followPattern: new RegExp(input.followPattern) }),
      ...(input.maxDepth === undefined ? {} : { maxDepth: input.maxDepth }),
      ...(input.maxPages === undefined ? {} : { maxPages: input.maxPages }),
      ...(input.concurrency === undefined ? {} : { concurrency: input.concurrency }),
      ...(input.extract === undefined ? {} : { extract: extractItems(input.extract) }),
    }),
})

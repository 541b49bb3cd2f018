import { isProbablyReaderable, Readability } from "@mozilla/readability"
import { defineTool, HttpError, type HttpResponse, HttpSession, UnsupportedContent } from "@sextant/core"
import { Effect } from "effect"
import { z } from "zod"
import {
  absoluteHttpUrl,
  blockText,
  type DomDocument,
  type DomElement,
  normalizeSpace,
  parseDocument,
  textOf,
} from "./internal/Dom.ts"

/** Limits on what {@link parsePage} returns, so a huge page cannot flood a prompt. */
export const ParseOptions = z.object({
  /** Longest main text, in characters; longer text is cut and ends with `…`. */
  maxTextChars: z.number().int().positive().default(20_000),
  maxLinks: z.number().int().positive().default(500),
  maxLists: z.number().int().positive().default(50),
  maxListItems: z.number().int().positive().default(200),
  maxTables: z.number().int().positive().default(20),
  maxTableRows: z.number().int().positive().default(500),
})
export type ParseOptions = z.input<typeof ParseOptions>

/** One list item: its whole text, the text of each direct child element, and the links inside it. */
export const ListItem = z.object({
  text: z.string(),
  cells: z.array(z.string()),
  links: z.array(z.string()),
})
export type ListItem = z.output<typeof ListItem>

/** A table as rows of cell texts; `headers` is the header row when the table has one. */
export const ParsedTable = z.object({
  caption: z.string().optional(),
  headers: z.array(z.string()),
  rows: z.array(z.array(z.string())),
})
export type ParsedTable = z.output<typeof ParsedTable>

/** What {@link loadAndParse} returns for a page. */
export const ParsedPage = z.object({
  url: z.string(),
  status: z.number().int(),
  fromCache: z.boolean(),
  title: z.string(),
  /** `<meta name|property=… content=…>` pairs, plus `canonical` when the page names one. */
  meta: z.record(z.string(), z.string()),
  headings: z.array(z.string()),
  /** Absolute http(s) links, without fragments, once each, in page order. */
  links: z.array(z.object({ url: z.string(), text: z.string() })),
  /**
   * The main text, one line per block: Mozilla Readability's article where the page reads like one
   * (its `isProbablyReaderable`), else the `main` landmark (or the body).
   */
  mainText: z.string(),
  /** Lists outside navigation (`ul`, `ol`), each item as a row of cells. */
  lists: z.array(z.object({ items: z.array(ListItem) })),
  tables: z.array(ParsedTable),
})
export type ParsedPage = z.output<typeof ParsedPage>

const isHtml = (contentType: string): boolean => /text\/html|application\/xhtml\+xml/i.test(contentType)

const cut = (text: string, length: number): string =>
  text.length > length ? `${text.slice(0, length - 1)}…` : text

const baseUrlOf = (document: DomDocument, url: string): string => {
  const href = document.querySelector("base[href]")?.getAttribute("href")
  return (href && absoluteHttpUrl(href, url)) || url
}

const linksIn = (root: DomElement, base: string): Array<string> => {
  const urls = new Set<string>()
  for (const anchor of Array.from(root.querySelectorAll("a[href]"))) {
    const url = absoluteHttpUrl(anchor.getAttribute("href") ?? "", base)
    if (url !== undefined) urls.add(url)
  }
  return [...urls]
}

const readMeta = (document: DomDocument, base: string): Record<string, string> => {
  const meta: Record<string, string> = {}
  for (const element of Array.from(document.querySelectorAll("meta[content]"))) {
    const name = element.getAttribute("name") ?? element.getAttribute("property")
    if (name) meta[name.toLowerCase()] = element.getAttribute("content") ?? ""
  }
  const canonical = document.querySelector('link[rel="canonical"][href]')?.getAttribute("href")
  const absolute = canonical ? absoluteHttpUrl(canonical, base) : undefined
  if (absolute !== undefined) meta.canonical = absolute
  return meta
}

const readLists = (document: DomDocument, base: string, limits: z.output<typeof ParseOptions>) =>
  Array.from(document.querySelectorAll("ul, ol"))
    // Navigation lists are menus and pagers: their links are already in `links`.
    .filter((list) => list.closest("nav") === null)
    .map((list) => ({
      items: Array.from(list.children)
        .filter((child) => child.tagName === "LI")
        .slice(0, limits.maxListItems)
        .map((item): ListItem => {
          const children = Array.from(item.children)
            .map(textOf)
            .filter((text) => text !== "")
          const text = textOf(item)
          return { text, cells: children.length > 0 ? children : [text], links: linksIn(item, base) }
        }),
    }))
    .filter((list) => list.items.length > 0)
    .slice(0, limits.maxLists)

const readTables = (document: DomDocument, limits: z.output<typeof ParseOptions>): Array<ParsedTable> =>
  Array.from(document.querySelectorAll("table"))
    .slice(0, limits.maxTables)
    .map((table) => {
      // Rows of nested tables belong to those tables, not this one.
      const rows = Array.from(table.querySelectorAll("tr")).filter((row) => row.closest("table") === table)
      const cellsOf = (row: DomElement) =>
        Array.from(row.children)
          .filter((cell) => cell.tagName === "TD" || cell.tagName === "TH")
          .map(textOf)
      const first = rows[0]
      const headerRow =
        first !== undefined &&
        (first.closest("thead") !== null ||
          (first.children.length > 1 && Array.from(first.children).every((cell) => cell.tagName === "TH")))
      const caption = table.querySelector("caption")
      const parsed: ParsedTable = {
        headers: headerRow && first !== undefined ? cellsOf(first) : [],
        rows: (headerRow ? rows.slice(1) : rows).slice(0, limits.maxTableRows).map(cellsOf),
      }
      return caption === null ? parsed : { caption: textOf(caption), ...parsed }
    })

const readMainText = (html: string, document: DomDocument): string => {
  // Readability is made for articles; on a short page (a product, a form) it may pick the footer, so it
  // runs only where its own check says the page reads like one, and the main landmark is used otherwise.
  if (isProbablyReaderable(document)) {
    // Readability rewrites the document it reads, so it gets its own copy.
    const article = new Readability(parseDocument(html)).parse()
    if (article?.content) {
      const text = blockText(
        parseDocument(`<!doctype html><html><body>${article.content}</body></html>`).body,
      )
      if (text !== "") return text
    }
  }
  const main = document.querySelector("main, [role=main]") ?? document.body
  return main ? blockText(main) : ""
}

/**
 * Parses an HTML page with linkedom: title, meta, headings, absolute links, the main text found by
 * Mozilla Readability, and lists and tables as rows. Pure; {@link loadAndParse} fetches and calls it.
 *
 * @example
 * ```ts
 * import { parsePage } from "@sextant/tools"
 * const page = parsePage("<title>Shop</title><ul><li><h2>Brass Sextant</h2><p>$12.99</p></li></ul>", "http://127.0.0.1/")
 * page.lists[0]?.items[0]?.cells // ["Brass Sextant", "$12.99"]
 * ```
 */
export const parsePage = (
  html: string,
  url: string,
  options: ParseOptions = {},
  response?: Pick<HttpResponse, "status" | "fromCache">,
): ParsedPage => {
  const limits = ParseOptions.parse(options)
  const document = parseDocument(html)
  const base = baseUrlOf(document, url)
  const links = new Map<string, string>()
  for (const anchor of Array.from(document.querySelectorAll("a[href]"))) {
    const target = absoluteHttpUrl(anchor.getAttribute("href") ?? "", base)
    if (target !== undefined && !links.has(target)) links.set(target, textOf(anchor))
    if (links.size >= limits.maxLinks) break
  }
  return {
    url,
    status: response?.status ?? 200,
    fromCache: response?.fromCache ?? false,
    title: normalizeSpace(document.querySelector("title")?.textContent ?? ""),
    meta: readMeta(document, base),
    headings: Array.from(document.querySelectorAll("h1, h2, h3"))
      .map(textOf)
      .filter((text) => text !== ""),
    links: [...links].map(([target, text]) => ({ url: target, text })),
    mainText: cut(readMainText(html, document), limits.maxTextChars),
    lists: readLists(document, base, limits),
    tables: readTables(document, limits),
  }
}

/**
 * Fetches a page through the `HttpSession` and fails with `UnsupportedContent` unless it is HTML.
 *
 * @example
 * ```ts
 * import { loadHtml } from "@sextant/tools"
 * const response = loadHtml("http://127.0.0.1:4000/products")
 * ```
 */
export const loadHtml = Effect.fn("loadHtml")(function* (url: string) {
  const session = yield* HttpSession
  const response = yield* session.fetch({ url })
  if (!isHtml(response.contentType)) {
    return yield* new HttpError({
      method: "loadAndParse",
      reason: new UnsupportedContent({
        url: response.url,
        contentType: response.contentType,
        expected: "HTML",
      }),
    })
  }
  return response
})

/**
 * Fetches a page through the `HttpSession` and parses it with {@link parsePage}. Fails with
 * `HttpError` (`UnsupportedContent` for a page that is not HTML, and the session's own reasons).
 *
 * @example
 * ```ts
 * import { Effect } from "effect"
 * import { FetchHttpSession, loadAndParse } from "@sextant/tools"
 * const page = loadAndParse("http://127.0.0.1:4000/products").pipe(Effect.provide(FetchHttpSession.layer()))
 * ```
 */
export const loadAndParse = Effect.fn("loadAndParse")(function* (url: string, options: ParseOptions = {}) {
  const response = yield* loadHtml(url)
  return parsePage(response.body, response.url, options, response)
})

/**
 * The `loadAndParse` tool: reads a page over HTTP, without a browser.
 *
 * @example
 * ```ts
 * import { ToolRegistry } from "@sextant/core"
 * import { loadAndParseTool } from "@sextant/tools"
 * const registry = ToolRegistry.make([loadAndParseTool])
 * ```
 */
export const loadAndParseTool = defineTool({
  name: "loadAndParse",
  group: "session",
  description:
    "Fetch a page over HTTP without a browser (no JavaScript runs) and return its title, meta tags, headings, absolute links, readable main text, and its lists and tables as rows of cell texts. Use it for server-rendered pages; use the browser tools when a page needs scripts.",
  input: z.object({
    url: z.url({ protocol: /^https?$/ }).describe("Absolute http(s) URL of the page"),
    maxTextChars: z
      .number()
      .int()
      .positive()
      .max(100_000)
      .optional()
      .describe("Cut the main text at this length"),
  }),
  output: ParsedPage,
  effects: { reads: true, idempotent: true },
  run: ({ url, maxTextChars }) => loadAndParse(url, maxTextChars === undefined ? {} : { maxTextChars }),
})

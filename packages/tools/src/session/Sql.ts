import { defineTool, type HttpError, type HttpSession, readWebUrl } from "@sextant/core"
import alasql from "alasql"
import { Data, Effect } from "effect"
import { z } from "zod"
import { type DomElement, parseDocument, parseFragment, selectAll, textOf } from "./internal/Dom.ts"
import { loadHtml } from "./LoadAndParse.ts"

/** The query does not parse. */
export class SqlSyntax extends Data.TaggedClass("SqlSyntax")<{ readonly detail: string }> {
  readonly isRetryable = false
  get message(): string {
    return `the query does not parse: ${this.detail}`
  }
}

/** The query parses but does something the `sql` tool does not allow (only one SELECT may run). */
export class SqlNotAllowed extends Data.TaggedClass("SqlNotAllowed")<{ readonly detail: string }> {
  readonly isRetryable = false
  get message(): string {
    return `the query is not allowed: ${this.detail}`
  }
}

/** The query failed while it ran (a bad selector, an unknown column). */
export class SqlFailed extends Data.TaggedClass("SqlFailed")<{ readonly detail: string }> {
  readonly isRetryable = false
  get message(): string {
    return `the query failed: ${this.detail}`
  }
}

export type SqlErrorReason = SqlSyntax | SqlNotAllowed | SqlFailed

/** The error of {@link sql} (page loads fail with the session's `HttpError`). */
export class SqlError extends Data.TaggedError("SqlError")<{
  readonly query: string
  readonly reason: SqlErrorReason
  readonly cause?: unknown
}> {
  get isRetryable(): boolean {
    return this.reason.isRetryable
  }
  override get message(): string {
    return `sql: ${this.reason.message}`
  }
}

/** Options of {@link sql}. */
export const SqlOptions = z.object({
  /** Most rows returned; the rest are dropped and `truncated` is true. */
  maxRows: z.number().int().positive().default(1_000),
  /** Pages fetched at once before the query runs. */
  loadConcurrency: z.number().int().positive().default(4),
})
export type SqlOptions = z.input<typeof SqlOptions>

/** What {@link sql} returns. */
export const SqlResult = z.object({
  columns: z.array(z.string()),
  rows: z.array(z.record(z.string(), z.unknown())),
  rowCount: z.number().int().nonnegative(),
  truncated: z.boolean(),
  /** The pages the query loaded, in the order they were named. */
  pages: z.array(z.string()),
})
export type SqlResult = z.output<typeof SqlResult>

/** One row of `load_and_select(url, selector)`. */
export interface SelectedRow {
  readonly url: string
  readonly index: number
  readonly html: string
  readonly text: string
}

const ROW_SOURCE = "LOAD_AND_SELECT"

// Everything a running query reads. alasql runs synchronously, so one query owns it at a time.
interface Execution {
  readonly rows: ReadonlyMap<string, ReadonlyArray<SelectedRow>>
  readonly fragments: Map<string, DomElement | undefined>
}
let execution: Execution | undefined

const sourceKey = (url: string, selector: string): string => `${url}\u0000${selector}`

const fragmentOf = (html: unknown): DomElement | undefined => {
  if (typeof html !== "string" || html === "") return undefined
  const cache = execution?.fragments
  if (cache?.has(html)) return cache.get(html)
  const element = parseFragment(html)
  cache?.set(html, element)
  return element
}

const firstMatch = (html: unknown, selector: unknown): DomElement | undefined => {
  const root = fragmentOf(html)
  if (root === undefined) return undefined
  if (selector === undefined || selector === null || selector === "") return root
  return selectAll(root, String(selector))[0]
}

const domText = (html: unknown, selector?: unknown): string | null => {
  const element = firstMatch(html, selector)
  return element === undefined ? null : textOf(element)
}

const domAttr = (html: unknown, selector: unknown, attribute: unknown): string | null =>
  firstMatch(html, selector)?.getAttribute(String(attribute)) ?? null

const patterns = new Map<string, RegExp>()
const patternOf = (source: unknown): RegExp => {
  const text = String(source)
  let pattern = patterns.get(text)
  if (pattern === undefined) {
    pattern = new RegExp(text)
    if (patterns.size > 256) patterns.clear()
    patterns.set(text, pattern)
  }
  return pattern
}

const domMatch = (html: unknown, selector: unknown, pattern: unknown): string | null => {
  const root = fragmentOf(html)
  if (root === undefined) return null
  const expression = patternOf(pattern)
  for (const element of selectAll(root, String(selector))) {
    const text = textOf(element)
    if (expression.test(text)) return text
  }
  return null
}

const domAllText = (html: unknown, selector: unknown): Array<string> => {
  const root = fragmentOf(html)
  return root === undefined ? [] : selectAll(root, String(selector)).map(textOf)
}

const registerFunctions = (): void => {
  for (const [name, body] of [
    ["dom_text", domText],
    ["dom_attr", domAttr],
    ["dom_all_text", domAllText],
    ["dom_match", domMatch],
  ] as const) {
    alasql.fn[name] = body
    alasql.fn[name.toUpperCase()] = body
  }
  // alasql calls a FROM function with its arguments, then a callback, an index and the query.
  alasql.from[ROW_SOURCE] = (
    url: unknown,
    selector: unknown,
    callback?: unknown,
    index?: unknown,
    query?: unknown,
  ) => {
    const rows = execution?.rows.get(sourceKey(String(url), String(selector)))
    if (rows === undefined)
      throw new Error(`load_and_select(${url}, ${selector}) was not loaded before the query ran`)
    const copy = rows.map((row) => ({ ...row }))
    return typeof callback === "function" ? callback(copy, index, query) : copy
  }
}
registerFunctions()

interface RowSource {
  readonly url: string
  readonly selector: string
}

const yy = alasql.yy as Record<string, new (...args: Array<never>) => unknown>

/**
 * Checks the parsed query and lists the `load_and_select` calls it makes. The engine's own parser
 * built the tree; this only walks it.
 */
const inspect = (query: string, tree: unknown): Array<RowSource> | SqlErrorReason => {
  const statements = ((tree as { statements?: Array<unknown> }).statements ?? []).filter(
    (statement) => statement !== undefined && statement !== null && statement !== "",
  )
  if (statements.length !== 1 || !(statements[0] instanceof yy.Select!)) {
    return new SqlNotAllowed({ detail: "run exactly one SELECT statement" })
  }
  const sources: Array<RowSource> = []
  const fromFunctions = new Set(Object.keys(alasql.from).map((name) => name.toUpperCase()))
  const seen = new Set<unknown>()
  let problem: SqlErrorReason | undefined
  const visit = (node: unknown): void => {
    if (problem !== undefined || node === null || typeof node !== "object" || seen.has(node)) return
    seen.add(node)
    if (yy.JavaScript !== undefined && node instanceof yy.JavaScript) {
      problem = new SqlNotAllowed({ detail: "JavaScript expressions (``…``) are not allowed" })
      return
    }
    const record = node as Record<string, unknown>
    if (record.into !== undefined && record.into !== null) {
      problem = new SqlNotAllowed({ detail: "SELECT … INTO is not allowed: the tool only reads" })
      return
    }
    if (typeof record.funcid === "string") {
      const name = record.funcid.toUpperCase()
      if (name === ROW_SOURCE) {
        const args = (record.args ?? []) as Array<unknown>
        const values = args.map((arg) =>
          yy.StringValue !== undefined && arg instanceof yy.StringValue
            ? (arg as { value: string }).value
            : undefined,
        )
        if (values.length !== 2 || values.some((value) => value === undefined)) {
          problem = new SqlNotAllowed({
            detail: "load_and_select takes two string literals: load_and_select('http://…', '.css-selector')",
          })
          return
        }
        sources.push({ url: values[0]!, selector: values[1]! })
      } else if (fromFunctions.has(name)) {
        problem = new SqlNotAllowed({
          detail: `${record.funcid}(…) is not available; read pages with load_and_select`,
        })
        return
      }
    }
    for (const value of Object.values(record)) visit(value)
  }
  visit(statements[0])
  if (problem !== undefined) return problem
  if (query.trim() === "") return new SqlSyntax({ detail: "the query is empty" })
  return sources
}

const describe = (cause: unknown): string => (cause instanceof Error ? cause.message : String(cause))

const selectRows = (url: string, html: string, selector: string): Array<SelectedRow> =>
  selectAll(parseDocument(html), selector).map((element, index) => ({
    url,
    index,
    html: element.outerHTML,
    text: textOf(element),
  }))

const jsonSafe = (value: unknown): unknown => {
  if (value === undefined || (typeof value === "number" && !Number.isFinite(value))) return null
  if (Array.isArray(value)) return value.map(jsonSafe)
  if (value instanceof Date) return value.toISOString()
  return value
}

/**
 * Runs one SQL SELECT over pages loaded through the `HttpSession`, in the alasql engine. The row source
 * `load_and_select(url, selector)` gives one row per element matching a CSS selector, with columns
 * `url`, `index`, `html` (the element's outerHTML) and `text`; the scalar functions
 * `dom_text(html, selector)`, `dom_attr(html, selector, attribute)`, `dom_all_text(html, selector)` and
 * `dom_match(html, selector, pattern)` (the text of the first match whose text fits a regular expression)
 * read inside such an element (a selector that matches the element itself matches it too).
 *
 * alasql runs queries synchronously, so the query is parsed first with alasql's own parser, the
 * `load_and_select` calls are read from its syntax tree and their pages fetched, and only then does
 * the query run. Their arguments must be string literals.
 *
 * @example
 * ```ts
 * import { Effect } from "effect"
 * import { FetchHttpSession, sql } from "@sextant/tools"
 * const products = sql(`
 *   SELECT dom_text(html, 'h2') AS name, dom_text(html, '.price') AS price
 *   FROM load_and_select('http://127.0.0.1:4000/products?page=1', '.product-card')
 * `).pipe(Effect.provide(FetchHttpSession.layer()))
 * ```
 */
export const sql = (
  query: string,
  options: SqlOptions = {},
): Effect.Effect<SqlResult, SqlError | HttpError, HttpSession> =>
  Effect.gen(function* () {
    const settings = SqlOptions.parse(options)
    const fail = (reason: SqlErrorReason, cause?: unknown) =>
      Effect.fail(new SqlError({ query, reason, cause }))
    let tree: unknown
    try {
      tree = alasql.parse(query)
    } catch (cause) {
      return yield* fail(new SqlSyntax({ detail: describe(cause) }), cause)
    }
    const sources = inspect(query, tree)
    if (!Array.isArray(sources)) return yield* fail(sources)
    for (const source of sources) {
      const reading = readWebUrl(source.url)
      if (!reading.ok) return yield* fail(new SqlNotAllowed({ detail: `load_and_select: ${reading.detail}` }))
    }

    const urls = [...new Set(sources.map((source) => source.url))]
    const pages = yield* Effect.forEach(
      urls,
      (url) => Effect.map(loadHtml(url), (response) => [url, response.body] as const),
      {
        concurrency: settings.loadConcurrency,
      },
    )
    const bodies = new Map(pages)
    const rows = new Map<string, ReadonlyArray<SelectedRow>>()
    for (const source of sources) {
      const key = sourceKey(source.url, source.selector)
      if (rows.has(key)) continue
      try {
        rows.set(key, selectRows(source.url, bodies.get(source.url) ?? "", source.selector))
      } catch (cause) {
        return yield* fail(
          new SqlFailed({
            detail: `${JSON.stringify(source.selector)} is not a valid CSS selector (${describe(cause)})`,
          }),
          cause,
        )
      }
    }

    let result: unknown
    execution = { rows, fragments: new Map() }
    try {
      result = alasql(query)
    } catch (cause) {
      return yield* fail(new SqlFailed({ detail: describe(cause) }), cause)
    } finally {
      execution = undefined
    }
    const all = Array.isArray(result) ? (result as Array<Record<string, unknown>>) : []
    const kept = all
      .slice(0, settings.maxRows)
      .map((row) =>
        Object.fromEntries(Object.entries(row).map(([column, value]) => [column, jsonSafe(value)])),
      )
    const columns = [...new Set(kept.flatMap((row) => Object.keys(row)))]
    return { columns, rows: kept, rowCount: all.length, truncated: all.length > kept.length, pages: urls }
  }).pipe(Effect.withSpan("sql"))

/**
 * The `sql` tool: SQL over pages loaded without a browser.
 *
 * @example
 * ```ts
 * import { ToolRegistry } from "@sextant/core"
 * import { sqlTool } from "@sextant/tools"
 * const registry = ToolRegistry.make([sqlTool])
 * ```
 */
export const sqlTool = defineTool({
  name: "sql",
  description: [
    "Run one SQL SELECT (alasql dialect) over web pages fetched without a browser.",
    "Row source: load_and_select('<absolute url>', '<css selector>') gives one row per matching element with columns url, index, html, text.",
    "Functions on an element's html: dom_text(html, selector), dom_attr(html, selector, attribute), dom_all_text(html, selector) (an array), dom_match(html, selector, regex) (text of the first match whose text fits the regular expression, e.g. dom_match(html, 'p', '^\\$') for a price).",
    "Example: SELECT dom_text(html, 'h2') AS name, dom_attr(html, 'a', 'href') AS link FROM load_and_select('http://host/products', 'li.card').",
    "Combine pages with UNION ALL. Arguments of load_and_select must be string literals.",
  ].join(" "),
  input: z.object({
    query: z.string().min(1).max(20_000).describe("One SELECT statement"),
    maxRows: z
      .number()
      .int()
      .positive()
      .max(10_000)
      .optional()
      .describe("Most rows to return (default 1000)"),
  }),
  output: SqlResult,
  effects: { reads: true, idempotent: true },
  run: ({ query, maxRows }) => sql(query, maxRows === undefined ? {} : { maxRows }),
})

import { Worker } from "node:worker_threads"
import {
  causeMessage,
  defineTool,
  type HttpError,
  type HttpSession,
  readWebUrl,
  SqlError,
  type SqlErrorReason,
  SqlFailed,
  SqlNotAllowed,
  SqlSyntax,
} from "@sextant/core"
import { Effect } from "effect"
import { parse } from "sql-parser-cst"
import { z } from "zod"
import { parseDocument, selectAll, textOf } from "./internal/Dom.ts"
import type { SqlWorkerInput, SqlWorkerOutput, SqlWorkerTable } from "./internal/SqlWorker.ts"
import { loadHtml } from "./LoadAndParse.ts"

// The sql tool's errors live in @sextant/core (errors/Tool.ts) with the rest of the union.
export { SqlError, type SqlErrorReason, SqlFailed, SqlNotAllowed, SqlSyntax }

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

const ROW_SOURCE = "load_and_select"
// SQLite's own table-valued functions that only compute (no file, no schema): they read what
// dom_all_text returns.
const BUILT_IN_ROW_SOURCES = new Set(["json_each", "json_tree"])

interface RowSource {
  readonly url: string
  readonly selector: string
  readonly range: readonly [number, number]
}

interface Inspected {
  readonly sources: ReadonlyArray<RowSource>
  readonly arrayColumns: ReadonlyArray<string>
}

type Node = { readonly type?: string; readonly range?: [number, number] } & Record<string, unknown>

const isNode = (value: unknown): value is Node => value !== null && typeof value === "object"

const functionName = (node: Node): string | undefined =>
  node.type === "func_call" && isNode(node.name)
    ? String(node.name.name ?? node.name.text).toLowerCase()
    : undefined

const argumentsOf = (node: Node): Array<Node> => {
  const parens = node.args
  if (!isNode(parens) || !isNode(parens.expr) || !isNode(parens.expr.args)) return []
  return ((parens.expr.args as Node).items as Array<Node> | undefined) ?? []
}

// The first SELECT of a compound one names the result columns.
const firstSelect = (statement: Node): Node | undefined => {
  if (statement.type === "compound_select_stmt" && isNode(statement.left)) return firstSelect(statement.left)
  if (statement.type === "select_stmt") return statement
  if (statement.type === "paren_expr" && isNode(statement.expr)) return firstSelect(statement.expr)
  return undefined
}

// A result column that is a bare dom_all_text(...) comes back as an array, as it did before SQLite.
const arrayColumnsOf = (query: string, statement: Node): Array<string> => {
  const select = firstSelect(statement)
  const clause = (select?.clauses as Array<Node> | undefined)?.find((item) => item.type === "select_clause")
  const items = isNode(clause?.columns) ? ((clause.columns.items as Array<Node> | undefined) ?? []) : []
  const names: Array<string> = []
  for (const item of items) {
    const expression = item.type === "alias" && isNode(item.expr) ? item.expr : item
    if (functionName(expression) !== "dom_all_text") continue
    if (item.type === "alias" && isNode(item.alias)) names.push(String(item.alias.name))
    else if (item.range !== undefined) names.push(query.slice(item.range[0], item.range[1]))
  }
  return names
}

/**
 * Checks the parsed query and lists the `load_and_select` calls it makes. A real SQL parser
 * (sql-parser-cst, SQLite dialect) built the tree; this only walks it.
 */
const inspect = (query: string, program: Node): Inspected | SqlErrorReason => {
  const statements = ((program.statements as Array<Node> | undefined) ?? []).filter(
    (statement) => statement.type !== "empty",
  )
  if (statements.length === 0) return new SqlSyntax({ detail: "the query is empty" })
  const statement = statements[0]!
  if (
    statements.length !== 1 ||
    (statement.type !== "select_stmt" && statement.type !== "compound_select_stmt")
  ) {
    return new SqlNotAllowed({ detail: "run exactly one SELECT statement" })
  }
  const sources: Array<RowSource> = []
  let problem: SqlErrorReason | undefined
  const loadAndSelect = (node: Node): void => {
    const values = argumentsOf(node).map((arg) =>
      arg.type === "string_literal" ? String(arg.value) : undefined,
    )
    if (values.length !== 2 || values.some((value) => value === undefined) || node.range === undefined) {
      problem = new SqlNotAllowed({
        detail: "load_and_select takes two string literals: load_and_select('http://…', '.css-selector')",
      })
      return
    }
    sources.push({ url: values[0]!, selector: values[1]!, range: node.range })
  }
  // What a FROM clause names: tables, joins, aliases and table-valued function calls.
  const visitTable = (node: unknown): void => {
    if (problem !== undefined || !isNode(node)) return
    if (node.type === "join_expr") {
      visitTable(node.left)
      visitTable(node.right)
      visit(node.specification)
    } else if (node.type === "alias" || node.type === "paren_expr") {
      visitTable(node.expr)
    } else if (node.type === "func_call") {
      const name = functionName(node)
      if (name === ROW_SOURCE) loadAndSelect(node)
      else if (name === undefined || !BUILT_IN_ROW_SOURCES.has(name)) {
        problem = new SqlNotAllowed({
          detail: `${name ?? "this"}(…) is not available as a row source; read pages with load_and_select`,
        })
      } else visit(node.args)
    } else visit(node)
  }
  const visit = (node: unknown): void => {
    if (problem !== undefined) return
    if (Array.isArray(node)) {
      for (const item of node) visit(item)
      return
    }
    if (!isNode(node)) return
    if (node.type === "from_clause") visitTable(node.expr)
    else if (functionName(node) === ROW_SOURCE) loadAndSelect(node)
    else for (const [key, value] of Object.entries(node)) if (key !== "range") visit(value)
  }
  visit(statement)
  if (problem !== undefined) return problem
  return { sources, arrayColumns: arrayColumnsOf(query, statement) }
}

const selectRows = (url: string, html: string, selector: string): Array<SelectedRow> =>
  selectAll(parseDocument(html), selector).map((element, index) => ({
    url,
    index,
    html: element.outerHTML,
    text: textOf(element),
  }))

// In a workspace the worker runs from its TypeScript source (Node strips the types); a build ships .js.
const workerUrl = new URL(
  `./internal/SqlWorker${import.meta.url.endsWith(".ts") ? ".ts" : ".js"}`,
  import.meta.url,
)

// Idle workers kept for the next query; a worker that was interrupted is terminated, never reused.
const idleWorkers: Array<Worker> = []
const MAX_IDLE_WORKERS = 2

const startWorker = (): Worker => {
  const worker = new Worker(workerUrl)
  worker.once("exit", () => {
    const at = idleWorkers.indexOf(worker)
    if (at !== -1) idleWorkers.splice(at, 1)
  })
  return worker
}

const runInWorker = (input: SqlWorkerInput, signal: AbortSignal): Promise<SqlWorkerOutput> =>
  new Promise((resolve, reject) => {
    const worker = idleWorkers.pop() ?? startWorker()
    worker.ref()
    const cleanUp = () => {
      signal.removeEventListener("abort", stop)
      worker.off("message", answer)
      worker.off("error", failed)
      worker.off("exit", exited)
    }
    const stop = () => {
      cleanUp()
      void worker.terminate()
      reject(signal.reason ?? new Error("the query was interrupted"))
    }
    const answer = (output: SqlWorkerOutput) => {
      cleanUp()
      // An idle worker must not keep the process alive.
      worker.unref()
      if (idleWorkers.length < MAX_IDLE_WORKERS) idleWorkers.push(worker)
      else void worker.terminate()
      resolve(output)
    }
    const failed = (cause: unknown) => {
      cleanUp()
      void worker.terminate()
      reject(cause)
    }
    const exited = (code: number) => {
      cleanUp()
      reject(new Error(`the SQL worker stopped with exit code ${code} before it answered`))
    }
    if (signal.aborted) return stop()
    signal.addEventListener("abort", stop, { once: true })
    worker.on("message", answer)
    worker.once("error", failed)
    worker.once("exit", exited)
    worker.postMessage(input)
  })

/**
 * Runs one SQL SELECT over pages loaded through the `HttpSession`, on SQLite (`node:sqlite`). The row
 * source `load_and_select(url, selector)` gives one row per element matching a CSS selector, with columns
 * `url`, `index`, `html` (the element's outerHTML) and `text`; the scalar functions
 * `dom_text(html, selector)`, `dom_attr(html, selector, attribute)`, `dom_all_text(html, selector)` and
 * `dom_match(html, selector, pattern)` (the text of the first match whose text fits a regular expression)
 * read inside such an element (a selector that matches the element itself matches it too).
 *
 * SQLite has no user-defined table-valued functions, so the query is parsed first with a SQL parser
 * (sql-parser-cst, SQLite dialect), the `load_and_select` calls are read from its syntax tree and
 * their pages fetched, each call is replaced by a temporary table holding its rows, and only then does
 * the query run — in a worker thread, so a heavy query never blocks the agent and an interruption (a
 * step timeout) stops it. The arguments of `load_and_select` must be string literals.
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
    let program: Node
    try {
      program = parse(query, { dialect: "sqlite", includeRange: true }) as unknown as Node
    } catch (cause) {
      return yield* fail(new SqlSyntax({ detail: causeMessage(cause).split("\n")[0] ?? "" }), cause)
    }
    const inspected = inspect(query, program)
    if (!("sources" in inspected)) return yield* fail(inspected)
    const { sources, arrayColumns } = inspected
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
    const tables = new Map<string, SqlWorkerTable>()
    for (const source of sources) {
      const key = `${source.url}\u0000${source.selector}`
      if (tables.has(key)) continue
      try {
        tables.set(key, {
          name: `sextant_source_${tables.size + 1}`,
          rows: selectRows(source.url, bodies.get(source.url) ?? "", source.selector),
        })
      } catch (cause) {
        return yield* fail(
          new SqlFailed({
            detail: `${JSON.stringify(source.selector)} is not a valid CSS selector (${causeMessage(cause)})`,
          }),
          cause,
        )
      }
    }
    // Replace each call by its table, from the end so earlier ranges stay right.
    let rewritten = query
    for (const source of [...sources].sort((left, right) => right.range[0] - left.range[0])) {
      const table = tables.get(`${source.url}\u0000${source.selector}`)!
      rewritten = `${rewritten.slice(0, source.range[0])}${table.name}${rewritten.slice(source.range[1])}`
    }

    const output = yield* Effect.tryPromise({
      try: (signal) =>
        runInWorker(
          { query: rewritten, tables: [...tables.values()], maxRows: settings.maxRows, arrayColumns },
          signal,
        ),
      catch: (cause) =>
        new SqlError({ query, reason: new SqlFailed({ detail: causeMessage(cause) }), cause }),
    })
    if (!output.ok) {
      return yield* fail(
        output.denied
          ? new SqlNotAllowed({ detail: `only reading is allowed (${output.detail})` })
          : new SqlFailed({ detail: output.detail }),
      )
    }
    return {
      columns: output.columns,
      rows: output.rows,
      rowCount: output.rowCount,
      truncated: output.rowCount > output.rows.length,
      pages: urls,
    }
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
  group: "session",
  description: [
    "Run one SQL SELECT (SQLite dialect) over web pages fetched without a browser.",
    "Row source: load_and_select('<absolute url>', '<css selector>') gives one row per matching element with columns url, index, html, text.",
    "Functions on an element's html: dom_text(html, selector), dom_attr(html, selector, attribute), dom_all_text(html, selector) (a JSON array; read it with json_each), dom_match(html, selector, regex) (text of the first match whose text fits the regular expression, e.g. dom_match(html, 'p', '^\\$') for a price).",
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

// Runs prepared `sql` queries on node:sqlite in a worker thread, one at a time, so a heavy query never
// blocks the agent's event loop and a step timeout can stop it by terminating the worker. The worker
// stays for the next query (loading the HTML parser once), each query on a fresh in-memory database.
import { constants, DatabaseSync, type SQLInputValue } from "node:sqlite"
import { parentPort } from "node:worker_threads"
import { type DomElement, parseFragment, selectAll, textOf } from "./Dom.ts"

/** One temporary table filled before the query runs (one `load_and_select` call). */
export interface SqlWorkerTable {
  readonly name: string
  readonly rows: ReadonlyArray<{ url: string; index: number; html: string; text: string }>
}

/** What the worker is given. */
export interface SqlWorkerInput {
  readonly query: string
  readonly tables: ReadonlyArray<SqlWorkerTable>
  readonly maxRows: number
  /** Result columns whose values are JSON arrays made by `dom_all_text`, returned as arrays. */
  readonly arrayColumns: ReadonlyArray<string>
}

/** What the worker answers. */
export type SqlWorkerOutput =
  | {
      readonly ok: true
      readonly columns: Array<string>
      readonly rows: Array<Record<string, unknown>>
      readonly rowCount: number
    }
  | { readonly ok: false; readonly detail: string; readonly denied: boolean }

// Parsed fragments of the query running now (cleared between queries).
const fragments = new Map<string, DomElement | undefined>()
const fragmentOf = (html: unknown): DomElement | undefined => {
  if (typeof html !== "string" || html === "") return undefined
  if (fragments.has(html)) return fragments.get(html)
  const element = parseFragment(html)
  fragments.set(html, element)
  return element
}

const firstMatch = (html: unknown, selector: unknown): DomElement | undefined => {
  const root = fragmentOf(html)
  if (root === undefined) return undefined
  if (selector === undefined || selector === null || selector === "") return root
  return selectAll(root, String(selector))[0]
}

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

const domText = (html: SQLInputValue, selector?: SQLInputValue): string | null => {
  const element = firstMatch(html, selector)
  return element === undefined ? null : textOf(element)
}

const domAttr = (html: SQLInputValue, selector: SQLInputValue, attribute: SQLInputValue): string | null =>
  firstMatch(html, selector)?.getAttribute(String(attribute)) ?? null

const domMatch = (html: SQLInputValue, selector: SQLInputValue, pattern: SQLInputValue): string | null => {
  const root = fragmentOf(html)
  if (root === undefined) return null
  const expression = patternOf(pattern)
  for (const element of selectAll(root, String(selector))) {
    const text = textOf(element)
    if (expression.test(text)) return text
  }
  return null
}

// SQLite has no array type: the texts come back as a JSON array, which json_each() can read.
const domAllText = (html: SQLInputValue, selector: SQLInputValue): string => {
  const root = fragmentOf(html)
  return JSON.stringify(root === undefined ? [] : selectAll(root, String(selector)).map(textOf))
}

// Only reading is allowed once the source tables are filled: SQLite itself refuses the rest.
const ALLOWED_ACTIONS = new Set([
  constants.SQLITE_SELECT,
  constants.SQLITE_READ,
  constants.SQLITE_FUNCTION,
  constants.SQLITE_RECURSIVE,
])

const outputValue = (value: unknown): unknown => {
  if (typeof value === "bigint") return Number(value)
  if (value instanceof Uint8Array) return Buffer.from(value).toString("base64")
  if (typeof value === "number" && !Number.isFinite(value)) return null
  return value ?? null
}

const describe = (cause: unknown): string => (cause instanceof Error ? cause.message : String(cause))

const run = (input: SqlWorkerInput): SqlWorkerOutput => {
  fragments.clear()
  const database = new DatabaseSync(":memory:")
  let denied = false
  try {
    const deterministic = { deterministic: true, varargs: false } as const
    database.function("dom_text", { ...deterministic, varargs: true }, (...args) =>
      domText(args[0] ?? null, args[1]),
    )
    database.function("dom_attr", deterministic, domAttr)
    database.function("dom_all_text", deterministic, domAllText)
    database.function("dom_match", deterministic, domMatch)
    for (const table of input.tables) {
      database.exec(`CREATE TEMP TABLE ${table.name} (url TEXT, "index" INTEGER, html TEXT, text TEXT)`)
      const insert = database.prepare(`INSERT INTO ${table.name} VALUES (?, ?, ?, ?)`)
      database.exec("BEGIN")
      for (const row of table.rows) insert.run(row.url, row.index, row.html, row.text)
      database.exec("COMMIT")
    }
    database.setAuthorizer((action, first, second) => {
      if (!ALLOWED_ACTIONS.has(action)) {
        denied = true
        return constants.SQLITE_DENY
      }
      if (action === constants.SQLITE_FUNCTION && (second ?? first) === "load_extension") {
        denied = true
        return constants.SQLITE_DENY
      }
      return constants.SQLITE_OK
    })
    const statement = database.prepare(input.query)
    const columns = statement.columns().map((column) => column.name)
    const arrays = new Set(input.arrayColumns)
    const rows: Array<Record<string, unknown>> = []
    let rowCount = 0
    for (const row of statement.iterate() as Iterable<Record<string, unknown>>) {
      rowCount += 1
      if (rows.length >= input.maxRows) continue
      const kept: Record<string, unknown> = {}
      for (const column of columns) {
        const value = row[column]
        kept[column] =
          arrays.has(column) && typeof value === "string"
            ? (JSON.parse(value) as unknown)
            : outputValue(value)
      }
      rows.push(kept)
    }
    return { ok: true, columns, rows, rowCount }
  } catch (cause) {
    return { ok: false, detail: describe(cause), denied }
  } finally {
    database.close()
  }
}

parentPort?.on("message", (input: SqlWorkerInput) => {
  parentPort?.postMessage(run(input))
})

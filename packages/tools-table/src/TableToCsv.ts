import { BrowserDriver, DriverError, defineTool, ElementNotFound } from "@sextant/core"
import { stringify } from "csv-stringify/sync"
import { Effect } from "effect"
import { z } from "zod"

/** The cells of one table, read in the page: one array of texts per row, `colspan` cells repeated. */
const readTable = `
const [selector, nth] = arguments
const tables = [...document.querySelectorAll(selector)]
  .map((element) => (element.tagName === "TABLE" ? element : element.querySelector("table")))
  .filter((table) => table !== null)
const table = tables[nth]
if (table === undefined) return JSON.stringify({ found: tables.length })
const rows = [...table.rows].map((row) =>
  [...row.cells].flatMap((cell) => {
    const text = (cell.innerText ?? cell.textContent ?? "").replace(/\\s+/g, " ").trim()
    return Array.from({ length: Math.max(1, cell.colSpan || 1) }, (_, index) => (index === 0 ? text : ""))
  }),
)
const first = table.rows[0]
const header = first !== undefined && [...first.cells].every((cell) => cell.tagName === "TH")
return JSON.stringify({ found: tables.length, rows, header, caption: table.caption?.innerText?.trim() ?? null })
`

const TableRead = z.object({
  found: z.number().int().nonnegative(),
  rows: z.array(z.array(z.string())).optional(),
  header: z.boolean().optional(),
  caption: z.string().nullable().optional(),
})

/**
 * The `tableToCsv` tool: reads an HTML table on the current page and answers it as CSV (RFC 4180,
 * written by csv-stringify), with the header row when the table's first row is all `<th>` cells.
 *
 * @example
 * ```ts
 * import { createAgent } from "sextant-agent"
 * import { tableToCsvTool } from "@sextant/tools-table"
 * const agent = createAgent({ tools: [tableToCsvTool] })
 * await agent.run({ goal: "use tableToCsv on #spec-table", startUrl: "http://127.0.0.1:4000/products/1" })
 * ```
 */
export const tableToCsvTool = defineTool({
  name: "tableToCsv",
  group: "extraction",
  description:
    "Convert an HTML table on the current page to CSV. target is a CSS selector of the table (or of an element holding one); index picks among several matches (0 = first).",
  input: z.object({
    target: z
      .string()
      .trim()
      .min(1)
      .default("table")
      .describe("CSS selector of the table, e.g. #prices or table"),
    index: z.number().int().nonnegative().default(0).describe("which matching table, 0 for the first"),
  }),
  output: z.object({
    csv: z.string(),
    rows: z.number().int().nonnegative(),
    columns: z.number().int().nonnegative(),
    header: z.array(z.string()).optional(),
    caption: z.string().optional(),
  }),
  effects: { reads: true, idempotent: true },
  run: ({ target, index }) =>
    Effect.gen(function* () {
      const driver = yield* BrowserDriver
      const raw = yield* driver.evaluate(readTable, [target, index])
      const read = TableRead.parse(JSON.parse(String(raw)))
      if (read.rows === undefined) {
        const which = read.found === 0 ? target : `${target} (table ${index}; the page has ${read.found})`
        return yield* new DriverError({
          method: "tableToCsv",
          reason: new ElementNotFound({ target: which }),
        })
      }
      const columns = Math.max(0, ...read.rows.map((row) => row.length))
      const square = read.rows.map((row) => [...row, ...Array<string>(columns - row.length).fill("")])
      return {
        csv: stringify(square),
        rows: read.header === true ? square.length - 1 : square.length,
        columns,
        ...(read.header === true && square[0] !== undefined ? { header: square[0] } : {}),
        ...(read.caption === null || read.caption === undefined || read.caption === ""
          ? {}
          : { caption: read.caption }),
      }
    }),
})

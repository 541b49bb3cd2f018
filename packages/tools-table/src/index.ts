/**
 * @sextant/tools-table — an example Sextant tool package: `tableToCsv` turns an HTML table on the
 * page into CSV. A tool package exports tools made with `defineTool` and nothing else; Sextant loads it
 * by name (`tools: ["@sextant/tools-table"]` in `sextant.config.ts`).
 */
export { tableToCsvTool } from "./TableToCsv.ts"

import { mcpSection, mcpToolListBudget, measureMcpToolList } from "./McpSection.ts"
import { markdownTable } from "./Report.ts"

// `pnpm --filter @sextant/bench run bench:mcp`: the MCP tool-list section alone (no browser, a second).
const results = await measureMcpToolList()
const section = mcpSection(results)
console.log(`## ${section.title}\n\n${section.note}\n\n${markdownTable(section.headers, section.rows)}`)
process.exitCode = results.every((result) => result.tokens <= mcpToolListBudget) ? 0 : 1

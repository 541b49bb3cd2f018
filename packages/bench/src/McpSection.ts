import { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js"
import { createClientServer } from "@sextant/mcp"
import type { TableSection } from "./Report.ts"
import { countTokens } from "./Tokens.ts"

/** The budget of the tool list every MCP client loads into its model's context. */
export const mcpToolListBudget = 600

export interface McpToolListResult {
  readonly variant: string
  readonly tools: number
  readonly tokens: number
}

/**
 * Tokens (o200k) of the `tools/list` answer of the Sextant MCP server, taken through the SDK's own
 * client exactly as a client receives it, with `eval` off (the default) and on. No browser starts:
 * listing tools launches nothing.
 */
export const measureMcpToolList = async (): Promise<ReadonlyArray<McpToolListResult>> => {
  const results: Array<McpToolListResult> = []
  for (const allowEval of [false, true]) {
    const { server, close } = createClientServer({ allowEval })
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair()
    const client = new Client({ name: "sextant-bench", version: "0.0.0" })
    try {
      await server.connect(serverSide)
      await client.connect(clientSide)
      const { tools } = await client.listTools()
      results.push({
        variant: allowEval ? "with --eval" : "default",
        tools: tools.length,
        tokens: countTokens(JSON.stringify({ tools })),
      })
    } finally {
      await client.close()
      await close()
    }
  }
  return results
}

export const mcpSection = (results: ReadonlyArray<McpToolListResult>): TableSection => ({
  title: "MCP tool list: what a client loads into its model's context",
  note: `The \`tools/list\` answer of \`sextant mcp\` as JSON, in o200k tokens; the budget is ${mcpToolListBudget}.`,
  headers: ["server", "tools", "tokens", "within budget"],
  rows: results.map((result) => [
    `Sextant MCP (${result.variant})`,
    String(result.tools),
    String(result.tokens),
    result.tokens <= mcpToolListBudget ? "yes" : "NO",
  ]),
})

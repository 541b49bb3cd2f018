/**
 * @sextant/mcp — a Model Context Protocol server: any MCP client drives a headless Chromium through
 * Sextant's look/act/go/back/wait/eval/screenshot/tabs, or hands a whole goal to `run`, under the
 * executor's guardrails, with one browser per client and a tool list that costs under 600 tokens.
 */
export * from "./Command.ts"
export * from "./HttpOptions.ts"
export type { ClientSession } from "./internal/ClientSession.ts"
export * from "./McpServer.ts"
export * from "./McpTool.ts"
export * from "./ServerOptions.ts"
export * from "./ToolList.ts"

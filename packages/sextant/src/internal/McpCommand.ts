import { mcpUsage, runMcpCommand } from "@sextant/mcp"
import type { Command } from "commander"

/**
 * Adds `sextant mcp`: the Model Context Protocol server of `@sextant/mcp`. Its flags are that
 * package's own (so `sextant mcp` and `sextant-mcp` cannot drift apart); they are handed over as given.
 */
export const registerMcp = (program: Command): void => {
  program
    .command("mcp")
    .description("serve the browser tools to an MCP client over stdio (or Streamable HTTP with --http)")
    .helpOption(false)
    .allowUnknownOption()
    .allowExcessArguments()
    .argument("[flags...]", "see sextant mcp --help")
    .addHelpText("after", `\n${mcpUsage}`)
    .action(async (flags: ReadonlyArray<string>) => {
      process.exitCode = await runMcpCommand(flags)
    })
}

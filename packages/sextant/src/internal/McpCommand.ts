import type { Command } from "commander"

/**
 * Adds `sextant mcp`: the Model Context Protocol server of `@sextant/mcp`. Its flags are that
 * package's own (so `sextant mcp` and `sextant-mcp` cannot drift apart); they are handed over as given.
 * The package is loaded only when the command runs, so other commands start no slower for it.
 */
export const registerMcp = (program: Command): void => {
  program
    .command("mcp")
    .description("serve the browser tools to an MCP client over stdio (or Streamable HTTP with --http)")
    .helpOption(false)
    .allowUnknownOption()
    .allowExcessArguments()
    .argument("[flags...]", "see sextant mcp --help")
    .action(async (flags: ReadonlyArray<string>) => {
      const { runMcpCommand } = await import("@sextant/mcp")
      process.exitCode = await runMcpCommand(flags)
    })
}

import { causeMessage } from "@sextant/core"
import type { Command } from "commander"
import type { CliContext } from "./CliIo.ts"

/**
 * Adds `sextant mcp`: the Model Context Protocol server of `@sextant/mcp`. Its flags are that
 * package's own (so `sextant mcp` and `sextant-mcp` cannot drift apart); they are handed over as given.
 * The package, an optional peer of sextant-agent, is loaded only when the command runs, so other
 * commands start no slower for it; when it is not installed, the command says which package to add.
 */
export const registerMcp = (program: Command, cli: CliContext): void => {
  program
    .command("mcp")
    .description("serve the browser tools to an MCP client over stdio (or Streamable HTTP with --http)")
    .helpOption(false)
    .allowUnknownOption()
    .allowExcessArguments()
    .argument("[flags...]", "see sextant mcp --help")
    .action(async (flags: ReadonlyArray<string>) => {
      let mcp: typeof import("@sextant/mcp")
      try {
        mcp = await import("@sextant/mcp")
      } catch (error) {
        if ((error as { code?: unknown } | null)?.code !== "ERR_MODULE_NOT_FOUND") throw error
        cli.stderr.write(
          `sextant mcp: the MCP server needs the package @sextant/mcp: install it next to sextant-agent (npm install @sextant/mcp) (${causeMessage(error).split("\n")[0]})\n`,
        )
        cli.exitCode = 2
        return
      }
      cli.exitCode = await mcp.runMcpCommand(flags)
    })
}

#!/usr/bin/env node
import { Command, CommanderError } from "commander"
import { registerMcp } from "./internal/McpCommand.ts"
import { registerRepl } from "./internal/Repl.ts"
import { registerReport } from "./internal/ReportCommand.ts"
import { registerRun } from "./internal/RunCommand.ts"

/**
 * The `sextant` command line. Each command lives in its own module under `internal/` and registers
 * itself on the program here.
 */
const program = new Command()
  .name("sextant")
  .description("Sextant: browser agents that are reliable, fast and cheap in tokens.")
  .showHelpAfterError()
  .exitOverride()

registerRepl(program)
registerRun(program)
registerMcp(program)
registerReport(program)

try {
  await program.parseAsync(process.argv)
} catch (error) {
  if (error instanceof CommanderError) {
    process.exitCode = error.exitCode === 0 ? 0 : 2
  } else {
    process.stderr.write(`sextant: ${error instanceof Error ? error.message : String(error)}\n`)
    process.exitCode = 1
  }
}

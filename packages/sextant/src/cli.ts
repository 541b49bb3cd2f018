#!/usr/bin/env node
import { readFileSync } from "node:fs"
import { Command, CommanderError } from "commander"
import { registerExplorerCommands } from "./internal/ExplorerCommands.ts"
import { registerFixtures } from "./internal/FixturesCommand.ts"
import { registerLook } from "./internal/LookCommand.ts"
import { registerMcp } from "./internal/McpCommand.ts"
import { registerQueueCommands } from "./internal/QueueCommands.ts"
import { registerRepl } from "./internal/Repl.ts"
import { registerReport } from "./internal/ReportCommand.ts"
import { registerResume } from "./internal/ResumeCommand.ts"
import { registerRun } from "./internal/RunCommand.ts"
import { registerRuns } from "./internal/RunsCommand.ts"

const { version } = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as {
  version: string
}

/**
 * The `sextant` command line. Each command lives in its own module under `internal/` and registers
 * itself on the program here.
 */
const program = new Command()
  .name("sextant")
  .description("Sextant: browser agents that are reliable, fast and cheap in tokens.")
  .version(version, "-V, --version", "print the version")
  // A usage mistake gets one line and a hint, not the whole help.
  .showHelpAfterError("(run 'sextant --help' or 'sextant <command> --help' for the options)")
  .showSuggestionAfterError()
  .exitOverride()

registerRun(program)
registerLook(program)
registerRuns(program)
registerResume(program)
registerRepl(program)
registerFixtures(program)
registerExplorerCommands(program)
registerMcp(program)
registerReport(program)
registerQueueCommands(program)

try {
  await program.parseAsync(process.argv)
  // An interrupted run has closed its browser and printed its summary; a model request still in flight
  // must not keep the process alive after Ctrl-C.
  if (process.exitCode === 130) process.exit(130)
} catch (error) {
  if (error instanceof CommanderError) {
    process.exitCode = error.exitCode === 0 ? 0 : 2
  } else {
    process.stderr.write(`sextant: ${error instanceof Error ? error.message : String(error)}\n`)
    process.exitCode = 1
  }
}

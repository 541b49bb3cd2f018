import { readFileSync } from "node:fs"
import { causeMessage } from "@sextant/core"
import { Command, CommanderError, Help, type Option } from "commander"
import type { CliIo } from "./internal/CliIo.ts"
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

export type { CliIo } from "./internal/CliIo.ts"

const { version } = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as {
  version: string
}

/**
 * The `sextant` command line, run once: `argv` are the words after `sextant` (no `node` and script
 * path), `io` the streams, environment and folder it works with. Resolves the exit code (0 done, 1 a
 * failure, 2 a usage error, 130 interrupted) instead of exiting, so tests call it in-process; the bin
 * (`src/cli.ts`) passes the process's own io and exits with it. Each command lives in its own module
 * under `internal/` and registers itself on a program made afresh for every call.
 *
 * `sextant mcp` serves over the process's own stdin and stdout whatever `io` says: an MCP client
 * talks to the process.
 */
export const main = async (argv: ReadonlyArray<string>, io: CliIo): Promise<number> => {
  const cli = { ...io, exitCode: 0 }
  const program = new Command()
    .name("sextant")
    .description("Sextant: browser agents that are reliable, fast and cheap in tokens.")
    // Before any command is added: each command copies the output and exit settings of its parent.
    .configureOutput({
      writeOut: (text) => io.stdout.write(text),
      writeErr: (text) => io.stderr.write(text),
    })
    // A repeatable flag's empty list and a switch's false are how commander holds "not given", not a
    // default to read: "(repeatable; default: the start URL's) (default: [])" said two things at once.
    .configureHelp({
      optionDescription(this: Help, option: Option): string {
        const unset =
          option.defaultValue === false ||
          (Array.isArray(option.defaultValue) && option.defaultValue.length === 0)
        const shown: Option = unset
          ? Object.assign(Object.create(option) as Option, { defaultValue: undefined })
          : option
        return Help.prototype.optionDescription.call(this, shown)
      },
    })
    .version(version, "-V, --version", "print the version")
    // A usage mistake gets one line and a hint, not the whole help.
    .showHelpAfterError("(run 'sextant --help' or 'sextant <command> --help' for the options)")
    .showSuggestionAfterError()
    .exitOverride()

  registerRun(program, cli)
  registerLook(program, cli)
  registerRuns(program, cli)
  registerResume(program, cli)
  registerRepl(program, cli)
  registerFixtures(program, cli)
  registerExplorerCommands(program, cli)
  registerMcp(program, cli)
  registerReport(program, cli)
  registerQueueCommands(program, cli)

  try {
    await program.parseAsync([...argv], { from: "user" })
    return cli.exitCode
  } catch (error) {
    if (error instanceof CommanderError) return error.exitCode === 0 ? 0 : 2
    io.stderr.write(`sextant: ${causeMessage(error)}\n`)
    return 1
  }
}

import { existsSync } from "node:fs"
import type { Writable } from "node:stream"
import { causeMessage, isStoreError } from "@sextant/core"
import type { Command } from "commander"
import { z } from "zod"
import { type CliContext, type CliPlace, processPlace } from "./CliIo.ts"
import { issuesOf, recordsTable, usageError } from "./CliOutput.ts"
import { configOrReport } from "./RunCommand.ts"
import { displayStore, isPostgresUrl, storeIssue, storeOption } from "./StoreLocation.ts"

const STATES = ["CREATED", "PLANNING", "RUNNING", "WAITING", "COMPLETED", "FAILED", "CANCELLED"] as const

const RunsArguments = z.object({
  store: z.string().min(1).optional(),
  status: z
    .string()
    .transform((value) => value.toUpperCase())
    .pipe(z.enum(STATES, { error: `is one of ${STATES.join(", ").toLowerCase()}` }))
    .optional(),
  json: z.boolean(),
  config: z.string().min(1).optional(),
})

/** Lists the runs in the store, newest first; resolves the exit code. */
export const listRuns = async (
  raw: Record<string, unknown>,
  out: Writable,
  err: Writable,
  place: CliPlace = processPlace(),
): Promise<number> => {
  const parsed = RunsArguments.safeParse(raw)
  if (!parsed.success) return usageError("runs", issuesOf(parsed.error), err)
  const loaded = await configOrReport("runs", parsed.data.config, err, place.cwd)
  if (loaded === undefined) return 2
  const store = parsed.data.store ?? loaded.config?.store ?? ".sextant/sextant.db"
  const badStore = storeIssue(store)
  if (badStore !== undefined) return usageError("runs", [{ field: "store", message: badStore }], err)
  const shown = displayStore(store)
  // Listing reads: a store file that does not exist is reported, not created.
  if (!isPostgresUrl(store) && !existsSync(store)) {
    if (parsed.data.json) out.write("[]\n")
    else out.write(`no runs: there is no store at ${store} (--store names another)\n`)
    return 0
  }
  const { createAgent } = await import("../createAgent.ts")
  const agent = createAgent({ store: storeOption(store), traceDirectory: false })
  try {
    const runs = await agent.runs(parsed.data.status === undefined ? {} : { status: parsed.data.status })
    if (parsed.data.json) {
      out.write(`${JSON.stringify(runs)}\n`)
      return 0
    }
    if (runs.length === 0) {
      out.write(
        `no runs in ${shown}${parsed.data.status === undefined ? "" : ` with status ${parsed.data.status}`}\n`,
      )
      return 0
    }
    out.write(
      `${recordsTable(
        runs.map((run) => ({
          run: run.runId,
          status: run.status,
          started: run.startedAt.replace("T", " ").slice(0, 19),
          goal: run.goal,
        })),
        { maxRows: 50, maxColumnWidth: 60 },
      )}\n`,
    )
    return 0
  } catch (error) {
    if (isStoreError(error) && error.reason._tag === "StoreUnavailable") {
      // Name the flag the store came from, not createAgent's option.
      err.write(`sextant runs: --store ${shown}: cannot open the store: ${error.reason.detail}\n`)
      return 1
    }
    err.write(`sextant runs: ${causeMessage(error)}\n`)
    return 1
  } finally {
    await agent.close()
  }
}

/** Adds `sextant runs`: the runs in the store as a table (JSON with --json). */
export const registerRuns = (program: Command, cli: CliContext): void => {
  program
    .command("runs")
    .description("list the runs in the store, newest first")
    .option(
      "--store <path|url>",
      "the SQLite store file (default .sextant/sextant.db), or a postgres:// URL for a PostgreSQL store",
    )
    .option("--status <state>", "only runs in this state (completed, failed, cancelled, running, …)")
    .option("--config <path>", "a sextant.config.ts (default: ./sextant.config.ts when it exists)")
    .option("--json", "print the runs as JSON", false)
    .option(
      "--queue <url>",
      "list a Redis queue's jobs instead (waiting, active, delayed, completed, failed)",
    )
    .option("--queue-name <name>", "the BullMQ queue (default sextant-tasks)")
    .option("--follow <run>", "with --queue: print the run's events live until it ends")
    .action(async (flags: Record<string, unknown>) => {
      if (flags.queue !== undefined || flags.follow !== undefined || flags.queueName !== undefined) {
        const { queue, queueName, follow, json, ...rest } = flags
        const stray = Object.entries(rest).filter(([, value]) => value !== undefined)
        if (stray.length > 0) {
          cli.exitCode = usageError(
            "runs",
            stray.map(([field]) => ({ field, message: "lists the store's runs: leave it out with --queue" })),
            cli.stderr,
          )
          return
        }
        const { listQueueRuns } = await import("./QueueCommands.ts")
        // Ctrl-C stops following; the run goes on on its worker.
        const controller = new AbortController()
        const stop = () => controller.abort()
        process.once("SIGINT", stop)
        try {
          cli.exitCode = await listQueueRuns(
            { queue, queueName, follow, json },
            cli.stdout,
            cli.stderr,
            controller.signal,
          )
        } finally {
          process.off("SIGINT", stop)
        }
        return
      }
      cli.exitCode = await listRuns(flags, cli.stdout, cli.stderr, cli)
    })
}

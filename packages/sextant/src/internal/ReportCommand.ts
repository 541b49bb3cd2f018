import type { Writable } from "node:stream"
import { causeMessage } from "@sextant/core"
import type { Command } from "commander"
import { z } from "zod"
import type { CliContext } from "./CliIo.ts"
import { storeOption } from "./StoreLocation.ts"

const ReportArguments = z.object({
  runId: z.string().regex(/^[A-Za-z0-9._:-]+$/, "a run id has letters, digits, '.', '_', ':' or '-'"),
  store: z.string().min(1),
  traceDir: z.string().min(1),
  out: z.string().min(1).optional(),
})

/** Writes the HTML report of a stored run; resolves the process exit code. */
export const reportRun = async (
  raw: Record<string, unknown>,
  out: Writable,
  err: Writable,
): Promise<number> => {
  const parsed = ReportArguments.safeParse(raw)
  if (!parsed.success) {
    for (const issue of parsed.error.issues)
      err.write(`sextant report: ${issue.path.join(".") || "run"}: ${issue.message}\n`)
    return 2
  }
  const options = parsed.data
  // Loaded here, not at start: `sextant --help` and usage errors need none of the agent's modules.
  const { createAgent } = await import("../createAgent.ts")
  const agent = createAgent({ store: storeOption(options.store), traceDirectory: options.traceDir })
  try {
    const path = await agent.report(options.runId, options.out)
    out.write(`${path}\n`)
    return 0
  } catch (error) {
    err.write(`sextant report: ${causeMessage(error)}\n`)
    return 1
  } finally {
    await agent.close()
  }
}

/** Adds `sextant report <run>`: one self-contained HTML file of a stored run. */
export const registerReport = (program: Command, cli: CliContext): void => {
  program
    .command("report")
    .description("write one self-contained HTML report of a stored run and print its path")
    .argument("<run>", "the run id (printed by sextant run, the file name of its trace)")
    .option("--store <path|url>", "the SQLite store file, or a postgres:// URL", ".sextant/sextant.db")
    .option("--trace-dir <dir>", "where the run's trace and screenshots are", ".sextant/traces")
    .option("--out <file>", "the report file (default .sextant/reports/<run>.html)")
    .action(async (runId: string, flags: Record<string, unknown>) => {
      cli.exitCode = await reportRun({ runId, ...flags }, cli.stdout, cli.stderr)
    })
}

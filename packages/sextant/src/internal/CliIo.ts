import type { Writable } from "node:stream"

/**
 * Where one `sextant` invocation reads and writes: the process's own streams, environment and folder
 * when the bin runs it, or a test's when it calls `main` in-process.
 */
export interface CliIo {
  /** Results: tables, JSON, outlines. */
  readonly stdout: Writable
  /** Progress, usage errors and failures. */
  readonly stderr: Writable
  /** Read for the model settings (`OPENAI_*`, `SEXTANT_*`) and `SEXTANT_SECRET_<NAME>`. */
  readonly env: Readonly<Record<string, string | undefined>>
  /**
   * The folder `sextant.config.ts` is looked for in (and a relative `--config` resolves against).
   * Other relative paths (`--store`, `--trace-dir`, task files) resolve against the process's folder.
   */
  readonly cwd: string
}

/** What a command's action gets: the invocation's io and the exit code it sets. */
export interface CliContext extends CliIo {
  exitCode: number
}

/** The environment and folder a command reads, defaulting to the process's own. */
export type CliPlace = Pick<CliIo, "env" | "cwd">

/** The running process's environment and folder. */
export const processPlace = (): CliPlace => ({ env: process.env, cwd: process.cwd() })

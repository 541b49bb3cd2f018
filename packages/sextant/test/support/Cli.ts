import { spawn } from "node:child_process"
import { fileURLToPath } from "node:url"

/** The CLI's source entry point, run with `--conditions=sextant-source` so no build is needed. */
export const CLI = fileURLToPath(new URL("../../src/cli.ts", import.meta.url))

/** How a `sextant` process ended and everything it wrote. */
export interface CliRun {
  readonly code: number | null
  readonly stdout: string
  readonly stderr: string
}

export interface CliOptions {
  /** The folder the process starts in (the test process's own by default). */
  readonly cwd?: string | undefined
  /** Variables added to the test process's environment. */
  readonly env?: Readonly<Record<string, string>> | undefined
  /** Written to the process's stdin, which is then closed; without it stdin is empty (`ignore`). */
  readonly input?: string | undefined
}

/**
 * Runs `sextant <args>` from source in a child Node process and resolves once it has exited and its
 * output is fully read (`close`), with the exit code and both streams; rejects only when the process
 * cannot be started.
 */
export const runCli = (args: ReadonlyArray<string>, options: CliOptions = {}): Promise<CliRun> =>
  new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--conditions=sextant-source", CLI, ...args], {
      ...(options.cwd === undefined ? {} : { cwd: options.cwd }),
      env: { ...process.env, ...options.env },
      stdio: [options.input === undefined ? "ignore" : "pipe", "pipe", "pipe"],
    })
    let stdout = ""
    let stderr = ""
    child.stdout?.on("data", (chunk) => {
      stdout += String(chunk)
    })
    child.stderr?.on("data", (chunk) => {
      stderr += String(chunk)
    })
    child.once("error", reject)
    child.once("close", (code) => resolve({ code, stdout, stderr }))
    if (options.input !== undefined) child.stdin?.end(options.input)
  })

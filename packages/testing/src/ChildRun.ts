import { execFile } from "node:child_process"

/** What a child Node process printed and how it exited. */
export interface ChildRun {
  /** The exit code; -1 when it was killed or could not start. */
  readonly code: number
  /** Standard output, then standard error. */
  readonly output: string
}

/**
 * Runs Node (this process's binary) with `args` as a user would run an exported file, and never
 * throws: a failing run answers its exit code and what it printed.
 *
 * @example
 * ```ts
 * import { runNode } from "@sextant/testing"
 * const { code, output } = await runNode(["login.wdio.ts"], { BASE_URL: site.url })
 * ```
 */
export const runNode = (
  args: ReadonlyArray<string>,
  env: Readonly<Record<string, string>> = {},
  timeoutMs = 150_000,
): Promise<ChildRun> =>
  new Promise((resolve) => {
    execFile(
      process.execPath,
      [...args],
      { env: { ...process.env, NO_COLOR: "1", FORCE_COLOR: "0", ...env }, timeout: timeoutMs },
      (error, stdout, stderr) => {
        const code = error === null ? 0 : typeof error.code === "number" ? error.code : -1
        resolve({ code, output: `${stdout}${stderr}` })
      },
    )
  })

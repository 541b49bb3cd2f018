import { main } from "../../src/main.ts"
import { sink } from "./Sink.ts"

/** How one `main` call ended and everything it wrote. */
export interface MainRun {
  readonly code: number
  readonly stdout: string
  readonly stderr: string
}

/**
 * Runs `sextant <args>` in this process through the CLI's `main`, as the bin does but with collected
 * streams: no Node start-up, so usage errors and messages are checked in milliseconds. `env` adds to
 * the test process's environment (a value of `undefined` removes a variable); `cwd` is where a
 * `sextant.config.ts` and task files are looked for.
 */
export const runMain = async (
  args: ReadonlyArray<string>,
  options: { readonly env?: Readonly<Record<string, string | undefined>>; readonly cwd?: string } = {},
): Promise<MainRun> => {
  const stdout = sink()
  const stderr = sink()
  const env: Record<string, string | undefined> = { ...process.env, ...options.env }
  for (const [name, value] of Object.entries(env)) if (value === undefined) delete env[name]
  const code = await main(args, {
    stdout: stdout.stream,
    stderr: stderr.stream,
    env,
    cwd: options.cwd ?? process.cwd(),
  })
  return { code, stdout: stdout.text(), stderr: stderr.text() }
}

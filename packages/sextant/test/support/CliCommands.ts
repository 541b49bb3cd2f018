import { spawn } from "node:child_process"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { type FixtureSite, startFixtureSite } from "@sextant/fixture-site"
import { afterAll, beforeAll, expect } from "vitest"

/** The CLI's source entry point, spawned as `pnpm sextant` runs it. */
export const CLI = join(import.meta.dirname, "..", "..", "src", "cli.ts")
export const STACK = /\bat .*:\d+:\d+/
/** Each spawn starts Node and often Chromium: generous limits keep a loaded 2-core machine from failing them. */
export const BROWSER_TEST_MS = 90_000

/** How a `sextant` process ended and everything it wrote. */
export interface Ran {
  readonly code: number | null
  readonly stdout: string
  readonly stderr: string
}

/** No model settings leak in from the machine running the tests. */
export const noModel = {
  OPENAI_BASE_URL: undefined,
  OPENAI_API_KEY: undefined,
  SEXTANT_MODEL: undefined,
  OPENAI_MODEL: undefined,
}

/** A usage error is one line per problem plus one hint line, never the whole help or a stack. */
export const expectUsageError = (ran: Ran, line: string) => {
  expect(ran.code).toBe(2)
  expect(ran.stderr).toContain(line)
  expect(ran.stderr).not.toContain("Usage:")
  expect(ran.stderr).not.toMatch(STACK)
  expect(ran.stderr.trim().split("\n").length).toBeLessThanOrEqual(3)
}

/**
 * A fixture site and a temporary folder for the whole test file, and `sextant(args)`, which spawns the
 * real `sextant` command in that folder (an env value of `undefined` removes the variable).
 */
export const useCliCommands = () => {
  let site: FixtureSite | undefined
  let directory: string | undefined
  beforeAll(async () => {
    site = await startFixtureSite({ port: 0 })
    directory = mkdtempSync(join(tmpdir(), "sextant-cli-commands-"))
  })
  afterAll(async () => {
    await site?.close()
    if (directory !== undefined) rmSync(directory, { recursive: true, force: true })
  })
  const folder = (): string => {
    if (directory === undefined) throw new Error("the test folder is not made yet")
    return directory
  }
  const sextant = (
    args: ReadonlyArray<string>,
    options: { env?: Record<string, string | undefined>; input?: string; cwd?: string } = {},
  ) =>
    new Promise<Ran>((resolve) => {
      const environment: Record<string, string | undefined> = { ...process.env, ...options.env }
      for (const [name, value] of Object.entries(environment))
        if (value === undefined) delete environment[name]
      const child = spawn(process.execPath, ["--conditions=sextant-source", CLI, ...args], {
        env: environment as NodeJS.ProcessEnv,
        cwd: options.cwd ?? folder(),
        stdio: ["pipe", "pipe", "pipe"],
      })
      let stdout = ""
      let stderr = ""
      child.stdout.on("data", (chunk) => (stdout += String(chunk)))
      child.stderr.on("data", (chunk) => (stderr += String(chunk)))
      child.on("close", (code) => resolve({ code, stdout, stderr }))
      child.stdin.end(options.input ?? "")
    })
  return {
    sextant,
    site: (): FixtureSite => {
      if (site === undefined) throw new Error("the fixture site is not started yet")
      return site
    },
    directory: folder,
    store: () => join(folder(), "cli.db"),
    traces: () => join(folder(), "traces"),
  }
}

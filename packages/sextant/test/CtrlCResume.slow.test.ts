import { execFileSync, spawn } from "node:child_process"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { FIXTURE_USERS, type FixtureSite, startFixtureSite } from "@sextant/fixture-site"
import { type OpenAiServer, Reply, startOpenAiServer } from "@sextant/testing"
import { afterAll, beforeAll, describe, expect, it } from "vitest"

// The real `sextant` command, from source as `pnpm sextant` runs it.
const CLI = join(import.meta.dirname, "..", "src", "cli.ts")
// Two commands, each starting Node and Chromium, on a loaded 2-core machine.
const TEST_MS = 180_000

let site: FixtureSite
let model: OpenAiServer
let directory: string

const GOAL = "sign in as alice and read the greeting"
const LONG_GOAL = "open the sign-in page and wait a minute"
const alice = FIXTURE_USERS[0] as (typeof FIXTURE_USERS)[number]

beforeAll(async () => {
  site = await startFixtureSite({ port: 0 })
  directory = mkdtempSync(join(tmpdir(), "sextant-ctrl-c-resume-"))
  // The model plans six steps; the pause after the first leaves time for Ctrl-C while a step runs.
  model = await startOpenAiServer({
    model: "scripted-model",
    replies: (request) =>
      request.text.includes(`Goal: ${GOAL}`)
        ? Reply.json({
            steps: [
              { tool: "navigate", args: { url: `${site.url}/login` } },
              { tool: "delay", args: { ms: 4000 } },
              { tool: "fill", args: { target: "#email", value: alice.email } },
              { tool: "fill", args: { target: "#password", value: alice.password } },
              { tool: "click", args: { target: "#login-btn" } },
              { tool: "extract", args: { target: "h1" } },
            ],
          })
        : request.text.includes(`Goal: ${LONG_GOAL}`)
          ? Reply.json({
              steps: [
                { tool: "navigate", args: { url: `${site.url}/login` } },
                { tool: "delay", args: { ms: 60_000 } },
              ],
            })
          : Reply.json({ isComplete: true, summary: "signed in", suggestions: [] }),
  })
})

afterAll(async () => {
  await model?.close()
  await site?.close()
  rmSync(directory, { recursive: true, force: true })
})

interface Ran {
  readonly code: number | null
  readonly stdout: string
  readonly stderr: string
}

/** Spawns `sextant <args>`; `onStderr` sees the stderr so far after each chunk and may signal the child. */
const sextant = (
  args: ReadonlyArray<string>,
  onStderr?: (stderr: string, child: ReturnType<typeof spawn>) => void,
  extraEnv: Record<string, string> = {},
) =>
  new Promise<Ran>((resolve) => {
    const environment: Record<string, string | undefined> = {
      ...process.env,
      OPENAI_BASE_URL: undefined,
      SEXTANT_MODEL: undefined,
      OPENAI_MODEL: undefined,
      OPENAI_API_KEY: "test-key",
      ...extraEnv,
    }
    for (const [name, value] of Object.entries(environment)) if (value === undefined) delete environment[name]
    const child = spawn(process.execPath, ["--conditions=sextant-source", CLI, ...args], {
      env: environment as NodeJS.ProcessEnv,
      cwd: directory,
      stdio: ["ignore", "pipe", "pipe"],
    })
    let stdout = ""
    let stderr = ""
    child.stdout.on("data", (chunk) => (stdout += String(chunk)))
    child.stderr.on("data", (chunk) => {
      stderr += String(chunk)
      onStderr?.(stderr, child)
    })
    child.on("close", (code) => resolve({ code, stdout, stderr }))
  })

/** The step indexes a command's progress lines say finished ok (`  [2] fill ok (40 ms)`). */
const finishedSteps = (stderr: string): Array<number> =>
  [...stderr.matchAll(/^ {2}\[(\d+)\] \w+ ok /gm)].map((match) => Number(match[1]))

/** Processes whose command line mentions `marker`. */
const processesMentioning = (marker: string): Array<string> =>
  execFileSync("ps", ["-eo", "pid=,args="], { encoding: "utf8" })
    .split("\n")
    .filter((line) => line.includes(marker) && !line.includes("ps -eo"))

const logins = () => site.submissions().filter((entry) => entry.path === "/login").length

describe("Ctrl-C, then sextant resume", () => {
  it(
    "Ctrl-C stops the run after the step in flight, and resume runs only the remaining steps to the end",
    async () => {
      const flags = [
        "--model",
        "scripted-model",
        "--base-url",
        model.baseURL,
        "--store",
        join(directory, "sextant.db"),
        "--trace-dir",
        join(directory, "traces"),
      ]
      let interrupted = false
      const first = await sextant(
        ["run", GOAL, "--planner", "model", "--allow-submit", ...flags],
        (stderr, child) => {
          // Ctrl-C once the first step is recorded, while the second (the pause) runs.
          if (!interrupted && finishedSteps(stderr).includes(0)) {
            interrupted = true
            child.kill("SIGINT")
          }
        },
      )
      expect(interrupted, first.stderr).toBe(true)
      expect(first.code, first.stderr).toBe(130)
      expect(first.stderr).toContain("Ctrl-C: stopping after the step in flight")
      // The step in flight at Ctrl-C (the pause) ran to its end; nothing after it started.
      expect(finishedSteps(first.stderr)).toEqual([0, 1])
      expect(first.stdout).toMatch(/^CANCELLED \(cancelled\)/m)
      const runId = /store: .* \(run ([0-9a-f-]+)\)/.exec(first.stdout)?.[1] ?? ""
      expect(first.stdout).toContain(`continue it with: sextant resume ${runId} --store `)
      expect(logins()).toBe(0)

      const resumed = await sextant(["resume", runId, ...flags])
      expect(resumed.code, resumed.stderr).toBe(0)
      expect(resumed.stderr).toContain(`resuming run ${runId}`)
      // Continued, not restarted: steps 0 and 1 are not run again, 2 to 5 run once each.
      expect(finishedSteps(resumed.stderr)).toEqual([2, 3, 4, 5])
      expect(resumed.stdout).toMatch(/^COMPLETED \(completed\)/m)
      expect(resumed.stdout).toMatch(new RegExp(`^Welcome, ${alice.name}$`, "m"))
      expect(logins()).toBe(1)
    },
    TEST_MS,
  )

  it(
    "a second Ctrl-C exits at once, while the step in flight still runs, and leaves no browser behind",
    async () => {
      // Chromium's profile lives under the child's TMPDIR, so its processes can be found by that path.
      const temporary = mkdtempSync(join(tmpdir(), "sextant-second-ctrl-c-"))
      let signals = 0
      let secondAt = 0
      const ran = await sextant(
        [
          "run",
          LONG_GOAL,
          "--planner",
          "model",
          "--model",
          "scripted-model",
          "--base-url",
          model.baseURL,
          "--store",
          join(directory, "second.db"),
        ],
        (stderr, child) => {
          if (signals === 0 && finishedSteps(stderr).includes(0)) {
            signals = 1
            child.kill("SIGINT")
          } else if (signals === 1 && stderr.includes("Ctrl-C: stopping after the step in flight")) {
            signals = 2
            secondAt = Date.now()
            child.kill("SIGINT")
          }
        },
        { TMPDIR: temporary },
      )
      expect(signals, ran.stderr).toBe(2)
      expect(ran.code).toBe(130)
      // The minute-long pause was not waited for.
      expect(Date.now() - secondAt).toBeLessThan(15_000)
      expect(processesMentioning(temporary)).toEqual([])
      rmSync(temporary, { recursive: true, force: true })
    },
    TEST_MS,
  )
})

import { execFileSync, spawn } from "node:child_process"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { type OpenAiServer, Reply, startOpenAiServer } from "@sextant/testing"
import { describe, expect, it } from "vitest"
import { BROWSER_TEST_MS, CLI, noModel, useCliCommands } from "./support/CliCommands.ts"

// The slow set's (`pnpm test:slow`) spawns of the real `sextant` command, each a whole run or more in
// Chromium: planning with a model, --interactive, runs and resume of a stored run, Ctrl-C from a
// terminal. Usage errors, one run and one look are in CliCommands.test.ts, in the test command.
const { sextant, site, directory, store, traces } = useCliCommands()

describe("sextant run", () => {
  it(
    "plans with the model at --base-url through the hybrid planner when the rules cannot",
    async () => {
      await using server: OpenAiServer = await startOpenAiServer({
        model: "scripted-model",
        replies: (request) =>
          request.text.includes("Goal: which brass instrument is the cheapest")
            ? Reply.json({
                steps: [
                  { tool: "navigate", args: { url: `${site().url}/products` } },
                  { tool: "extract", args: { target: "li[data-product-id] h2", all: true } },
                ],
              })
            : Reply.json({ isComplete: true, summary: "listed the products", suggestions: [] }),
      })
      const ran = await sextant(
        [
          "run",
          // Outside the rule grammar (no action word, no start page): only the model can plan it.
          "which brass instrument is the cheapest",
          "--model",
          "scripted-model",
          "--base-url",
          server.baseURL,
          "--api-key-env",
          "SEXTANT_TEST_KEY",
          "--store",
          store(),
          "--trace-dir",
          traces(),
        ],
        { env: { ...noModel, SEXTANT_TEST_KEY: "test-key" } },
      )
      expect(ran.stderr).toContain(
        `planner: hybrid (rules first, then the model scripted-model at ${server.baseURL})`,
      )
      expect(server.requests.length).toBeGreaterThanOrEqual(1)
      expect(server.requests[0]?.headers.authorization).toBe("Bearer test-key")
      expect(ran.stderr).toContain("plan (revision 0): navigate → extract")
      expect(ran.code, ran.stderr).toBe(0)
    },
    BROWSER_TEST_MS,
  )
})

describe("sextant look", () => {
  it(
    "keeps a prompt open with --interactive",
    async () => {
      const ran = await sextant(["look", `${site().url}/login`, "--interactive"], {
        input: "eval document.title\nquit\n",
      })
      expect(ran.code, ran.stderr).toBe(0)
      expect(ran.stdout).toContain("Sign in · Sextant Shop")
      expect(ran.stdout.trimEnd().endsWith("bye")).toBe(true)
    },
    BROWSER_TEST_MS,
  )
})

describe("sextant runs and resume", () => {
  it(
    "lists the runs of the store as a table and as JSON",
    async () => {
      const runsStore = join(directory(), "runs.db")
      const first = await sextant(
        [
          "run",
          "extract name and price of the products",
          "--start-url",
          `${site().url}/products`,
          "--store",
          runsStore,
        ],
        { env: noModel },
      )
      expect(first.code, first.stderr).toBe(0)
      const runId = /store: .* \(run ([0-9a-f-]+)\)/.exec(first.stdout)?.[1]
      expect(runId).toBeDefined()
      const table = await sextant(["runs", "--store", runsStore])
      expect(table.code, table.stderr).toBe(0)
      expect(table.stdout).toMatch(/^run\s+status\s+started\s+goal$/m)
      expect(table.stdout).toContain(`${runId}  COMPLETED`)
      const json = await sextant(["runs", "--store", runsStore, "--json"])
      expect(JSON.parse(json.stdout)).toMatchObject([
        { runId, status: "COMPLETED", goal: "extract name and price of the products" },
      ])
    },
    BROWSER_TEST_MS,
  )

  it(
    "resumes a finished run without repeating its steps",
    async () => {
      const resumeStore = join(directory(), "resume.db")
      const first = await sextant(
        [
          "run",
          "extract name and price of the products",
          "--start-url",
          `${site().url}/products`,
          "--store",
          resumeStore,
        ],
        { env: noModel },
      )
      const runId = /store: .* \(run ([0-9a-f-]+)\)/.exec(first.stdout)?.[1] ?? ""
      const ran = await sextant(["resume", runId, "--store", resumeStore], { env: noModel })
      expect(ran.code, ran.stderr).toBe(0)
      expect(ran.stdout).toContain(`store: ${resumeStore} (run ${runId})`)
      expect(ran.stderr).not.toMatch(/\[\d+\] \w+ ok/)
    },
    BROWSER_TEST_MS,
  )
})

/** Processes whose command line mentions `marker` (Chromium profiles live under the child's TMPDIR). */
const processesMentioning = (marker: string): Array<string> =>
  execFileSync("ps", ["-eo", "pid=,args="], { encoding: "utf8" })
    .split("\n")
    .filter((line) => line.includes(marker) && !line.includes("ps -eo"))

describe("Ctrl-C from a terminal", () => {
  it(
    "cuts a model call at once: prints the summary, closes the browser and exits 130",
    async () => {
      const temporary = mkdtempSync(join(tmpdir(), "sextant-ctrl-c-"))
      // The model never answers in time, so the run is waiting on it, with its browser open, at Ctrl-C.
      await using server = await startOpenAiServer({
        replies: () => Reply.json({ steps: [] }, { delayMs: 60_000 }),
      })
      const command = [
        process.execPath,
        "--conditions=sextant-source",
        CLI,
        "run",
        "which brass instrument is the cheapest",
        "--model",
        "m",
        "--base-url",
        server.baseURL,
        "--store",
        join(temporary, "sextant.db"),
        "--trace-dir",
        join(temporary, "traces"),
      ]
        .map((word) => `'${word.replaceAll("'", "'\\''")}'`)
        .join(" ")
      // `script` gives the command a pseudo-terminal: the ^C byte becomes SIGINT from the line discipline.
      const child = spawn("script", ["-qefc", command, "/dev/null"], {
        env: { ...process.env, ...noModel, OPENAI_API_KEY: "test", TMPDIR: temporary },
        stdio: ["pipe", "pipe", "pipe"],
      })
      let output = ""
      child.stdout.on("data", (chunk) => (output += String(chunk)))
      const exited = new Promise<number | null>((resolve) => child.once("exit", resolve))
      await new Promise<void>((resolve, reject) => {
        const timer = setInterval(() => {
          if (server.requests.length > 0) {
            clearInterval(timer)
            resolve()
          }
        }, 100)
        void exited.then(() => {
          clearInterval(timer)
          reject(new Error(`the run ended before Ctrl-C: ${output}`))
        })
      })
      expect(processesMentioning(temporary).some((line) => /chrom/i.test(line))).toBe(true)
      child.stdin.write("\x03")
      const code = await exited
      expect(output).toContain("Ctrl-C: stopping after the step in flight")
      // The run waited on the model for its plan: Ctrl-C cuts that wait, and nothing ran to continue.
      expect(output).toMatch(/CANCELLED \(cancelled\) in \d+ ms, 0 steps/)
      expect(output).toContain("nothing ran yet: start it again with sextant run")
      expect(code).toBe(130)
      expect(processesMentioning(temporary)).toEqual([])
      rmSync(temporary, { recursive: true, force: true })
    },
    BROWSER_TEST_MS,
  )
})

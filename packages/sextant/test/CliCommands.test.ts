import { execFileSync, spawn } from "node:child_process"
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { type FixtureSite, PRODUCTS_PER_PAGE, startFixtureSite } from "@sextant/fixture-site"
import { type OpenAiServer, Reply, startOpenAiServer } from "@sextant/testing"
import { afterAll, beforeAll, describe, expect, it } from "vitest"

// Every test here spawns the real `sextant` command, from source as `pnpm sextant` does.
const CLI = join(import.meta.dirname, "..", "src", "cli.ts")
const STACK = /\bat .*:\d+:\d+/
// Each spawn starts Node and often Chromium: generous limits keep a loaded 2-core machine from failing them.
const BROWSER_TEST_MS = 90_000

let site: FixtureSite
let directory: string

beforeAll(async () => {
  site = await startFixtureSite({ port: 0 })
  directory = mkdtempSync(join(tmpdir(), "sextant-cli-commands-"))
})

afterAll(async () => {
  await site?.close()
  rmSync(directory, { recursive: true, force: true })
})

interface Ran {
  readonly code: number | null
  readonly stdout: string
  readonly stderr: string
}

const sextant = (
  args: ReadonlyArray<string>,
  options: { env?: Record<string, string | undefined>; input?: string; cwd?: string } = {},
) =>
  new Promise<Ran>((resolve) => {
    const environment: Record<string, string | undefined> = { ...process.env, ...options.env }
    for (const [name, value] of Object.entries(environment)) if (value === undefined) delete environment[name]
    const child = spawn(process.execPath, ["--conditions=sextant-source", CLI, ...args], {
      env: environment as NodeJS.ProcessEnv,
      cwd: options.cwd ?? directory,
      stdio: ["pipe", "pipe", "pipe"],
    })
    let stdout = ""
    let stderr = ""
    child.stdout.on("data", (chunk) => (stdout += String(chunk)))
    child.stderr.on("data", (chunk) => (stderr += String(chunk)))
    child.on("close", (code) => resolve({ code, stdout, stderr }))
    child.stdin.end(options.input ?? "")
  })

// No model settings leak in from the machine running the tests.
const noModel = {
  OPENAI_BASE_URL: undefined,
  OPENAI_API_KEY: undefined,
  SEXTANT_MODEL: undefined,
  OPENAI_MODEL: undefined,
}
const store = () => join(directory, "cli.db")
const traces = () => join(directory, "traces")

/** A usage error is one line per problem plus one hint line, never the whole help or a stack. */
const expectUsageError = (ran: Ran, line: string) => {
  expect(ran.code).toBe(2)
  expect(ran.stderr).toContain(line)
  expect(ran.stderr).not.toContain("Usage:")
  expect(ran.stderr).not.toMatch(STACK)
  expect(ran.stderr.trim().split("\n").length).toBeLessThanOrEqual(3)
}

describe("sextant --version and usage errors", () => {
  it("prints the package's version", async () => {
    const ran = await sextant(["--version"])
    const { version } = JSON.parse(readFileSync(join(import.meta.dirname, "..", "package.json"), "utf8")) as {
      version: string
    }
    expect(ran.code).toBe(0)
    expect(ran.stdout.trim()).toBe(version)
  })

  it("answers an unknown option with one line and a hint", async () => {
    expectUsageError(await sextant(["run", "open the shop", "--bogus"]), "unknown option '--bogus'")
  })
})

describe("sextant run", () => {
  it(
    "runs with the rule planner, says so, and prints the records as a table and where the files are",
    async () => {
      const ran = await sextant(
        [
          "run",
          "extract name and price of the products",
          "--start-url",
          `${site.url}/products`,
          "--store",
          store(),
          "--trace-dir",
          traces(),
        ],
        { env: noModel },
      )
      expect(ran.code, ran.stderr).toBe(0)
      expect(ran.stderr).toContain("planner: rules (no model configured")
      expect(ran.stderr).toMatch(/\[1\] extractList ok/)
      expect(ran.stdout).toContain(`${PRODUCTS_PER_PAGE} records:`)
      expect(ran.stdout).toMatch(/^name\s+price$/m)
      expect(ran.stdout).toMatch(/^Brass Sextant\s+\$\d+\.\d\d$/m)
      expect(ran.stdout).toMatch(new RegExp(`^trace: ${traces()}/[0-9a-f-]+\\.jsonl$`, "m"))
      expect(ran.stdout).toContain(`store: ${store()} (run `)
    },
    BROWSER_TEST_MS,
  )

  it("names the flag, not the field, of a bad argument", async () => {
    const ran = await sextant(["run", "open the shop", "--start-url", "javascript:alert(1)"], {
      env: noModel,
    })
    expectUsageError(ran, "sextant run: --start-url: must be an http or https URL")
    expect(ran.stderr).not.toContain("startUrl")
  })

  it("refuses a model endpoint without a model name", async () => {
    const ran = await sextant(["run", "open the shop", "--base-url", "http://127.0.0.1:9/v1"], {
      env: noModel,
    })
    expectUsageError(ran, "sextant run: --model: name the model too")
  })

  it("refuses a model whose API key variable is not set", async () => {
    const ran = await sextant(
      ["run", "open the shop", "--model", "m", "--api-key-env", "SEXTANT_TEST_NO_SUCH_KEY"],
      {
        env: noModel,
      },
    )
    expectUsageError(ran, "sextant run: --api-key-env: SEXTANT_TEST_NO_SUCH_KEY is not set")
  })

  it(
    "plans with the model at --base-url through the hybrid planner when the rules cannot",
    async () => {
      await using server: OpenAiServer = await startOpenAiServer({
        model: "scripted-model",
        replies: (request) =>
          request.text.includes("Goal: which brass instrument is the cheapest")
            ? Reply.json({
                steps: [
                  { tool: "navigate", args: { url: `${site.url}/products` } },
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
    "prints the outline of a page with refs",
    async () => {
      const ran = await sextant(["look", `${site.url}/login`])
      expect(ran.code, ran.stderr).toBe(0)
      expect(ran.stdout).toContain(`Sign in · Sextant Shop — ${site.url}/login`)
      expect(ran.stdout).toMatch(/textbox "Email" \[ref=e\d+\]/)
    },
    BROWSER_TEST_MS,
  )

  it(
    "keeps a prompt open with --interactive",
    async () => {
      const ran = await sextant(["look", `${site.url}/login`, "--interactive"], {
        input: "eval document.title\nquit\n",
      })
      expect(ran.code, ran.stderr).toBe(0)
      expect(ran.stdout).toContain("Sign in · Sextant Shop")
      expect(ran.stdout.trimEnd().endsWith("bye")).toBe(true)
    },
    BROWSER_TEST_MS,
  )

  it("names the URL argument when it is not one", async () => {
    expectUsageError(
      await sextant(["look", "the login page"]),
      "sextant look: <url>: must be an http or https URL",
    )
  })
})

describe("sextant runs and resume", () => {
  it(
    "lists the runs of the store as a table and as JSON",
    async () => {
      const runsStore = join(directory, "runs.db")
      const first = await sextant(
        [
          "run",
          "extract name and price of the products",
          "--start-url",
          `${site.url}/products`,
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

  it("reports a store that does not exist without creating it", async () => {
    const missing = join(directory, "nowhere", "sextant.db")
    const ran = await sextant(["runs", "--store", missing])
    expect(ran.code).toBe(0)
    expect(ran.stdout).toContain(`no runs: there is no store at ${missing}`)
    expect(existsSync(missing)).toBe(false)
  })

  it("names a bad --status", async () => {
    expectUsageError(
      await sextant(["runs", "--status", "sideways", "--store", store()]),
      "sextant runs: --status: is one of",
    )
  })

  it(
    "resumes a finished run without repeating its steps",
    async () => {
      const resumeStore = join(directory, "resume.db")
      const first = await sextant(
        [
          "run",
          "extract name and price of the products",
          "--start-url",
          `${site.url}/products`,
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

  it("names an unknown run", async () => {
    const ran = await sextant(["resume", "no-such-run", "--store", store()], { env: noModel })
    expect(ran.code).toBe(2)
    expect(ran.stderr).toContain(`sextant resume: <run>: no run no-such-run in ${store()}`)
    expect(ran.stderr).not.toMatch(STACK)
  })
})

describe("sextant fixtures", () => {
  it(
    "serves the fixture site until Ctrl-C",
    async () => {
      const child = spawn(process.execPath, ["--conditions=sextant-source", CLI, "fixtures", "--port", "0"], {
        stdio: ["ignore", "pipe", "pipe"],
      })
      let stdout = ""
      const url = await new Promise<string>((resolve, reject) => {
        child.stdout.on("data", (chunk) => {
          stdout += String(chunk)
          const found = /fixture site on (http:\/\/127\.0\.0\.1:\d+)/.exec(stdout)?.[1]
          if (found !== undefined) resolve(found)
        })
        child.once("exit", () => reject(new Error(`fixtures exited early: ${stdout}`)))
      })
      const page = await fetch(`${url}/login`)
      expect(page.status).toBe(200)
      expect(await page.text()).toContain("Sign in")
      const exited = new Promise<number | null>((resolve) => child.once("exit", resolve))
      child.kill("SIGINT")
      expect(await exited).toBe(0)
    },
    BROWSER_TEST_MS,
  )

  it("names a bad --port", async () => {
    expectUsageError(
      await sextant(["fixtures", "--port", "harbour"]),
      "sextant fixtures: --port: must be a port number",
    )
  })
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

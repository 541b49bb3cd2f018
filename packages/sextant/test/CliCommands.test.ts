import { spawn } from "node:child_process"
import { existsSync, readFileSync } from "node:fs"
import { join } from "node:path"
import { decodeAgentTask, Store } from "@sextant/core"
import { PRODUCTS_PER_PAGE } from "@sextant/fixture-site"
import { SqliteStore } from "@sextant/memory"
import { Effect } from "effect"
import { describe, expect, it } from "vitest"
import {
  BROWSER_TEST_MS,
  CLI,
  expectUsageError,
  noModel,
  STACK,
  useCliCommands,
} from "./support/CliCommands.ts"
import { runMain } from "./support/Main.ts"

// One run, one look and the fixtures command spawn the real `sextant` command, from source as
// `pnpm sextant` does; the usage errors and messages call the CLI's `main` in this process (the bin's
// own start, version and usage exit code are spawned in NodeVersion.slow.test.ts, in the slow set). The longer runs (the model planner, --interactive,
// runs and resume of a stored run, Ctrl-C from a terminal) are in CliCommands.slow.test.ts.
const { sextant, site, directory, store, traces } = useCliCommands()

describe("sextant --version and usage errors", () => {
  it("prints the package's version", async () => {
    const ran = await runMain(["--version"])
    const { version } = JSON.parse(readFileSync(join(import.meta.dirname, "..", "package.json"), "utf8")) as {
      version: string
    }
    expect(ran.code).toBe(0)
    expect(ran.stdout.trim()).toBe(version)
  })

  it("answers an unknown option with one line and a hint", async () => {
    expectUsageError(await runMain(["run", "open the shop", "--bogus"]), "unknown option '--bogus'")
  })
})

describe("sextant run", () => {
  it(
    "runs with the rule planner step by step by default, says so, and prints the records as a table and where the files are",
    async () => {
      const ran = await sextant(
        [
          "run",
          "extract name and price of the products",
          "--start-url",
          `${site().url}/products`,
          "--store",
          store(),
          "--trace-dir",
          traces(),
        ],
        { env: noModel },
      )
      expect(ran.code, ran.stderr).toBe(0)
      expect(ran.stderr).toContain("planner: rules (no model configured")
      // No --mode: with the rule planner the run reads the page before each step.
      expect(ran.stderr).toContain("mode: agent (one step at a time")
      expect(ran.stderr).toMatch(/\[\d+\] extractList ok/)
      expect(ran.stdout).toContain(`${PRODUCTS_PER_PAGE} records:`)
      expect(ran.stdout).toMatch(/^name\s+price$/m)
      expect(ran.stdout).toMatch(/^Brass Sextant\s+\$\d+\.\d\d$/m)
      expect(ran.stdout).toMatch(new RegExp(`^trace: ${traces()}/[0-9a-f-]+\\.jsonl$`, "m"))
      expect(ran.stdout).toContain(`store: ${store()} (run `)
    },
    BROWSER_TEST_MS,
  )

  it("names the flag, not the field, of a bad argument", async () => {
    const ran = await runMain(["run", "open the shop", "--start-url", "javascript:alert(1)"], {
      env: noModel,
    })
    expectUsageError(ran, "sextant run: --start-url: must be an http or https URL")
    expect(ran.stderr).not.toContain("startUrl")
  })

  it("refuses a model endpoint without a model name", async () => {
    const ran = await runMain(["run", "open the shop", "--base-url", "http://127.0.0.1:9/v1"], {
      env: noModel,
    })
    expectUsageError(ran, "sextant run: --model: name the model too")
  })

  it("refuses a model whose API key variable is not set", async () => {
    const ran = await runMain(
      ["run", "open the shop", "--model", "m", "--api-key-env", "SEXTANT_TEST_NO_SUCH_KEY"],
      {
        env: noModel,
      },
    )
    expectUsageError(ran, "sextant run: --api-key-env: SEXTANT_TEST_NO_SUCH_KEY is not set")
  })
})

describe("sextant look", () => {
  it(
    "prints the outline of a page with refs",
    async () => {
      const ran = await sextant(["look", `${site().url}/login`])
      expect(ran.code, ran.stderr).toBe(0)
      expect(ran.stdout).toContain(`Sign in · Sextant Shop — ${site().url}/login`)
      expect(ran.stdout).toMatch(/textbox "Email" \[ref=e\d+\]/)
    },
    BROWSER_TEST_MS,
  )

  it("names the URL argument when it is not one", async () => {
    expectUsageError(
      await runMain(["look", "the login page"]),
      "sextant look: <url>: must be an http or https URL",
    )
  })
})

describe("sextant runs and resume", () => {
  it("reports a store that does not exist without creating it", async () => {
    const missing = join(directory(), "nowhere", "sextant.db")
    const ran = await runMain(["runs", "--store", missing])
    expect(ran.code).toBe(0)
    expect(ran.stdout).toContain(`no runs: there is no store at ${missing}`)
    expect(existsSync(missing)).toBe(false)
  })

  it("names a bad --status", async () => {
    expectUsageError(
      await runMain(["runs", "--status", "sideways", "--store", store()]),
      "sextant runs: --status: is one of",
    )
  })

  it("names each secret a stopped run needs again by its flag and variable, before any browser starts", async () => {
    const path = join(directory(), "secrets.db")
    await Effect.runPromise(
      Effect.gen(function* () {
        const task = yield* decodeAgentTask({
          id: "t",
          goal: "open the rota",
          startUrl: "http://alice:<secret:start_url_password>@127.0.0.1:9/staff",
          inputs: { start_url_password: "<secret:start_url_password>" },
          secretInputs: ["start_url_password"],
        })
        const at = new Date().toISOString()
        yield* (yield* Store).saveRun({
          runId: "stopped",
          task,
          status: "CANCELLED",
          mode: "plan",
          startedAt: at,
          updatedAt: at,
        })
      }).pipe(Effect.provide(SqliteStore.layer({ path }))),
    )
    const missing = await runMain(["resume", "stopped", "--store", path], { env: noModel })
    expect(missing.code).toBe(2)
    expect(missing.stderr).toContain(
      "sextant resume: --secret: run stopped needs the secret start_url_password again (the store keeps only its placeholder): give --secret start_url_password and set SEXTANT_SECRET_START_URL_PASSWORD",
    )
    const strange = await runMain(["resume", "stopped", "--store", path, "--secret", "pasword=x"], {
      env: noModel,
    })
    expect(strange.code).toBe(2)
    expect(strange.stderr).toContain(
      "--secret: run stopped has no secret pasword (its secrets: start_url_password)",
    )
    expect(missing.stderr + strange.stderr).not.toMatch(STACK)
  })

  it("names an unknown run", async () => {
    const ran = await runMain(["resume", "no-such-run", "--store", store()], { env: noModel })
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
      await runMain(["fixtures", "--port", "harbour"]),
      "sextant fixtures: --port: must be a port number",
    )
  })
})

import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { FIXTURE_USERS, type FixtureSite, PRODUCTS_PER_PAGE, startFixtureSite } from "@sextant/fixture-site"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { defaultMode } from "../src/internal/RunCommand.ts"
import { runCli } from "./support/Cli.ts"
import { runMain } from "./support/Main.ts"

let site: FixtureSite
let directory: string

beforeAll(async () => {
  site = await startFixtureSite({ port: 0 })
  directory = mkdtempSync(join(tmpdir(), "sextant-cli-run-"))
})

afterAll(async () => {
  await site.close()
  rmSync(directory, { recursive: true, force: true })
})

const sextant = (args: ReadonlyArray<string>, env: Record<string, string> = {}) => runCli(args, { env })

describe("sextant run", () => {
  it("plans a goal, runs it in Chromium and prints the result, reading the secret from the environment", async () => {
    const alice = FIXTURE_USERS[0] as (typeof FIXTURE_USERS)[number]
    const result = await sextant(
      [
        "run",
        `log in, go to ${site.url}/products and extract name and price of the products`,
        "--start-url",
        `${site.url}/login`,
        "--input",
        `username=${alice.email}`,
        "--secret",
        "password",
        "--allow-submit",
        "--mode",
        "plan",
        "--json",
        "--store",
        join(directory, "cli.db"),
        "--trace-dir",
        join(directory, "traces"),
      ],
      { SEXTANT_SECRET_PASSWORD: alice.password },
    )
    expect(result.code, result.stderr).toBe(0)
    const parsed = JSON.parse(result.stdout) as { status: string; output: ReadonlyArray<unknown> }
    expect(parsed.status).toBe("COMPLETED")
    expect(parsed.output).toHaveLength(PRODUCTS_PER_PAGE)
    expect(result.stderr).toContain("[1] login ok")
    expect(result.stdout + result.stderr).not.toContain(alice.password)
  }, 60_000)

  it("says to give --start-url when a run given no page ran no step", async () => {
    const result = await runMain([
      "run",
      "log in",
      "--store",
      join(directory, "no-start.db"),
      "--trace-dir",
      join(directory, "no-start-traces"),
    ])
    expect(result.code, result.stderr).toBe(1)
    expect(result.stdout).toContain("FAILED")
    expect(result.stderr).toContain(
      "hint: no --start-url was given and no step ran, so the run stayed on a blank page: give --start-url URL",
    )
  }, 60_000)

  it("gives no --start-url hint to a run that had a start URL", async () => {
    const result = await runMain([
      "run",
      "log in",
      "--start-url",
      `${site.url}/products`,
      "--max-steps",
      "1",
      "--store",
      join(directory, "with-start.db"),
      "--trace-dir",
      join(directory, "with-start-traces"),
    ])
    expect(result.code, result.stderr).toBe(1)
    expect(result.stderr).not.toContain("--start-url URL")
  }, 60_000)

  it("names the bad argument and exits with 2", async () => {
    const result = await runMain(["run", "open the shop", "--start-url", "javascript:alert(1)"])
    expect(result.code).toBe(2)
    expect(result.stderr).toContain("--start-url: must be an http or https URL")
  })
})

describe("sextant run's mode when --mode is not given", () => {
  it("goes step by step with the rule planner, plans first with a model, and plans a goal naming a package's tool", () => {
    expect(defaultMode("log in and extract the products", { planner: "rules" })).toBe("agent")
    expect(defaultMode("log in and extract the products", { planner: "hybrid" })).toBe("plan")
    expect(defaultMode("log in and extract the products", { planner: "model" })).toBe("plan")
    const tools = [{ name: "tableToCsv" }]
    expect(defaultMode("use tableToCsv on #prices", { planner: "rules", tools })).toBe("plan")
    expect(defaultMode("extract the table", { planner: "rules", tools })).toBe("agent")
  })
})

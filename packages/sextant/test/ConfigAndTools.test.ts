import { spawn } from "node:child_process"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { FIXTURE_PRODUCTS, type FixtureSite, startFixtureSite } from "@sextant/fixture-site"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { defineConfig, loadConfig, SextantConfigSchema } from "../src/index.ts"
import { runMain } from "./support/Main.ts"

const CLI = join(import.meta.dirname, "..", "src", "cli.ts")
const fixtures = join(import.meta.dirname, "fixtures")
let site: FixtureSite
let directory: string

beforeAll(async () => {
  site = await startFixtureSite({ port: 0 })
  directory = mkdtempSync(join(tmpdir(), "sextant-config-"))
})

afterAll(async () => {
  await site?.close()
  rmSync(directory, { recursive: true, force: true })
})

const sextant = (args: ReadonlyArray<string>) =>
  new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
    const environment = { ...process.env }
    for (const name of ["OPENAI_BASE_URL", "OPENAI_API_KEY", "SEXTANT_MODEL", "OPENAI_MODEL"])
      delete environment[name]
    const child = spawn(process.execPath, ["--conditions=sextant-source", CLI, ...args], {
      env: environment,
      cwd: directory,
      stdio: ["ignore", "pipe", "pipe"],
    })
    let stdout = ""
    let stderr = ""
    child.stdout.on("data", (chunk) => (stdout += String(chunk)))
    child.stderr.on("data", (chunk) => (stderr += String(chunk)))
    child.on("close", (code) => resolve({ code, stdout, stderr }))
  })

// Usage errors and messages call the CLI's `main` in this process, in the same folder and environment.
const inProcess = (args: ReadonlyArray<string>) =>
  runMain(args, {
    cwd: directory,
    env: {
      OPENAI_BASE_URL: undefined,
      OPENAI_API_KEY: undefined,
      SEXTANT_MODEL: undefined,
      OPENAI_MODEL: undefined,
    },
  })

describe("sextant.config.ts", () => {
  it("types the config with defineConfig and checks it with its schema", () => {
    const config = defineConfig({ tools: ["@sextant/tools-table"], constraints: { maxSteps: 10 } })
    expect(SextantConfigSchema.parse(config)).toMatchObject({ tools: ["@sextant/tools-table"] })
    expect(SextantConfigSchema.safeParse({ modle: {} }).success).toBe(false)
  })

  it("names every wrong field of a config file", async () => {
    const error = await loadConfig(join(fixtures, "bad-config", "sextant.config.ts")).then(
      () => undefined,
      (reason: unknown) => reason as { issues: ReadonlyArray<string> },
    )
    expect(error?.issues).toEqual([
      "model.baseURL: must be an http or https URL",
      "constraints.maxSteps: Too small: expected number to be >0",
    ])
  })

  it("resolves undefined when there is no config in the folder", async () => {
    expect(await loadConfig(undefined, directory)).toBeUndefined()
  })
})

describe("a tool package loaded by name from the config", () => {
  it("is planned from plain words by the rule planner and runs in Chromium", async () => {
    const product = FIXTURE_PRODUCTS[1]!
    const ran = await sextant([
      "run",
      "use tableToCsv on table",
      "--start-url",
      `${site.url}/products/${product.id}`,
      "--config",
      join(fixtures, "table-config", "sextant.config.ts"),
      "--json",
    ])
    expect(ran.code, ran.stderr).toBe(0)
    expect(ran.stderr).toContain("planner: rules")
    expect(ran.stderr).toContain("plan (revision 0): navigate → tableToCsv")
    const result = JSON.parse(ran.stdout) as { status: string; output: { csv: string; rows: number } }
    expect(result.status).toBe("COMPLETED")
    expect(result.output.rows).toBe(5)
    expect(result.output.csv).toContain(`SKU,${product.sku}\n`)
    expect(result.output.csv).toContain(`Material,${product.material}\n`)
  }, 90_000)

  it("names the config field of a tool package that is not installed", async () => {
    const ran = await inProcess([
      "run",
      "use tableToCsv on table",
      "--config",
      join(fixtures, "missing-tool-config", "sextant.config.ts"),
    ])
    expect(ran.code).toBe(2)
    expect(ran.stderr).toContain('tools[1]: cannot load "@acme/sextant-tools-missing"')
    expect(ran.stderr).not.toMatch(/\bat .*:\d+:\d+/)
  }, 90_000)

  it("names the wrong fields of a config file given with --config", async () => {
    const ran = await inProcess([
      "run",
      "click Next",
      "--config",
      join(fixtures, "bad-config", "sextant.config.ts"),
    ])
    expect(ran.code).toBe(2)
    expect(ran.stderr).toContain("model.baseURL: must be an http or https URL")
    expect(ran.stderr).toContain("constraints.maxSteps: Too small")
  }, 90_000)
})

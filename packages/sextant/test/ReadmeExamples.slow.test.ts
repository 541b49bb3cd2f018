import { mkdtempSync, readFileSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { FIXTURE_USERS, type FixtureSite, PRODUCTS_PER_PAGE, startFixtureSite } from "@sextant/fixture-site"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { createAgent } from "../src/index.ts"
import { runCli } from "./support/Cli.ts"

let site: FixtureSite
let directory: string

beforeAll(async () => {
  site = await startFixtureSite({ port: 0 })
  directory = mkdtempSync(join(tmpdir(), "sextant-cli-readme-"))
})

afterAll(async () => {
  await site.close()
  rmSync(directory, { recursive: true, force: true })
})

const sextant = (args: ReadonlyArray<string>, env: Record<string, string> = {}) =>
  runCli(
    [...args, "--json", "--store", join(directory, "cli.db"), "--trace-dir", join(directory, "traces")],
    { env },
  )

const alice = FIXTURE_USERS[0] as (typeof FIXTURE_USERS)[number]

/** `sextant run <goal> <flags>` from the login page, with alice's user name and her password as a secret. */
const runAsAlice = (goal: string, flags: ReadonlyArray<string>) =>
  sextant(
    [
      "run",
      goal,
      ...flags,
      "--start-url",
      `${site.url}/login`,
      "--input",
      `username=${alice.email}`,
      "--secret",
      "password",
      "--allow-submit",
    ],
    { SEXTANT_SECRET_PASSWORD: alice.password },
  )

describe("the README's sextant run examples on the fixture site", () => {
  for (const mode of ["plan", "agent"] as const) {
    it(`"log in and extract the products" (${mode} mode) follows the dashboard's link that names the products and extracts them`, async () => {
      const result = await runAsAlice("log in and extract the products", ["--mode", mode])
      expect(result.code, result.stderr).toBe(0)
      const parsed = JSON.parse(result.stdout) as { status: string; output: ReadonlyArray<unknown> }
      expect(parsed.status).toBe("COMPLETED")
      expect(parsed.output).toHaveLength(PRODUCTS_PER_PAGE)
      expect(result.stdout + result.stderr).not.toContain(alice.password)
    }, 90_000)
  }

  it('"log in and extract the articles" finds no link naming articles and ends FAILED, not COMPLETED', async () => {
    const result = await runAsAlice("log in and extract the articles", [
      "--mode",
      "agent",
      "--max-steps",
      "3",
    ])
    expect(result.code, result.stderr).toBe(1)
    const parsed = JSON.parse(result.stdout) as { status: string }
    expect(parsed.status).toBe("FAILED")
    expect(result.stderr).not.toContain("following the link")
  }, 90_000)

  it('"登录，然后提取商品的名称和价格" logs in and extracts the name and price of the products', async () => {
    const result = await runAsAlice("登录，然后提取商品的名称和价格", [])
    expect(result.code, result.stderr).toBe(0)
    const parsed = JSON.parse(result.stdout) as { status: string; output: ReadonlyArray<unknown> }
    expect(parsed.status).toBe("COMPLETED")
    expect(parsed.output).toHaveLength(PRODUCTS_PER_PAGE)
    expect(parsed.output[0]).toEqual({ name: "Brass Sextant", price: "$168.99" })
  }, 90_000)

  for (const mode of ["plan", "agent"] as const) {
    it(`"在搜索框输入 lantern 并搜索" (${mode} mode) types lantern into the search box and sends the search`, async () => {
      const result = await sextant([
        "run",
        "在搜索框输入 lantern 并搜索",
        "--mode",
        mode,
        "--start-url",
        `${site.url}/search`,
        "--allow-submit",
      ])
      expect(result.code, result.stderr).toBe(0)
      const parsed = JSON.parse(result.stdout) as { status: string; url?: string }
      expect(parsed.status).toBe("COMPLETED")
      expect(result.stdout).toContain("q=lantern")
    }, 90_000)
  }
})

/** The README's Promise-facade example: its goal, and the first record and status its comments show. */
const facadeExample = () => {
  const readme = readFileSync(new URL("../README.md", import.meta.url), "utf8")
  const block = readme.slice(readme.indexOf("## The Promise facade")).split("```ts")[1]?.split("```")[0] ?? ""
  const goal = /goal: "([^"]+)"/.exec(block)?.[1]
  const status = /console\.log\(result\.status\) \/\/ "(\w+)"/.exec(block)?.[1]
  const first = /console\.log\(result\.output\) \/\/ \[(\{[^}]*\}), …\]/.exec(block)?.[1]
  return {
    goal,
    status,
    // `{ name: "Brass Sextant", price: "$168.99" }` read as JSON once its keys are quoted.
    first: first === undefined ? undefined : (JSON.parse(first.replace(/(\w+):/g, '"$1":')) as unknown),
  }
}

describe("the README's Promise facade example", () => {
  it("shows the status and the first record the run really gives", async () => {
    const example = facadeExample()
    expect(example.goal).toBeDefined()
    await using agent = createAgent({ store: "memory", traceDirectory: false })
    const result = await agent.run({
      goal: (example.goal ?? "").replace("http://127.0.0.1:4000", site.url),
      startUrl: `${site.url}/login`,
      inputs: { username: alice.email, password: alice.password },
      secretInputs: ["password"],
      constraints: { allowFormSubmission: true },
    })
    expect(result.status).toBe(example.status)
    expect((result.output as ReadonlyArray<unknown>)[0]).toEqual(example.first)
  }, 90_000)
})

import { mkdtempSync, readFileSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { FIXTURE_USERS, type FixtureSite, startFixtureSite } from "@sextant/fixture-site"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { runCli } from "./support/Cli.ts"

let site: FixtureSite
let directory: string

beforeAll(async () => {
  site = await startFixtureSite({ port: 0 })
  directory = mkdtempSync(join(tmpdir(), "sextant-failure-report-"))
})

afterAll(async () => {
  await site.close()
  rmSync(directory, { recursive: true, force: true })
})

const alice = FIXTURE_USERS[0] as (typeof FIXTURE_USERS)[number]

describe("sextant run's report of a failed run", () => {
  it("leads with the first cause: the step, the page it failed on and what the page showed", async () => {
    const ran = await runCli(
      [
        "run",
        "log in, then search for lantern, then extract the name of the results",
        "--start-url",
        `${site.url}/login`,
        "--input",
        `username=${alice.email}`,
        "--secret",
        "password",
        "--allow-submit",
        "--mode",
        "plan",
        "--store",
        join(directory, "cli.db"),
        "--trace-dir",
        join(directory, "traces"),
      ],
      { env: { SEXTANT_SECRET_PASSWORD: alice.password } },
    )
    expect(ran.code, ran.stderr).toBe(1)
    const lines = ran.stdout.split("\n")
    expect(lines[0]).toBe(
      `FAILED at step 3 (search) on ${site.url}/dashboard (the page showed the heading "Welcome, Alice"): search: no search field on ${site.url}/dashboard: navigate to a page with a search box, or give selectors.input`,
    )
    expect(lines[1]).toMatch(/^\(plan-failed\) in \d+ ms, 4 steps, 0 retries, 1 replans$/)
    // The consequence after the cause; no quota blamed, no wait condition printed as output.
    expect(lines[2]).toMatch(/^Then: .*the replan gave the same steps back/)
    // The README shows these three lines: they are the run's, with the example's site address.
    const readme = readFileSync(new URL("../README.md", import.meta.url), "utf8")
    const shown = readme.split("A failed run's first line")[1]?.split("```text\n")[1]?.split("```")[0] ?? ""
    const expected = shown.trim().replaceAll("http://127.0.0.1:4000", site.url).split("\n")
    expect(expected).toHaveLength(3)
    expect(lines.slice(0, 3).map((line) => line.replace(/ in \d+ ms,/, " in N ms,"))).toEqual(
      expected.map((line) => line.replace(/ in \d+ ms,/, " in N ms,")),
    )
    // Planned by the rules from the words alone: the way to a run that reads the page is named.
    expect(ran.stderr).toContain("--mode agent reads the page before each step")
    expect(ran.stdout).not.toContain("quota")
    expect(ran.stdout).not.toMatch(/^output:/m)
    expect(ran.stdout + ran.stderr).not.toContain(alice.password)
  }, 90_000)
})

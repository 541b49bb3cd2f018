import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { type FixtureSite, startFixtureSite } from "@sextant/fixture-site"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { runCli } from "./support/Cli.ts"

const directory = mkdtempSync(join(tmpdir(), "sextant-explorer-cli-"))
const sites: Array<FixtureSite> = []
let site: FixtureSite
beforeAll(async () => {
  site = await startFixtureSite()
  sites.push(site)
})
afterAll(async () => {
  await Promise.all(sites.map((started) => started.close()))
  rmSync(directory, { recursive: true, force: true })
})

// In the slow set (`pnpm test:slow`): the whole explore → test → heal → export chain and the explore
// summary, spawns of the real `sextant` command, each with its own Chromium. ExplorerCommands.test.ts
// keeps the usage errors.
describe("sextant explore, test, heal and export", () => {
  it("explores, writes the map and tests, runs them, heals renamed ids and exports a WebdriverIO script", async () => {
    const tests = join(directory, "contact.tests.yaml")
    const explored = await runCli([
      "explore",
      `${site.url}/forms/contact`,
      "--max-depth",
      "0",
      "--submit-forms",
      "--out",
      join(directory, "map.json"),
      "--mermaid",
      join(directory, "map.mmd"),
      "--tests",
      tests,
    ])
    expect(explored.stderr).toContain("found p0 Form")
    expect(explored.stdout).toContain("contact form [")
    expect(explored.stdout).toContain("Email: email*")
    expect(explored.stdout).toContain("3 tests written to")
    expect(explored.stdout).toContain("1 pages, 0 transitions, 1 forms (1 submitted), 0 URLs skipped\n")
    expect(explored.code).toBe(0)
    expect(readFileSync(join(directory, "map.mmd"), "utf8")).toMatch(
      /^flowchart LR\n {2}p0\["Form: Contact us"\]/,
    )

    const junit = join(directory, "junit.xml")
    const passed = await runCli(["test", tests, "--junit", junit])
    expect(passed.stdout).toContain("3 passed, 0 failed")
    expect(passed.code).toBe(0)
    expect(readFileSync(junit, "utf8")).toContain('failures="0"')

    const drifted = await startFixtureSite({ drift: ["contact-heading"] })
    sites.push(drifted)
    const failed = await runCli(["test", tests, "--base-url", drifted.url])
    expect(failed.stdout).toContain(
      '[assertion] step 4 (Assert): expected the page to show "Contact us"; it shows: "Get in touch',
    )
    expect(failed.code).toBe(1)

    const renamed = await startFixtureSite({ seed: 7 })
    sites.push(renamed)
    // Every id renamed: sextant test finds each element by role and name, as the exported script does.
    const fellBack = await runCli(["test", tests, "--base-url", renamed.url])
    expect(fellBack.stdout).toMatch(
      /fell back at step 2: textbox "Name" — #name matches nothing, found by role and name as #name-\w+/,
    )
    expect(fellBack.stdout).toContain("3 passed, 0 failed")
    expect(fellBack.code).toBe(0)
    const healed = await runCli(["heal", tests, "--base-url", renamed.url])
    expect(healed.stdout).toMatch(/textbox "Name": #name → #name-\w+/)
    expect(healed.stdout).toContain(
      `patch written for review: ${join(directory, "contact.tests.healed.yaml")}`,
    )
    expect(healed.code).toBe(0)
    expect(existsSync(join(directory, "contact.tests.heal.txt"))).toBe(true)

    const script = join(directory, "contact.wdio.ts")
    const exported = await runCli(["export", tests, "--to", "wdio", "--out", script])
    expect(exported.code).toBe(0)
    expect(readFileSync(script, "utf8")).toContain('import { remote } from "webdriverio"')
    // Each command starts its own Node and Chromium: generous on a loaded machine.
  }, 300_000)

  it("sums up the skipped URLs by reason and lists each one only with --verbose", async () => {
    const args = ["explore", `${site.url}/products`, "--max-depth", "1", "--max-pages", "2"]
    const quiet = await runCli(args)
    expect(quiet.code).toBe(0)
    expect(quiet.stdout).toMatch(
      /^2 pages, \d+ transitions, 0 forms \(0 submitted\), (\d+) URLs skipped by reason:$/m,
    )
    const skipped = Number(/(\d+) URLs skipped by reason/.exec(quiet.stdout)?.[1])
    expect(skipped).toBeGreaterThan(1)
    expect(quiet.stdout).toContain(`  ${String(skipped).padStart(5)}  maxPages (2) reached\n`)
    expect(quiet.stdout).toContain("(--verbose lists every skipped URL as it is skipped)")
    expect(quiet.stderr).not.toContain("skipped")
    const verbose = await runCli([...args, "--verbose"])
    expect(verbose.stderr.match(/^ {2}skipped http\S+: maxPages \(2\) reached$/gm)).toHaveLength(skipped)
    expect(verbose.stdout).not.toContain("--verbose")
  }, 180_000)
})

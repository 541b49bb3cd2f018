import { mkdtempSync, readFileSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import {
  type AttackerOrigin,
  type FixtureSite,
  startAttackerOrigin,
  startFixtureSite,
} from "@sextant/fixture-site"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { runCli } from "./support/Cli.ts"

/**
 * `sextant explore --submit-forms` with a password, as the security review ran it: against a form that
 * posts to another origin and one whose answer is a 307 there. The other origin logs every request; it
 * never receives the password, and nothing the command prints or writes holds it.
 */

const PASSWORD = "open sesame+42&x"

const spellings = (value: string): Array<string> => {
  const uri = encodeURIComponent(value)
  const form = new URLSearchParams({ v: value }).toString().slice(2)
  const lower = (text: string) => text.replace(/%[0-9A-F]{2}/g, (sequence) => sequence.toLowerCase())
  return [...new Set([value, uri, lower(uri), encodeURI(value), form, lower(form)])]
}
const holds = (text: string, value = PASSWORD): boolean =>
  spellings(value).some((form) => text.includes(form))

const directory = mkdtempSync(join(tmpdir(), "sextant-hostile-explore-"))
let site: FixtureSite
let attacker: AttackerOrigin
beforeAll(async () => {
  site = await startFixtureSite()
  attacker = await startAttackerOrigin()
})
afterAll(async () => {
  await attacker?.close()
  await site?.close()
  rmSync(directory, { recursive: true, force: true })
})

const exploreWith = async (url: string, name: string, password: string, flag = "--value") => {
  const files = {
    map: join(directory, `${name}.map.json`),
    mermaid: join(directory, `${name}.mmd`),
    tests: join(directory, `${name}.tests.yaml`),
  }
  const since = attacker.requests.length
  const run = await runCli([
    "explore",
    url,
    "--max-depth",
    "0",
    "--submit-forms",
    "--value",
    "Email=alice@example.com",
    flag,
    `Password=${password}`,
    "--out",
    files.map,
    "--mermaid",
    files.mermaid,
    "--tests",
    files.tests,
    // Every skipped URL on standard error too: neither it nor the summary may hold the password.
    "--verbose",
  ])
  const written = [files.map, files.mermaid, files.tests].map((path) => readFileSync(path, "utf8")).join("\n")
  return { ...run, written, requests: attacker.requests.slice(since) }
}

describe("sextant explore --submit-forms --value Password=…", () => {
  for (const [path, what, flag] of [
    ["/hostile/offsite-form", "a form posting to another origin", "--value"],
    ["/hostile/redirect-post", "a form answered with a 307 to another origin", "--value"],
    ["/hostile/redirect-post", "a form answered with a 307 to another origin", "--secret-value"],
  ] as const) {
    it(`never sends the password given with ${flag} to ${what}, and prints and writes only its placeholder`, async () => {
      const url = `${site.url}${path}?to=${encodeURIComponent(attacker.url)}`
      const run = await exploreWith(url, `${path.split("/").pop()}${flag}`, PASSWORD, flag)
      expect(run.code).toBe(0)
      expect(run.requests.filter((request) => holds(JSON.stringify(request)))).toEqual([])
      expect(holds(`${run.stdout}\n${run.stderr}\n${run.written}`)).toBe(false)
      expect(run.stderr).toMatch(/skipped .*holds <secret:Password>/)
      expect(run.stdout).toMatch(/URLs skipped by reason:\n\s+1 {2}.*holds <secret:Password>/)
      expect(run.written).toContain("<secret:Password>")
    }, 90_000)
  }

  it("signs in on the site's own login form and writes tests that read the password from the environment", async () => {
    const run = await exploreWith(`${site.url}/login`, "login", "wonderland")
    expect(run.code).toBe(0)
    expect(run.requests).toEqual([])
    expect(run.stderr).toMatch(/submitted "Sign in" \(valid\) → http:\/\/127\.0\.0\.1:\d+\/dashboard/)
    expect(holds(`${run.stdout}\n${run.stderr}\n${run.written}`, "wonderland")).toBe(false)
    expect(readFileSync(join(directory, "login.tests.yaml"), "utf8")).toContain("SEXTANT_SECRET_PASSWORD")
  }, 90_000)
})

import { FIXTURE_USERS, type FixtureSite, startFixtureSite } from "@sextant/fixture-site"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type CliRun, runCli as runCliWith } from "./support/Cli.ts"
import { runMain } from "./support/Main.ts"

const runCli = (args: ReadonlyArray<string>, input: string): Promise<CliRun> => runCliWith(args, { input })

let site: FixtureSite
beforeAll(async () => {
  site = await startFixtureSite({ port: 0, seed: 0 })
})
afterAll(async () => {
  await site?.close()
})

describe("sextant repl with piped stdin", () => {
  it("looks, acts, evaluates and quits against the fixture site", async () => {
    const alice = FIXTURE_USERS[0]!
    // A first session reads the refs; a fresh session on the same page numbers them the same way.
    const first = await runCli(["repl", `${site.url}/login`], "look\n")
    const ref = (role: string, name: string) =>
      new RegExp(`${role} "${name}" \\[ref=(e\\d+)\\]`).exec(first.stdout)?.[1]
    const email = ref("textbox", "Email")
    const password = ref("textbox", "Password")
    const signIn = ref("button", "Sign in")
    expect([email, password, signIn].every((found) => found !== undefined)).toBe(true)

    const script = [
      "look",
      `act ${email} input ${alice.email}`,
      `act ${password} input ${alice.password}`,
      `act ${signIn} click`,
      "eval document.querySelector('h1').textContent",
      "act e999 click",
      "go dashboard",
      "frobnicate",
      "quit",
      "look",
    ].join("\n")
    const ran = await runCli(["repl", `${site.url}/login`], `${script}\n`)
    expect(ran.code).toBe(0)
    expect(ran.stdout).toContain(`ok: Sign in · Sextant Shop — ${site.url}/login`)
    expect(ran.stdout).toContain(`textbox "Email" [ref=${email}]`)
    expect(ran.stdout).toContain("navigation detected: /dashboard")
    expect(ran.stdout).toContain("signals: NavigationOccurred")
    expect(ran.stdout).toMatch(/^actions: e\d+ link "[^"]+" \(click\)/m)
    expect(ran.stdout).toContain(`Welcome, ${alice.name}`)
    expect(ran.stdout).toContain("error: ref e999 is stale: call look() to refresh")
    expect(ran.stdout).toContain('error: cannot open "dashboard": it is not an absolute URL')
    expect(ran.stdout).toContain('unknown command "frobnicate": type help for the list')
    expect(ran.stdout).not.toContain(alice.password)
    // Nothing after quit runs; the browser is closed.
    expect(ran.stdout.trimEnd().endsWith("bye")).toBe(true)
    expect(ran.stdout.match(/^- footer:/gm)).toHaveLength(1)
    expect(ran.stderr).not.toMatch(/\bat .*\.ts:\d+/)
  }, 90_000)

  it("rejects a URL that is not http(s) without a stack trace", async () => {
    const ran = await runMain(["repl", "ftp://example.com"])
    expect(ran.code).toBe(2)
    expect(ran.stderr).toContain("sextant repl: url: must be an http or https URL")
    expect(ran.stderr).not.toMatch(/\bat .*:\d+:\d+/)
  })

  it("names the env var when Chromium is missing", async () => {
    const ran = await runMain(["repl", "--chrome", "/nonexistent/chromium"])
    expect(ran.code).toBe(1)
    expect(ran.stderr).toContain("SEXTANT_CHROME")
    expect(ran.stderr).not.toMatch(/\bat .*:\d+:\d+/)
  })

  it("reports an unknown command with the usage and exit code 2", async () => {
    const ran = await runMain(["fly"])
    expect(ran.code).toBe(2)
    expect(ran.stderr).toContain("unknown command 'fly'")
  })
})

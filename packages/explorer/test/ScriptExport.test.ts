import { mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { runNode } from "@sextant/testing"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { explore, exportWdioScript, generateTests, runSuite, type TestSuite } from "../src/index.ts"
import { useBrowser } from "./support/Browser.ts"

const browser = useBrowser()
// Inside the package, so the script's `import "webdriverio"` resolves as it would in a user's project.
const directory = mkdtempSync(join(import.meta.dirname, "..", ".exported-"))
const env = { SHOP_PASSWORD: "wonderland" }
let suite: TestSuite

beforeAll(async () => {
  const site = await browser.site()
  const map = await browser.run(
    explore(`${site.url}/login`, {
      maxDepth: 0,
      submitForms: true,
      values: { Email: "alice@example.com", Password: env.SHOP_PASSWORD },
    }),
  )
  const generated = generateTests(map, { name: "sign-in", secrets: { Password: "SHOP_PASSWORD" } })
  suite = {
    ...generated,
    tests: generated.tests.filter((test) => test.name.includes("filled with the suggested values")),
  }
})

afterAll(() => rmSync(directory, { recursive: true, force: true }))

/** Runs an exported script with plain Node and WebdriverIO, as its user would. */
const runScript = (file: string, environment: Record<string, string>) => runNode([file], environment, 120_000)

describe("exportWdioScript", () => {
  it("writes a script that plain WebdriverIO runs to the same end state as the Sextant runner, ids renamed or not, both falling back to role and name", async () => {
    expect(suite.tests.map((test) => test.name)).toEqual([
      'login form "Sign in" on /login filled with the suggested values goes to /dashboard and shows "Welcome, Alice"',
    ])
    const plain = await browser.site()
    const sextant = await browser.run(runSuite(suite, { env, baseUrl: plain.url }))
    expect(sextant.failed).toBe(0)
    // The request guard over the password takes the tab off the page when the test ends: the test's own
    // assertion read the page it ended on.
    expect(
      sextant.tests[0]?.assertions.find((assertion) => assertion.assertion.includes("/dashboard")),
    ).toMatchObject({ passed: true, actual: `${plain.url}/dashboard` })

    const script = exportWdioScript(suite)
    expect(script).not.toMatch(/@sextant\//)
    expect(script).toContain('secret("SHOP_PASSWORD")')
    expect(script).not.toContain("wonderland")
    const file = join(directory, "sign-in.wdio.ts")
    writeFileSync(file, script)
    // Seed 3 renames every id: the script falls back to each element's role and accessible name.
    const sites = [plain, await browser.site({ seed: 3 })]
    // The scripts are separate Node processes with their own Chromium: both run while the Sextant runner
    // takes the same suite through the test's browser.
    const scripts = sites.map((site) => runScript(file, { BASE_URL: site.url, ...env }))
    for (const [index, site] of sites.entries()) {
      // sextant test falls back by the same rules as the script: both pass on both seeds.
      const ours = await browser.run(runSuite(suite, { env, baseUrl: site.url }))
      expect(ours.tests.map((test) => test.error?.message)).toEqual([undefined])
      const result = await scripts[index]
      if (result === undefined) throw new Error(`no script run for ${site.url}`)
      expect(result.output).toContain(
        `ok login form "Sign in" on /login filled with the suggested values goes to /dashboard and shows "Welcome, Alice" (ended on ${site.url}/dashboard)`,
      )
      expect(result.code).toBe(0)
      if (site === plain) expect(result.output).not.toContain("fell back")
      else
        expect(result.output).toContain(
          'fell back: textbox "Email": #email matches nothing, found by role and name',
        )
    }
    // Each script starts its own Node and Chromium: generous on a loaded machine.
  }, 240_000)

  it("fails with the expectation it could not meet, and exits 1", async () => {
    const site = await browser.site()
    const file = join(directory, "wrong-password.wdio.ts")
    writeFileSync(file, exportWdioScript(suite, { timeoutMs: 1500 }))
    const result = await runScript(file, { BASE_URL: site.url, SHOP_PASSWORD: "not-the-password" })
    expect(result.code).toBe(1)
    expect(result.output).toContain(
      'FAILED login form "Sign in" on /login filled with the suggested values goes to /dashboard and shows "Welcome, Alice": expected the URL contains "/dashboard"',
    )
  }, 120_000)
})

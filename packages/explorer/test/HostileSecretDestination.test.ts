import { mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { type AttackerOrigin, startAttackerOrigin } from "@sextant/fixture-site"
import { runNode } from "@sextant/testing"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { exportWdioScript, generateTests, parseAppMap, runSuite, type TestSuite } from "../src/index.ts"
import { useBrowser } from "./support/Browser.ts"

/**
 * A test that reads a secret from the environment (`sextant test`, or the exported WebdriverIO script) on a
 * page of the site under test whose sign-in form posts to another origin (the fixture site's
 * `/hostile/offsite-form`): the secret is typed only on the site the test starts on, into a form that sends
 * it there, so nothing is typed and the other origin gets nothing. And the tests the explorer generates
 * never let a field's label on the page pick which of the user's secrets a test types.
 * Real headless Chromium on the fixture site.
 */

const browser = useBrowser()
const PASSWORD = "Lanternfish-77"
let attacker: AttackerOrigin
// Inside the package, so the script's `import "webdriverio"` resolves as it would in a user's project.
const directory = mkdtempSync(join(import.meta.dirname, "..", ".exported-"))

beforeAll(async () => {
  attacker = await startAttackerOrigin()
})
afterAll(async () => {
  await attacker?.close()
  rmSync(directory, { recursive: true, force: true })
})

const offsiteSuite = (baseUrl: string): TestSuite => ({
  version: 1,
  name: "offsite",
  baseUrl,
  tests: [
    {
      name: "signs in on a form that posts elsewhere",
      startUrl: `/hostile/offsite-form?to=${encodeURIComponent(attacker.url)}`,
      steps: [
        {
          type: "FillAndSubmit",
          fields: [
            {
              target: { role: "textbox", name: "Email", selector: "#email" },
              fieldType: "email",
              value: "ann@example.com",
            },
            {
              target: { role: "textbox", name: "Password", selector: "#password" },
              fieldType: "password",
              variable: "SEXTANT_SECRET_PASSWORD",
            },
          ],
          submit: { role: "button", name: "Sign in", selector: "#login-btn" },
        },
      ],
    },
  ],
})

/** A suite whose one test signs in on `path` of the site, reading the password from SEXTANT_SECRET_PASSWORD. */
const signInSuite = (baseUrl: string, path: string): TestSuite => {
  const suite = offsiteSuite(baseUrl)
  return { ...suite, tests: suite.tests.map((test) => ({ ...test, startUrl: path })) }
}

describe("a secret from the environment sent elsewhere by the page after it was typed", () => {
  it("is blocked by sextant test's request guard when the submit button's formaction posts to another origin: the test fails naming it", async () => {
    const site = await browser.site()
    const since = attacker.requests.length
    const result = await browser.run(
      runSuite(signInSuite(site.url, `/hostile/formaction-button?to=${encodeURIComponent(attacker.url)}`), {
        env: { SEXTANT_SECRET_PASSWORD: PASSWORD },
        assertTimeoutMs: 300,
      }),
    )
    expect(result.failed).toBe(1)
    expect(result.tests[0]?.error?.kind).toBe("secret")
    const message = result.tests[0]?.error?.message ?? ""
    expect(message).toContain(`request to ${attacker.url}`)
    expect(message).toContain("<secret:SEXTANT_SECRET_PASSWORD>")
    await new Promise((resolve) => setTimeout(resolve, 300))
    expect(JSON.stringify(attacker.requests.slice(since))).not.toContain(PASSWORD)
    expect(JSON.stringify(result)).not.toContain(PASSWORD)
  }, 60_000)

  it("is blocked by sextant test's request guard when a GET form would put it into the next page's URL on the site itself", async () => {
    const site = await browser.site()
    const result = await browser.run(
      runSuite(signInSuite(site.url, "/hostile/default-get-form"), {
        env: { SEXTANT_SECRET_PASSWORD: PASSWORD },
        assertTimeoutMs: 300,
      }),
    )
    expect(result.failed).toBe(1)
    expect(result.tests[0]?.error?.kind).toBe("secret")
    expect(result.tests[0]?.error?.message).toContain("in its url")
    expect(JSON.stringify(result)).not.toContain(PASSWORD)
  }, 60_000)
})

describe("a secret from the environment on a form that posts to another origin", () => {
  it("is not typed by sextant test: the step fails naming the other origin, which receives nothing", async () => {
    const site = await browser.site()
    const since = attacker.requests.length
    const result = await browser.run(
      runSuite(offsiteSuite(site.url), { env: { SEXTANT_SECRET_PASSWORD: PASSWORD }, assertTimeoutMs: 300 }),
    )
    expect(result.failed).toBe(1)
    const message = result.tests[0]?.error?.message ?? ""
    expect(message).toContain(`SEXTANT_SECRET_PASSWORD is typed only on ${new URL(site.url).origin}`)
    expect(message).toContain(attacker.url)
    await new Promise((resolve) => setTimeout(resolve, 300))
    expect(attacker.requests.slice(since)).toEqual([])
    expect(JSON.stringify(result)).not.toContain(PASSWORD)
  }, 60_000)

  /**
   * Runs the suite exported as a WebdriverIO script with the password in the environment: the script must
   * stop before typing it, naming the site and the other origin, and the other origin must receive nothing.
   */
  const scriptRefuses = async (name: string, suite: TestSuite, siteUrl: string) => {
    const since = attacker.requests.length
    const file = join(directory, `${name}.wdio.ts`)
    writeFileSync(file, exportWdioScript(suite))
    const result = await runNode([file], { BASE_URL: siteUrl, SEXTANT_SECRET_PASSWORD: PASSWORD }, 120_000)
    expect(result.output).toContain(`a secret is typed only on ${new URL(siteUrl).origin}`)
    expect(result.output).toContain(attacker.url)
    expect(result.output).not.toContain(PASSWORD)
    await new Promise((resolve) => setTimeout(resolve, 300))
    expect(attacker.requests.slice(since)).toEqual([])
  }

  it("is not typed by the exported WebdriverIO script: it stops before a key is sent, and the other origin receives nothing", async () => {
    const site = await browser.site()
    await scriptRefuses("offsite", offsiteSuite(site.url), site.url)
  }, 150_000)

  it("is not typed by the exported WebdriverIO script when the submit button's formaction posts to another origin", async () => {
    const site = await browser.site()
    const path = `/hostile/formaction-button?to=${encodeURIComponent(attacker.url)}`
    await scriptRefuses("formaction", signInSuite(site.url, path), site.url)
  }, 150_000)
})

describe("tests generated from a map whose password field the explorer filled with its own test value", () => {
  it("type that value again and read no variable: the field's label never picks one of the user's secrets", () => {
    const map = parseAppMap(
      JSON.stringify({
        version: 1,
        startUrl: "http://127.0.0.1:4000/connect",
        createdAt: "2026-11-30T00:00:00.000Z",
        pages: [
          {
            id: "p1",
            fingerprint: "f1",
            url: "http://127.0.0.1:4000/connect",
            depth: 0,
            model: {
              url: "http://127.0.0.1:4000/connect",
              title: "Connect",
              purpose: "connect an account",
              category: "Form",
              forms: [
                {
                  purpose: "other",
                  name: "Connect",
                  fields: [
                    {
                      label: "GitHub token",
                      fieldType: "password",
                      required: true,
                      suggestedValue: "Sextant-Test-1",
                      locator: { role: "textbox", name: "GitHub token", selector: "#token" },
                    },
                  ],
                  submit: { role: "button", name: "Connect", selector: "#go" },
                },
              ],
              outputs: [],
              suggestedAssertions: [],
              navigationTargets: [],
            },
            formOutcomes: {
              Connect: [
                { variant: "valid", url: "http://127.0.0.1:4000/connected", appeared: [], signals: [] },
              ],
            },
          },
        ],
        transitions: [],
      }),
    )
    const suite = generateTests(map)
    const fields = suite.tests.flatMap((test) =>
      test.steps.flatMap((step) => (step.type === "FillAndSubmit" ? step.fields : [])),
    )
    expect(fields.map((field) => [field.target.name, field.value, field.variable])).toEqual([
      ["GitHub token", "Sextant-Test-1", undefined],
    ])
    expect(JSON.stringify(suite)).not.toContain("SEXTANT_SECRET_")
  })
})

import { describe, expect, it } from "vitest"
import { formatConsoleReport, formatJunitXml, runSuite, type TestSuite } from "../src/index.ts"
import { useBrowser } from "./support/Browser.ts"

/**
 * `sextant test` on a page that echoes what is typed into its password field (upper-cased and spelled
 * out, the fixture site's `/hostile/echo`): a failing assertion quotes what the page shows, and the
 * password read from the environment must not come with it, in the verdict, the console report or the
 * JUnit file. Real headless Chromium on the fixture site.
 */

const browser = useBrowser()
const PASSWORD = "Lanternfish"
const env = { SEXTANT_SECRET_PASSWORD: PASSWORD }

const suite = (baseUrl: string): TestSuite => ({
  version: 1,
  name: "echo",
  baseUrl,
  tests: [
    {
      name: "types the password, then looks for a text the page does not show",
      startUrl: "/hostile/echo",
      steps: [
        {
          type: "FillForm",
          fields: [
            {
              target: { role: "textbox", name: "Password", selector: "#password" },
              fieldType: "password",
              variable: "SEXTANT_SECRET_PASSWORD",
            },
          ],
        },
        { type: "Assert", assertion: { type: "TextPresent", text: "nowhere on the page" } },
      ],
    },
  ],
})

describe("a test that types a secret from the environment", () => {
  it("never quotes the secret, in any case or spaced out, when an assertion quotes the page", async () => {
    const site = await browser.site()
    const result = await browser.run(runSuite(suite(site.url), { env, assertTimeoutMs: 300 }))
    expect(result.failed).toBe(1)
    const message = result.tests[0]?.error?.message ?? ""
    // The page did echo it: the message quotes the echo, as the placeholder.
    expect(message).toContain("You typed: <secret:SEXTANT_SECRET_PASSWORD>")
    const outputs = [JSON.stringify(result), formatConsoleReport(result), formatJunitXml(result)]
    for (const output of outputs) {
      expect(output.toLowerCase()).not.toContain(PASSWORD.toLowerCase())
      expect(output.toLowerCase()).not.toContain([...PASSWORD.toLowerCase()].join(" "))
    }
  }, 60_000)
})

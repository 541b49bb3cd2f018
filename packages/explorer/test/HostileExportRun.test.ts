// biome-ignore-all lint/suspicious/noTemplateCurlyInString: `${env.NAME}` as plain text is what these tests feed the exporters
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { runNode } from "@sextant/testing"
import { afterAll, describe, expect, it } from "vitest"
import { explore, exportWdioScript, generateTests, runSuite, type TestSuite } from "../src/index.ts"
import { useBrowser } from "./support/Browser.ts"

const browser = useBrowser()
// Inside the package, so the script's `import "webdriverio"` resolves as it would in a user's project.
const directory = mkdtempSync(join(import.meta.dirname, "..", ".exported-"))
afterAll(() => rmSync(directory, { recursive: true, force: true }))

describe("an exported WebdriverIO script of a hostile page", () => {
  it("keeps a U+2028 payload in the page title and a button as data: the script runs against the site, passes and writes no marker", async () => {
    const site = await browser.site()
    const marker = join(directory, "MARKER")
    const start = `${site.url}/hostile/export-payload?marker=${encodeURIComponent(marker)}`
    const map = await browser.run(
      explore(start, { maxDepth: 0, submitForms: true, values: { Note: "${env.SEXTANT_EXPORT_PROBE}" } }),
    )
    const payload = `\u2028process.getBuiltinModule("node:fs").writeFileSync(${JSON.stringify(marker)},"x")//`
    expect(map.pages[0]?.model.title).toContain(payload)
    const suite = generateTests(map, { name: "export payload" })
    const fields = suite.tests.flatMap((test) =>
      test.steps.flatMap((step) => (step.type === "FillAndSubmit" ? step.fields : [])),
    )
    // What the explorer typed and the option it suggested are text, not environment reads.
    expect(fields.map((field) => [field.target.name, field.value, field.variable])).toContainEqual([
      "Note",
      "${env.SEXTANT_EXPORT_PROBE}",
      undefined,
    ])
    expect(fields.map((field) => [field.target.name, field.value, field.variable])).toContainEqual([
      "Topic",
      "${env.HOME}",
      undefined,
    ])
    expect(suite.tests.some((test) => test.name.includes(payload))).toBe(true)
    // The site echoed the text it was sent: the tests assert it came back as text.
    expect(JSON.stringify(suite)).toContain("Sent ${env.SEXTANT_EXPORT_PROBE} on ${env.HOME}")

    // Sextant's own runner types the same text, reading no variable.
    const probe = { SEXTANT_EXPORT_PROBE: "leaked-probe-value", HOME: "/leaked-home" }
    const ran = await browser.run(runSuite(suite, { baseUrl: site.url, env: probe }))
    expect(ran.tests.filter((test) => !test.passed).map((test) => test.error?.message)).toEqual([])

    const script = exportWdioScript(suite)
    const file = join(directory, "export-payload.wdio.ts")
    writeFileSync(file, script)
    const result = await runNode(
      [file],
      { BASE_URL: site.url, SEXTANT_EXPORT_PROBE: "leaked-probe-value" },
      120_000,
    )
    expect(existsSync(marker)).toBe(false)
    expect(script).not.toMatch(/[\u2028\u2029]/)
    expect(result.output).not.toContain("FAILED")
    expect(result.output).not.toContain("leaked-probe-value")
    expect(result.output.match(/^ok /gm)).toHaveLength(suite.tests.length)
    expect(result.code).toBe(0)
  }, 240_000)
})

describe("an exported WebdriverIO script whose check is cut short by a page that stops answering", () => {
  it("prints the failure and exits 1 within seconds, though WebdriverIO still waits on a command sent to the busy page", async () => {
    const site = await browser.site()
    const suite: TestSuite = {
      version: 1,
      name: "busy page",
      tests: [
        {
          name: "the busy page shows a word it never shows",
          startUrl: "/hostile/busy-page",
          steps: [{ type: "Assert", assertion: { type: "TextPresent", text: "never shown" } }],
        },
      ],
    }
    const file = join(directory, "busy-page.wdio.ts")
    writeFileSync(file, exportWdioScript(suite, { timeoutMs: 1_000 }))
    // Unbounded, the script would wait on the page's unanswered command for WebdriverIO's three minutes.
    const result = await runNode([file], { BASE_URL: site.url }, 90_000)
    expect(result.output).toContain(
      'FAILED the busy page shows a word it never shows: expected the page shows "never shown"',
    )
    expect(result.code).toBe(1)
  }, 120_000)
})

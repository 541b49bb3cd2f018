import { describe, expect, it } from "vitest"
import { useHarness } from "./support/Harness.ts"
import { look } from "./support/Look.ts"

const harness = useHarness({ seed: 0 })

/** Loads a minimal page written in the test, as a real document from the test page server. */
const show = async (html: string): Promise<void> => {
  await harness.browser.url(`${harness.pages.url}/inline?html=${encodeURIComponent(html)}`)
}

describe("reading minimal pages", () => {
  it("reads a page whose first printed items are short texts", async () => {
    await show("<body><p>Hello</p><p>World</p></body>")
    expect((await look(harness.browser)).tree).toBe("- Hello · World")
    expect((await look(harness.browser, { mode: "interactive" })).tree).toBe("")
  })
})

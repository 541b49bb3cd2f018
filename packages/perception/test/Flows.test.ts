import { describe, expect, it } from "vitest"
import { describeChange } from "../src/index.ts"
import { checkFlowSignals } from "./support/FlowChecks.ts"
import { runFlows } from "./support/Flows.ts"
import { useHarness } from "./support/Harness.ts"
import { clickAt, look, refOf } from "./support/Look.ts"

const harness = useHarness({ seed: 5 })

describe("semantic diff in the browser", () => {
  it("signals a failed login, a successful login and search results on the live fixture site", async () => {
    checkFlowSignals(await runFlows(harness.browser, harness.site.url))
  })

  it("describes a dialog that an action opened", async () => {
    const { browser } = harness
    await browser.url(`${harness.site.url}/dynamic`)
    const before = await look(browser)
    const open = refOf(before, "button", "Open dialog")
    await clickAt(browser, open)
    await browser.waitUntil(async () => (await look(browser)).tree.includes("- dialog"), { timeout: 5000 })
    const after = await look(browser)
    expect(describeChange(before, after, { ref: open, op: "click" })).toMatch(/^dialog appeared: /)
    expect(after.outputs.some((output) => output.region === "modal")).toBe(true)
  })
})

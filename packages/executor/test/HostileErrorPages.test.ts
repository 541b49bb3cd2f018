import { describe, expect, it } from "vitest"
import { startRig } from "./support/HostileRig.ts"

/**
 * Parts whose steps all "worked" but led to a page the server answered with an error: a form posted to
 * a 500, a link to a page that does not exist. The page holds no form left to fill and no alert, so the
 * part used to pass on the steps alone and the run ended COMPLETED. The rule planner, in real headless
 * Chromium on the fixture site.
 */

const rig = startRig()

describe("a part that leads to an error page", () => {
  it("is unmet when the form it sends is answered with a 500, naming the status and the page", async () => {
    const { result } = await rig.withRules(
      "type alice@example.com into Email, type not-her-password into Password and press Enter",
      `${rig.site.url}/login/broken`,
    )
    expect(result.status).toBe("FAILED")
    const unmet = result.summary.unmetParts ?? []
    expect(unmet.map((part) => part.evidence)).toContainEqual(
      `${rig.site.url}/login/broken was answered with HTTP 500 (the page shows "Internal Server Error")`,
    )
  }, 60_000)

  it("is unmet when the page it goes to answers 404", async () => {
    const { result } = await rig.withRules(`go to ${rig.site.url}/products?page=9`, `${rig.site.url}/`)
    expect(result.status).toBe("FAILED")
    expect((result.summary.unmetParts ?? []).map((part) => part.evidence).join("\n")).toContain(
      `${rig.site.url}/products?page=9 was answered with HTTP 404`,
    )
  }, 60_000)

  it("still completes a part on a page answered 200", async () => {
    const { result } = await rig.withRules(`go to ${rig.site.url}/products?page=2`, `${rig.site.url}/`)
    expect(result.status).toBe("COMPLETED")
  }, 60_000)
})

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

describe("a plan that types into a sign-in form and then presses its button by name", () => {
  // Signed out, /login shows "Sign in" twice: the header's link back to /login and the form's button.
  // The plan's click used to take the header's link (first in page order): the page reloaded, the
  // click "took effect" and the run ended COMPLETED with nobody signed in.
  const goal = (password: string) =>
    `type alice@example.com into Email, type ${password} into Password and click Sign in`

  it("presses the form's button: FAILED with the wrong password, naming the error the page shows", async () => {
    const { result } = await rig.withRules(goal("not-her-password"), `${rig.site.url}/login`)
    expect(result.status).toBe("FAILED")
    const click = result.observations.find((observation) => observation.tool === "clickTextMatches")
    expect(click?.data).toMatchObject({ clicked: [{ text: "Sign in", tag: "button" }] })
    expect((result.summary.unmetParts ?? []).map((part) => part.evidence).join("\n")).toContain(
      `${rig.site.url}/login shows "Invalid email or password" after clickTextMatches`,
    )
  }, 60_000)

  it("presses the form's button: COMPLETED on the dashboard with the right one", async () => {
    const { result } = await rig.withRules(goal("wonderland"), `${rig.site.url}/login`)
    expect(result.status).toBe("COMPLETED")
    const click = result.observations.find((observation) => observation.tool === "clickTextMatches")
    expect(click?.data).toMatchObject({
      clicked: [{ text: "Sign in", tag: "button" }],
      result: { url: `${rig.site.url}/dashboard` },
    })
  }, 60_000)
})

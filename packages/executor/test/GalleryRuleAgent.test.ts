import { makeRuleStepPolicy } from "@sextant/planner"
import { describe, expect, it } from "vitest"
import { useGallery } from "./support/Gallery.ts"

/**
 * The rule step policy through `runAgent` on pages of the fixture site's widget gallery, in headless
 * Chromium. Each test registers a run with the gallery's oracle, which reads the page's own state:
 * the status Sextant reports must agree with what the page shows.
 */

const { runOnGallery } = useGallery()

describe("rule agent on the widget gallery", () => {
  it("clicks a late button once it appears (the page renders it after 1.5 s)", async () => {
    const { status, verdict } = await runOnGallery("Click Load results", "late", { loadResults: true })
    expect(verdict.unmet).toEqual([])
    expect(verdict.achieved).toBe(true)
    expect(status).toBe("COMPLETED")
  }, 60_000)

  it("waits for the named button and clicks it ('Wait for Load results and click it')", async () => {
    const { status, verdict } = await runOnGallery("Wait for Load results and click it", "late", {
      loadResults: true,
    })
    expect(verdict.unmet).toEqual([])
    expect(verdict.achieved).toBe(true)
    expect(status).toBe("COMPLETED")
  }, 60_000)

  it("is FAILED, not COMPLETED, when the named button never appears, and waits for it once, not once per retry", async () => {
    // A 1 s wait instead of the policy's 2.5 s: what is proved is that the one wait is not repeated.
    const { status, verdict, result } = await runOnGallery(
      "Click Export report",
      "late",
      { loadResults: true },
      { policy: makeRuleStepPolicy({ waitForMissingMs: 1_000 }) },
    )
    expect(verdict.achieved).toBe(false)
    expect(status).toBe("FAILED")
    // The wait for the missing name timed out at the limit it asked for: repeating it would wait the same.
    const waits = result.observations.filter((observation) => observation.tool === "waitFor")
    expect(waits).toHaveLength(1)
    expect(waits[0]!.ok).toBe(false)
    expect(result.metrics.retries).toBe(0)
  }, 60_000)

  for (const goal of ["Hover over the Help icon", "鼠标悬停在 Help 图标上"]) {
    it(`hovers an icon by its name: ${goal}`, async () => {
      // The icon is a span role=img named by aria-label whose tooltip opens on mouseenter.
      const { status, verdict } = await runOnGallery(goal, "hover", { helpShown: true })
      expect(verdict.unmet).toEqual([])
      expect(verdict.achieved).toBe(true)
      expect(status).toBe("COMPLETED")
    }, 60_000)
  }

  for (const goal of [
    "Copy the invite code and paste it into the Invite code field",
    "复制邀请码并粘贴到 Invite code 中",
  ]) {
    it(`copies the code the page shows and pastes it into the named field: ${goal}`, async () => {
      const { status, verdict } = await runOnGallery(goal, "keys", { inviteCode: "JOIN-4821" })
      expect(verdict.unmet).toEqual([])
      expect(verdict.achieved).toBe(true)
      expect(status).toBe("COMPLETED")
    }, 60_000)
  }
  for (const [goal, city] of [
    ["Choose Rome in Destination", "Rome"],
    ["目的地选择 Warsaw", "Warsaw"],
  ] as const) {
    it(`chooses a value in an autocomplete by typing it and picking the suggestion: ${goal}`, async () => {
      // The destination is a text field (combobox) whose options appear only once something is typed.
      const { status, verdict } = await runOnGallery(goal, "autocomplete", { destination: city })
      expect(verdict.unmet).toEqual([])
      expect(verdict.achieved).toBe(true)
      expect(status).toBe("COMPLETED")
    }, 60_000)
  }
  it("clicks the button outside a named frame, not the one inside it, for 'click Send outside the Newsletter form'", async () => {
    const { status, verdict } = await runOnGallery("click Send outside the Newsletter form", "iframe", {
      outerSend: true,
      frameSend: false,
    })
    expect(verdict.unmet).toEqual([])
    expect(verdict.achieved).toBe(true)
    expect(status).toBe("COMPLETED")
  }, 60_000)

  it("leaves a box it was told not to tick unticked, and is COMPLETED only with both boxes as asked", async () => {
    const { status, verdict } = await runOnGallery("勾选 Music，不要勾选 Sports", "checkboxes", {
      music: true,
      sports: false,
    })
    expect(verdict.unmet).toEqual([])
    expect(status).toBe("COMPLETED")
  }, 60_000)

  it("clicks the top navigation's Pricing, never the footer's it was told not to click", async () => {
    const { status, verdict } = await runOnGallery(
      "Open Pricing in the top navigation, don't click the footer Pricing",
      "links",
      { pricingTop: true, pricingFooter: false },
    )
    expect(verdict.unmet).toEqual([])
    expect(status).toBe("COMPLETED")
  }, 60_000)

  it("goes to the Profile tab for 'go back to the Profile tab', not back in the browser's history", async () => {
    const { status, verdict } = await runOnGallery(
      "Enable the weekly digest, then go back to the Profile tab.",
      "tabs",
      { digest: true, activeTab: "Profile" },
    )
    expect(verdict.unmet).toEqual([])
    expect(status).toBe("COMPLETED")
  }, 60_000)

  it("is COMPLETED for 'open the settings' once the Settings button's panel is shown", async () => {
    const { status, verdict } = await runOnGallery("open the settings", "buttons", { settings: true })
    expect(verdict.achieved).toBe(true)
    expect(status).toBe("COMPLETED")
  }, 60_000)

  it("is COMPLETED for a sign-up goal once the form gives way to the page's confirmation", async () => {
    const { status, verdict } = await runOnGallery(
      "Sign up as Grace Hopper with grace@example.com and password cobol1959 on the Premium plan, accepting the terms",
      "signup",
      { sent: "Grace Hopper|grace@example.com|cobol1959|Premium|true" },
    )
    expect(verdict.unmet).toEqual([])
    expect(status).toBe("COMPLETED")
  }, 60_000)

  it("searches for the quoted words alone and is COMPLETED when the articles found for them are listed", async () => {
    const { status, verdict } = await runOnGallery(
      'Look up articles about "web automation" and hit Go',
      "fields-placeholder",
      { articles: "web automation", go: true },
    )
    expect(verdict.unmet).toEqual([])
    expect(status).toBe("COMPLETED")
  }, 60_000)
})

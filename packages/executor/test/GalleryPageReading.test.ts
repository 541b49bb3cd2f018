import { makeRuleStepPolicy, type StepPolicyShape } from "@sextant/planner"
import { Effect } from "effect"
import { describe, expect, it } from "vitest"
import { useGallery } from "./support/Gallery.ts"

/**
 * Instructions that name a control or a state but no action word, run by the rule agent through
 * `runAgent` on gallery pages in headless Chromium: the page's controls decide the action, the page's
 * own oracle judges the run, and the status Sextant reports must agree with it. An instruction the page
 * does not settle (no control covers its words, or more than one does) is refused, and nothing is done.
 */

const { runOnGallery } = useGallery()

describe("rule agent reads an instruction with no action word on the page", () => {
  it("presses the one button its words name ('I need this printed' → Print)", async () => {
    const { status, verdict } = await runOnGallery("I need this printed", "buttons", { print: true })
    expect(verdict.unmet).toEqual([])
    expect(status).toBe("COMPLETED")
  }, 60_000)

  it("chooses the radio its words and its group name ('Express shipping for me')", async () => {
    const { status, verdict } = await runOnGallery("Express shipping for me", "radios", {
      shipping: "Express",
    })
    expect(verdict.unmet).toEqual([])
    expect(status).toBe("COMPLETED")
  }, 60_000)

  it("unticks the named box when the instruction says it should not be ticked", async () => {
    const { status, verdict } = await runOnGallery("Remember me should not be ticked", "checkboxes", {
      remember: false,
    })
    expect(verdict.unmet).toEqual([])
    expect(status).toBe("COMPLETED")
  }, 60_000)

  it("fills the field its label names with the literal value beside it ('Last name should be Lovelace, please fill it in')", async () => {
    const { status, verdict } = await runOnGallery(
      "Last name should be Lovelace, please fill it in",
      "fields-label",
      {
        lastName: "Lovelace",
      },
    )
    expect(verdict.unmet).toEqual([])
    expect(status).toBe("COMPLETED")
  }, 60_000)

  it("chooses an option in the list that holds it ('Norway for the country')", async () => {
    const { status, verdict } = await runOnGallery("Norway for the country", "select-native", {
      country: "Norway",
    })
    expect(verdict.unmet).toEqual([])
    expect(status).toBe("COMPLETED")
  }, 60_000)

  it("matches Chinese words to the page's English controls (接受所有 Cookie → Accept all)", async () => {
    const { status, verdict } = await runOnGallery("接受所有 Cookie", "dialog-cookie", { cookieAccept: true })
    expect(verdict.unmet).toEqual([])
    expect(status).toBe("COMPLETED")
  }, 60_000)

  it("is FAILED and presses nothing when two controls fit equally ('Rooms please': Fewer rooms or More rooms)", async () => {
    const { status, verdict, result } = await runOnGallery("Rooms please", "spinner", { rooms: 2 })
    expect(verdict.achieved).toBe(false)
    expect(status).toBe("FAILED")
    expect(result.observations).toEqual([])
    expect(result.summary.summary).toContain("fits more than one control")
  }, 60_000)

  it("is FAILED and does nothing when no control covers the words ('The golden prize for me, please')", async () => {
    const { status, verdict, result } = await runOnGallery("The golden prize for me, please", "moving", {
      claimOffer: true,
    })
    expect(verdict.achieved).toBe(false)
    expect(status).toBe("FAILED")
    expect(result.observations).toEqual([])
    expect(result.summary.summary).toContain('no control on the page is named by "golden", "prize"')
  }, 60_000)

  it("checks the parts a policy read on the page: a policy that says done while the box is still ticked is FAILED", async () => {
    // The rule policy's first decision for the goal, then a claim that the goal is done with no action:
    // the page-read part (Travel unticked) must be what decides the status, not the policy's word.
    const rules = makeRuleStepPolicy()
    const claiming: StepPolicyShape = {
      ...rules,
      decide: (input) =>
        Effect.map(rules.decide(input), (decision) => ({
          ...decision,
          toolCalls: [],
          taskComplete: true,
          method: undefined,
        })),
    }
    const { status, verdict, result } = await runOnGallery(
      "Travel shouldn't be ticked",
      "checkboxes",
      { travel: false },
      { policy: claiming },
    )
    expect(verdict.achieved).toBe(false)
    expect(status).toBe("FAILED")
    expect(result.summary.unmetParts?.map((part) => part.part)).toEqual(['uncheck "Travel"'])
  }, 60_000)

  for (const goal of [
    "Paste the invite code displayed on this page into the Invite code field",
    "把页面上显示的邀请码粘贴到 Invite code 中",
  ]) {
    it(`reads the value the page shows for a reference and types that, not the words: ${goal}`, async () => {
      const { status, verdict } = await runOnGallery(goal, "keys", { inviteCode: "JOIN-4821" })
      expect(verdict.unmet).toEqual([])
      expect(status).toBe("COMPLETED")
    }, 60_000)
  }

  it("refuses to paste when nothing was copied and the goal does not say the text is on the page", async () => {
    const { status, verdict, result } = await runOnGallery("Paste it into the Invite code field", "keys", {
      inviteCode: "JOIN-4821",
    })
    expect(verdict.achieved).toBe(false)
    expect(status).toBe("FAILED")
    expect(result.observations.filter((observation) => observation.tool === "fill")).toEqual([])
  }, 60_000)

  it("reaches an item behind the menu the page names ('My profile via the Account menu' → Account > My profile)", async () => {
    const { status, verdict } = await runOnGallery("My profile via the Account menu", "hover", {
      profileLink: true,
    })
    expect(verdict.unmet).toEqual([])
    expect(status).toBe("COMPLETED")
  }, 60_000)

  it("reaches a nested menu item said as one name past its sub-menu (File > Export as PNG image → Export ▸ > PNG image)", async () => {
    const { status, verdict } = await runOnGallery("click File > Export as PNG image", "menus", {
      exportPng: true,
    })
    expect(verdict.unmet).toEqual([])
    expect(status).toBe("COMPLETED")
  }, 60_000)

  it("is FAILED, not COMPLETED, when the sub-menu the first words name has no item the rest name (Export as TIFF image)", async () => {
    const { status, verdict, result } = await runOnGallery("click File > Export as TIFF image", "menus", {
      exportPng: true,
    })
    expect(verdict.achieved).toBe(false)
    expect(status).toBe("FAILED")
    expect(result.summary.summary).toContain("TIFF")
  }, 60_000)

  it("fills the field whose label names the kind of value said ('Meeting at 9:45 pm' → Meeting time 21:45)", async () => {
    const { status, verdict } = await runOnGallery("Meeting at 9:45 pm", "datetime", { meetingTime: "21:45" })
    expect(verdict.unmet).toEqual([])
    expect(status).toBe("COMPLETED")
  }, 60_000)

  it("puts the caret in a field a click names by its kind ('Click into the Notes field')", async () => {
    const { status, verdict } = await runOnGallery("Click into the Notes field", "keys", { focused: "notes" })
    expect(verdict.unmet).toEqual([])
    expect(status).toBe("COMPLETED")
  }, 60_000)
})

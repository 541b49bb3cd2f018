import { describe, expect, it } from "vitest"
import { useGallery } from "./support/Gallery.ts"

/**
 * Plan mode (the rule planner's whole plan through `planAndRun`, what `sextant run` does by default) on
 * the widget gallery in real headless Chromium: instructions a plan carried out on the wrong element
 * and reported COMPLETED. Each run's status must agree with the page's own oracle: COMPLETED only when
 * the page shows the instruction done.
 */

const gallery = useGallery()

const cases: ReadonlyArray<{
  readonly text: string
  readonly page: string
  readonly expect: Record<string, unknown>
  readonly solved: boolean
}> = [
  // The dialog's Save, not the page's Save behind it.
  {
    text: "Click Edit profile, type Ada into Nickname and click Save",
    page: "dialog-modal",
    expect: { savedNickname: "Ada", pageSave: false },
    solved: true,
  },
  // The terms box scrolled, not the page.
  {
    text: "Scroll the terms box to the bottom",
    page: "scroll-inside",
    expect: { termsAtEnd: true },
    solved: true,
  },
  // The frame's Send cannot be pressed by its words from the top document: refused, the page's Send untouched.
  {
    text: "Type Grace into Your name and click Send",
    page: "iframe",
    expect: { frameName: "Grace", frameSend: true, outerSend: false },
    solved: false,
  },
  // A tab, a menu and a section opened in place by a press found by its words: the page changed where
  // it stood, and the plan is COMPLETED (it said "the page stayed at …").
  {
    text: "Open the Shipping tab and type Lyon into City",
    page: "tabs",
    expect: { shippingCity: "Lyon" },
    solved: true,
  },
  { text: "Open the Edit menu and click Undo", page: "menus", expect: { editUndo: true }, solved: true },
  {
    text: "Open 'How do refunds work?' and click This was helpful",
    page: "collapsible",
    expect: { refundHelpful: true },
    solved: true,
  },
  // "Lisbon" typed, its suggestion never chosen: the destination is not set.
  {
    text: "Set the destination to Lisbon",
    page: "autocomplete",
    expect: { destination: "Lisbon" },
    solved: false,
  },
]

describe("plan mode on the gallery", () => {
  it.each(cases)(
    "$text: COMPLETED only when the page agrees",
    async ({ text, page, expect: wanted, solved }) => {
      const { status, verdict, result } = await gallery.runOnGallery(text, page, wanted, { mode: "plan" })
      expect(verdict.achieved, JSON.stringify(verdict.unmet)).toBe(solved)
      expect(status === "COMPLETED", result.summary.summary).toBe(verdict.achieved)
    },
    60_000,
  )
})

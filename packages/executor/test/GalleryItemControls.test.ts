import { describe, expect, it } from "vitest"
import { useGallery } from "./support/Gallery.ts"

/**
 * Instructions naming an item by its text and acting on a control inside it ("Call Tom Okafor", "Star the
 * message from Ana", "Details of order 1043"), run by the rule agent in headless Chromium on the
 * gallery's `item-actions` page: a table row, a list item and a card are each one thing, their text naming
 * it and their controls acting on it. The page's own oracle says whether the action happened.
 */

const { runOnGallery } = useGallery()

describe("a control inside the one item the instruction names", () => {
  for (const [goal, key] of [
    ["Call Tom Okafor", "called:Tom Okafor"],
    ["打电话给 Tom Okafor", "called:Tom Okafor"],
    ["Star the message from Ana", "starred:Ana Lopez"],
    ["Details of order 1043", "details:1043"],
  ] as const) {
    it(`presses that item's own control, COMPLETED once the page shows it: ${goal}`, async () => {
      const { status, verdict } = await runOnGallery(goal, "item-actions", { [key]: true })
      expect(verdict.unmet).toEqual([])
      expect(verdict.achieved).toBe(true)
      expect(status).toBe("COMPLETED")
    }, 60_000)
  }

  it("is FAILED, not COMPLETED, when the row's control shows nothing ('Call Mia Laine')", async () => {
    const { status, verdict, result } = await runOnGallery("Call Mia Laine", "item-actions", {
      "called:Mia Laine": true,
    })
    expect(verdict.achieved).toBe(false)
    expect(status).toBe("FAILED")
    expect(result.summary.summary).not.toContain("cannot understand")
  }, 60_000)

  it("refuses, pressing nothing, when the words name two items ('Call Ana': Ana Lopez or Ana Silva)", async () => {
    const { status, verdict, result } = await runOnGallery("Call Ana", "item-actions", {
      "called:Ana Lopez": true,
    })
    expect(verdict.achieved).toBe(false)
    expect(status).toBe("FAILED")
    expect(result.observations).toEqual([])
    expect(result.summary.summary).toContain('"call" on "ana" fits more than one item')
  }, 60_000)
})

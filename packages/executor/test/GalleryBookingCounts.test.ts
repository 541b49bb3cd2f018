import { describe, expect, it } from "vitest"
import { useGallery } from "./support/Gallery.ts"

/**
 * Guest counts said as statements ("We are three adults and one child", "5 guests in 2 rooms", "no
 * pets"), run by the rule agent in headless Chromium on the gallery's booking pages: a hotel search
 * whose counters sit in a pop-over its "2 adults · 0 children · 1 room" button opens, a cottage with
 * counters and number fields shown, a reservation with two spinbuttons. The page's own oracle says
 * whether the counts were set; the run is COMPLETED only then.
 */

const { runOnGallery } = useGallery()

describe("guest counts said as a statement", () => {
  it("opens the guests pop-over and steps its counters, COMPLETED once the page holds the counts: We are three adults and one child", async () => {
    const { status, verdict } = await runOnGallery("We are three adults and one child", "hotel-booking", {
      adults: 3,
      children: 1,
    })
    expect(verdict.unmet).toEqual([])
    expect(status).toBe("COMPLETED")
  }, 60_000)

  for (const [goal, page, expected] of [
    ["2 adults, 2 kids, no pets, 4 bikes", "guests-stepper", { adults: 2, children: 2, pets: 0, bikes: 4 }],
    ["5 guests in 2 rooms", "spinner", { guests: "5", rooms: 2 }],
  ] as const) {
    it(`sets each count it says on the counter that counts it, COMPLETED once the page holds them: ${goal}`, async () => {
      const { status, verdict } = await runOnGallery(goal, page, expected)
      expect(verdict.unmet).toEqual([])
      expect(status).toBe("COMPLETED")
    }, 60_000)
  }

  it("ends FAILED, with no counter touched, when one count names nothing the page counts: three adults and two dogs", async () => {
    const { status, verdict } = await runOnGallery("We are three adults and two dogs", "hotel-booking", {
      adults: 3,
    })
    expect(verdict.achieved).toBe(false)
    expect(verdict.unmet).toEqual([{ key: "adults", actual: 2, expected: 3 }])
    expect(status).toBe("FAILED")
  }, 60_000)
})

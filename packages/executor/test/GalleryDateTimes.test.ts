import { makeRuleStepPolicy } from "@sextant/planner"
import { describe, expect, it } from "vitest"
import { useGallery } from "./support/Gallery.ts"

/**
 * Dates and times end to end: the rule step policy (with the calendar tool, as the bench runs it)
 * through `runAgent`, in headless Chromium, on the fixture site's car rental page (native date and time
 * inputs for the pick-up, a custom list of time slots for the return). The page's own oracle says what
 * each field holds; Sextant's status must agree with it, and a field name known only in part is never
 * read as another field of the same kind.
 */

const { runOnGallery } = useGallery([0])
const policy = makeRuleStepPolicy({ pickDateTool: true })

describe("rule agent: a date or a time said in words goes into its field as the field holds it", () => {
  for (const [goal, expected] of [
    ["取车时间填晚上七点半", { pickupTime: "19:30" }],
    ["Set the pick-up time to 6 in the evening", { pickupTime: "18:00" }],
    ["上午十一点取车", { pickupTime: "11:00" }],
    ["还车时间选下午五点", { returnTime: "17:00" }],
    ["取车日期定在2027年3月8日", { pickupDate: "2027-03-08" }],
  ] as const) {
    it(`${goal} → ${JSON.stringify(expected)}`, async () => {
      const { status, verdict } = await runOnGallery(goal, "booking-times", expected, { policy })
      expect(verdict.unmet).toEqual([])
      expect(status).toBe("COMPLETED")
    }, 60_000)
  }

  it("is FAILED, with the pick-up date left empty, for a return date the page has no field of (还车日期 is not 'a date')", async () => {
    const { status, verdict } = await runOnGallery(
      "还车日期填 2026年12月24日",
      "booking-times",
      { pickupDate: "" },
      { policy },
    )
    expect(verdict.unmet).toEqual([])
    expect(status).toBe("FAILED")
  }, 60_000)
})

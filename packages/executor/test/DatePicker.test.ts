import { makeRuleStepPolicy } from "@sextant/planner"
import { browserTools } from "@sextant/tools"
import { describe, expect, it } from "vitest"
import { useGallery } from "./support/Gallery.ts"

/**
 * The rule agent on the gallery's calendar picker: a read-only check-in field that only a click on a
 * day of its calendar fills. The page's own oracle judges each run, so COMPLETED must mean the field
 * really holds the day.
 */

const { runOnGallery } = useGallery([0, 7])
const policy = makeRuleStepPolicy({ pickDateTool: true })

/** Runs the goal on the picker page of the seed's site; the page's oracle judges the check-in field. */
const runOnPicker = (seed: number, goal: string, checkin: string) =>
  runOnGallery(goal, "datepicker", { checkin }, { seed, policy, tools: browserTools })

describe("runAgent with the rule policy on a calendar date picker", () => {
  for (const seed of [0, 7]) {
    it(`picks a date in a calendar widget that ignores typing, months ahead and back, and says COMPLETED only when the page agrees (seed ${seed})`, async () => {
      for (const [goal, checkin] of [
        ["Pick June 14, 2024 as the check-in date", "2024-06-14"],
        ["Choose 2024-03-31 as the check-in date", "2024-03-31"],
        ["入住日期选择 2024年8月5日", "2024-08-05"],
        ["Set check-in to 14 May 2024", "2024-05-14"],
      ] as const) {
        const { status, verdict } = await runOnPicker(seed, goal, checkin)
        expect({ goal, status, achieved: verdict.achieved }).toEqual({
          goal,
          status: "COMPLETED",
          achieved: true,
        })
      }
    }, 120_000)
  }
})

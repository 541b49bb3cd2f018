import { describe, expect, it } from "@effect/vitest"
import type { ActionResult } from "../src/Actions.ts"
import { judgeGoals } from "../src/Goals.ts"
import type { PageViewResult, ViewCost } from "../src/PageView.ts"
import { summarize } from "../src/Stats.ts"

const cost = (tokens: number, timeMs: number): ViewCost => ({
  tokens,
  chars: tokens * 4,
  time: summarize([timeMs]),
})

const page = (
  path: string,
  ours: number,
  interactive: number,
  lookMs: number,
  trips = 1,
): PageViewResult => ({
  path,
  playwright: cost(1000, 20),
  rawHtml: cost(3000, 2),
  lookFull: cost(ours, lookMs),
  lookInteractive: cost(interactive, lookMs),
  interactiveRecall: { expected: 10, matched: 10, recall: 1, unmatched: [] },
  textRecall: { pageWords: 100, keptWords: 97, recall: 0.97, missed: [] },
  roundTrips: { median: 1, max: trips },
  noOpRoundTrip: summarize([3]),
})

const actions = (clickMs: number, fillMs: number): ReadonlyArray<ActionResult> => [
  {
    action: "click",
    sextant: summarize([clickMs]),
    sextantRequests: { median: 3, max: 3 },
    playwright: summarize([40]),
    webdriverio: summarize([70]),
  },
  {
    action: "fill",
    sextant: summarize([fillMs]),
    sextantRequests: { median: 3, max: 3 },
    playwright: summarize([10]),
    webdriverio: summarize([100]),
  },
]

const byGoal = (goals: ReturnType<typeof judgeGoals>, prefix: string) => {
  const goal = goals.find((candidate) => candidate.goal.startsWith(prefix))
  if (goal === undefined) throw new Error(`no goal ${prefix}`)
  return goal
}

describe("judgeGoals", () => {
  it("judges token ratios on the median page, not the mean", () => {
    // Ratios 0.3, 0.4, 0.9: the median page is 0.4, within 0.45 though the mean (0.53) is not.
    const goals = judgeGoals(
      [page("/a", 300, 100, 10), page("/b", 400, 100, 10), page("/c", 900, 100, 10)],
      actions(30, 15),
    )
    expect(byGoal(goals, "full look()").met).toBe(true)
    expect(byGoal(goals, "full look()").measured).toContain("0.40×")
  })

  it("fails the round-trip goal when any look took more than one request", () => {
    const goals = judgeGoals([page("/a", 300, 100, 10), page("/b", 300, 100, 10, 3)], actions(30, 15))
    expect(byGoal(goals, "WebDriver round trips").met).toBe(false)
    expect(byGoal(goals, "WebDriver round trips").margin).toBe("2 extra on the worst look")
  })

  it("compares act() with Playwright by the ratio of medians and its own limit", () => {
    const goals = judgeGoals([page("/a", 300, 100, 10)], actions(50, 19))
    expect(byGoal(goals, "act() click").met).toBe(false)
    expect(byGoal(goals, "act() fill").met).toBe(true)
  })

  it("says not yet measured, never met, when Sextant's driver was missing", () => {
    const missing = { missing: "driver not available" }
    const goals = judgeGoals(
      [
        {
          ...page("/a", 300, 100, 10),
          lookFull: missing,
          lookInteractive: missing,
          interactiveRecall: missing,
          textRecall: missing,
          roundTrips: missing,
          noOpRoundTrip: missing,
        },
      ],
      [
        {
          action: "click",
          sextant: missing,
          sextantRequests: missing,
          playwright: summarize([40]),
          webdriverio: summarize([70]),
        },
        {
          action: "fill",
          sextant: missing,
          sextantRequests: missing,
          playwright: summarize([10]),
          webdriverio: summarize([100]),
        },
      ],
    )
    expect(goals).toHaveLength(8)
    for (const goal of goals) {
      expect(goal.met).toBeUndefined()
      expect(goal.measured).toBe("not yet measured: driver not available")
    }
  })
})

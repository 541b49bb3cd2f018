import type { ActionResult } from "./Actions.ts"
import type { PageViewResult } from "./PageView.ts"
import { isMissing } from "./Sextant.ts"
import { median } from "./Stats.ts"

/** One goal, what was measured against it and whether it is met. */
export interface GoalResult {
  readonly goal: string
  readonly target: string
  readonly measured: string
  /** `undefined` when a piece it needs was not available. */
  readonly met: boolean | undefined
  readonly margin: string
}

const percent = (value: number) => `${(value * 100).toFixed(1)}%`
const times = (value: number) => `${value.toFixed(2)}×`

const notMeasured = (goal: string, target: string, why: string): GoalResult => ({
  goal,
  target,
  measured: `not yet measured: ${why}`,
  met: undefined,
  margin: "",
})

/** One measured value per page, or undefined when any page lacks it. */
const measuredPerPage = <A>(
  pages: ReadonlyArray<PageViewResult>,
  read: (page: PageViewResult) => A | { readonly missing: string },
): ReadonlyArray<{ readonly path: string; readonly value: A }> | undefined => {
  const values = pages.map((page) => ({ path: page.path, value: read(page) }))
  return values.every((entry) => !isMissing(entry.value))
    ? (values as ReadonlyArray<{ readonly path: string; readonly value: A }>)
    : undefined
}

const lowest = <A extends { readonly recall: number }>(
  entries: ReadonlyArray<{ readonly path: string; readonly value: A }>,
) => entries.reduce((low, entry) => (entry.value.recall < low.value.recall ? entry : low))

/**
 * Judges the measured numbers against Sextant's goals; a goal whose pieces were missing says so.
 * Ratios "on the median page" are the median over pages of the per-page ratio.
 */
export const judgeGoals = (
  pages: ReadonlyArray<PageViewResult>,
  actions: ReadonlyArray<ActionResult>,
): ReadonlyArray<GoalResult> => {
  const missing = pages.find((page) => isMissing(page.lookFull))?.lookFull
  const why = missing !== undefined && isMissing(missing) ? missing.missing : "look() not available"
  const goals: Array<GoalResult> = []

  const recalls = measuredPerPage(pages, (page) => page.interactiveRecall)
  if (recalls === undefined) {
    goals.push(notMeasured("interactive recall", "100%", why))
  } else {
    const expected = recalls.reduce((sum, { value }) => sum + value.expected, 0)
    const matched = recalls.reduce((sum, { value }) => sum + value.matched, 0)
    const worst = lowest(recalls)
    goals.push({
      goal: "interactive recall",
      target: "100% on every page",
      measured: `${matched}/${expected} (${percent(matched / Math.max(expected, 1))}); ${worst.value.recall === 1 ? "every page complete" : `worst ${worst.path} ${percent(worst.value.recall)}`}`,
      met: matched === expected,
      margin: matched === expected ? "met" : `${expected - matched} elements missing`,
    })
  }

  const texts = measuredPerPage(pages, (page) => page.textRecall)
  if (texts === undefined) {
    goals.push(notMeasured("visible-text recall (full)", "≥ 95% on every page", why))
  } else {
    const worst = lowest(texts)
    const worstRecall = worst.value.recall
    const medianRecall = median(texts.map(({ value }) => value.recall))
    goals.push({
      goal: "visible-text recall (full)",
      target: "≥ 95% on every page",
      measured: `median ${percent(medianRecall)}; worst ${worst.path} ${percent(worstRecall)}`,
      met: worstRecall >= 0.95,
      margin: `${((worstRecall - 0.95) * 100).toFixed(1)} points on the worst page`,
    })
  }

  const tokenGoal = (mode: "lookFull" | "lookInteractive", label: string, limit: number) => {
    const ratios = pages.flatMap((page) => {
      const view = page[mode]
      return isMissing(view) ? [] : [view.tokens / page.playwright.tokens]
    })
    if (ratios.length < pages.length) {
      goals.push(notMeasured(label, `≤ ${times(limit)} Playwright AI-mode tokens`, why))
      return
    }
    const ratio = median(ratios)
    goals.push({
      goal: label,
      target: `≤ ${times(limit)} Playwright AI-mode tokens (median page)`,
      measured: `${times(ratio)} (median page); ${ratios.filter((value) => value <= limit).length}/${ratios.length} pages within`,
      met: ratio <= limit,
      margin: ratio <= limit ? `${percent(1 - ratio / limit)} under` : `${percent(ratio / limit - 1)} over`,
    })
  }
  tokenGoal("lookFull", "full look() tokens", 0.45)
  tokenGoal("lookInteractive", "interactive look() tokens", 0.15)

  const timeRatios = pages.flatMap((page) =>
    isMissing(page.lookFull) ? [] : [page.lookFull.time.median / page.playwright.time.median],
  )
  if (timeRatios.length < pages.length) {
    goals.push(notMeasured("look() median time", "≤ Playwright AI-mode snapshot", why))
  } else {
    const ratio = median(timeRatios)
    goals.push({
      goal: "look() median time (full)",
      target: "≤ 1.00× Playwright AI-mode snapshot (median page)",
      measured: `${times(ratio)} (median page); ${timeRatios.filter((value) => value <= 1).length}/${timeRatios.length} pages within`,
      met: ratio <= 1,
      margin: ratio <= 1 ? `${percent(1 - ratio)} faster` : `${percent(ratio - 1)} slower`,
    })
  }

  const trips = measuredPerPage(pages, (page) => page.roundTrips)?.map(({ value }) => value)
  if (trips === undefined) {
    goals.push(notMeasured("WebDriver round trips per look()", "1", why))
  } else {
    const worst = Math.max(...trips.map((trip) => trip.max))
    goals.push({
      goal: "WebDriver round trips per look()",
      target: "1 on every look",
      measured: `median ${median(trips.map((trip) => trip.median))}, max ${worst}`,
      met: worst === 1,
      margin: worst === 1 ? "met" : `${worst - 1} extra on the worst look`,
    })
  }

  const actionGoal = (action: ActionResult["action"], limit: number) => {
    const result = actions.find((candidate) => candidate.action === action)
    const label = `act() ${action} median`
    const target = `≤ ${times(limit)} Playwright ${action}`
    if (result === undefined || isMissing(result.sextant)) {
      goals.push(
        notMeasured(
          label,
          target,
          result !== undefined && isMissing(result.sextant) ? result.sextant.missing : why,
        ),
      )
      return
    }
    const ratio = result.sextant.median / result.playwright.median
    goals.push({
      goal: label,
      target,
      measured: `${result.sextant.median.toFixed(1)} ms vs ${result.playwright.median.toFixed(1)} ms (${times(ratio)})`,
      met: ratio <= limit,
      margin: ratio <= limit ? `${percent(1 - ratio / limit)} under` : `${percent(ratio / limit - 1)} over`,
    })
  }
  actionGoal("click", 1)
  actionGoal("fill", 2)
  return goals
}

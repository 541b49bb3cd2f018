import type { BrowserDriverShape, Criterion, DriverError } from "@sextant/core"
import { type CriteriaFacts, pageCall } from "@sextant/perception"
import { Effect } from "effect"

/** The outcome of one criterion. */
export interface CriterionResult {
  readonly criterion: Criterion
  readonly ok: boolean
  /** What was found, in words: `3 elements match .card (need 5)`. */
  readonly detail: string
}

const describe = (criterion: Criterion): string => {
  switch (criterion.type) {
    case "elementExists":
      return `an element matches ${criterion.selector}`
    case "urlMatches":
      return `the URL matches /${criterion.pattern}/`
    case "textPresent":
      return `the page shows "${criterion.text}"`
    case "minItems":
      return `at least ${criterion.min} elements match ${criterion.selector}`
    case "statusCode":
      return `the page answered HTTP ${criterion.code}`
  }
}

/** A criterion in words, for traces and replan requests. */
export const describeCriterion = describe

const judge = (
  criterion: Criterion,
  facts: CriteriaFacts,
  lastStatus: number | undefined,
): CriterionResult => {
  switch (criterion.type) {
    case "elementExists": {
      const count = facts.counts[criterion.selector] ?? 0
      return { criterion, ok: count > 0, detail: `${count} elements match ${criterion.selector}` }
    }
    case "minItems": {
      const count = facts.counts[criterion.selector] ?? 0
      return {
        criterion,
        ok: count >= criterion.min,
        detail: `${count} elements match ${criterion.selector} (need ${criterion.min})`,
      }
    }
    case "textPresent": {
      const ok = facts.texts[criterion.text] === true
      return {
        criterion,
        ok,
        detail: ok ? `"${criterion.text}" is shown` : `"${criterion.text}" is not on the page`,
      }
    }
    case "urlMatches": {
      let ok = false
      try {
        ok = new RegExp(criterion.pattern).test(facts.url)
      } catch {
        ok = facts.url.includes(criterion.pattern)
      }
      return { criterion, ok, detail: `the URL is ${facts.url}` }
    }
    case "statusCode": {
      const status = facts.status ?? lastStatus
      return {
        criterion,
        ok: status === criterion.code,
        detail: status === undefined ? "the status is unknown" : `the status is ${status}`,
      }
    }
  }
}

/**
 * Checks a step's success criteria on the page, in one page call (perception's `criteriaFacts`). `statusCode` uses the
 * navigation's response status when the browser reports it, else `lastStatus` (from an HTTP tool's output).
 *
 * @example
 * ```ts
 * import { checkCriteria } from "@sextant/executor"
 * const results = yield* checkCriteria(driver, [{ type: "minItems", selector: ".card", min: 10 }])
 * ```
 */
export const checkCriteria = (
  driver: BrowserDriverShape,
  criteria: ReadonlyArray<Criterion>,
  lastStatus?: number,
): Effect.Effect<ReadonlyArray<CriterionResult>, DriverError> =>
  Effect.gen(function* () {
    if (criteria.length === 0) return []
    const selectors = criteria.flatMap((criterion) =>
      criterion.type === "elementExists" || criterion.type === "minItems" ? [criterion.selector] : [],
    )
    const texts = criteria.flatMap((criterion) => (criterion.type === "textPresent" ? [criterion.text] : []))
    const facts = yield* pageCall(driver, "criteriaFacts", { selectors, texts })
    return criteria.map((criterion) => judge(criterion, facts, lastStatus))
  })

/** The criteria that did not hold, in words, or an empty list. */
export const unmetCriteria = (results: ReadonlyArray<CriterionResult>): ReadonlyArray<string> =>
  results.filter((result) => !result.ok).map((result) => `${describe(result.criterion)}: ${result.detail}`)

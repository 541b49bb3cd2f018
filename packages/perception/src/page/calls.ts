import * as calendar from "./calendar.ts"
import { criteriaFacts } from "./criteria.ts"
import { goalFacts } from "./goals.ts"
import { installGuard, takeViolations } from "./guard.ts"
import { maskPage, maskTexts, unmaskPage } from "./mask.ts"
import * as records from "./records.ts"
import { secretTarget } from "./secretTarget.ts"
import * as spec from "./spec.ts"
import * as submission from "./submission.ts"
import * as tools from "./tools.ts"

/**
 * The page functions other packages call by name (`BrowserDriver.callPage(name, args)`, typed by
 * `pageCall` in `@sextant/perception`), installed as `globalThis.__sextant.calls`. Each takes and
 * answers JSON values only: the driver carries them across as JSON. A package that needs something
 * read or done in the page adds its function here instead of sending a script of its own, so every
 * page script shares one visibility rule (`shown`) and one frame-offset rule (`frames.ts`).
 */
export const calls = {
  // The executor's: a step's success criteria, a goal's part checks, the page guard, where a secret
  // would go, and masking for screenshots.
  criteriaFacts,
  goalFacts,
  installGuard,
  takeViolations,
  secretTarget,
  maskPage,
  maskTexts,
  unmaskPage,
  // The browser and compound tools (@sextant/tools).
  /** @see tools.pickElement */
  pickElement: tools.pickElement,
  /** @see tools.extractValues */
  extractValues: tools.extractValues,
  /** @see tools.markByText */
  markByText: tools.markByText,
  /** @see tools.clearMarks */
  clearMarks: tools.clearMarks,
  /** @see tools.hasFocus */
  hasFocus: tools.hasFocus,
  /** @see tools.stopLoading */
  stopLoading: tools.stopLoading,
  /** @see tools.errorText */
  errorText: tools.errorText,
  /** @see tools.noResultsText */
  noResultsText: tools.noResultsText,
  /** @see tools.markNext */
  markNext: tools.markNext,
  /** @see records.listRecords */
  listRecords: records.listRecords,
  /** @see records.pageRecord */
  pageRecord: records.pageRecord,
  /** @see records.countItems */
  countItems: records.countItems,
  /** @see records.itemLinks */
  itemLinks: records.itemLinks,
  /** @see calendar.readCalendar */
  readCalendar: calendar.readCalendar,
  // A generated test's steps and assertions (@sextant/explorer).
  /** @see spec.countMatches */
  countMatches: spec.countMatches,
  /** @see spec.elementState */
  elementState: spec.elementState,
  /** @see spec.bodyText */
  bodyText: spec.bodyText,
  /** @see spec.mainText */
  mainText: spec.mainText,
  // Where a form posts, for the secret rule (@sextant/explorer, @sextant/mcp).
  /** @see submission.submissionTarget */
  submissionTarget: submission.submissionTarget,
  /** @see submission.limitFormActions */
  limitFormActions: submission.limitFormActions,
  /** @see submission.takeRefused */
  takeRefused: submission.takeRefused,
  /** @see submission.formAction */
  formAction: submission.formAction,
}

/** The callable page functions, by name. */
export type PageCalls = typeof calls

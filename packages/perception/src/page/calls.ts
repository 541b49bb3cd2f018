import { criteriaFacts } from "./criteria.ts"
import { goalFacts } from "./goals.ts"
import { installGuard, takeViolations } from "./guard.ts"
import { maskFields, maskTexts, pageTexts, unmaskTexts } from "./mask.ts"
import { secretTarget } from "./secretTarget.ts"

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
  maskFields,
  pageTexts,
  maskTexts,
  unmaskTexts,
}

/** The callable page functions, by name. */
export type PageCalls = typeof calls

import { criteriaFacts } from "./criteria.ts"

/**
 * The page functions other packages call by name (`BrowserDriver.callPage(name, args)`, typed by
 * `pageCall` in `@sextant/perception`), installed as `globalThis.__sextant.calls`. Each takes and
 * answers JSON values only: the driver carries them across as JSON. A package that needs something
 * read or done in the page adds its function here instead of sending a script of its own, so every
 * page script shares one visibility rule (`shown`) and one frame-offset rule (`frames.ts`).
 */
export const calls = {
  /** @see criteriaFacts */
  criteriaFacts,
}

/** The callable page functions, by name. */
export type PageCalls = typeof calls

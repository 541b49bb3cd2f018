import { openTestBrowser, type TestBrowser } from "@sextant/fixture-site/test-browser"

export type { TestBrowser }

/** Perception's browser tests and recordings use a 1280×900 window (recorded boxes depend on it). */
export const openBrowser = (): Promise<TestBrowser> =>
  openTestBrowser({ windowSize: { width: 1280, height: 900 } })

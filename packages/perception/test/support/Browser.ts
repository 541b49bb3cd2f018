import { openSharedTestBrowser, openTestBrowser, type TestBrowser } from "@sextant/fixture-site/test-browser"

export type { TestBrowser }

/** Perception's browser tests and recordings use a 1280×900 window (recorded boxes depend on it). */
const windowSize = { width: 1280, height: 900 }

/** For a test file: the worker's shared browser, in a fresh browser context for each file. */
export const openBrowser = (): Promise<TestBrowser> => openSharedTestBrowser({ windowSize })

/** For a script that ends when it is done (a recording): a browser of its own, ended by `close`. */
export const openOwnBrowser = (): Promise<TestBrowser> => openTestBrowser({ windowSize })

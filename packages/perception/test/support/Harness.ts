import { type FixtureSite, startFixtureSite } from "@sextant/fixture-site"
import { afterAll, beforeAll } from "vitest"
import { openBrowser, type TestBrowser } from "./Browser.ts"
import { type PageServer, startPageServer } from "./PageServer.ts"

/** What a browser test file shares: one fixture site, one server of test/pages, one browser session. */
export interface Harness {
  readonly site: FixtureSite
  readonly pages: PageServer
  readonly browser: WebdriverIO.Browser
}

/**
 * Starts the harness before the file's tests and stops all of it after them. Read the fields
 * inside tests, not at module load.
 */
export const useHarness = (options: { readonly seed?: number } = {}): Harness => {
  let site: FixtureSite | undefined
  let pages: PageServer | undefined
  let session: TestBrowser | undefined
  beforeAll(async () => {
    site = await startFixtureSite({ port: 0, seed: options.seed ?? 0 })
    pages = await startPageServer()
    session = await openBrowser()
  })
  afterAll(async () => {
    await session?.close()
    await pages?.close()
    await site?.close()
  })
  const started = <A>(value: A | undefined): A => {
    if (value === undefined) throw new Error("the harness starts in beforeAll: use it inside a test")
    return value
  }
  return {
    get site() {
      return started(site)
    },
    get pages() {
      return started(pages)
    },
    get browser() {
      return started(session).browser
    },
  }
}

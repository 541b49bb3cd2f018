import { readFile } from "node:fs/promises"
import type { BrowserDriver, DriverError } from "@sextant/core"
import { type FixtureSite, startFixtureSite } from "@sextant/fixture-site"
import { startLoopbackServer } from "@sextant/testing"
import { WebdriverioDriver } from "@sextant/webdriverio"
import { ManagedRuntime } from "effect"
import { afterAll, beforeAll } from "vitest"

/** The pages a browser test of the rules runs on, and how to stop them. */
export interface TestPages {
  /** The widgets page (tabs, accordions, menus, listboxes, spinners, a dialog), which the fixture site lacks. */
  readonly widgetsUrl: string
  /** The fixture site with seed 0 and with seed 7. */
  readonly sites: ReadonlyArray<FixtureSite>
  readonly site: (seed: number) => FixtureSite
  readonly close: () => Promise<void>
}

/** Serves `pages/widgets.html` on 127.0.0.1 (port 0) and starts the fixture site with seeds 0 and 7. */
export const startTestPages = async (): Promise<TestPages> => {
  const html = await readFile(new URL("../pages/widgets.html", import.meta.url), "utf8")
  const server = await startLoopbackServer((_request, response) => {
    response.writeHead(200, { "content-type": "text/html; charset=utf-8" })
    response.end(html)
  })
  const sites = [await startFixtureSite({ port: 0, seed: 0 }), await startFixtureSite({ port: 0, seed: 7 })]
  return {
    widgetsUrl: `${server.url}/widgets`,
    sites,
    site: (seed) => {
      const found = sites.find((candidate) => candidate.seed === seed)
      if (found === undefined) throw new RangeError(`no fixture site with seed ${seed}: use 0 or 7`)
      return found
    },
    close: async () => {
      await Promise.all(sites.map((site) => site.close()))
      await server.close()
    },
  }
}

/** One browser (shared by the file's tests) and the test pages, started before and stopped after the file. */
export interface BrowserTestContext {
  readonly runtime: ManagedRuntime.ManagedRuntime<BrowserDriver, DriverError>
  /** The pages; call it inside a test (they start in `beforeAll`). */
  readonly pages: () => TestPages
}

/** Registers `beforeAll`/`afterAll` for one headless Chromium and the test pages of a test file. */
export const useBrowserTests = (): BrowserTestContext => {
  const runtime = ManagedRuntime.make(WebdriverioDriver.layerShared({}))
  let pages: TestPages | undefined
  beforeAll(async () => {
    pages = await startTestPages()
  }, 60_000)
  afterAll(async () => {
    await runtime.dispose()
    await pages?.close()
  })
  return {
    runtime,
    pages: () => {
      if (pages === undefined) throw new Error("the test pages start in beforeAll: use them inside a test")
      return pages
    },
  }
}

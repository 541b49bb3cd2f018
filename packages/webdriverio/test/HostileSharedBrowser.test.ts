import { BrowserDriver } from "@sextant/core"
import { type IsolationOrigin, startIsolationOrigin } from "@sextant/fixture-site"
import { Effect } from "effect"
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest"
import {
  SHARED_CHROMEDRIVER_ENV,
  sharedBrowserStatus,
  sharedSession,
  WebdriverioDriver,
} from "../src/index.ts"
import { processesMentioning } from "../src/internal/Processes.ts"

/**
 * The browser tests share one Chromium per worker process (`WebdriverioDriver.layerShared`), one test
 * file after the other. Each file is a holder: what one leaves in the browser — cookies (a script's
 * and the server's HttpOnly one), localStorage, cached files, open tabs, a resized window — must not be
 * there for the next. A server that counts its requests and logs their cookies tells what the browser
 * sent. Two holders here stand for two test files in one worker.
 */

let site: IsolationOrigin

beforeAll(async () => {
  site = await startIsolationOrigin({ cookie: "file-one" })
})

afterAll(async () => {
  await site?.close()
})

/** Runs `use` as one holder of the shared browser (one test file's layer), answering what it saw. */
const asHolder = <A>(use: Effect.Effect<A, unknown, BrowserDriver>) =>
  Effect.runPromise(Effect.provide(use, WebdriverioDriver.layerShared({ driver: { actionWaitMs: 300 } })))

const viewport = `return [window.innerWidth, window.innerHeight]`

describe("the shared browser of a worker", () => {
  it("gives the next test file the same Chromium, but none of the previous file's cookies, storage, cache, tabs or window size", async () => {
    const first = await asHolder(
      Effect.gen(function* () {
        const driver = yield* BrowserDriver
        yield* driver.navigate(`${site.url}/sign-in`)
        const cookie = yield* driver.evaluate(`
          document.cookie = "script-cookie=file-one; path=/"
          localStorage.setItem("left", "file-one")
          window.open(location.origin + "/left-open")
          return document.cookie`)
        const loadsBefore = site.assetLoads()
        yield* driver.navigate(`${site.url}/again`)
        // The cache works within a holder: the file came from it, not from the server.
        expect(site.assetLoads()).toBe(loadsBefore)
        let tabs = yield* driver.tabs
        for (let tries = 0; tabs.length < 2 && tries < 50; tries++) {
          yield* Effect.sleep("100 millis")
          tabs = yield* driver.tabs
        }
        expect(tabs.length).toBe(2)
        yield* driver.evaluate("return 1")
        return { cookie, status: sharedBrowserStatus() }
      }),
    )
    expect(first.cookie).toContain("script-cookie=file-one")
    expect(site.heard.some((request) => request.cookie?.includes("server-session=file-one"))).toBe(true)
    expect(first.status.busy).toBe(true)
    // The holder that resized the window: the next one must get the viewport it was launched with.
    const held = await Effect.runPromise(
      Effect.scoped(
        Effect.gen(function* () {
          const session = yield* sharedSession({})
          yield* Effect.promise(() => session.browser.setWindowSize(700, 500))
          return session.browserPid
        }),
      ),
    )
    expect(held).toBe(first.status.browserPid)

    const loadsBefore = site.assetLoads()
    const sentBefore = site.heard.length
    const second = await asHolder(
      Effect.gen(function* () {
        const driver = yield* BrowserDriver
        yield* driver.navigate(`${site.url}/next-file`)
        return {
          traces: (yield* driver.evaluate(
            `return { cookie: document.cookie, stored: localStorage.getItem("left") }`,
          )) as { cookie: string; stored: string | null },
          tabs: (yield* driver.tabs).length,
          viewport: yield* driver.evaluate(viewport),
          status: sharedBrowserStatus(),
        }
      }),
    )
    // The same Chromium, launched once, yet nothing of the first holder reached the second.
    expect(second.status.browserPid).toBe(first.status.browserPid)
    expect(second.status.launched).toBe(first.status.launched)
    expect(second.status.served).toBe(first.status.served + 2)
    expect(second.traces).toEqual({ cookie: "", stored: null })
    expect(second.tabs).toBe(1)
    expect(second.viewport).toEqual([1280, 800])
    expect(site.assetLoads()).toBe(loadsBefore + 1)
    const sent = site.heard.slice(sentBefore)
    expect(sent.map((request) => request.path)).toContain("/next-file")
    expect(sent.filter((request) => request.cookie !== undefined)).toEqual([])
    expect(sharedBrowserStatus().busy).toBe(false)
  }, 60_000)

  it("gives a holder that comes while another holds it a Chromium of its own, ended with it", async () => {
    await Effect.runPromise(
      Effect.scoped(
        Effect.gen(function* () {
          const one = yield* sharedSession({})
          const two = yield* Effect.scoped(
            Effect.gen(function* () {
              const other = yield* sharedSession({})
              expect(other.browserPid).not.toBe(one.browserPid)
              return other
            }),
          )
          expect(two.browserPid).toBeDefined()
          expect(processesMentioning(`--user-data-dir=${two.profileDir}`)).toEqual([])
          expect(sharedBrowserStatus().browserPid).toBe(one.browserPid)
        }),
      ),
    )
  }, 60_000)

  it("runs on the one ChromeDriver the test run's global setup started", () => {
    const url = inject("sextantChromedriverUrl")
    expect(process.env[SHARED_CHROMEDRIVER_ENV]).toBe(url)
    const port = new URL(url).port
    expect(processesMentioning(`--port=${port}`)).toContain(sharedBrowserStatus().chromedriverPid)
  })
})

import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { expect, layer } from "@effect/vitest"
import { BrowserDriver } from "@sextant/core"
import { pageCall } from "@sextant/perception"
import { Effect, Layer } from "effect"
import { afterAll, beforeAll } from "vitest"
import { fromBrowser, launch, makeDriver, WebdriverioDriver } from "../src/index.ts"

/** Pages served over HTTP: `/<name>` answers `PAGES[name]`. */
const PAGES: Record<string, string> = {
  list: `<title>List</title><h1>Cards</h1><div class="card">One</div><div class="card">Two</div>`,
  empty: `<title>Empty</title><p>Nothing here</p>`,
  alert: `<button onclick="alert('stop')">Alert</button>`,
  // A page that defines a runtime of its own before Sextant's: never called through.
  "old-runtime": `<p>Old</p><script>
Object.defineProperty(globalThis, "__sextant", { configurable: true, writable: true, value: {
  version: 99, calls: { criteriaFacts: () => ({ url: "", counts: { p: 42 }, texts: { Old: false } }) } } })
</script>`,
}

let server: Server
let base = ""
beforeAll(async () => {
  server = createServer((request, response) => {
    const body = PAGES[(request.url ?? "/").slice(1)]
    response.writeHead(body === undefined ? 404 : 200, { "content-type": "text/html" }).end(body ?? "")
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})
afterAll(async () => {
  server.closeAllConnections()
  await new Promise((resolve) => server.close(resolve))
})

/** The browser as a ChromeDriver on another machine reports it: its debugger address reaches nothing here. */
const elsewhere = (browser: WebdriverIO.Browser): WebdriverIO.Browser => {
  const options = (browser.capabilities as Record<string, unknown>)["goog:chromeOptions"] as Record<
    string,
    unknown
  >
  options.debuggerAddress = "127.0.0.1:9"
  return browser
}

const modes = [
  {
    name: "page calls over WebDriver BiDi",
    preloaded: true,
    driver: WebdriverioDriver.layer({ bidi: true }),
  },
  {
    name: "page calls over WebDriver Classic",
    preloaded: true,
    driver: WebdriverioDriver.layerShared({ bidi: false }),
  },
  {
    name: "page calls over WebDriver Classic alone (a browser whose DevTools port is on another machine)",
    preloaded: false,
    driver: Layer.effect(
      BrowserDriver,
      Effect.flatMap(launch({ bidi: false }), (session) =>
        makeDriver(fromBrowser(elsewhere(session.browser))),
      ),
    ),
  },
]

for (const { name, preloaded, driver: driverUnderTest } of modes) {
  layer(driverUnderTest, { excludeTestServices: true, timeout: "60 seconds" })(name, (it) => {
    it.effect("calls a page function by name in the page, and in the next page after a navigation", () =>
      Effect.gen(function* () {
        const driver = yield* BrowserDriver
        yield* driver.navigate(`${base}/list`)
        const request = { selectors: [".card", "h1", "[["], texts: ["Two", "Three"] }
        // The first call installs the runtime; the second finds it there.
        for (let round = 0; round < 2; round++) {
          expect(yield* pageCall(driver, "criteriaFacts", request)).toEqual({
            url: `${base}/list`,
            counts: { ".card": 2, h1: 1, "[[": -1 },
            texts: { Two: true, Three: false },
            status: 200,
          })
        }
        yield* driver.navigate(`${base}/empty`)
        const after = yield* pageCall(driver, "criteriaFacts", request)
        expect(after.url).toBe(`${base}/empty`)
        expect(after.counts).toEqual({ ".card": 0, h1: 0, "[[": -1 })
        expect(after.texts).toEqual({ Two: false, Three: false })
      }),
    )

    it.effect(
      preloaded
        ? "answers through Sextant's own runtime when the page tries to define one of its own first"
        : "fails with ForeignPageRuntime, calling nothing, when the page defined a runtime of its own first",
      () =>
        Effect.gen(function* () {
          const driver = yield* BrowserDriver
          yield* driver.navigate(`${base}/old-runtime`)
          const call = pageCall(driver, "criteriaFacts", { selectors: ["p"], texts: ["Old"] })
          if (preloaded) {
            // Sextant's host was there before the page's script, whose defineProperty then failed.
            const facts = yield* call
            expect(facts.counts).toEqual({ p: 1 })
            expect(facts.texts).toEqual({ Old: true })
          } else {
            const failed = yield* Effect.flip(call)
            expect(failed.reason._tag).toBe("ForeignPageRuntime")
            expect(failed.message).toContain("the page defines globalThis.__sextant itself")
          }
        }),
    )

    it.effect("fails with InvalidArgument for a name the page runtime does not have", () =>
      Effect.gen(function* () {
        const driver = yield* BrowserDriver
        yield* driver.navigate(`${base}/list`)
        const failed = yield* Effect.flip(driver.callPage("noSuchFunction", []))
        expect(failed.reason._tag).toBe("InvalidArgument")
        expect(failed.message).toContain('the page runtime has no function "noSuchFunction"')
        // A name inherited from Object.prototype is no page function either.
        const inherited = yield* Effect.flip(driver.callPage("toString", []))
        expect(inherited.reason._tag).toBe("InvalidArgument")
      }),
    )

    it.effect("fails with ScriptError, with the page's message, when the function throws", () =>
      Effect.gen(function* () {
        const driver = yield* BrowserDriver
        yield* driver.navigate(`${base}/list`)
        // criteriaFacts reads request.selectors: without a request it throws a TypeError.
        const failed = yield* Effect.flip(driver.callPage("criteriaFacts", []))
        expect(failed.reason._tag).toBe("ScriptError")
        expect(failed.message).toMatch(
          /^BrowserDriver\.callPage: the page script failed: criteriaFacts threw: TypeError/,
        )
      }),
    )

    it.effect("answers DialogOpen at once while the page holds a dialog", () =>
      Effect.gen(function* () {
        const driver = yield* BrowserDriver
        yield* driver.navigate(`${base}/alert`)
        yield* driver.act({ selector: "button" }, "click").pipe(Effect.ignore)
        const started = Date.now()
        const failed = yield* Effect.flip(pageCall(driver, "criteriaFacts", { selectors: [], texts: [] }))
        expect(failed.reason._tag).toBe("DialogOpen")
        expect(Date.now() - started).toBeLessThan(5_000)
        yield* driver.respondToDialog(true)
        expect(
          (yield* pageCall(driver, "criteriaFacts", { selectors: ["button"], texts: [] })).counts,
        ).toEqual({
          button: 1,
        })
      }),
    )
  })
}

import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { expect, layer } from "@effect/vitest"
import { BrowserDriver, type DriverError } from "@sextant/core"
import { Effect, Layer } from "effect"
import { afterAll, beforeAll } from "vitest"
import { fromBrowser, launch, makeDriver, WebdriverioDriver } from "../src/index.ts"

/** Pages served over HTTP, as a real site loads: `/<name>` answers `PAGES[name]`. */
const PAGES: Record<string, string> = {
  // Two alerts while the page loads, then a button.
  "two-alerts": `<script>alert("first")</script><script>alert("second")</script>
<button onclick="document.title = 'pressed'">Press</button>`,
  // A page whose own script breaks what the page runtime reads, so its look fails.
  "failing-script": `<p>Hello</p><script>
window.getComputedStyle = () => { throw "TypeError: boom" }
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

const dialogOf = (error: DriverError) =>
  error.reason._tag === "DialogOpen"
    ? { type: error.reason.type, text: error.reason.text }
    : error.reason._tag

/** Runs an effect and answers how long it took, in ms. */
const timed = <A, E>(effect: Effect.Effect<A, E>) =>
  Effect.gen(function* () {
    const started = Date.now()
    const result = yield* effect
    return { result, ms: Date.now() - started }
  })

/**
 * The browser as a ChromeDriver on another machine reports it: its debugger address (that machine's
 * loopback) reaches nothing here.
 */
const elsewhere = (browser: WebdriverIO.Browser): WebdriverIO.Browser => {
  const options = (browser.capabilities as Record<string, unknown>)["goog:chromeOptions"] as Record<
    string,
    unknown
  >
  options.debuggerAddress = "127.0.0.1:9"
  return browser
}

const driverOptions = { actionWaitMs: 300 }
const modes = [
  {
    name: "dialogs over WebDriver BiDi",
    type: "alert",
    driver: WebdriverioDriver.layer({ bidi: true, driver: driverOptions }),
  },
  {
    name: "dialogs over WebDriver Classic and the tabs' DevTools sockets (a Chromium Sextant launched)",
    type: "alert",
    driver: WebdriverioDriver.layerShared({ bidi: false, driver: driverOptions }),
  },
  {
    name: "dialogs over WebDriver Classic and the tabs' DevTools sockets (a browser on this machine Sextant did not launch)",
    type: "alert",
    driver: Layer.effect(
      BrowserDriver,
      Effect.flatMap(launch({ bidi: false }), (session) =>
        makeDriver(fromBrowser(session.browser), driverOptions),
      ),
    ),
  },
  {
    // Classic alone has no dialog events: it knows a dialog's message but not its type.
    name: "dialogs over WebDriver Classic alone (a browser whose DevTools port is on another machine)",
    type: undefined,
    driver: Layer.effect(
      BrowserDriver,
      Effect.flatMap(launch({ bidi: false }), (session) =>
        makeDriver(fromBrowser(elsewhere(session.browser)), driverOptions),
      ),
    ),
  },
]

for (const { name, type, driver: driverUnderTest } of modes) {
  layer(driverUnderTest, {
    excludeTestServices: true,
    timeout: "60 seconds",
  })(name, (it) => {
    it.effect(
      "answers DialogOpen with the dialog's message at once when alerts open while a page loads",
      () =>
        Effect.gen(function* () {
          const driver = yield* BrowserDriver
          const navigated = yield* timed(Effect.flip(driver.navigate(`${base}/two-alerts`)))
          expect(dialogOf(navigated.result)).toEqual({ type, text: "first" })
          expect(navigated.result.message).toContain('is open ("first"): accept or dismiss it first')
          expect(navigated.ms).toBeLessThan(5_000)
          expect(yield* driver.dialog).toMatchObject({ text: "first" })
          yield* driver.respondToDialog(false)
          // The second alert opens as soon as the first is answered: a look sent now must say so.
          const looked = yield* timed(Effect.flip(driver.look()))
          expect(dialogOf(looked.result)).toEqual({ type, text: "second" })
          expect(looked.ms).toBeLessThan(5_000)
          const acted = yield* Effect.flip(driver.act({ selector: "button" }, "click"))
          expect(dialogOf(acted)).toEqual({ type, text: "second" })
          yield* driver.respondToDialog(true)
          const snapshot = yield* driver.look()
          expect(snapshot.tree).toMatch(/button "Press"/)
        }),
    )

    it.effect("reports a failure of the page script once, with the page's own message", () =>
      Effect.gen(function* () {
        const driver = yield* BrowserDriver
        yield* driver.navigate(`${base}/failing-script`)
        const failed = yield* Effect.flip(driver.look())
        expect(failed.reason._tag).toBe("ScriptError")
        expect(failed.message).toBe("BrowserDriver.look: the page script failed: TypeError: boom")
      }),
    )
  })
}

import { rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { expect, layer } from "@effect/vitest"
import { BrowserDriver, type DriverError, UploadDirs } from "@sextant/core"
import { type FixtureSite, startFixtureSite } from "@sextant/fixture-site"
import { Effect } from "effect"
import { afterAll, beforeAll } from "vitest"
import { WebdriverioDriver } from "../src/index.ts"
import { freePort } from "./support/Processes.ts"

let site: FixtureSite
beforeAll(async () => {
  site = await startFixtureSite({ port: 0, seed: 0 })
})
afterAll(async () => {
  await site?.close()
})

const page = (html: string) => `data:text/html,${encodeURIComponent(html)}`

// Listeners record each event's type and isTrusted; the test reads them back.
const trustPage = page(`<button id="button">Press</button><input id="field"><p id="out"></p>
<script>
window.seen = []
const record = (event) => window.seen.push(event.type + ":" + event.isTrusted)
document.getElementById("button").addEventListener("click", record)
document.getElementById("button").addEventListener("pointerdown", record)
document.getElementById("field").addEventListener("beforeinput", record)
document.getElementById("field").addEventListener("input", record)
document.getElementById("field").addEventListener("keydown", record)
</script>`)

const reasonOf = <A>(effect: Effect.Effect<A, DriverError>) =>
  Effect.flip(effect).pipe(Effect.map((error) => error.reason._tag))

const seen = Effect.gen(function* () {
  const driver = yield* BrowserDriver
  return (yield* driver.evaluate("return window.seen.splice(0)")) as ReadonlyArray<string>
})

for (const bidi of [true, false]) {
  layer(WebdriverioDriver.layerShared({ bidi, driver: { actionWaitMs: 300 } }), {
    excludeTestServices: true,
    timeout: "60 seconds",
  })(
    bidi
      ? "BrowserDriver over WebDriver BiDi"
      : "BrowserDriver over WebDriver Classic and the tabs' DevTools sockets",
    (it) => {
      it.effect("clicks and types with trusted events", () =>
        Effect.gen(function* () {
          const driver = yield* BrowserDriver
          yield* driver.navigate(trustPage)
          yield* driver.act({ selector: "#button" }, "click")
          expect(yield* seen).toEqual(["pointerdown:true", "click:true"])
          yield* driver.act({ selector: "#field" }, "input", "hello")
          const typed = yield* seen
          expect(typed.length).toBeGreaterThan(0)
          expect(typed.every((entry) => entry.endsWith(":true"))).toBe(true)
          expect(typed).toContain("input:true")
          yield* driver.act({ selector: "#field" }, "press", "Enter")
          const pressed = yield* seen
          expect(pressed[0]).toBe("keydown:true")
          expect(pressed.every((entry) => entry.endsWith(":true"))).toBe(true)
          expect(yield* driver.evaluate("return document.getElementById('field').value")).toBe("hello")
        }),
      )

      it.effect("replaces a field's value on input and empties it on clear", () =>
        Effect.gen(function* () {
          const driver = yield* BrowserDriver
          yield* driver.navigate(page(`<input id="field" value="old text">`))
          yield* driver.act({ selector: "#field" }, "input", "new")
          expect(yield* driver.evaluate("return document.getElementById('field').value")).toBe("new")
          yield* driver.act({ selector: "#field" }, "clear")
          expect(yield* driver.evaluate("return document.getElementById('field').value")).toBe("")
        }),
      )

      it.effect("checks and unchecks a switch drawn with ARIA by its aria-checked state, once each", () =>
        Effect.gen(function* () {
          const driver = yield* BrowserDriver
          yield* driver.navigate(
            page(`<button id="wifi" type="button" role="switch" aria-checked="true">Wi-Fi</button>
<script>const wifi = document.getElementById("wifi"); wifi.addEventListener("click", () => wifi.setAttribute("aria-checked", String(wifi.getAttribute("aria-checked") !== "true")))</script>`),
          )
          const state = driver.evaluate("return document.getElementById('wifi').getAttribute('aria-checked')")
          yield* driver.act({ selector: "#wifi" }, "uncheck")
          expect(yield* state).toBe("false")
          yield* driver.act({ selector: "#wifi" }, "uncheck")
          expect(yield* state).toBe("false")
          yield* driver.act({ selector: "#wifi" }, "check")
          expect(yield* state).toBe("true")
          yield* driver.act({ selector: "#wifi" }, "check")
          expect(yield* state).toBe("true")
        }),
      )

      it.effect("checks by state, selects by label or value, sets a slider, uploads, hovers", () =>
        Effect.gen(function* () {
          const driver = yield* BrowserDriver
          yield* driver.navigate(`${site.url}/forms/contact`)
          yield* driver.act({ selector: "#subscribe" }, "check")
          yield* driver.act({ selector: "#subscribe" }, "check")
          expect(yield* driver.evaluate("return document.getElementById('subscribe').checked")).toBe(true)
          yield* driver.act({ selector: "#subscribe" }, "uncheck")
          expect(yield* driver.evaluate("return document.getElementById('subscribe').checked")).toBe(false)
          yield* driver.act({ selector: "#topic" }, "select", "Sales")
          expect(yield* driver.evaluate("return document.getElementById('topic').value")).toBe("sales")
          const missing = yield* Effect.flip(driver.act({ selector: "#topic" }, "select", "Billing"))
          expect(missing.message).toContain('"Billing" is not an option')
          const file = join(tmpdir(), `sextant-upload-${process.pid}.txt`)
          writeFileSync(file, "twelve bytes")
          const fromTmp = Effect.provideService(UploadDirs, { allowed: [tmpdir()] })
          yield* driver.act({ selector: "#attachment" }, "upload", file).pipe(fromTmp)
          expect(yield* driver.evaluate("return document.getElementById('attachment').files[0].size")).toBe(
            12,
          )
          yield* driver.act({ selector: "#subscribe" }, "check")
          // The mark used to find the file input for WebDriver is gone after the next action.
          expect(
            yield* driver.evaluate("return document.querySelectorAll('[data-sextant-mark]').length"),
          ).toBe(0)
          if (bidi) {
            yield* driver.navigate(
              page(`<div id="host"></div>
<script>document.getElementById("host").attachShadow({ mode: "open" }).innerHTML = '<input type="file" id="inside">'</script>`),
            )
            yield* driver.act({ selector: "#inside" }, "upload", file).pipe(fromTmp)
            expect(
              yield* driver.evaluate(
                "return document.getElementById('host').shadowRoot.getElementById('inside').files[0].name",
              ),
            ).toBe(file.split("/").at(-1))
          }
          rmSync(file)

          yield* driver.navigate(
            page(`<input type="range" id="range" min="0" max="50" value="10" style="width:300px">
<button id="hover" onmouseover="document.title='hovered'">Hover</button>`),
          )
          yield* driver.act({ selector: "#range" }, "set", 37)
          expect(yield* driver.evaluate("return document.getElementById('range').value")).toBe("37")
          yield* driver.act({ selector: "#hover" }, "hover")
          expect(yield* driver.title).toBe("hovered")
        }),
      )

      it.effect("maps failures to reasons: missing, bad selector, covered, disabled, script error", () =>
        Effect.gen(function* () {
          const driver = yield* BrowserDriver
          yield* driver.navigate(
            page(`<button id="under" style="position:absolute;top:10px;left:10px">Under</button>
<div style="position:absolute;top:0;left:0;width:300px;height:100px;background:white"></div>
<button id="off" disabled>Off</button>`),
          )
          expect(yield* reasonOf(driver.act({ selector: "#nothing" }, "click"))).toBe("ElementNotFound")
          expect(yield* reasonOf(driver.act({ selector: "##" }, "click"))).toBe("InvalidArgument")
          expect(yield* reasonOf(driver.act({ selector: "#under" }, "click"))).toBe("NotInteractable")
          expect(yield* reasonOf(driver.act({ selector: "#off" }, "click"))).toBe("NotInteractable")
          expect(yield* reasonOf(driver.evaluate("throw new Error('boom')"))).toBe("ScriptError")
          expect(yield* reasonOf(driver.act({ ref: "e4242" }, "click"))).toBe("StaleRef")
          expect(yield* reasonOf(driver.switchTab("no-such-handle"))).toBe("SessionClosed")
        }),
      )

      it.effect("fails a click whose press landed on what pushed its button down, and clicks nothing", () =>
        Effect.gen(function* () {
          const driver = yield* BrowserDriver
          // The banner appears as the pointer arrives over the button, between aiming and pressing.
          yield* driver.navigate(
            page(`<div id="slot"></div><button id="claim" onclick="window.claimed = (window.claimed || 0) + 1">Claim offer</button>
<script>document.getElementById("claim").addEventListener("pointerover", () => {
  const slot = document.getElementById("slot")
  if (!slot.firstChild) slot.innerHTML = '<p id="banner" style="height:96px;margin:0">Limited time only!</p>'
})</script>`),
          )
          const error = yield* Effect.flip(driver.act({ selector: "#claim" }, "click"))
          expect(error.reason._tag).toBe("NotInteractable")
          expect(error.message).toContain("the click landed on p#banner")
          expect(yield* driver.evaluate("return window.claimed ?? 0")).toBe(0)
          // Aimed again where the button is now, the click lands.
          yield* driver.act({ selector: "#claim" }, "click")
          expect(yield* driver.evaluate("return window.claimed ?? 0")).toBe(1)
        }),
      )

      it.effect("clicks a button the page re-renders as the pointer arrives", () =>
        Effect.gen(function* () {
          const driver = yield* BrowserDriver
          yield* driver.navigate(
            page(`<button id="claim" onclick="window.claimed = (window.claimed || 0) + 1">Claim offer</button>
<script>document.getElementById("claim").addEventListener("pointerover", (event) => {
  event.target.replaceWith(event.target.cloneNode(true))
}, { once: true })</script>`),
          )
          yield* driver.act({ selector: "#claim" }, "click")
          expect(yield* driver.evaluate("return window.claimed ?? 0")).toBe(1)
        }),
      )

      it.effect("answers a click that only presses a toggle button (aria-pressed) as a change", () =>
        Effect.gen(function* () {
          const driver = yield* BrowserDriver
          yield* driver.navigate(
            page(`<button id="fav" aria-label="Save to favourites" aria-pressed="false"
onclick="this.setAttribute('aria-pressed', String(this.getAttribute('aria-pressed') !== 'true'))">&#9825;</button>`),
          )
          const pressed = yield* driver.act({ selector: "#fav" }, "click")
          expect(pressed.changed).toBe(true)
          expect(pressed.signals).not.toContain("NoOp")
          const toggle = Object.values((yield* driver.look()).elements).find(
            (element) => element.name === "Save to favourites",
          )
          expect(toggle?.pressed).toBe(true)
        }),
      )

      it.effect(
        "types a day with no year into a date input as the next such day, and refuses it for text",
        () =>
          Effect.gen(function* () {
            const driver = yield* BrowserDriver
            yield* driver.navigate(
              page(
                `<input type="date" id="day"><input type="date" id="later" min="2099-02-01"><input id="text">`,
              ),
            )
            const now = new Date()
            const pad = (value: number) => String(value).padStart(2, "0")
            const today = `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`
            const newYear = `${now.getFullYear()}-01-01`
            yield* driver.act({ selector: "#day" }, "input", "--01-01")
            expect(yield* driver.evaluate("return document.getElementById('day').value")).toBe(
              today <= newYear ? newYear : `${now.getFullYear() + 1}-01-01`,
            )
            // The field's earliest day, when later than today, is where the next one is counted from.
            yield* driver.act({ selector: "#later" }, "input", "--01-15")
            expect(yield* driver.evaluate("return document.getElementById('later').value")).toBe("2100-01-15")
            const refused = yield* Effect.flip(driver.act({ selector: "#text" }, "input", "--01-15"))
            expect(refused.reason._tag).toBe("InvalidArgument")
            expect(refused.message).toContain("is a day with no year")
            expect(yield* driver.evaluate("return document.getElementById('text').value")).toBe("")
          }),
      )

      it.effect("reports a dialog an action opened and answers it", () =>
        Effect.gen(function* () {
          const driver = yield* BrowserDriver
          yield* driver.navigate(
            page(
              `<button id="ask" onclick="document.title = String(confirm('Delete everything?'))">Ask</button>`,
            ),
          )
          const result = yield* driver.act({ selector: "#ask" }, "click")
          expect(result.hint).toContain("Delete everything?")
          expect((yield* driver.dialog)?.text).toBe("Delete everything?")
          yield* driver.respondToDialog(false)
          yield* driver.waitFor({ js: "document.title === 'false'" }, { timeoutMs: 2_000 })
          expect(yield* driver.title).toBe("false")
          expect(yield* driver.dialog).toBeUndefined()
        }),
      )

      it.effect("lists, switches and closes tabs", () =>
        Effect.gen(function* () {
          const driver = yield* BrowserDriver
          yield* driver.navigate(`${site.url}/login`)
          yield* driver.evaluate(`window.open(${JSON.stringify(`${site.url}/products`)}, "_blank")`)
          const tabs = yield* driver.tabs
          expect(tabs).toHaveLength(2)
          const other = tabs.find((tab) => !tab.active)!
          const switched = yield* driver.switchTab(other.handle)
          expect(switched.url).toBe(`${site.url}/products`)
          yield* driver.closeTab(other.handle)
          const left = yield* driver.tabs
          expect(left).toHaveLength(1)
          expect(left[0]).toMatchObject({ active: true })
          expect(yield* driver.currentUrl).toBe(`${site.url}/login`)
        }),
      )

      it.effect(
        "names the tab a click opened in the act answer, and a dialog in that tab's page once switched to it",
        () =>
          Effect.gen(function* () {
            const driver = yield* BrowserDriver
            const opener = page(
              `<button id="open" onclick="window.open('about:blank', '_blank')">Open</button><button id="stay">Stay</button>`,
            )
            yield* driver.navigate(opener)
            const stayed = yield* driver.act({ selector: "#stay" }, "click")
            expect(stayed.newTabs).toBeUndefined()
            const opened = yield* driver.act({ selector: "#open" }, "click")
            expect(opened.newTabs).toHaveLength(1)
            expect(opened.hint).toContain("a new tab opened")
            const handle = opened.newTabs![0]!
            expect((yield* driver.tabs).map((tab) => tab.handle)).toContain(handle)
            yield* driver.switchTab(handle)
            const asked = yield* Effect.flip(
              driver
                .evaluate("setTimeout(() => alert('from the new tab'), 0)")
                .pipe(Effect.andThen(driver.look()), Effect.andThen(driver.look())),
            )
            expect(asked.reason).toMatchObject({ _tag: "DialogOpen", text: "from the new tab" })
            yield* driver.respondToDialog(true)
            yield* driver.closeTab(handle)
            expect(yield* driver.currentUrl).toBe(opener)
          }),
      )

      // Over BiDi, a look sent while a popup's alert is open does not answer (left open, in the note of
      // 2026-11-26); the tabs' sockets, the default for a launched Chromium, are tested here.
      it.effect.skipIf(bidi)(
        "answers DialogOpen for an alert in a tab a click opened, before the agent switches to it",
        () =>
          Effect.gen(function* () {
            const driver = yield* BrowserDriver
            const opener = page(
              `<a id="pop" href="${site.url}/faults/alert?text=from+the+popup" target="_blank">Open</a>`,
            )
            yield* driver.navigate(opener)
            const opened = yield* driver.act({ selector: "#pop" }, "click")
            expect(opened.newTabs).toHaveLength(1)
            const deadline = Date.now() + 10_000
            let seen = yield* driver.dialog
            while (seen === undefined && Date.now() < deadline) {
              yield* Effect.sleep("50 millis")
              seen = yield* driver.dialog
            }
            expect(seen?.text).toBe("from the popup")
            // Every page call answers with it until it is answered, as for a dialog in the current tab.
            const looked = yield* Effect.flip(driver.look())
            expect(looked.reason).toMatchObject({ _tag: "DialogOpen", text: "from the popup" })
            yield* driver.respondToDialog(true)
            yield* driver.closeTab(opened.newTabs![0]!)
            expect(yield* driver.currentUrl).toBe(opener)
          }),
      )

      it.effect(
        "takes an element's screenshot where the element is: below the fold and inside a shadow root",
        () =>
          Effect.gen(function* () {
            const driver = yield* BrowserDriver
            const box = (id: string, color: string) =>
              `<div id="${id}" style="width:40px;height:24px;background:${color}"></div>`
            yield* driver.navigate(
              page(`<body style="margin:0">${box("top", "rgb(200,0,0)")}${box("blue", "rgb(0,0,200)")}
<div style="height:3000px"></div><div id="host"></div>
<script>document.getElementById("host").attachShadow({ mode: "open" }).innerHTML = ${JSON.stringify(box("deep", "rgb(200,0,0)"))}</script></body>`),
            )
            const top = yield* driver.screenshot({ target: { selector: "#top" } })
            const blue = yield* driver.screenshot({ target: { selector: "#blue" } })
            const deep = yield* driver.screenshot({ target: { selector: "#deep" } })
            // Two boxes of one size and colour make the same image; a clip off the box would not.
            expect(Buffer.from(deep).equals(Buffer.from(top))).toBe(true)
            expect(Buffer.from(blue).equals(Buffer.from(top))).toBe(false)
            if (!bidi) {
              // Taller than the viewport: the tab's socket takes the element whole, every row painted
              // (BiDi's viewport clip crops it to the viewport).
              yield* driver.navigate(
                page(`<body style="margin:0"><div id="a" style="width:30px;height:1500px;background:rgb(0,150,0)"></div>
<div style="height:700px"></div><div id="b" style="width:30px;height:1500px;background:rgb(0,150,0)"></div></body>`),
              )
              const a = yield* driver.screenshot({ target: { selector: "#a" } })
              const b = yield* driver.screenshot({ target: { selector: "#b" } })
              expect(new DataView(a.buffer, a.byteOffset).getUint32(20)).toBe(1500)
              expect(Buffer.from(a).equals(Buffer.from(b))).toBe(true)
            }
          }),
      )

      it.effect("waits, scrolls, goes back and forward, and takes screenshots", () =>
        Effect.gen(function* () {
          const driver = yield* BrowserDriver
          yield* driver.navigate(`${site.url}/dynamic`)
          const delayed = yield* driver.waitFor(
            { selector: "#delayed", state: "visible" },
            { timeoutMs: 5_000 },
          )
          expect(delayed.ok).toBe(true)
          const never = yield* driver.waitFor({ text: "this text never shows" }, { timeoutMs: 200 })
          expect(never.ok).toBe(false)
          const bottom = yield* driver.scroll({ to: "bottom" })
          expect(bottom.y).toBeGreaterThan(0)
          const top = yield* driver.scroll({ to: "top" })
          expect(top.y).toBe(0)
          const png = yield* driver.screenshot()
          expect([...png.slice(1, 4)]).toEqual([0x50, 0x4e, 0x47])
          const element = yield* driver.screenshot({ target: { selector: "h1" } })
          expect([...element.slice(1, 4)]).toEqual([0x50, 0x4e, 0x47])
          // A PNG's width and height are the big-endian words at bytes 16 and 20 (IHDR).
          const size = (image: Uint8Array) => {
            const view = new DataView(image.buffer, image.byteOffset, image.byteLength)
            return { width: view.getUint32(16), height: view.getUint32(20) }
          }
          const heading = (yield* driver.evaluate(
            "const r = document.querySelector('h1').getBoundingClientRect(); return [r.width, r.height]",
          )) as [number, number]
          expect(Math.abs(size(element).height - heading[1])).toBeLessThanOrEqual(2)
          expect(size(element).height).toBeLessThan(size(png).height)
          yield* driver.navigate(`${site.url}/login`)
          expect((yield* driver.back).url).toBe(`${site.url}/dynamic`)
          expect((yield* driver.forward).url).toBe(`${site.url}/login`)
          expect((yield* driver.refresh).url).toBe(`${site.url}/login`)
          const closedPort = yield* Effect.promise(() => freePort())
          const failed = yield* Effect.flip(driver.navigate(`http://127.0.0.1:${closedPort}/`))
          expect(failed.reason._tag).toBe("NavigationFailed")
          expect(failed.message).toContain("ERR_CONNECTION_REFUSED")
        }),
      )
    },
  )
}

import { expect, layer } from "@effect/vitest"
import { BrowserDriver } from "@sextant/core"
import { type FixtureSite, startFixtureSite } from "@sextant/fixture-site"
import { Effect } from "effect"
import { afterAll, beforeAll } from "vitest"
import { WebdriverioDriver } from "../src/index.ts"

let site: FixtureSite
beforeAll(async () => {
  site = await startFixtureSite({ port: 0, seed: 0 })
})
afterAll(async () => {
  await site?.close()
})

const read = (selector: string, what = "value") =>
  BrowserDriver.use((driver) =>
    driver.evaluate(`return String(document.querySelector(${JSON.stringify(selector)}).${what})`),
  )

const CODE = "ABCD-1234-WXYZ"

layer(WebdriverioDriver.layerShared({ driver: { actionWaitMs: 300 } }), {
  excludeTestServices: true,
  timeout: "60 seconds",
})("a fill reads the field back", (it) => {
  it.effect("types again when the field lost a keystroke the first time, and the field holds the value", () =>
    Effect.gen(function* () {
      const driver = yield* BrowserDriver
      yield* driver.navigate(`${site.url}/typing/field?drop=once`)
      const result = yield* driver.act({ selector: "#code" }, "input", CODE)
      expect(result.ok).toBe(true)
      expect(yield* read("#code")).toBe(CODE)
      // The page did drop a keystroke: the second typing is what filled it.
      expect(yield* read("#code", "dataset.drops")).toBe("1")
    }),
  )

  it.effect(
    "fails with ValueNotTaken saying how much the field holds when it loses a keystroke every time",
    () =>
      Effect.gen(function* () {
        const driver = yield* BrowserDriver
        yield* driver.navigate(`${site.url}/typing/field?drop=always`)
        const error = yield* Effect.flip(driver.act({ selector: "#code" }, "input", CODE))
        expect(error.reason._tag).toBe("ValueNotTaken")
        expect(error.message).toContain("#code")
        expect(error.message).toContain("holds 13 of 14 characters")
        expect(error.message).toContain("lost keystrokes")
        expect(yield* read("#code", "dataset.drops")).toBe("2")
      }),
  )

  it.effect("fails naming the maxlength when the value is longer than the field allows", () =>
    Effect.gen(function* () {
      const driver = yield* BrowserDriver
      yield* driver.navigate(`${site.url}/typing/field?maxlength=8`)
      const error = yield* Effect.flip(driver.act({ selector: "#code" }, "input", CODE))
      expect(error.reason._tag).toBe("ValueNotTaken")
      expect(error.message).toContain("holds 8 of 14 characters")
      expect(error.message).toContain("the field allows at most 8 characters (maxlength)")
    }),
  )

  it.effect("counts a phone number the field's mask formatted as the number typed", () =>
    Effect.gen(function* () {
      const driver = yield* BrowserDriver
      yield* driver.navigate(`${site.url}/typing/phone`)
      const result = yield* driver.act({ selector: "#phone" }, "input", "5551234567")
      expect(result.ok).toBe(true)
      expect(yield* read("#phone")).toBe("(555) 123-4567")
    }),
  )

  it.effect("counts an amount the field shows as money as the amount typed, and refuses another amount", () =>
    Effect.gen(function* () {
      const driver = yield* BrowserDriver
      yield* driver.navigate(`${site.url}/typing/phone`)
      const result = yield* driver.act({ selector: "#amount" }, "input", "1250")
      expect(result.ok).toBe(true)
      expect(yield* read("#amount")).toBe("$1,250.00")
      // 12.5 typed shows as $12.50: the same amount; "12,50" is no amount this field keeps.
      expect((yield* driver.act({ selector: "#amount" }, "input", "12.5")).ok).toBe(true)
      const error = yield* Effect.flip(driver.act({ selector: "#amount" }, "input", "12,50"))
      expect(error.reason._tag).toBe("ValueNotTaken")
    }),
  )

  it.effect("says what the page changed the value to when it is not a secret", () =>
    Effect.gen(function* () {
      const driver = yield* BrowserDriver
      yield* driver.navigate(`${site.url}/typing/phone`)
      const error = yield* Effect.flip(driver.act({ selector: "#phone" }, "input", "call me"))
      expect(error.reason._tag).toBe("ValueNotTaken")
      expect(error.message).toContain('the page changed the value to ""')
    }),
  )

  it.effect("fills a field that keeps what is typed, and a textarea and a contenteditable", () =>
    Effect.gen(function* () {
      const driver = yield* BrowserDriver
      yield* driver.navigate(`${site.url}/typing/field`)
      yield* driver.act({ selector: "#code" }, "input", CODE)
      expect(yield* read("#code")).toBe(CODE)
      yield* driver.evaluate(
        `document.body.insertAdjacentHTML("beforeend", '<textarea id="note"></textarea><div id="rich" contenteditable="true"></div>')`,
      )
      yield* driver.act({ selector: "#note" }, "input", "two\nlines")
      expect(yield* read("#note")).toBe("two\nlines")
      yield* driver.act({ selector: "#rich" }, "input", "Rich text")
      expect(yield* read("#rich", "textContent")).toBe("Rich text")
    }),
  )
})

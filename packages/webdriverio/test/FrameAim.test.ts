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

// /frames/padded frames two buttons behind a 10 px border and 40 px of padding; "Left" sits up and
// to the left of "Right" by less than the padding, so a click aimed without it lands on "Left".
const clicked = Effect.gen(function* () {
  const driver = yield* BrowserDriver
  return yield* driver.evaluate(
    "return document.getElementById('padded-frame').contentDocument.getElementById('clicked').textContent",
  )
})

const open = Effect.gen(function* () {
  const driver = yield* BrowserDriver
  yield* driver.navigate(`${site.url}/frames/padded`)
  // The framed document loads after the page's load event may have fired: wait for its buttons.
  yield* driver.waitFor({ selector: "#right" }, { timeoutMs: 5_000 })
  return driver
})

for (const bidi of [true, false]) {
  layer(WebdriverioDriver.layerShared({ bidi, driver: { actionWaitMs: 300 } }), {
    excludeTestServices: true,
    timeout: "60 seconds",
  })(
    bidi
      ? "aiming into a padded, bordered iframe over BiDi"
      : "aiming into a padded, bordered iframe over Classic",
    (it) => {
      it.effect("clicks the button a ref names inside the frame, past the frame's border and padding", () =>
        Effect.gen(function* () {
          const driver = yield* open
          const snapshot = yield* driver.look({ mode: "full" })
          const right = Object.values(snapshot.elements).find(
            (element) => element.role === "button" && element.name === "Right",
          )
          expect(right, snapshot.tree).toBeDefined()
          yield* driver.act({ ref: right?.ref ?? "" }, "click")
          expect(yield* clicked).toBe("Right clicked")
        }),
      )

      it.effect(
        "clicks the button a selector finds inside the frame, past the frame's border and padding",
        () =>
          Effect.gen(function* () {
            yield* open
            const driver = yield* BrowserDriver
            yield* driver.act({ selector: "#right" }, "click")
            expect(yield* clicked).toBe("Right clicked")
            yield* driver.act({ selector: "#left" }, "click")
            expect(yield* clicked).toBe("Left clicked")
          }),
      )
    },
  )
}

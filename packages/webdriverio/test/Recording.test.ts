import { expect, layer } from "@effect/vitest"
import { BrowserDriver, type DriverRecording } from "@sextant/core"
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

const take = BrowserDriver.use((driver) =>
  driver.takeRecording === undefined
    ? Effect.die("the WebdriverIO driver records what it does")
    : driver.takeRecording,
)

const refOf = (role: string, name: string) =>
  Effect.map(
    BrowserDriver.use((driver) => driver.look({ mode: "interactive" })),
    (snapshot) =>
      Object.values(snapshot.elements).find((element) => element.role === role && element.name === name)?.ref,
  )

layer(WebdriverioDriver.layer({ driver: { recordTraffic: true } }), {
  excludeTestServices: true,
  timeout: "90 seconds",
})("takeRecording", (it) => {
  it.effect(
    "records navigations and actions with each element's role, name and selector, never a ref, and starts anew after each take",
    () =>
      Effect.gen(function* () {
        const driver = yield* BrowserDriver
        yield* take
        yield* driver.navigate(`${site.url}/login`)
        const email = yield* refOf("textbox", "Email")
        expect(email).toMatch(/^e\d+$/)
        yield* driver.act({ ref: email ?? "" }, "input", "alice@example.com")
        yield* driver.act({ selector: "#password" }, "input", "wonderland")
        yield* driver.act({ selector: "#login-btn" }, "click")
        const recording: DriverRecording = yield* take
        expect(recording.actions).toEqual([
          { kind: "navigate", via: "navigate", url: `${site.url}/login` },
          {
            kind: "act",
            op: "input",
            element: { role: "textbox", name: "Email", selector: "#email" },
            value: "alice@example.com",
            urlBefore: `${site.url}/login`,
            url: `${site.url}/login`,
          },
          {
            kind: "act",
            op: "input",
            element: { role: "textbox", name: "Password", selector: "#password" },
            value: "wonderland",
            urlBefore: `${site.url}/login`,
            url: `${site.url}/login`,
          },
          {
            kind: "act",
            op: "click",
            element: { role: "button", name: "Sign in", selector: "#login-btn" },
            urlBefore: `${site.url}/login`,
            url: `${site.url}/dashboard`,
          },
        ])
        expect((yield* take).actions).toEqual([])
      }),
  )

  it.effect(
    "names an element the last look did not show by what the page says of it, not by a tool's temporary selector",
    () =>
      Effect.gen(function* () {
        const driver = yield* BrowserDriver
        yield* driver.navigate(`${site.url}/products/3`)
        yield* take
        // A tool that picks among matches marks its pick for one call, as clickTextMatches does.
        yield* driver.evaluate(
          `document.querySelector("#add-to-cart").setAttribute("data-sextant-pick", "p1")`,
        )
        yield* driver.act({ selector: '[data-sextant-pick="p1"]' }, "click")
        const [clicked] = (yield* take).actions
        expect(clicked).toMatchObject({
          kind: "act",
          op: "click",
          element: { role: "button", name: "Add to cart", selector: "#add-to-cart" },
        })
      }),
  )

  it.effect("keeps the page's JSON calls with their bodies, and no page, script or image loads", () =>
    Effect.gen(function* () {
      const driver = yield* BrowserDriver
      yield* driver.navigate(`${site.url}/products/3`)
      yield* take
      yield* driver.act({ selector: "#add-to-cart" }, "click")
      const { exchanges } = yield* take
      expect(exchanges).toEqual([
        expect.objectContaining({
          method: "POST",
          url: `${site.url}/api/cart`,
          status: 200,
          requestBody: '{"productId":3,"quantity":1}',
          responseContentType: "application/json",
        }),
      ])
      expect(JSON.parse(exchanges[0]?.responseBody ?? "null")).toMatchObject({
        items: [{ productId: 3, quantity: expect.any(Number) }],
      })
    }),
  )
})

layer(WebdriverioDriver.layerShared({}), { excludeTestServices: true, timeout: "60 seconds" })(
  "takeRecording without recordTraffic",
  (it) => {
    it.effect("records the actions but keeps no traffic", () =>
      Effect.gen(function* () {
        const driver = yield* BrowserDriver
        yield* driver.navigate(`${site.url}/products/3`)
        yield* driver.act({ selector: "#add-to-cart" }, "click")
        const recording = yield* take
        expect(recording.actions.map((action) => action.kind)).toEqual(["navigate", "act"])
        expect(recording.exchanges).toEqual([])
      }),
    )
  },
)

import { assert, layer } from "@effect/vitest"
import { BrowserDriver, type DriverError, type PageSnapshot, refPattern } from "@sextant/core"
import { Effect, type Layer } from "effect"

/**
 * The page every driver of the contract is run on: serve it at `/contract` (and `CONTRACT_NEXT_PAGE` at
 * `/next`) on the driver's origin.
 */
export const CONTRACT_PAGE = `<!doctype html>
<html><head><title>Driver contract</title></head>
<body>
  <h1>Driver contract</h1>
  <form action="/next" method="get">
    <label for="email">Email</label>
    <input id="email" name="email" type="text">
    <label for="size">Size</label>
    <select id="size" name="size">
      <option value="s">Small</option>
      <option value="m">Medium</option>
      <option value="l">Large</option>
    </select>
    <input id="terms" name="terms" type="checkbox"><label for="terms">I agree</label>
    <button type="submit">Send</button>
  </form>
  <a href="/next">Next page</a>
</body></html>`

/** The page the contract page's link and form lead to. */
export const CONTRACT_NEXT_PAGE = `<!doctype html>
<html><head><title>Next</title></head><body><h1>Next</h1><p>Arrived.</p></body></html>`

/** What {@link driverContract} needs: the driver's layer and the URL of {@link CONTRACT_PAGE} on it. */
export interface DriverContractOptions {
  /** A layer building the driver; the suite builds it once and shares it between its tests. */
  readonly layer: Layer.Layer<BrowserDriver, unknown>
  /** Where the driver finds {@link CONTRACT_PAGE} (its `/next` on the same origin). */
  readonly url: string | (() => string)
  /** Per-test timeout for slow drivers (a real browser). */
  readonly timeoutMs?: number
}

const actionOf = (snapshot: PageSnapshot, role: string, name: string) => {
  const action = snapshot.actions.find((candidate) => candidate.role === role && candidate.name === name)
  assert.isDefined(action, `no ${role} "${name}" among ${JSON.stringify(snapshot.actions)}`)
  return action!
}

/**
 * The `BrowserDriver` behaviours every driver must agree on, as a vitest suite: navigate, look with
 * refs, what a textbox, a select and a checkbox offer (perception's operations), type then read back,
 * select an option, check a box, follow a link, and the typed reason of an unknown ref. The fake
 * (`FakeBrowserDriver.layerTest`) and `@sextant/webdriverio` both run it.
 *
 * @example
 * ```ts
 * import { CONTRACT_NEXT_PAGE, CONTRACT_PAGE, driverContract } from "@sextant/testing/driver-contract"
 * import { FakeBrowserDriver } from "@sextant/testing"
 * driverContract("fake", {
 *   layer: FakeBrowserDriver.layerTest({ site: { "/contract": CONTRACT_PAGE, "/next": CONTRACT_NEXT_PAGE } }),
 *   url: "http://fake.test/contract",
 * })
 * ```
 */
export const driverContract = (name: string, options: DriverContractOptions): void => {
  const url = () => (typeof options.url === "function" ? options.url() : options.url)
  const timeout = options.timeoutMs ?? 5_000
  // Every test starts on a fresh load of the contract page.
  const onPage = Effect.gen(function* () {
    const driver = yield* BrowserDriver
    yield* driver.navigate(url())
    return { driver, snapshot: yield* driver.look() }
  })
  const readScript = (script: string) => Effect.flatMap(BrowserDriver, (driver) => driver.evaluate(script))

  // One driver for the suite, on the live clock (a real browser's waits are real time).
  layer(options.layer, { timeout, excludeTestServices: true })(`BrowserDriver contract: ${name}`, (it) => {
    it.effect("navigates to the page and reports its URL and title", () =>
      Effect.gen(function* () {
        const driver = yield* BrowserDriver
        const landed = yield* driver.navigate(url())
        assert.strictEqual(landed.url, url())
        assert.strictEqual(landed.title, "Driver contract")
        assert.strictEqual(yield* driver.currentUrl, url())
      }),
    )

    it.effect("looks with a ref for every control, each named by its label", () =>
      Effect.gen(function* () {
        const { snapshot } = yield* onPage
        const wanted = [
          ["textbox", "Email"],
          ["combobox", "Size"],
          ["checkbox", "I agree"],
          ["button", "Send"],
          ["link", "Next page"],
        ] as const
        for (const [role, label] of wanted) {
          const action = actionOf(snapshot, role, label)
          assert.match(action.ref, refPattern)
          assert.include(snapshot.tree, `[ref=${action.ref}]`)
        }
      }),
    )

    it.effect("offers perception's operations: an empty textbox input, a select select, a box check", () =>
      Effect.gen(function* () {
        const { snapshot } = yield* onPage
        assert.deepStrictEqual(actionOf(snapshot, "textbox", "Email").ops, ["input", "focus"])
        assert.deepStrictEqual(actionOf(snapshot, "combobox", "Size").ops, ["select"])
        assert.deepStrictEqual(actionOf(snapshot, "checkbox", "I agree").ops, ["check", "click"])
        assert.deepStrictEqual(actionOf(snapshot, "button", "Send").ops, ["click"])
      }),
    )

    it.effect("types into a textbox, reads the value back, and then offers clear", () =>
      Effect.gen(function* () {
        const { driver, snapshot } = yield* onPage
        const email = actionOf(snapshot, "textbox", "Email")
        const typed = yield* driver.act({ ref: email.ref }, "input", "ada@example.com")
        assert.isTrue(typed.ok)
        assert.strictEqual(
          yield* readScript(`return document.querySelector("#email").value`),
          "ada@example.com",
        )
        const after = yield* driver.look()
        assert.strictEqual(after.elements[email.ref]?.value, "ada@example.com")
        assert.deepStrictEqual(actionOf(after, "textbox", "Email").ops, ["input", "clear", "focus"])
      }),
    )

    it.effect("selects an option of a select by its text", () =>
      Effect.gen(function* () {
        const { driver, snapshot } = yield* onPage
        const size = actionOf(snapshot, "combobox", "Size")
        yield* driver.act({ ref: size.ref }, "select", "Medium")
        const shown = yield* readScript(
          `const options = [...document.querySelectorAll("#size option")]
             const chosen = options.find((option) => option.selected || option.hasAttribute("selected"))
             return chosen === undefined ? null : chosen.textContent.trim()`,
        )
        assert.strictEqual(shown, "Medium")
      }),
    )

    it.effect("checks a box, which then offers uncheck", () =>
      Effect.gen(function* () {
        const { driver, snapshot } = yield* onPage
        const terms = actionOf(snapshot, "checkbox", "I agree")
        yield* driver.act({ ref: terms.ref }, "check")
        assert.strictEqual(yield* readScript(`return document.querySelector("#terms").checked`), true)
        const after = yield* driver.look()
        assert.strictEqual(after.elements[terms.ref]?.checked, true)
        assert.deepStrictEqual(actionOf(after, "checkbox", "I agree").ops, ["uncheck", "click"])
      }),
    )

    it.effect("follows a link and says the page changed", () =>
      Effect.gen(function* () {
        const { driver, snapshot } = yield* onPage
        const next = actionOf(snapshot, "link", "Next page")
        const result = yield* driver.act({ ref: next.ref }, "click")
        assert.isTrue(result.changed)
        assert.include(result.signals, "NavigationOccurred")
        assert.strictEqual(new URL(yield* driver.currentUrl).pathname, "/next")
        assert.strictEqual(yield* driver.title, "Next")
      }),
    )

    it.effect("fails an act on a ref no look gave with DriverError/StaleRef", () =>
      Effect.gen(function* () {
        const { driver } = yield* onPage
        const error: DriverError = yield* Effect.flip(driver.act({ ref: "e9999" }, "click"))
        assert.strictEqual(error._tag, "DriverError")
        assert.strictEqual(error.reason._tag, "StaleRef")
        assert.include(error.message, "e9999")
      }),
    )
  })
}

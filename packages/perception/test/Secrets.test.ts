import { describe, expect, it } from "vitest"
import { lookScript } from "../src/index.ts"
import { useHarness } from "./support/Harness.ts"
import { look, lookJson, refOf } from "./support/Look.ts"

const harness = useHarness({ seed: 3 })

const PASSWORD = "wonderland-Secret-4711"
const MARKED = "card-9911-2233"

describe("secrets", () => {
  it("never shows a typed password or a field marked secret, in any view", async () => {
    await harness.browser.url(`${harness.site.url}/login`)
    await (await harness.browser.$("input[type=password]")).setValue(PASSWORD)
    await (await harness.browser.$("input[name=email]")).setValue(MARKED)
    // A page may also copy the value into attributes; those must not leak either.
    await harness.browser.execute((secret: string) => {
      const field = document.querySelector("input[type=password]")!
      field.setAttribute("value", secret)
      field.setAttribute("data-last", "x")
    }, PASSWORD)
    const secretSelectors = ["input[name=email]"]

    const first = await look(harness.browser, { secretSelectors })
    const form = first.forms[0]!.ref!
    const views = [
      { secretSelectors },
      { secretSelectors, mode: "interactive" as const },
      { secretSelectors, within: form },
      { secretSelectors, maxTokens: 60 },
      { secretSelectors, since: first },
    ]
    for (const options of views) {
      const json = await lookJson(harness.browser, options)
      const snapshot = await look(harness.browser, options)
      const everything = `${json}\n${JSON.stringify(snapshot)}`
      expect(everything, JSON.stringify(options.mode ?? options)).not.toContain(PASSWORD)
      expect(everything).not.toContain("wonderland")
      expect(everything).not.toContain(MARKED)
    }
    const password = first.elements[refOf(first, "textbox", "Password")]!
    expect(password.value).toBe("<secret>")
    expect(first.tree).toMatch(/textbox "Password" \[ref=e\d+\] \[required\]: <secret>/)
    expect(first.tree).toMatch(/textbox "Email" \[ref=e\d+\] \[required\]: <secret>/)
    const resolved = JSON.stringify(
      await harness.browser.execute(
        "const target = globalThis.__sextant.resolve(arguments[0]); delete target.element; return target",
        password.ref,
      ),
    )
    expect(resolved).not.toContain(PASSWORD)
  })

  it("shows the value of an ordinary field", async () => {
    await harness.browser.url(`${harness.site.url}/login`)
    await (await harness.browser.$("input[name=email]")).setValue("alice@example.com")
    const json = String(await harness.browser.execute(lookScript()))
    expect(json).toContain("alice@example.com")
  })
})

import { describe, expect, it } from "vitest"
import { actScript } from "../src/index.ts"
import { useHarness } from "./support/Harness.ts"
import { clickAt, look, refOf, resolve } from "./support/Look.ts"

const harness = useHarness({ seed: 0 })

/** Keeps the live node of a ref in the page so a test can tell whether it was replaced. */
const pin = (ref: string) =>
  harness.browser.execute(
    `const target = globalThis.__sextant.resolve(${JSON.stringify(ref)}, { scroll: false }); globalThis.__pinned = target.element; return target.ok`,
  )

const pinnedIsDetached = async () =>
  (await harness.browser.execute("return !globalThis.__pinned.isConnected")) === true

const resolvesToNewNode = async (ref: string) =>
  (await harness.browser.execute(
    `const target = globalThis.__sextant.resolve(${JSON.stringify(ref)}, { scroll: false }); return target.ok && target.element !== globalThis.__pinned && target.element.isConnected`,
  )) === true

describe("ref identity", () => {
  it("keeps the refs of a region that the page re-renders from brand-new nodes", async () => {
    await harness.browser.url(`${harness.site.url}/dynamic`)
    const before = await look(harness.browser)
    const increment = refOf(before, "button", "Increment")
    const note = refOf(before, "textbox", "Note")
    expect(await pin(increment)).toBe(true)
    await harness.browser.waitUntil(pinnedIsDetached, { timeout: 5000, interval: 100 })

    const after = await look(harness.browser)
    expect(refOf(after, "button", "Increment")).toBe(increment)
    expect(refOf(after, "textbox", "Note")).toBe(note)
    expect(after.elements[increment]?.key).toBe(before.elements[increment]?.key)
    expect(await resolvesToNewNode(increment)).toBe(true)
  })

  it("acts on a re-rendered element through its old ref without a new look", async () => {
    await harness.browser.url(`${harness.site.url}/dynamic`)
    const before = await look(harness.browser)
    const increment = refOf(before, "button", "Increment")
    expect(await pin(increment)).toBe(true)
    await harness.browser.waitUntil(pinnedIsDetached, { timeout: 5000, interval: 100 })
    await clickAt(harness.browser, increment)
    await harness.browser.waitUntil(
      async () => (await look(harness.browser)).tree.includes("Clicked 1 time"),
      {
        timeout: 5000,
      },
    )
  })

  it("answers stale for a ref whose element is gone and matches nothing", async () => {
    await harness.browser.url(`${harness.pages.url}/hidden.html`)
    const snapshot = await look(harness.browser)
    const button = refOf(snapshot, "button", "Shown button")
    await harness.browser.execute(() => {
      for (const element of document.querySelectorAll("button"))
        if (element.textContent === "Shown button") element.remove()
    })
    const target = await resolve(harness.browser, button)
    expect(target.ok).toBe(false)
    expect(target.message).toBe(`ref ${button} is stale: call look() to refresh`)
    const acted = (await harness.browser.execute(actScript(button, "click"))) as {
      ok: boolean
      stale?: boolean
    }
    expect(acted).toMatchObject({ ok: false, stale: true })
  })

  it("starts again from the first ref in a new document", async () => {
    await harness.browser.url(`${harness.site.url}/login`)
    const first = await look(harness.browser)
    await harness.browser.url(`${harness.site.url}/login`)
    const second = await look(harness.browser)
    expect(second.tree).toBe(first.tree)
    expect(Math.min(...Object.keys(second.elements).map((ref) => Number(ref.slice(1))))).toBeLessThan(5)
  })

  it("tells apart equal buttons by their context and position", async () => {
    await harness.browser.url(`${harness.pages.url}/shop.html`)
    const snapshot = await look(harness.browser)
    const keys = Object.values(snapshot.elements).map((element) => element.key)
    expect(new Set(keys).size).toBe(keys.length)
    const addButtons = Object.values(snapshot.elements).filter((element) => element.name === "Add to bag")
    expect(addButtons.length).toBe(3)
  })

  it("keeps whole-page identity keys through a look within one subtree", async () => {
    await harness.browser.url(`${harness.site.url}/products`)
    const whole = await look(harness.browser)
    const cut = await look(harness.browser, { maxTokens: 120 })
    const main = /within: "(e\d+)" \}\) for main/.exec(cut.tree)?.[1]
    expect(main).toBeDefined()
    const part = await look(harness.browser, { within: main! })
    const link = refOf(whole, "link", "View Brass Sextant")
    expect(part.elements[link]?.key).toBe(whole.elements[link]?.key)
    const again = await look(harness.browser)
    for (const element of Object.values(again.elements))
      expect(element.key).toBe(whole.elements[element.ref]?.key)
  })
})

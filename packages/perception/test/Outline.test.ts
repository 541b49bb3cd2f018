import { DriverError } from "@sextant/core"
import { describe, expect, it } from "vitest"
import { countTokens, lookScript, pageScriptSource, pageScriptVersion } from "../src/index.ts"
import { useHarness } from "./support/Harness.ts"
import { clickAt, look, refOf, refsIn, refsLeftOut, resolve } from "./support/Look.ts"

const harness = useHarness({ seed: 0 })

describe("look() outline", () => {
  it("outlines the login form as Email and Password textboxes and a Sign in button with refs", async () => {
    await harness.browser.url(`${harness.site.url}/login`)
    const snapshot = await look(harness.browser)
    expect(snapshot.tree).toMatch(/^ {4}- textbox "Email" \[ref=e\d+\] \[required\]$/m)
    expect(snapshot.tree).toMatch(/^ {4}- textbox "Password" \[ref=e\d+\] \[required\]$/m)
    expect(snapshot.tree).toMatch(/^ {4}- button "Sign in" \[ref=e\d+\]$/m)
    expect(snapshot.tree).toMatch(/^ {2}- h1 "Sign in"$/m)
    const email = snapshot.elements[refOf(snapshot, "textbox", "Email")]!
    expect(email.tag).toBe("input")
    expect(email.selectors.length).toBeGreaterThan(1)
    for (const selector of email.selectors) {
      const count = await harness.browser.execute(
        (css: string) => document.querySelectorAll(css).length,
        selector,
      )
      expect(count, selector).toBe(1)
    }
    const form = snapshot.forms.find((candidate) => candidate.fields.includes(email.ref))
    expect(form?.submit).toBe(refOf(snapshot, "button", "Sign in"))
    expect(snapshot.actions.find((action) => action.ref === email.ref)?.ops).toEqual(["input", "focus"])
    expect(snapshot.actions.at(-1)?.ref).toBe("_page")
  })

  it("outlines product cards as links with shortened targets, and the pagination", async () => {
    await harness.browser.url(`${harness.site.url}/products`)
    const snapshot = await look(harness.browser)
    const productLinks = snapshot.tree.match(/- link "View [^"]+" \[ref=e\d+\] -> \/products\/\d+$/gm) ?? []
    expect(productLinks).toHaveLength(12)
    expect(snapshot.tree).toMatch(/- link "1" \[ref=e\d+\] \[current\] -> \/products\?page=1$/m)
    // "Next" leads where "2" does: the target prints once, on the first of them.
    expect(snapshot.tree).toMatch(/- link "2" \[ref=e\d+\] -> \/products\?page=2$/m)
    expect(snapshot.tree).toMatch(/- link "Next" \[ref=e\d+\]$/m)
    const next = refOf(snapshot, "link", "Next")
    expect(snapshot.elements[next]?.attributes.href).toBe("/products?page=2")
    expect(snapshot.tree).not.toContain(harness.site.url)
    expect(snapshot.outputs.find((output) => output.region === "results")?.count).toBe(12)
  })

  it("names a button whose content is only a pictograph by its title", async () => {
    await harness.browser.url(`${harness.site.url}/gallery/buttons`)
    const snapshot = await look(harness.browser)
    expect(snapshot.tree).toMatch(/- button "Settings" \[ref=e\d+\] \[collapsed\]$/m)
    expect(snapshot.tree).not.toContain('"⚙"')
    expect(snapshot.tree).toMatch(/- button "Close" \[ref=e\d+\]$/m)
    expect(snapshot.tree).toMatch(/- button "Publish now" \[ref=e\d+\]$/m)
  })

  it("gives a ref to a named icon that shows a tooltip or a cursor of its own, and to no other image", async () => {
    await harness.browser.url(`${harness.pages.url}/icons.html`)
    const snapshot = await look(harness.browser)
    const images = Object.values(snapshot.elements).filter((element) => element.role === "img")
    // A help cursor, a zoom cursor, a title, an svg <title>: each can be hovered to learn something.
    expect(images.map((element) => element.name)).toEqual([
      "Storage help",
      "Zoom photo",
      "Plan details",
      "All systems normal",
    ])
    expect(snapshot.actions.find((action) => action.ref === images[0]!.ref)?.ops).toEqual(["hover", "click"])
    // A plain image stays text; an image inside a link or button is part of the control's name.
    expect(snapshot.tree).toMatch(/- img "Company logo"$/m)
    expect(snapshot.tree).toMatch(/- link "Home" \[ref=e\d+\] -> \/home$/m)
    expect(snapshot.tree).toMatch(/- button "Settings" \[ref=e\d+\]$/m)
  })

  it("keeps every ref across two looks of the same page", async () => {
    await harness.browser.url(`${harness.site.url}/products`)
    const first = await look(harness.browser)
    const second = await look(harness.browser)
    expect(second.tree).toBe(first.tree)
    expect(Object.keys(second.elements)).toEqual(Object.keys(first.elements))
    for (const element of Object.values(second.elements))
      expect(element.name).toBe(first.elements[element.ref]?.name)
  })

  it("leaves out content hidden by each hiding method, and keeps the text aria-hidden content shows", async () => {
    await harness.browser.url(`${harness.pages.url}/hidden.html`)
    const snapshot = await look(harness.browser)
    for (const hidden of [
      "Display none",
      "Visibility hidden",
      "Zero size",
      "Inert",
      "Hidden attribute",
      "Closed details",
      "Template",
      "hidden-input-value",
    ])
      expect(snapshot.tree, hidden).not.toContain(hidden)
    for (const shown of [
      "Visible heading",
      "Shown button",
      "Shown link",
      "Visible child of hidden parent",
      "More details",
      "Screen reader note",
      // aria-hidden hides from assistive technology, not from a reader: its words print.
      "Aria hidden text",
    ])
      expect(snapshot.tree, shown).toContain(shown)
    // aria-hidden hides from assistive technology, not from the screen: a control it shows is usable.
    expect(Object.values(snapshot.elements).map((element) => element.name)).toEqual([
      "Shown button",
      "Aria hidden button",
      "More details",
      "Shown link",
    ])
  })

  it("gives refs to elements in a same-origin iframe and an open shadow root, and resolves them", async () => {
    await harness.browser.url(`${harness.site.url}/frames`)
    const snapshot = await look(harness.browser)
    const frameInput = refOf(snapshot, "textbox", "Your name")
    const shadowInput = refOf(snapshot, "textbox", "Shadow input")
    expect(snapshot.elements[frameInput]?.frame).toHaveLength(1)
    expect(snapshot.elements[shadowInput]?.frame[0]).toMatch(/::shadow$/)
    expect(snapshot.tree).toMatch(/- iframe "[^"]+":\n\s+- main:/)

    const frameTarget = await resolve(harness.browser, frameInput)
    expect(frameTarget.ok).toBe(true)
    const iframeBox = await harness.browser.execute(() => {
      const rect = document.querySelector("iframe")!.getBoundingClientRect()
      return { top: rect.top, bottom: rect.bottom }
    })
    expect(frameTarget.y).toBeGreaterThan(iframeBox.top)
    expect(frameTarget.y).toBeLessThan(iframeBox.bottom)

    await clickAt(harness.browser, frameInput)
    await harness.browser.keys("Ada")
    await clickAt(harness.browser, refOf(snapshot, "button", "Greet"))
    await clickAt(harness.browser, shadowInput)
    await harness.browser.keys("Brig")
    await clickAt(harness.browser, refOf(snapshot, "button", "Echo"))
    await harness.browser.waitUntil(async () => (await look(harness.browser)).tree.includes("Hello, Ada!"), {
      timeout: 5000,
    })
    const after = await look(harness.browser)
    expect(after.tree).toMatch(/textbox "Shadow input" \[ref=e\d+\]: Brig/)
    expect(after.tree).toContain("Hello, Ada!")
  })

  it("makes interactive mode smaller while it keeps every control of the full outline but repeated links", async () => {
    await harness.browser.url(`${harness.site.url}/products`)
    const full = await look(harness.browser)
    const interactive = await look(harness.browser, { mode: "interactive" })
    expect(countTokens(interactive.tree)).toBeLessThan(countTokens(full.tree) / 2)
    for (const ref of refsIn(interactive.tree)) expect(refsIn(full.tree)).toContain(ref)
    expect(refsLeftOut(full, interactive)).toEqual([])
    expect(interactive.tree).toMatch(/^e\d+ View Brass Sextant$/m)
    // Links say no role: a line of a ref and a name alone is a link.
    expect(interactive.tree).not.toMatch(/^link:$|^e\d+ link /m)
  })

  it("never exceeds maxTokens and says how to see the rest with look({ within })", async () => {
    await harness.browser.url(`${harness.site.url}/large`)
    for (const maxTokens of [40, 300, 2000]) {
      const snapshot = await look(harness.browser, { maxTokens })
      expect(countTokens(snapshot.tree)).toBeLessThanOrEqual(maxTokens)
      expect(snapshot.stats.truncated).toBe(true)
      expect(snapshot.stats.tokens).toBe(countTokens(snapshot.tree))
      expect(snapshot.tree).toMatch(/look\(\{ within: "e\d+" \}\)/)
    }
    const interactive = await look(harness.browser, { maxTokens: 300, mode: "interactive" })
    expect(countTokens(interactive.tree)).toBeLessThanOrEqual(300)
    expect(interactive.tree).toMatch(/look\(\{ within: "e\d+" \}\)/)
    const cut = await look(harness.browser, { maxTokens: 300 })
    const within = /look\(\{ within: "(e\d+)" \}\)/.exec(cut.tree)![1]!
    const part = await look(harness.browser, { within })
    const full = await look(harness.browser)
    expect(part.stats.lines).toBeGreaterThan(0)
    expect(part.stats.lines).toBeLessThan(full.stats.lines)
    for (const ref of refsIn(part.tree)) expect(full.elements[ref]).toBeDefined()
  })

  it("shows only the changed lines with since", async () => {
    await harness.browser.url(`${harness.site.url}/login`)
    const before = await look(harness.browser)
    await (await harness.browser.$("input[name=email]")).setValue("alice@example.com")
    const changes = await look(harness.browser, { since: before })
    expect(changes.view).toBe("changes")
    expect(changes.tree).toMatch(/^~ textbox "Email" \[ref=e\d+\] \[required\]: alice@example.com$/)
    expect(changes.tree.split("\n")).toHaveLength(1)
    const again = await look(harness.browser, { since: changes })
    expect(again.tree).toBe("(no changes since the last look)")
  })

  it("fails a look within a ref the page does not have with StaleRef", async () => {
    await harness.browser.url(`${harness.site.url}/login`)
    const error = await look(harness.browser, { within: "e999" }).catch((failure: unknown) => failure)
    expect(error).toBeInstanceOf(DriverError)
    expect((error as DriverError).reason._tag).toBe("StaleRef")
    expect((error as DriverError).message).toContain("ref e999 is stale: call look() to refresh")
  })

  it("installs once per document: a repeat keeps the refs, and the page cannot change the runtime", async () => {
    await harness.browser.url(`${harness.site.url}/login`)
    const first = await look(harness.browser)
    await harness.browser.execute(pageScriptSource)
    expect((await look(harness.browser)).tree).toBe(first.tree)
    await harness.browser.execute("globalThis.__sextant.version = 0; globalThis.__sextant = { version: 0 }")
    await harness.browser.execute(lookScript())
    expect(await harness.browser.execute("return globalThis.__sextant.version")).toBe(pageScriptVersion)
    expect((await look(harness.browser)).tree).toBe(first.tree)
  })

  it("cuts long text with a marker that says how much is left out and how to read it", async () => {
    await harness.browser.url(`${harness.pages.url}/hidden.html`)
    await harness.browser.execute(() => {
      const paragraph = document.createElement("p")
      paragraph.textContent = `Start of a long story. ${"Waves and wind. ".repeat(60)}The very end.`
      document.querySelector("main")!.append(paragraph)
    })
    const snapshot = await look(harness.browser, { maxTextLength: 100 })
    expect(snapshot.tree).toMatch(
      /- Start of a long story\. Waves and wind\.[^\n]*… \(\+\d+ chars: raise maxTextLength to read them\)$/m,
    )
    expect(snapshot.tree).not.toContain("The very end.")
    // By default an article's paragraph is kept whole.
    expect((await look(harness.browser)).tree).toMatch(/- Start of a long story\.[^\n]*The very end\.$/m)
  })
})

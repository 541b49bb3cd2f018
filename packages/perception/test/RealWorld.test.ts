import type { PageSnapshot } from "@sextant/core"
import { describe, expect, it } from "vitest"
import { actScript } from "../src/index.ts"
import { useHarness } from "./support/Harness.ts"
import { clickAt, look, refOf, refsIn, refsLeftOut } from "./support/Look.ts"

const harness = useHarness({ seed: 0 })

/**
 * Every element a user could act on, found independently of the page script: native controls,
 * ARIA widgets, editable regions and click handlers, in every document and open shadow root, when
 * shown. Answers a description of each one that has no ref.
 */
const unreferenced = (): Promise<Array<string>> =>
  harness.browser.execute(() => {
    const selector = [
      "a[href]",
      "button",
      "input:not([type=hidden])",
      "select",
      "textarea",
      "summary",
      "[contenteditable=true]",
      "[onclick]",
      "[tabindex='0']",
      ...[
        "button",
        "link",
        "checkbox",
        "radio",
        "switch",
        "slider",
        "spinbutton",
        "tab",
        "menuitem",
        "menuitemcheckbox",
        "option",
        "combobox",
        "listbox",
        "textbox",
        "treeitem",
      ].map((role) => `[role=${role}]`),
    ].join(",")
    const sextant = (
      globalThis as unknown as { __sextant: { refOf: (element: Element) => string | undefined } }
    ).__sextant
    const missing: Array<string> = []
    const visit = (root: Document | ShadowRoot) => {
      for (const element of root.querySelectorAll(selector)) {
        const rect = element.getBoundingClientRect()
        const shown =
          element.checkVisibility({ visibilityProperty: true }) &&
          element.closest("[aria-hidden=true],[inert]") === null &&
          rect.width > 0 &&
          rect.height > 0
        if (shown && sextant.refOf(element) === undefined)
          missing.push(
            `${element.localName} ${element.getAttribute("role") ?? ""} ${element.textContent?.trim().slice(0, 30)}`,
          )
      }
      for (const element of root.querySelectorAll("*")) {
        if (element.shadowRoot !== null) visit(element.shadowRoot)
        if (element.localName === "iframe") {
          const inner = (element as HTMLIFrameElement).contentDocument
          if (inner !== null) visit(inner)
        }
      }
    }
    visit(document)
    return missing
  })

const expectSaneOutline = (snapshot: PageSnapshot) => {
  const lines = snapshot.tree.split("\n")
  let depth = 0
  for (const line of lines) {
    expect(line).toMatch(/^( {2})*- \S/)
    const indent = (line.length - line.trimStart().length) / 2
    expect(indent, line).toBeLessThanOrEqual(depth + 1)
    depth = indent
    expect(line).not.toMatch(/undefined|\[object |null|NaN/)
  }
  const refs = refsIn(snapshot.tree)
  expect(new Set(refs).size).toBe(refs.length)
  for (const ref of refs) expect(snapshot.elements[ref], ref).toBeDefined()
  for (const element of Object.values(snapshot.elements))
    expect(refs, `${element.role} ${element.name}`).toContain(element.ref)
}

describe("messy real-world pages", () => {
  for (const name of ["shop", "dashboard", "article"]) {
    it(`gives every shown interactive element of ${name}.html a ref in a sane outline`, async () => {
      await harness.browser.url(`${harness.pages.url}/${name}.html`)
      const snapshot = await look(harness.browser)
      expect(await unreferenced()).toEqual([])
      expectSaneOutline(snapshot)
      const interactive = await look(harness.browser, { mode: "interactive" })
      // Every control of the full outline, but for a link to a document an earlier one leads to.
      for (const ref of refsIn(interactive.tree)) expect(refsIn(snapshot.tree)).toContain(ref)
      expect(refsLeftOut(snapshot, interactive)).toEqual([])
    })
  }

  it("outlines a large generated page: 25 copies of shop.html, each 40 wrappers deep", async () => {
    await harness.browser.url(`${harness.pages.url}/shop.html`)
    const nodes = await harness.browser.execute(() => {
      const original = document.body.innerHTML
      const copies: Array<string> = []
      for (let copy = 0; copy < 25; copy++) {
        let html = `<section aria-label="Copy ${copy}">${original}</section>`
        for (let depth = 0; depth < 40; depth++)
          html = `<div class="wrap-${depth}"><span>${html}</span></div>`
        copies.push(html)
      }
      document.body.innerHTML = copies.join("")
      return document.body.querySelectorAll("*").length
    })
    expect(nodes).toBeGreaterThan(5_000)
    const snapshot = await look(harness.browser)
    expect(await unreferenced()).toEqual([])
    expectSaneOutline(snapshot)
    expect(snapshot.tree.match(/^\s*- region "Copy \d+"/gm)).toHaveLength(25)
    // The 80 generic wrappers around each copy collapse: they add no depth to the outline.
    const depthOf = (line: string) => (line.length - line.trimStart().length) / 2
    const deepest = Math.max(...snapshot.tree.split("\n").map(depthOf))
    await harness.browser.url(`${harness.pages.url}/shop.html`)
    const plain = await look(harness.browser)
    expect(deepest).toBe(Math.max(...plain.tree.split("\n").map(depthOf)) + 1)
  })

  it("leaves closed menus and hidden tab panels out until they open", async () => {
    await harness.browser.url(`${harness.pages.url}/shop.html`)
    const closed = await look(harness.browser)
    expect(closed.tree).not.toContain("Knitwear")
    expect(closed.tree).not.toContain("Hidden jacket")
    expect(closed.tree).toMatch(/- button "Men" \[ref=e\d+\] \[collapsed\]/)
    await clickAt(harness.browser, refOf(closed, "button", "Men"))
    const open = await look(harness.browser)
    expect(open.tree).toMatch(/- button "Men" \[ref=e\d+\] \[expanded\]/)
    expect(open.tree).toMatch(/- menu:\n\s+- menuitem "Jackets" \[ref=e\d+\] -> \/men\/jackets/)
    expect(refOf(open, "menuitem", "Knitwear")).toMatch(/^e\d+$/)
    expect(await unreferenced()).toEqual([])
  })

  it("names controls from labels, aria-labelledby, titles, alt text and placeholders", async () => {
    await harness.browser.url(`${harness.pages.url}/dashboard.html`)
    const snapshot = await look(harness.browser)
    expect(snapshot.tree).toMatch(
      /- listbox "Regions" \[ref=e\d+\]: eu-west \[options: eu-west\|us-east\|ap-south\]/,
    )
    expect(snapshot.tree).toMatch(/- button "Start" \[ref=e\d+\]/)
    expect(snapshot.tree).toMatch(/- textbox "Owner team" \[ref=e\d+\]/)
    expect(snapshot.tree).toMatch(/- slider "CPU share" \[ref=e\d+\]: 25/)
    expect(snapshot.tree).toMatch(/- radio "Large \(quota\)" \[ref=e\d+\] \[disabled\]/)
    expect(snapshot.tree).toMatch(/- treeitem "Compute" \[ref=e\d+\] \[expanded\]/)
    expect(snapshot.tree).toMatch(/- alertdialog "Session expiring":/)
    const file = snapshot.elements[refOf(snapshot, "button", "Startup script")]!
    expect(snapshot.actions.find((action) => action.ref === file.ref)?.ops).toEqual(["upload"])
    const disk = snapshot.actions.find((action) => action.name === "Disk (GB)")
    expect(disk?.ops).toEqual(["input", "clear", "focus"])
  })

  it("reads presentational tables as layout, marks cross-origin frames and names a card-sized link by its title, marked as cut", async () => {
    await harness.browser.url(`${harness.pages.url}/article.html`)
    const snapshot = await look(harness.browser)
    expect(snapshot.tree).toMatch(/^- link "Older posts" \[ref=e\d+\] -> \/older$/m)
    expect(snapshot.tree).not.toMatch(/Older posts.*\|/)
    expect(snapshot.tree).toMatch(/^ {2}- iframe "Map from another site" \(cross-origin: localhost:9\)$/m)
    expect(snapshot.tree).toMatch(
      /^- link "The octant, the sextant's older sibling…" \[ref=e\d+\] -> \/guides\/octant\n {2}- Before the sextant there was the octant/m,
    )
  })

  it("selects options, sets sliders, checks and clears through in-page actions", async () => {
    const { browser } = harness
    await browser.url(`${harness.pages.url}/dashboard.html`)
    const before = await look(browser)
    const act = (ref: string, op: string, value?: string | number | ReadonlyArray<string>) =>
      browser.execute(actScript(ref, op, value)) as Promise<{ ok: boolean; message?: string }>
    expect(await act(refOf(before, "listbox", "Regions"), "select", ["us-east", "ap-south"])).toEqual({
      ok: true,
    })
    expect(await act(refOf(before, "slider", "CPU share"), "set", 80)).toEqual({ ok: true })
    expect(await act(refOf(before, "checkbox", "Public IP"), "check")).toEqual({ ok: true })
    expect(await act(refOf(before, "textbox", "Notes"), "clear")).toEqual({ ok: true })
    const missing = await act(refOf(before, "listbox", "Regions"), "select", "mars-north")
    expect(missing.ok).toBe(false)
    expect(missing.message).toContain("options are eu-west, us-east, ap-south")
    const after = await look(browser)
    expect(after.tree).toMatch(/- listbox "Regions" \[ref=e\d+\]: us-east, ap-south/)
    expect(after.tree).toMatch(/- slider "CPU share" \[ref=e\d+\]: 80/)
    expect(after.tree).toMatch(/- checkbox "Public IP" \[ref=e\d+\] \[checked\]/)
    expect(after.tree).toMatch(/- textbox "Notes" \[ref=e\d+\]$/m)
    const scrolled = (await browser.execute(actScript("_page", "scroll bottom"))) as {
      ok: boolean
      atBottom: boolean
    }
    expect(scrolled.ok).toBe(true)
  })
})

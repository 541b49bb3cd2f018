import { MONTH_NAMES } from "@sextant/core"
import { describe, expect, it } from "vitest"
import { type PageModules, usePageHarness } from "./support/PageModules.ts"

const harness = usePageHarness()

describe("tools page functions", () => {
  it("pickElement marks the shown match, an exact label first, and counts a link laid out as display: contents", async () => {
    await harness.open(`
      <a href="/steps">Next steps</a>
      <a href="/hidden" style="visibility:hidden">Next</a>
      <div style="display:none"><a href="/none">Next</a></div>
      <span style="display:contents"><a href="/two" style="display:contents"><b>Next</b></a></span>`)
    const picked = await harness.browser.execute(() => {
      const { tools } = (globalThis as unknown as { __page: PageModules }).__page
      const result = tools.pickElement({ selector: "a", text: "next", index: 0, mark: "m1" })
      return { result, marked: document.querySelector("[data-sextant-pick=m1]")?.getAttribute("href") }
    })
    expect(picked.result.count).toBe(2)
    expect(picked.result.picked?.text).toBe("Next")
    expect(picked.marked).toBe("/two")
  })

  it("pickElement and extractValues answer a bad selector as an error, not a throw", async () => {
    await harness.open(`<p>one</p>`)
    const answers = await harness.browser.execute(() => {
      const { tools } = (globalThis as unknown as { __page: PageModules }).__page
      return [
        tools.pickElement({ selector: "p[", index: 0, mark: "x" }).error,
        tools.pickElement({ selector: "p", root: "#missing", index: 0, mark: "x" }).error,
        tools.extractValues({ selector: "p[", mode: "text", all: false, limit: 1 }).error,
        tools.extractValues({ ref: "e999", mode: "text", all: false, limit: 1 }).error,
      ]
    })
    expect(answers).toEqual(["selector", "root", "selector", "stale"])
  })

  it("extractValues reads rendered text, absolute links and HTML", async () => {
    await harness.open(`<ul><li><a href="/a">  First
      item</a></li><li><a href="b?x=1">Second</a></li></ul>`)
    const read = await harness.browser.execute(() => {
      const { tools } = (globalThis as unknown as { __page: PageModules }).__page
      return [
        tools.extractValues({ selector: "li", mode: "text", all: true, limit: 5 }),
        tools.extractValues({ selector: "a", mode: "attr", all: true, limit: 1 }),
        tools.extractValues({ selector: "li", mode: "html", all: false, limit: 1 }).values,
      ]
    })
    const origin = new URL(harness.pages.url).origin
    expect(read[0]).toEqual({ count: 2, values: ["First item", "Second"] })
    expect(read[1]).toEqual({ count: 2, values: [`${origin}/a`] })
    expect(read[2]).toEqual(['<li><a href="/a">  First\n      item</a></li>'])
  })

  it("markByText marks the smallest shown element with the words, or only one that scrolls", async () => {
    await harness.open(`
      <div id="outer" style="padding:10px"><div id="card">Drag me</div></div>
      <div id="hidden" style="visibility:hidden">Drag me</div>
      <div id="list" style="height:40px;overflow:auto"><p style="height:200px">Long list</p></div>`)
    const marked = await harness.browser.execute(() => {
      const { tools } = (globalThis as unknown as { __page: PageModules }).__page
      const card = tools.markByText("Drag me", false, "t1")
      const list = tools.markByText("Long list", true, "t2")
      const none = tools.markByText("Nowhere", false, "t3")
      const ids = Array.from(document.querySelectorAll("[data-sextant-text]")).map((element) => element.id)
      tools.clearMarks("data-sextant-text")
      return { card, list, none, ids, left: document.querySelectorAll("[data-sextant-text]").length }
    })
    expect(marked).toEqual({
      card: '[data-sextant-text="t1"]',
      list: '[data-sextant-text="t2"]',
      none: null,
      ids: ["card", "list"],
      left: 0,
    })
  })

  it("markNext prefers rel=next and skips disabled, current and unshown controls", async () => {
    await harness.open(`
      <button disabled>Next</button>
      <a href="?p=2" aria-current="page">Next</a>
      <a href="?p=3" style="display:none" rel="next">3</a>
      <a href="?p=4" id="label">Next ›</a>
      <a href="?p=5" id="rel" rel="next">5</a>`)
    const found = await harness.browser.execute(() => {
      const { tools } = (globalThis as unknown as { __page: PageModules }).__page
      const first = tools.markNext("^(next|next ›)$")
      const firstId = document.querySelector("[data-sextant-next]")?.id
      document.getElementById("rel")!.remove()
      const second = tools.markNext("^(next|next ›)$")
      const secondId = Array.from(document.querySelectorAll("[data-sextant-next]")).map(
        (element) => element.id,
      )
      document.getElementById("label")!.remove()
      return { first, firstId, second, secondId, third: tools.markNext("^next$") }
    })
    expect(found).toEqual({ first: true, firstId: "rel", second: true, secondId: ["label"], third: false })
  })

  it("errorText reads a shown alert, else the description of an invalid field", async () => {
    await harness.open(`
      <div role="alert" style="display:none">Old error</div>
      <input aria-invalid="true" aria-describedby="help">
      <p id="help">Enter an email address</p>`)
    const text = await harness.browser.execute(() =>
      (globalThis as unknown as { __page: PageModules }).__page.tools.errorText(),
    )
    expect(text).toBe("Enter an email address")
  })
})

describe("records page functions", () => {
  it("listRecords finds the repeated cards and reads each one's fields", async () => {
    await harness.open(`
      <nav><a href="/x">Home</a><a href="/y">About</a><a href="/z">Help</a></nav>
      <div class="grid">
        <article><h3>Lamp</h3><span>$12.50</span><a href="/p/1">View</a></article>
        <article><h3>Desk</h3><span>$99</span><a href="/p/2">View</a></article>
        <article><h3>Chair</h3><span>$45.00</span><a href="/p/3#reviews">View</a></article>
      </div>`)
    const listed = await harness.browser.execute(() => {
      const { records } = (globalThis as unknown as { __page: PageModules }).__page
      return {
        list: records.listRecords({ fields: [{ name: "name" }, { name: "price" }], limit: 2 }),
        count: records.countItems(),
        links: records.itemLinks({}),
      }
    })
    const origin = new URL(harness.pages.url).origin
    expect(listed.list).toEqual({
      selector: "body > div > article",
      count: 3,
      records: [
        { name: "Lamp", price: "$12.50" },
        { name: "Desk", price: "$99" },
      ],
    })
    expect(listed.count).toBe(3)
    expect(listed.links).toEqual([`${origin}/p/1`, `${origin}/p/2`, `${origin}/p/3`])
  })
})

describe("calendar page function", () => {
  it("readCalendar reads the month shown and marks the day and the month buttons", async () => {
    const cells = Array.from({ length: 31 }, (_, index) => `<td><button>${index + 1}</button></td>`)
    const rows = Array.from(
      { length: 5 },
      (_, row) => `<tr>${cells.slice(row * 7, row * 7 + 7).join("")}</tr>`,
    )
    await harness.open(`
      <input id="when" readonly>
      <div role="dialog"><button aria-label="Previous month">‹</button><span>May 2024</span>
      <button aria-label="Next month">›</button><table>${rows.join("")}</table></div>`)
    const state = await harness.browser.execute(
      (months) =>
        (globalThis as unknown as { __page: PageModules }).__page.calendar.readCalendar(
          "#when",
          "2024-05-14",
          months,
        ),
      [...MONTH_NAMES],
    )
    expect(state).toEqual({
      field: true,
      fieldType: "",
      value: "",
      open: true,
      shown: "2024-05",
      day: '[data-sextant-date="day"]',
      next: '[data-sextant-date="next"]',
      previous: '[data-sextant-date="previous"]',
      opener: null,
    })
  })
})

import { describe, expect, it } from "vitest"
import { type PageModules, usePageHarness } from "./support/PageModules.ts"

const harness = usePageHarness()

/** The role of every element with a `data-case` attribute, explicit first, as the walker takes it. */
const rolesOfCases = (): Promise<Record<string, string>> =>
  harness.browser.execute(() => {
    const { roles } = (globalThis as unknown as { __page: PageModules }).__page
    const found: Record<string, string> = {}
    for (const element of document.querySelectorAll("[data-case]"))
      found[element.getAttribute("data-case")!] =
        roles.explicitRole(element) || roles.implicitRole(element, element.localName)
    return found
  })

describe("roles", () => {
  it("give inputs the role their type implies", async () => {
    await harness.open(`
      <input data-case="text"><input type="search" data-case="search">
      <input type="search" list="l" data-case="search-list"><datalist id="l"></datalist>
      <input type="email" list="l" data-case="email-list"><input type="checkbox" data-case="checkbox">
      <input type="radio" data-case="radio"><input type="range" data-case="range">
      <input type="number" data-case="number"><input type="submit" data-case="submit">
      <input type="file" data-case="file"><input type="hidden" data-case="hidden">
      <input type="date" data-case="date">`)
    expect(await rolesOfCases()).toEqual({
      text: "textbox",
      search: "searchbox",
      "search-list": "combobox",
      "email-list": "combobox",
      checkbox: "checkbox",
      radio: "radio",
      range: "slider",
      number: "spinbutton",
      submit: "button",
      file: "button",
      hidden: "hidden",
      date: "textbox",
    })
  })

  it("make a select a combobox, and a listbox when it shows several options", async () => {
    await harness.open(`
      <select data-case="single"><option>A</option></select>
      <select multiple data-case="multiple"><option>A</option></select>
      <select size="3" data-case="sized"><option>A</option></select>`)
    expect(await rolesOfCases()).toEqual({ single: "combobox", multiple: "listbox", sized: "listbox" })
  })

  it("make a page's header and footer landmarks, but not an article's", async () => {
    await harness.open(`
      <header data-case="page-header">Site</header>
      <article><header data-case="article-header">Post</header><footer data-case="article-footer">By</footer></article>
      <footer data-case="page-footer">©</footer>`)
    expect(await rolesOfCases()).toEqual({
      "page-header": "banner",
      "article-header": "",
      "article-footer": "",
      "page-footer": "contentinfo",
    })
  })

  it("make a section a region only when it is named", async () => {
    await harness.open(`
      <section data-case="plain">a</section><section aria-label="News" data-case="labelled">b</section>`)
    expect(await rolesOfCases()).toEqual({ plain: "", labelled: "region" })
  })

  it("read the rows and cells of a presentational table as layout", async () => {
    await harness.open(`
      <table role="presentation"><tr data-case="layout-row"><td data-case="layout-cell">a</td></tr></table>
      <table><tr data-case="row"><th data-case="header">h</th><td data-case="cell">b</td></tr></table>`)
    expect(await rolesOfCases()).toEqual({
      "layout-row": "",
      "layout-cell": "",
      row: "row",
      header: "rowheader",
      cell: "cell",
    })
  })

  it("read a <th> as the header of its row beside a data cell with words, else of its column, unless its scope says", async () => {
    await harness.open(`
      <table><thead><tr><th data-case="in-head">Name</th><td>x</td></tr></thead>
      <tr><th data-case="header-row">Size</th><th data-case="header-row-2">Weight</th></tr>
      <tr><th data-case="beside-data">50 mm</th><td>62 g</td></tr>
      <tr><td>Total</td><th data-case="after-data">9</th></tr>
      <tr><th data-case="beside-empty">Note</th><td></td></tr>
      <tr><th scope="row" data-case="scope-row">Pro</th><th scope="col" data-case="scope-col">A</th><td>b</td></tr></table>`)
    expect(await rolesOfCases()).toEqual({
      "in-head": "columnheader",
      "header-row": "columnheader",
      "header-row-2": "columnheader",
      "beside-data": "rowheader",
      "after-data": "rowheader",
      "beside-empty": "columnheader",
      "scope-row": "rowheader",
      "scope-col": "columnheader",
    })
  })

  it("read the <td> of a grid or treegrid as a grid cell", async () => {
    await harness.open(`
      <table role="grid"><tr><td data-case="grid">1</td></tr></table>
      <table role="treegrid"><tbody><tr><td data-case="treegrid">a</td></tr></tbody></table>
      <table><tr><td data-case="table">b</td></tr></table>`)
    expect(await rolesOfCases()).toEqual({ grid: "gridcell", treegrid: "gridcell", table: "cell" })
  })

  it("take the first known token of a role attribute and ignore unknown ones", async () => {
    await harness.open(`
      <div role="fancy button" data-case="fallback">a</div><div role="widget" data-case="unknown">b</div>
      <img alt="" src="data:," data-case="decorative"><a data-case="anchor">no href</a>`)
    expect(await rolesOfCases()).toEqual({
      fallback: "button",
      unknown: "",
      decorative: "presentation",
      anchor: "",
    })
  })

  it("keep an image with an empty alt as an image when the page names it otherwise", async () => {
    await harness.open(`
      <img alt="" aria-label="Team" src="data:," data-case="labelled"><img alt="" title="Logo" src="data:," data-case="titled">
      <img alt="" src="data:," data-case="decorative">`)
    expect(await rolesOfCases()).toEqual({ labelled: "img", titled: "img", decorative: "presentation" })
  })

  it("make an image a hover target when it has a tooltip, but not inside a link", async () => {
    await harness.open(`
      <img title="Ships in 2 days" src="data:," id="hint">
      <a href="/x"><img title="Home" src="data:," id="inside"></a>
      <img src="data:," id="plain">`)
    const targets = await harness.browser.execute(() => {
      const { roles } = (globalThis as unknown as { __page: PageModules }).__page
      return ["hint", "inside", "plain"].map((id) => roles.hoverTarget(document.getElementById(id)!))
    })
    expect(targets).toEqual([true, false, false])
  })
})

import { describe, expect, it } from "vitest"
import { type PageModules, usePageHarness } from "./support/PageModules.ts"

const harness = usePageHarness()

/** The selectors of the element this CSS selector finds (inside the open shadow root of `host` if given). */
const selectorsFor = (selector: string, host?: string): Promise<string[]> =>
  harness.browser.execute(
    (selector, host) => {
      const { selectors } = (globalThis as unknown as { __page: PageModules }).__page
      selectors.countCache.clear()
      const root: Document | ShadowRoot = host ? document.querySelector(host)!.shadowRoot! : document
      return selectors.selectorsOf(root.querySelector(selector)!, root)
    },
    selector,
    host ?? "",
  )

/** How many elements each selector matches in the document. */
const matches = (list: ReadonlyArray<string>): Promise<number[]> =>
  harness.browser.execute(
    (list) => list.map((selector) => document.querySelectorAll(selector).length),
    [...list],
  )

describe("selectors", () => {
  it("offer a unique id, test id, name and type, each matching only the element", async () => {
    await harness.open(`
      <form><input id="email" name="email" type="email" data-testid="login-email"><input name="password" type="password"></form>`)
    const found = await selectorsFor("#email")
    expect(found.slice(0, 4)).toEqual([
      "#email",
      '[data-testid="login-email"]',
      'input[name="email"]',
      'input[type="email"]',
    ])
    expect(await matches(found)).toEqual(found.map(() => 1))
  })

  it("leave out an id or a name that more than one element carries", async () => {
    await harness.open(`<p><input id="dup" name="q"></p><p><input id="dup" name="q"></p>`)
    const found = await selectorsFor("p:nth-of-type(2) input")
    expect(found.some((selector) => selector.includes("dup") || selector.includes('"q"'))).toBe(false)
    expect(await matches(found)).toEqual(found.map(() => 1))
  })

  it("end with a path of child steps from the nearest unique id", async () => {
    await harness.open(`<ul id="menu"><li>a</li><li><span>b</span></li></ul>`)
    expect(await selectorsFor("li:nth-of-type(2) > span")).toEqual(["#menu > li:nth-of-type(2) > span"])
  })

  it("give the elements of a list the same paths during a look, where their parents' steps are worked out once, as outside one", async () => {
    await harness.open(
      `<main><ul><li><a>a</a></li><li><a>b</a></li></ul><ul id="menu"><li><b>c</b></li><li><b>d</b></li></ul></main>`,
    )
    const [during, outside] = await harness.browser.execute(() => {
      const { selectors } = (globalThis as unknown as { __page: PageModules }).__page
      selectors.countCache.clear()
      const targets = [...document.querySelectorAll("a, b")]
      const paths = () => targets.map((element) => selectors.pathSelector(element, document))
      return [selectors.withPathCache(paths), paths()]
    })
    expect(during).toEqual([
      "html > body > main > ul:nth-of-type(1) > li:nth-of-type(1) > a",
      "html > body > main > ul:nth-of-type(1) > li:nth-of-type(2) > a",
      "#menu > li:nth-of-type(1) > b",
      "#menu > li:nth-of-type(2) > b",
    ])
    expect(outside).toEqual(during)
  })

  it("escape quotes in attribute values", async () => {
    await harness.open(`<a href='/say"hi"'>x</a>`)
    const found = await selectorsFor("a")
    expect(found[0]).toBe('a[href="/say\\"hi\\""]')
    expect(await matches(found)).toEqual(found.map(() => 1))
  })

  it("keep a path inside a shadow root only when it is unique there", async () => {
    await harness.open(`<div id="host"></div>`)
    await harness.browser.execute(() => {
      const shadow = document.getElementById("host")!.attachShadow({ mode: "open" })
      shadow.innerHTML = "<p><button>A</button></p><p><button>B</button></p>"
    })
    expect(await selectorsFor("p:nth-of-type(2) > button", "#host")).toEqual(["p:nth-of-type(2) > button"])
  })
})

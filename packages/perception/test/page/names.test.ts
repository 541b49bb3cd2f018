import { describe, expect, it } from "vitest"
import { type PageModules, usePageHarness } from "./support/PageModules.ts"

const harness = usePageHarness()

type NameFunction = "labelName" | "controlName" | "plainText"

/** One name function applied to the element with this id. */
const nameOf = (name: NameFunction, id: string): Promise<string> =>
  harness.browser.execute(
    (name, id) => {
      const { names } = (globalThis as unknown as { __page: PageModules }).__page
      const element = document.getElementById(id)!
      return name === "plainText" || name === "labelName"
        ? names[name](element)
        : names[name](element, element.localName)
    },
    name,
    id,
  )

/** The guess for the element with this id, or null. */
const guessOf = (id: string): Promise<{ from: string; words: string } | null> =>
  harness.browser.execute((id) => {
    const { names } = (globalThis as unknown as { __page: PageModules }).__page
    const element = document.getElementById(id)!
    return names.guessName(element, element.localName) ?? null
  }, id)

/** The name a part inside the element with this id gives it. */
const innerOf = (id: string): Promise<string> =>
  harness.browser.execute((id) => {
    const { names } = (globalThis as unknown as { __page: PageModules }).__page
    return names.innerName(document.getElementById(id)!)
  }, id)

describe("accessible names", () => {
  it("prefer aria-labelledby over aria-label, and collapse whitespace in both", async () => {
    await harness.open(`
      <span id="a">Shipping</span><span id="b">address</span>
      <div id="both" aria-labelledby="a  b" aria-label="ignored"></div>
      <div id="label" aria-label="  Main
        menu "></div>
      <div id="missing" aria-labelledby="nowhere" aria-label="Fallback"></div>`)
    expect(await nameOf("labelName", "both")).toBe("Shipping address")
    expect(await nameOf("labelName", "label")).toBe("Main menu")
    expect(await nameOf("labelName", "missing")).toBe("Fallback")
  })

  it("name a field by its label without the words of the field itself", async () => {
    await harness.open(`
      <label for="email">E-mail <em>address</em></label><input id="email">
      <label>Quantity <select id="quantity"><option>One</option><option>Two</option></select></label>`)
    expect(await nameOf("controlName", "email")).toBe("E-mail address")
    expect(await nameOf("controlName", "quantity")).toBe("Quantity")
  })

  it("name a field by its labels with the labels of the buttons inside them", async () => {
    await harness.open(`<input type="checkbox" id="nav">
      <label for="nav"><span>MENU</span><button aria-label="open menu" type="button"></button></label>
      <label for="nav"><span>CLOSE</span><button aria-label="close nav" type="button"></button></label>`)
    expect(await nameOf("controlName", "nav")).toBe("MENU open menu CLOSE close nav")
  })

  it("name a field by the image button its label wraps with it", async () => {
    await harness.open(
      `<label><input id="query" name="q"><input type="image" src="/go.gif" alt="Search"></label>`,
    )
    expect(await nameOf("controlName", "query")).toBe("Search")
  })

  it("name input buttons by value, with Submit and Reset when they have none", async () => {
    await harness.open(`
      <input type="submit" id="submit"><input type="reset" id="reset">
      <input type="button" value="Go" id="button"><input type="image" alt="Search" id="image">`)
    expect(await nameOf("controlName", "submit")).toBe("Submit")
    expect(await nameOf("controlName", "reset")).toBe("Reset")
    expect(await nameOf("controlName", "button")).toBe("Go")
    expect(await nameOf("controlName", "image")).toBe("Search")
  })

  it("fall back to a field's title, then its placeholder", async () => {
    await harness.open(
      `<input id="titled" title="Zip code" placeholder="12345"><input id="placeholder" placeholder="Search">`,
    )
    expect(await nameOf("controlName", "titled")).toBe("Zip code")
    expect(await nameOf("controlName", "placeholder")).toBe("Search")
  })

  it("read a referenced node without its hidden parts, unless the node itself is hidden", async () => {
    await harness.open(`
      <div id="partial">Visible <span hidden>no</span><span style="display:none">no</span><span style="visibility:hidden">no</span>words</div>
      <div id="whole" hidden>Whole <span style="display:none">hidden</span> label</div>
      <span id="spelt">Misspelt</span><button id="misspelt" aria-labeledby="spelt">M</button>`)
    expect(await nameOf("plainText", "partial")).toBe("Visible words")
    expect(await nameOf("plainText", "whole")).toBe("Whole hidden label")
    expect(await nameOf("labelName", "misspelt")).toBe("Misspelt")
  })

  it("read the words CSS generates before and after an element, without icon-font glyphs", async () => {
    await harness.open(`<style>
      #generated::before { content: "Your "; } #generated::after { content: " (required)"; }
      #glyph::before { content: "\\e900"; } #none::before { content: none; }</style>
      <label id="generated">nickname</label><span id="glyph">Menu</span><span id="none">Plain</span>`)
    expect(await nameOf("plainText", "generated")).toBe("Your nickname (required)")
    expect(await nameOf("plainText", "glyph")).toBe("Menu")
    expect(await nameOf("plainText", "none")).toBe("Plain")
  })

  it("read text with image alternatives and button values, skipping scripts and fields", async () => {
    await harness.open(`
      <div id="text">Pay<img alt="with card"><input type="button" value="now"><script>var x = 1</script><textarea>draft</textarea></div>`)
    expect(await nameOf("plainText", "text")).toBe("Pay with card now")
  })

  it("guess for an empty link from where it goes or its icon, saying where the words were read", async () => {
    await harness.open(`
      <a id="path" href="/account/order-history"><svg></svg></a>
      <a id="icon" href="/x"><svg><use href="/icons.svg#icon-shopping-cart"></use></svg></a>
      <a id="opaque" href="https://shop.example/8f3a9c2e1b7d4f6a0c5e"></a>
      <button id="searchButton"></button>`)
    expect(await guessOf("path")).toEqual({ from: "href", words: "order history" })
    expect(await guessOf("icon")).toEqual({ from: "icon", words: "shopping cart" })
    // A host is printed with the link's target already: it is no guess.
    expect(await guessOf("opaque")).toBeNull()
    expect(await guessOf("searchButton")).toEqual({ from: "id", words: "search" })
  })

  it("guess nothing from code names that are not words: a hash, digits, a single letter", async () => {
    await harness.open(`
      <a id="uuid" href="/98baf690-b75d-11e6-b4d7-0242ac120002"></a>
      <button id="labelled1"></button>
      <a id="letter" href="/i"></a>
      <a id="numbers" href="/2016/12/"></a>
      <button id="ember1234"></button>
      <button id="deadbeefcafe"></button>
      <button id="x"></button>`)
    for (const id of ["uuid", "labelled1", "letter", "numbers", "ember1234", "deadbeefcafe", "x"])
      expect([id, await guessOf(id)]).toEqual([id, null])
  })

  it("name a control by a part inside that carries a title, and guess nothing for it", async () => {
    await harness.open(`<button id="labelled-inside"><span title="Close dialog">×</span></button>`)
    expect(await innerOf("labelled-inside")).toBe("Close dialog")
  })

  it("guess nothing from the data of an inline image or the code of a script link", async () => {
    await harness.open(`
      <a id="inline" href="/2016/12/heat-waves"><img src="data:image/gif;base64,R0lGODlhAQABAIAAAAUEBAAAACwAAAAAAQABAAACAkQBADs="></a>
      <a id="script" href="javascript:void(0)"></a>`)
    expect(await guessOf("inline")).toEqual({ from: "href", words: "heat waves" })
    expect(await guessOf("script")).toBeNull()
  })
})

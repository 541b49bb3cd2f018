import { describe, expect, it } from "vitest"
import { hasRef, hoistNode, itemsText, leaf } from "../../src/page/outline.ts"

describe("outline nodes", () => {
  it("read as the words of their names, their texts and the tails after them", () => {
    const link = { ...leaf("link", "link", "A rare bird", ""), tail: "seen in May" }
    expect(itemsText(["Look:", link, hoistNode(["twice"])])).toBe("Look: A rare bird seen in May twice")
  })

  it("leave an icon out of a name read beside words, unless asked for icons", () => {
    const icon = { ...leaf("img", "img", "cart", ""), icon: true }
    expect(itemsText([icon, "Basket"], false)).toBe("Basket")
    expect(itemsText([icon, "Basket"])).toBe("cart Basket")
  })

  it("leave a control kept from an aria-hidden subtree out of every name", () => {
    const hidden = { ...leaf("button", "button", "Close", ""), ariaHidden: true }
    expect(itemsText(["Menu", hidden])).toBe("Menu")
  })

  it("leave a submenu out of the name of the menu item that opens it", () => {
    const submenu = { ...leaf("menu", "menu", "", ""), kids: [leaf("menuitem", "menuitem", "Themen", "")] }
    expect(itemsText(["Programm", submenu], false)).toBe("Programm")
    expect(itemsText(["Programm", submenu])).toBe("Programm Themen")
  })

  it("say whether any node below has a ref", () => {
    const button = { ...leaf("button", "button", "Go", ""), ref: "e1" }
    expect(hasRef(["text", hoistNode([hoistNode([button])])])).toBe(true)
    expect(hasRef(["text", hoistNode([leaf("img", "img", "logo", "")])])).toBe(false)
  })
})

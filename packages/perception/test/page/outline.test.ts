import { describe, expect, it } from "vitest"
import { hasRef, hoistNode, itemsText, leaf } from "../../src/page/outline.ts"

describe("outline nodes", () => {
  it("read as the words of their names, their texts and the tails after them", () => {
    const link = { ...leaf("link", "link", "A rare bird", ""), tail: "seen in May" }
    expect(itemsText(["Look:", link, hoistNode(["twice"])])).toBe("Look: A rare bird seen in May twice")
  })

  it("leave an icon out of a name read beside words that already say it, unless asked for icons", () => {
    const icon = { ...leaf("img", "img", "Menu", ""), icon: true }
    expect(itemsText(["Open Navigation Menu", icon], false)).toBe("Open Navigation Menu")
    expect(itemsText(["Open Navigation Menu", icon])).toBe("Open Navigation Menu Menu")
    // An icon that says a word of its own is part of the name ("facebook Share").
    const facebook = { ...leaf("img", "img", "facebook", ""), icon: true }
    expect(itemsText([facebook, "Share"], false)).toBe("facebook Share")
    expect(itemsText([facebook], false)).toBe("facebook")
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

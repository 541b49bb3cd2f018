import { PageElement } from "@sextant/core"
import { describe, expect, it } from "vitest"
import { findByRoleAndName, sameRole } from "../src/internal/Fallback.ts"

const element = (ref: string, role: string, name: string, selector: string, frame: Array<string> = []) =>
  PageElement.parse({ ref, role, name, tag: "input", visible: true, selectors: [selector], frame })

const search = { role: "textbox", name: "Search products", selector: "#search-input" }

describe("findByRoleAndName (the fallback of sextant test and of the exported script)", () => {
  it("finds the one element with the locator's role and name under its new selector", () => {
    const elements = [
      element("e1", "link", "Search products", "#nav-search"),
      element("e2", "textbox", "Search products", "#search-input-x7"),
    ]
    expect(findByRoleAndName(elements, search)).toEqual({
      _tag: "Found",
      locator: { role: "textbox", name: "Search products", selector: "#search-input-x7" },
    })
  })

  it("takes a searchbox or a combobox for a textbox, and prefers the very role when both are there", () => {
    expect(sameRole("textbox", "searchbox")).toBe(true)
    expect(sameRole("textbox", "radio")).toBe(false)
    expect(findByRoleAndName([element("e1", "combobox", "Search products", "#q")], search)).toMatchObject({
      _tag: "Found",
      locator: { selector: "#q" },
    })
    const both = [
      element("e1", "combobox", "Search products", "#q"),
      element("e2", "textbox", "Search products", "#t"),
    ]
    expect(findByRoleAndName(both, search)).toMatchObject({ _tag: "Found", locator: { selector: "#t" } })
  })

  it("never guesses between two elements of that role and name", () => {
    const twins = [
      element("e1", "textbox", "Search products", "#a"),
      element("e2", "textbox", "Search products", "#b"),
    ]
    expect(findByRoleAndName(twins, search)).toEqual({ _tag: "Several", count: 2 })
  })

  it("finds nothing for another name, another role or an element inside a frame", () => {
    expect(
      findByRoleAndName(
        [
          element("e1", "textbox", "Search", "#a"),
          element("e2", "button", "Search products", "#b"),
          element("e3", "textbox", "Search products", "#c", ["iframe#results"]),
        ],
        search,
      ),
    ).toEqual({ _tag: "None" })
  })
})

import type { PageElement } from "@sextant/core"
import { describe, expect, it } from "vitest"
import { actionsOf, operationsOf, pageOperations } from "../src/index.ts"

const element = (fields: Partial<PageElement>): PageElement => ({
  ref: "e1",
  role: "button",
  name: "",
  tag: "button",
  attributes: {},
  visible: true,
  selectors: [],
  frame: [],
  ...fields,
})

describe("operationsOf", () => {
  it("allows what each role and state allows", () => {
    expect(operationsOf(element({ role: "button" }))).toEqual(["click"])
    expect(operationsOf(element({ role: "link", tag: "a" }))).toEqual(["click"])
    expect(operationsOf(element({ role: "textbox", tag: "input" }))).toEqual(["input", "focus"])
    expect(operationsOf(element({ role: "textbox", tag: "input", value: "x" }))).toEqual([
      "input",
      "clear",
      "focus",
    ])
    expect(operationsOf(element({ role: "checkbox", checked: false }))).toEqual(["check", "click"])
    expect(operationsOf(element({ role: "checkbox", checked: true }))).toEqual(["uncheck", "click"])
    expect(operationsOf(element({ role: "radio", checked: false }))).toEqual(["check", "click"])
    expect(operationsOf(element({ role: "combobox", tag: "select" }))).toEqual(["select"])
    expect(operationsOf(element({ role: "listbox", tag: "select" }))).toEqual(["select"])
    expect(operationsOf(element({ role: "slider", tag: "input" }))).toEqual(["set"])
    expect(operationsOf(element({ role: "button", tag: "input", attributes: { type: "file" } }))).toEqual([
      "upload",
    ])
  })

  it("allows nothing on a disabled element", () => {
    expect(operationsOf(element({ role: "button", disabled: true }))).toEqual([])
  })
})

describe("actionsOf", () => {
  it("lists enabled elements and the page, whose scroll operations follow the scroll position", () => {
    const actions = actionsOf(
      { e1: element({ ref: "e1", name: "Go" }), e2: element({ ref: "e2", disabled: true }) },
      "Home",
      { y: 0, height: 3000, viewportHeight: 800 },
    )
    expect(actions.map((action) => action.ref)).toEqual(["e1", "_page"])
    expect(actions[1]?.ops).toEqual(["scroll down", "scroll bottom", "back", "refresh"])
    expect(pageOperations({ y: 2200, height: 3000, viewportHeight: 800 })).toEqual([
      "scroll up",
      "scroll top",
      "back",
      "refresh",
    ])
  })
})

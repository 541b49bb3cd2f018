import { describe, expect, it } from "vitest"
import { textScore } from "../../src/rules/Grounding.ts"
import { elementsFromOutline } from "../../src/rules/Outline.ts"

const FORM = elementsFromOutline(`- form:
  - Street
  - textbox [ref=e13]
  - ZIP code
  - textbox [ref=e14]
  - listbox "Home airport" [ref=e15] [options: Dublin (DUB)|Oslo (OSL)]`)
const [street, zip, airport] = FORM as [(typeof FORM)[number], (typeof FORM)[number], (typeof FORM)[number]]

describe("grounding a field by what a person reads beside it", () => {
  it("finds an unnamed field by the text line above it inside longer words ('ZIP code 旁边', 'Street should')", () => {
    expect(textScore(zip, "ZIP code 旁边")).toBeGreaterThanOrEqual(50)
    expect(textScore(street, "Street should")).toBeGreaterThanOrEqual(50)
    expect(textScore(street, "ZIP code 旁边")).toBe(0)
  })

  it("reads a Chinese compound the glossary lacks by its known ending (常用机场 → 机场 → airport)", () => {
    expect(textScore(airport, "常用机场")).toBeGreaterThan(0)
    expect(textScore(airport, "常用邮编")).toBe(0)
  })
})

describe("reading a guess from an outline", () => {
  const [search, language, combo] = elementsFromOutline(`- nav:
  - button [ref=e3] (id search) [disabled]
  - link [ref=e4] (href en) -> /en/
  - combobox [ref=e5] (data-action pick size): M [options: S|M|L]`)

  it("keeps a guess apart from the name, and the states and value after it", () => {
    expect([search?.name, search?.guess, search?.disabled]).toEqual([
      "",
      { from: "id", words: "search" },
      true,
    ])
    expect([language?.guess, language?.attributes.href]).toEqual([{ from: "href", words: "en" }, "/en/"])
    expect([combo?.guess?.words, combo?.value, combo?.options]).toEqual(["pick size", "M", ["S", "M", "L"]])
  })

  it("finds an unnamed control by its guess", () => {
    expect(textScore(search!, "search")).toBe(100)
    expect(textScore(language!, "search")).toBe(0)
  })
})

describe("reading a table row that holds more than one control", () => {
  it("reads every control of the row, not only the first, each with its own ref", () => {
    const elements = elementsFromOutline(`- table "Files":
  - **Pick** | **Name** | **Size** | **Actions**
  - checkbox "Select a.pdf" [ref=e15] | a.pdf | 12 KB | button "Share" [ref=e16] button "Pin" [ref=e17]
  - checkbox "Select b | c.pdf" [ref=e18] | b | c.pdf | 3 KB | link "Call" [ref=e19] -> tel:+4930123 button "Pin" [ref=e20]`)
    expect(elements.map((element) => [element.ref, element.role, element.name])).toEqual([
      ["e15", "checkbox", "Select a.pdf"],
      ["e16", "button", "Share"],
      ["e17", "button", "Pin"],
      ["e18", "checkbox", "Select b | c.pdf"],
      ["e19", "link", "Call"],
      ["e20", "button", "Pin"],
    ])
    expect(elements[4]?.attributes.href).toBe("tel:+4930123")
  })
})

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

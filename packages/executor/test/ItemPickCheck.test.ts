import type { GoalPart, PageElement } from "@sextant/core"
import { describe, expect, it } from "vitest"
import { type PageFacts, type PartStep, verifyParts } from "../src/Goals.ts"

/**
 * The goal check of a part that picks an item of a list ("reserve the cheapest room", "the 2nd one"):
 * exactly the item the words name must be the one pressed, and the page must show the press — never
 * "some item was clicked".
 */

const facts = (url = "http://site.test/rooms"): PageFacts => ({
  url,
  title: "Rooms",
  heading: "Rooms in Ghent",
  passwordVisible: false,
  errors: [],
  noResults: false,
  hasNext: false,
  texts: {},
  counts: {},
})

const ROOMS = `- main:
  - h1 "Rooms in Ghent"
  - h2 "Canal view double"
  - 2 nights · €212
  - button "Reserve" [ref=e5]
  - h2 "Garden single"
  - 2 nights · €148
  - button "Reserve" [ref=e6]
  - h2 "Attic suite"
  - 2 nights · €305
  - button "Reserve" [ref=e7]`

const element = (ref: string, role = "button", name = "Reserve", checked?: boolean): PageElement => ({
  ref,
  role,
  name,
  tag: role === "radio" ? "input" : "button",
  attributes: {},
  visible: true,
  selectors: [],
  frame: [],
  ...(checked === undefined ? {} : { checked }),
})

const part = (
  said: string,
  fields: Partial<Extract<GoalPart["check"], { type: "itemPicked" }>["pick"]>,
): GoalPart => ({
  kind: "select",
  description: `choose "${said}"`,
  check: { type: "itemPicked", pick: { said, action: "choose", ...fields } },
})

const press = (ref: string, overrides: Partial<PartStep> = {}): PartStep => ({
  part: 0,
  tool: "click",
  ok: true,
  acted: ref,
  actedElement: element(ref),
  data: { ok: true, changed: true, signals: [] },
  signals: [],
  urlBefore: "http://site.test/rooms",
  urlAfter: "http://site.test/rooms",
  facts: facts(),
  seenOutline: ROOMS,
  ...overrides,
})

const judge = (goal: GoalPart, steps: ReadonlyArray<PartStep>) =>
  verifyParts([goal], { steps, records: [], finalPage: facts() })

const cheapest = part("the cheapest room", { rank: { measures: ["price"], order: "least" } })

describe("itemPicked: exactly the item named was chosen", () => {
  it("holds when the control of the item the words name was pressed and the page showed it", () => {
    expect(judge(cheapest, [press("e6")])).toEqual([])
    expect(judge(part("the last one", { ordinal: -1 }), [press("e7")])).toEqual([])
  })

  it("does not hold when another item of the list was pressed, naming both", () => {
    const unmet = judge(cheapest, [press("e5")])
    expect(unmet).toHaveLength(1)
    expect(unmet[0]!.evidence).toContain("of item 1, not the control of item 2 of the list")
  })

  it("does not hold when the press changed nothing on the page", () => {
    const unmet = judge(cheapest, [press("e6", { data: { ok: true, changed: false }, signals: ["NoOp"] })])
    expect(unmet[0]!.evidence).toContain("changed nothing")
  })

  it("does not hold when the page no longer lets the words name one item (a tie), whatever was pressed", () => {
    const tied = ROOMS.replace("€305", "€148")
    const unmet = judge(cheapest, [press("e6", { seenOutline: tied })])
    expect(unmet[0]!.evidence).toContain("tie for the least price")
  })

  it("does not hold without the page the item was chosen on, or without any press", () => {
    expect(judge(cheapest, [press("e6", { seenOutline: undefined })])[0]!.evidence).toContain("was not read")
    expect(judge(cheapest, [])[0]!.evidence).toBe("no step worked on this part")
  })

  it("holds for a radio only when it ends checked", () => {
    const radios = `- main:
  - radio "Standard — €4.90" [ref=e5] [checked]
  - radio "Pick-up — €0.00" [ref=e6]`
    const radio = (checked: boolean) =>
      press("e6", {
        tool: "check",
        seenOutline: radios,
        actedElement: element("e6", "radio", "Pick-up — €0.00", false),
        elements: [
          element("e5", "radio", "Standard — €4.90", !checked),
          element("e6", "radio", "Pick-up — €0.00", checked),
        ],
      })
    expect(judge(cheapest, [radio(true)])).toEqual([])
    expect(judge(cheapest, [radio(false)])[0]!.evidence).toContain("is not checked")
  })
})

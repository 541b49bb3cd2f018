import { describe, expect, it } from "vitest"
import { goalPartsOf, parseCommands } from "../../src/index.ts"
import { en } from "../../src/rules/lang/en.ts"
import { zh } from "../../src/rules/lang/zh.ts"
import { decideStep } from "../../src/rules/RuleStepPolicy.ts"

/**
 * Quantity slots: an item of a list said by its position ("the 3rd room", "倒数第一个") or by a superlative
 * the rules read ("the priciest", "最晚出发的") is one `pick` command, with no word left over; the step
 * policy presses that item's own control, and the goal part checks exactly that item.
 */

const picked = (text: string) => {
  const parsed = parseCommands(text)
  if (!parsed.ok) return parsed.reason
  expect(parsed.commands).toHaveLength(1)
  return parsed.commands[0]
}

describe("quantity slots: an item of a list by its position or a superlative", () => {
  it.each([
    ["reserve the 3rd room", "choose", { ordinal: 3 }],
    ["Choose the penultimate one", undefined, undefined],
    ["pick the second to last connection", "choose", { ordinal: -2 }],
    ["Select the last one on the page", "choose", { ordinal: -1 }],
    ["book the priciest fare", "choose", { rank: { measures: ["price"], order: "most" } }],
    ["Pick the earliest train after lunch", undefined, undefined],
    ["choose the first departure of the day", "choose", { rank: { measures: ["time"], order: "least" } }],
    [
      "add the lowest priced product to our trolley",
      "cart",
      { rank: { measures: ["price"], order: "least" } },
    ],
    [
      "put the most recent item into my shopping cart",
      "cart",
      { rank: { measures: ["date"], order: "most" } },
    ],
    ["选择第三个", "choose", { ordinal: 3 }],
    ["预订最晚起飞的那班", "choose", { rank: { measures: ["time"], order: "most" } }],
    ["将倒数第一个商品加入购物车", "cart", { ordinal: -1 }],
    ["用时最短的那个加入购物车", "cart", { rank: { measures: ["duration"], order: "least" } }],
  ] as const)("%s", (text, action, item) => {
    const command = picked(text)
    if (action === undefined) {
      // A word the item reader does not know ("penultimate", "of the list") is no quantity: not read as one.
      expect(typeof command === "string" || command?.kind !== "pick").toBe(true)
      return
    }
    expect(command).toMatchObject({ kind: "pick", action, item: { ...item, said: expect.any(String) } })
  })

  it.each([
    ["book the cheapest nonstop flight", "cheapest"],
    ["pick the quickest connection via Zurich", "quickest"],
    ["add the best gift to my cart", "best"],
    ["选最便宜的直飞航班", "最便宜"],
    ["在含早餐的房间里选最便宜的", "最便宜"],
  ])("keeps a ranking with a condition the rules cannot apply refused: %s", (text, ranking) => {
    const parsed = parseCommands(text)
    expect(parsed.ok).toBe(false)
    expect(!parsed.ok && parsed.reason).toContain(ranking)
  })

  it("refuses every quantity of the data when no item of a list takes it (a ranking read elsewhere needs a model)", () => {
    for (const phrase of Object.keys(en.items.quantities)) {
      const parsed = parseCommands(`click the ${phrase} button`)
      expect(parsed.ok, phrase).toBe(false)
    }
    for (const phrase of Object.keys(zh.items.quantities)) {
      const parsed = parseCommands(`点击${phrase}的按钮`)
      expect(parsed.ok, phrase).toBe(false)
    }
  })

  it("keeps the existing readings of role nouns and labels with ordinal words", () => {
    expect(picked("select the third option")).toMatchObject({
      kind: "select",
      target: { role: "option", ordinal: 3 },
    })
    expect(picked("click the second link")).toMatchObject({
      kind: "click",
      target: { role: "link", ordinal: 2 },
    })
    expect(picked("Add a note")).toContain("no action word")
  })

  it("gives the part a check of exactly the item named, not of any action", () => {
    expect(goalPartsOf("reserve the 3rd room")?.[0]?.check).toEqual({
      type: "itemPicked",
      pick: { said: "the 3rd room", ordinal: 3, action: "choose" },
    })
  })
})

const HOTELS = `- main:
  - h1 "Rooms in Ghent"
  - h2 "Canal view double"
  - 2 nights · €212 · ★ 4.6
  - button "Reserve" [ref=e5]
  - h2 "Garden single"
  - 2 nights · €148 · ★ 4.1
  - button "Reserve" [ref=e6]
  - h2 "Attic suite"
  - 2 nights · €305 · ★ 4.9
  - button "Reserve" [ref=e7]`

describe("the step policy presses the named item's own control", () => {
  it.each([
    ["reserve the priciest room", "e7"],
    ["Choose the second one", "e6"],
    ["book the best rated room", "e7"],
    ["预订最便宜的那个", "e6"],
  ])("%s", (goal, ref) => {
    const decision = decideStep({ goal, url: "/rooms", outline: HOTELS, history: [] })
    expect(decision.toolCalls).toEqual([{ name: "click", args: { target: ref } }])
    expect(decision.parts?.[0]?.check.type ?? goalPartsOf(goal)?.[0]?.check.type).toBe("itemPicked")
  })

  it("presses nothing when the list cannot say which item (every room lasts 2 nights: no shortest)", () => {
    const decision = decideStep({
      goal: "book the shortest room",
      url: "/rooms",
      outline: HOTELS,
      history: [],
    })
    expect(decision.toolCalls).toEqual([])
    expect(decision.taskComplete).toBe(false)
  })
})

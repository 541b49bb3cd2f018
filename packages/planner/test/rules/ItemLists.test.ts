import type { ItemPick } from "@sextant/core"
import { describe, expect, it } from "vitest"
import { readLists, resolvePick, valuesOf } from "../../src/index.ts"

/** Trains Lyon → Milan: items of two or three lines, each ending with its own "Book" button. */
const TRAINS = [
  "- header:",
  '  - link "Rail shop" [ref=e1] -> /',
  '  - nav "Main":',
  '    - link "Book" [ref=e2] -> /book',
  '    - link "Book" [ref=e3] -> /book2',
  "- main:",
  '  - h1 "Lyon → Milan"',
  "  - Saturday 14 March 2026 · 2 travellers",
  "  - 07:02 → 12:10 · 5h 08m · TGV 9241",
  "  - $88",
  '  - button "Book" [ref=e10]',
  "  - 09:30 → 15:55 · 6h 25m · 1 change",
  "  - Frecciarossa 9611",
  "  - $61",
  '  - button "Book" [ref=e11]',
  "  - 13:14 → 18:22 · 5h 08m · TGV 9245 · $129",
  '  - button "Book" [ref=e12]',
  "  - 17:45 → 23:59 · 6h 14m · 2 changes",
  "  - $54.50",
  '  - button "Book" [ref=e13]',
  "  - Prices include seat reservations",
  "- footer: Rail shop",
].join("\n")

/** Books with a heading each, an "Add to basket" and a "Details" link per item. */
const BOOKS = [
  "- main:",
  '  - h1 "Bestsellers"',
  "  - Basket: 0",
  '  - h3 "The Quiet Harbour"',
  "  - Published 2025-04-02 · 4.2/5 · £9.99",
  '  - link "Details" [ref=e20]',
  '  - button "Add to basket" [ref=e21]',
  '  - h3 "Salt and Iron"',
  "  - Published 2024-11-20 · 4.7/5 · £14.00",
  '  - link "Details" [ref=e22]',
  '  - button "Add to basket" [ref=e23]',
  '  - h3 "Paper Lanterns"',
  "  - Published 2025-09-15 · 3.8/5 · £7.25",
  '  - link "Details" [ref=e24]',
  '  - button "Add to basket" [ref=e25]',
].join("\n")

const pick = (fields: Omit<ItemPick, "action"> & { action?: ItemPick["action"] }): ItemPick => ({
  action: "choose",
  ...fields,
})

describe("the lists a page shows", () => {
  it("reads items with a repeated control, each with the text printed before its control", () => {
    const lists = readLists(TRAINS)
    expect(lists).toHaveLength(1)
    expect(lists[0]!.control).toBe("Book")
    expect(lists[0]!.items.map((item) => item.ref)).toEqual(["e10", "e11", "e12", "e13"])
    expect(lists[0]!.items[1]!.text).toBe("09:30 → 15:55 · 6h 25m · 1 change · Frecciarossa 9611 · $61")
    // The first item reaches back no further than the longest other item, and never past the page's heading.
    expect(lists[0]!.items[0]!.text).not.toContain("Lyon")
    expect(lists[0]!.items[0]!.text).toContain("TGV 9241")
  })

  it("leaves the navigation's repeated links out of every list", () => {
    expect(readLists(TRAINS).flatMap((list) => list.items.map((item) => item.ref))).not.toContain("e2")
  })

  it("starts the first item at its own heading when every item starts with one", () => {
    const basket = readLists(BOOKS).find((list) => list.control === "Add to basket")!
    expect(basket.items[0]!.text.startsWith("The Quiet Harbour")).toBe(true)
    expect(basket.items[0]!.text).not.toContain("Basket: 0")
  })

  it("reads prices, times of day (a range by its start), durations, days and ratings", () => {
    expect(valuesOf("12,50 € · was 1,250.00 EUR", "price")).toEqual([12.5, 1250])
    expect(valuesOf("07:02 → 12:10", "time")).toEqual([7 * 60 + 2])
    expect(valuesOf("dep 9:05 pm", "time")).toEqual([21 * 60 + 5])
    expect(valuesOf("5h 08m · 45 min · 1小时20分", "duration")).toEqual([308, 45, 80])
    expect(valuesOf("Published 2025-04-02 and 3 May 2024", "date")).toHaveLength(2)
    expect(valuesOf("★ 4.5 · 3.9/5 · rated 4", "rating")).toEqual([4.5, 3.9, 4])
  })
})

describe("the item a pick names", () => {
  it("counts positions from the start and from the end", () => {
    const at = (ordinal: number) => {
      const found = resolvePick(TRAINS, pick({ said: "x", ordinal }))
      return found.ok ? found.item.ref : found.reason
    }
    expect(at(2)).toBe("e11")
    expect(at(-1)).toBe("e13")
    expect(at(-3)).toBe("e11")
    expect(at(5)).toContain("the list has 4 items")
  })

  it("takes the one least or greatest value every item prints", () => {
    const ranked = (rank: NonNullable<ItemPick["rank"]>) => {
      const found = resolvePick(TRAINS, pick({ said: "x", rank }))
      return found.ok ? found.item.ref : found.reason
    }
    expect(ranked({ measures: ["price"], order: "least" })).toBe("e13")
    expect(ranked({ measures: ["price"], order: "most" })).toBe("e12")
    expect(ranked({ measures: ["time", "date"], order: "most" })).toBe("e13")
    expect(ranked({ measures: ["duration"], order: "most" })).toBe("e11")
  })

  it("refuses a tie for the extreme, naming the items", () => {
    const found = resolvePick(
      TRAINS,
      pick({ said: "the fastest", rank: { measures: ["duration"], order: "least" } }),
    )
    expect(found.ok).toBe(false)
    expect(!found.ok && found.reason).toContain("items 1 and 3 of the list tie")
  })

  it("refuses when an item prints two values of the kind compared, or none", () => {
    const twice = TRAINS.replace("  - $61", "  - was $75, now $61")
    const found = resolvePick(
      twice,
      pick({ said: "the cheapest", rank: { measures: ["price"], order: "least" } }),
    )
    expect(!found.ok && found.reason).toContain("item 2 of the list")
    expect(!found.ok && found.reason).toContain("prints 2 prices")
    const rated = resolvePick(
      TRAINS,
      pick({ said: "the best rated", rank: { measures: ["rating"], order: "most" } }),
    )
    expect(!rated.ok && rated.reason).toContain("no item of the list prints a rating")
  })

  it("uses the list whose control fits what is done: Add to basket to put in the cart, not Details", () => {
    const found = resolvePick(
      BOOKS,
      pick({ said: "the newest", rank: { measures: ["date"], order: "most" }, action: "cart" }),
    )
    expect(found.ok && found.item.ref).toBe("e25")
    const rated = resolvePick(
      BOOKS,
      pick({ said: "the top rated", rank: { measures: ["rating"], order: "most" }, action: "cart" }),
    )
    expect(rated.ok && rated.item.ref).toBe("e23")
    // To choose, a book has no Select-like control: nothing is pressed.
    const chosen = resolvePick(BOOKS, pick({ said: "the first", ordinal: 1 }))
    expect(!chosen.ok && chosen.reason).toContain("no list on this page")
  })

  it("chooses among radios, and refuses when two lists could be meant", () => {
    const radios = [
      "- main:",
      '  - radio "Standard — €4.90" [ref=e5] [checked]',
      '  - radio "Express — €9.90" [ref=e6]',
      '  - radio "Pick-up — €0.00" [ref=e7]',
    ].join("\n")
    const found = resolvePick(
      radios,
      pick({ said: "the cheapest", rank: { measures: ["price"], order: "least" } }),
    )
    expect(found.ok && found.item.ref).toBe("e7")
    const both = resolvePick(
      `${radios}\n${TRAINS.replace("- main:", "- region:")}`,
      pick({ said: "the second", ordinal: 2 }),
    )
    expect(!both.ok && both.reason).toContain("2 lists on this page")
  })

  it("takes the one item whose text holds every word of its name, plural or not, and refuses none or several", () => {
    const cart = (name: string) => resolvePick(BOOKS, pick({ said: name, name, action: "cart" }))
    const one = cart("salt and iron")
    expect(one.ok && one.item.ref).toBe("e23")
    // "Paper Lanterns" said in the singular.
    const singular = cart("paper lantern")
    expect(singular.ok && singular.item.ref).toBe("e25")
    // "The Quiet Harbour" said in the plural ("two quiet harbours").
    const plural = cart("quiet harbours")
    expect(plural.ok && plural.item.ref).toBe("e21")
    const none = cart("Tide Tables")
    expect(!none.ok && none.reason).toBe('no item of the list (3 items) is named "Tide Tables"')
    // "Published" is in every item's text: the words name no one item.
    const several = cart("published")
    expect(!several.ok && several.reason).toBe(
      'items 1 and 2 and 3 of the list are all named "published": which one is meant needs a model',
    )
  })
})

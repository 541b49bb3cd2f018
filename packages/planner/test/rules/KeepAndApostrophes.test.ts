import { describe, expect, it } from "vitest"
import { parseCommands } from "../../src/index.ts"

/**
 * "keep" ticks a box ("keep me signed in"), but "keep <verb>ing" says an action repeated: a scroll until
 * something shows is a scroll to it, any other repeated action is refused by name. A curly apostrophe
 * (U+2019) inside a word reads as the straight one, so a possessive said with it is read as one.
 */

const read = (text: string) => parseCommands(text)

describe("keep <verb>ing", () => {
  it.each([
    ["keep scrolling until the pricing table appears", { raw: "pricing table" }],
    ["Keep scrolling down until you reach the Comments heading", { text: "Comments", role: "heading" }],
    ["keep scrolling to the FAQ section", { text: "FAQ", role: "section" }],
  ])("reads %s as a scroll to the target", (text, target) => {
    const result = read(text)
    expect(result.ok && result.commands).toEqual([
      { kind: "scroll", target: expect.objectContaining(target) },
    ])
  })

  it.each([
    "keep pressing Refresh until the status says ready",
    "Keep clicking Show more until all reviews are listed",
    "keep typing",
  ])("refuses %s, naming the repeated action, instead of ticking a box", (text) => {
    const result = read(text)
    expect(result.ok).toBe(false)
    expect(!result.ok && result.reason).toContain(`"${text}" repeats an action until something holds`)
  })

  it("still ticks the box of 'keep me signed in' and 'keep me logged in'", () => {
    for (const text of ["keep me signed in", "Keep me logged in on this laptop"])
      expect(read(text)).toMatchObject({ ok: true, commands: [{ kind: "check", verb: expect.any(String) }] })
  })
})

describe("a curly apostrophe", () => {
  it("reads a possessive with U+2019 as with the straight apostrophe", () => {
    for (const owner of ["the Ops group", "Priya"]) {
      const curly = read(`open ${owner}\u2019s message`)
      expect(curly.ok).toBe(true)
      expect(curly).toEqual(read(`open ${owner}'s message`))
    }
  })

  it("keeps the curly apostrophe in a value typed as written", () => {
    const result = read("type O\u2019Neill into Surname")
    expect(result.ok && result.commands).toEqual([
      expect.objectContaining({ kind: "type", value: "O\u2019Neill" }),
    ])
  })
})

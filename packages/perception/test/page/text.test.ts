import { describe, expect, it } from "vitest"
import { leaf } from "../../src/page/outline.ts"
import {
  clip,
  clipName,
  collapse,
  cssString,
  finishTexts,
  type JoinState,
  pushText,
} from "../../src/page/text.ts"
import type { Item } from "../../src/page/types.ts"

const fresh = (): JoinState => ({ joinable: false, spaceNext: false, attachTo: null })

describe("text", () => {
  it("collapses every run of whitespace, newlines and tabs included, into one space", () => {
    expect(collapse("  a\n\n\tb   c ")).toBe(" a b c ")
  })

  it("clips long text at the limit with a marker saying how many characters are left out", () => {
    expect(clip("short", 10)).toBe("short")
    expect(clip("one two three four", 8)).toBe("one two… (+10 chars: raise maxTextLength to read them)")
  })

  it("clips a name at the limit with an ellipsis and no trailing space", () => {
    expect(clipName("Buy now", 7)).toBe("Buy now")
    expect(clipName("Buy now please", 4)).toBe("Buy…")
  })

  it("quotes a CSS attribute value, escaping backslashes and double quotes", () => {
    expect(cssString('say "hi" \\ bye')).toBe('"say \\"hi\\" \\\\ bye"')
  })
})

describe("text joining", () => {
  it("joins the text nodes of one line of prose into one run", () => {
    const join = fresh()
    const out: Item[] = []
    pushText(join, out, "Hello ")
    pushText(join, out, "world")
    expect(out).toEqual(["Hello world"])
  })

  it("starts a new run after a block ended the line", () => {
    const join = fresh()
    const out: Item[] = []
    pushText(join, out, "Hello")
    join.joinable = false
    pushText(join, out, "World")
    expect(out).toEqual(["Hello", "World"])
  })

  it("puts a space between words that two boxes of their own hold, not 'SleepMy'", () => {
    const join = fresh()
    const out: Item[] = []
    pushText(join, out, "Sleep")
    join.spaceNext = true
    pushText(join, out, "My Snoring")
    expect(out).toEqual(["Sleep My Snoring"])
  })

  it("gives the words after an inline link to the link's tail", () => {
    const link = leaf("link", "link", "A rare bird", "")
    const join: JoinState = { joinable: false, spaceNext: false, attachTo: link }
    const out: Item[] = [link]
    pushText(join, out, " seen in May")
    expect(out).toEqual([link])
    expect(link.tail).toBe(" seen in May")
  })

  it("keeps a whitespace-only node as one space only inside a run it continues", () => {
    const join = fresh()
    const out: Item[] = []
    pushText(join, out, "   ")
    expect(out).toEqual([])
    pushText(join, out, "a")
    pushText(join, out, "\n  ")
    expect(out).toEqual(["a "])
  })
})

describe("finishing texts", () => {
  it("trims and clips runs, drops empty ones and notes what it keeps", () => {
    const noted: string[] = []
    const items = finishTexts(["  Hello  ", "   ", "x".repeat(12)], 10, (text) => noted.push(text))
    expect(items).toEqual(["Hello", "xxxxxxxxxx… (+2 chars: raise maxTextLength to read them)"])
    expect(noted).toEqual(["Hello", "x".repeat(12)])
  })

  it("does not note a control's own words but always notes a link's tail", () => {
    const link = leaf("link", "link", "Home", "")
    link.tail = " and more "
    const noted: string[] = []
    finishTexts(["Press", link], 100, (text) => noted.push(text), false)
    expect(noted).toEqual(["and more"])
    expect(link.tail).toBe("and more")
  })

  it("drops a tail that is only separators between links", () => {
    const link = leaf("link", "link", "Home", "")
    link.tail = " | "
    finishTexts([link], 100)
    expect(link.tail).toBe("")
  })
})

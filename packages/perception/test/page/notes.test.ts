import { describe, expect, it } from "vitest"
import { textNotes } from "../../src/page/notes.ts"
import type { Text } from "../../src/page/types.ts"

describe("text notes", () => {
  it("keep at most the budget of texts per region but every alert", () => {
    const texts: Text[] = []
    const note = textNotes(texts, 2)
    for (const word of ["a", "b", "c"]) note("main", "text", word)
    note("nav", "text", "d")
    note("main", "alert", "Card declined")
    expect(texts).toEqual([
      ["main", "text", "a"],
      ["main", "text", "b"],
      ["nav", "text", "d"],
      ["main", "alert", "Card declined"],
    ])
  })

  it("count texts a caller cut back against their region's budget", () => {
    const texts: Text[] = []
    const note = textNotes(texts, 1)
    note("main", "text", "hidden words")
    texts.length = 0
    note("main", "text", "shown words")
    expect(texts).toEqual([])
  })
})

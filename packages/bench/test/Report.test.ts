import { describe, expect, it } from "@effect/vitest"
import { markdownTable } from "../src/Report.ts"

describe("markdownTable", () => {
  it("right-aligns numeric columns, left-aligns text and escapes pipes in cells", () => {
    const table = markdownTable(
      ["page", "tokens", "ratio"],
      [
        ["/a|b", "1,012", "0.41×"],
        ["/c", "—", "0.40×"],
      ],
    )
    expect(table.split("\n")).toEqual([
      "| page | tokens | ratio |",
      "| --- | ---: | ---: |",
      "| /a\\|b | 1,012 | 0.41× |",
      "| /c | — | 0.40× |",
    ])
  })
})

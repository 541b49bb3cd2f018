import { describe, expect, it } from "vitest"
import { parseCommands } from "../../src/rules/Grammar.ts"

describe("a bare 'search' after typing sends what was typed", () => {
  it("reads 在搜索框输入 lantern 并搜索 as one search for lantern in the search box", () => {
    expect(parseCommands("在搜索框输入 lantern 并搜索")).toEqual({
      ok: true,
      commands: [
        { kind: "search", query: "lantern", field: { raw: "搜索框", text: "search", role: "textbox" } },
      ],
    })
  })

  it("keeps a search with its own query as a search of its own", () => {
    const parsed = parseCommands("type lantern into the search box and search for compass")
    expect(parsed.ok && parsed.commands.map((command) => command.kind)).toEqual(["type", "search"])
  })
})

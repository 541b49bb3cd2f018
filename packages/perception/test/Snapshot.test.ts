import { DriverError } from "@sextant/core"
import { describe, expect, it } from "vitest"
import { countTokens, lookScript, pageScriptSource, parseSnapshot, resolveScript } from "../src/index.ts"

const raw = (fields: Record<string, unknown> = {}) =>
  JSON.stringify({
    v: 1,
    url: "http://127.0.0.1:4000/list",
    title: "List",
    mode: "full",
    lines: [
      "- main:",
      ...Array.from(
        { length: 200 },
        (_, index) => `  - link "Item number ${index}" [ref=e${index + 2}] -> /items/${index}`,
      ),
    ],
    anchors: [["e1", "main", 0, 201]],
    elements: [],
    forms: [],
    texts: [["main", "heading", "List"]],
    nodes: 400,
    ms: 3.5,
    scroll: { y: 0, height: 900, viewportHeight: 900 },
    ...fields,
  })

const failure = (run: () => unknown): DriverError => {
  try {
    run()
  } catch (error) {
    if (error instanceof DriverError) return error
    throw error
  }
  throw new Error("expected a DriverError")
}

describe("parseSnapshot", () => {
  it("never exceeds maxTokens and names the container to open", () => {
    for (const maxTokens of [1, 5, 12, 30, 100, 500, 1000]) {
      const snapshot = parseSnapshot(raw(), { maxTokens })
      expect(countTokens(snapshot.tree), String(maxTokens)).toBeLessThanOrEqual(maxTokens)
      expect(snapshot.stats.truncated).toBe(true)
      if (maxTokens >= 30) expect(snapshot.tree).toContain('look({ within: "e1" }) for main')
    }
    const cut = parseSnapshot(raw(), { maxTokens: 500 })
    expect(cut.tree.split("\n").at(-1)).toMatch(
      /^- \[cut \d+ of 201 lines to fit maxTokens; see more with look/,
    )
    expect(cut.outline?.split("\n")).toHaveLength(201)
  })

  it("leaves an outline that fits untouched", () => {
    const snapshot = parseSnapshot(raw(), { maxTokens: 100_000 })
    expect(snapshot.stats.truncated).toBe(false)
    expect(snapshot.tree.split("\n")).toHaveLength(201)
    expect(snapshot.stats.tokens).toBe(countTokens(snapshot.tree))
    expect(snapshot.outline).toBeUndefined()
  })

  it("fails with StaleRef when the page no longer has the within ref", () => {
    const error = failure(() => parseSnapshot(raw({ stale: "e7" })))
    expect(error.reason._tag).toBe("StaleRef")
    expect(error.message).toBe("BrowserDriver.look: ref e7 is stale: call look() to refresh")
  })

  it("fails with ScriptError naming the field when the page answers something else", () => {
    expect(failure(() => parseSnapshot(undefined)).reason._tag).toBe("ScriptError")
    expect(failure(() => parseSnapshot("not json")).reason._tag).toBe("ScriptError")
    expect(
      failure(() => parseSnapshot(JSON.stringify({ v: 1, failure: "TypeError: boom" }))).message,
    ).toContain("TypeError: boom")
    expect(failure(() => parseSnapshot(raw({ lines: "oops" }))).message).toContain("snapshot.lines")
  })
})

describe("page scripts", () => {
  it("are plain scripts without module syntax that parse as function bodies", () => {
    expect(pageScriptSource).not.toMatch(/^\s*(import|export)\s/m)
    expect(() => new Function(pageScriptSource)).not.toThrow()
    expect(
      () => new Function(lookScript({ mode: "interactive", within: "e3", secretSelectors: ["#card"] })),
    ).not.toThrow()
    expect(() => new Function(resolveScript("e3"))).not.toThrow()
    expect(lookScript({ maxTokens: 50, mode: "interactive" })).toContain(
      'return s.look({"mode":"interactive"})',
    )
  })
})

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

  it("reads elements the page sends as rows the same as elements sent as objects", () => {
    const link = {
      ref: "e2",
      key: "link|Item number 0||main|0",
      role: "link",
      name: "Item number 0",
      guess: { from: "id", words: "item" },
      tag: "a",
      attributes: { href: "/items/0" },
      visible: true,
      box: { x: 10, y: 20, width: 300, height: 18 },
      selectors: ['a[href="/items/0"]'],
      frame: ["iframe#shop"],
      region: "main",
      form: "form|Search|0",
    }
    const button = { ...link, ref: "e3", role: "button", name: "Go", visible: false, region: "header" }
    delete (button as { guess?: unknown }).guess
    delete (button as { frame?: unknown }).frame
    delete (button as { form?: unknown }).form
    const rows = [
      [
        "e2",
        link.key,
        "link",
        "Item number 0",
        "a",
        link.attributes,
        1,
        10,
        20,
        300,
        18,
        link.selectors,
        "main",
        { guess: link.guess, frame: link.frame, form: link.form },
      ],
      ["e3", link.key, "button", "Go", "a", link.attributes, 0, 10, 20, 300, 18, link.selectors, "header"],
    ]
    const fromRows = parseSnapshot(raw({ elements: rows }))
    expect(fromRows.elements).toEqual(parseSnapshot(raw({ elements: [link, button] })).elements)
    expect(fromRows.elements.e2).toEqual(link)
    expect(fromRows.elements.e3).toEqual({ ...button, frame: [] })
    // A row that is not one fails as any malformed element does.
    expect(failure(() => parseSnapshot(raw({ elements: [["e2", "k", "link"]] }))).reason._tag).toBe(
      "ScriptError",
    )
    expect(failure(() => parseSnapshot(raw({ elements: [rows[1]!.with(6, "yes")] }))).reason._tag).toBe(
      "ScriptError",
    )
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

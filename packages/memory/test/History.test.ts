import { describe, expect, it } from "vitest"
import { DEFAULT_HISTORY_WINDOW, History } from "../src/History.ts"

describe("History", () => {
  it("writes step-wise lines and a FINAL line", () => {
    const history = History.make()
      .add({ step: 1, tool: "navigate", target: "http://127.0.0.1:4000/login" })
      .add({ step: 3, tool: "click", target: "#login-btn", count: 1 })
      .finish({ taskComplete: true, summary: "signed in" })
    expect(history.render()).toBe(
      [
        "#1 navigate -> http://127.0.0.1:4000/login",
        "#3 click -> #login-btn x1",
        'FINAL {"taskComplete":true,"summary":"signed in"}',
      ].join("\n"),
    )
  })

  it("shows only the last 8 lines by default and keeps every line for a transcript", () => {
    let history = History.make()
    for (let step = 1; step <= 12; step++) history = history.add({ step, tool: "scroll", target: "down" })
    expect(DEFAULT_HISTORY_WINDOW).toBe(8)
    expect(history.window).toHaveLength(8)
    expect(history.window[0]).toBe("#5 scroll -> down")
    expect(history.renderAll().split("\n")).toHaveLength(12)
    expect(
      History.make({ historyWindow: 2 })
        .add({ step: 1, tool: "a" })
        .add({ step: 2, tool: "b" })
        .add({ step: 3, tool: "c" }).window,
    ).toEqual(["#2 b", "#3 c"])
  })

  it("replaces secrets with placeholders in every rendering", () => {
    const history = History.make()
      .add({ step: 2, tool: "fill", target: "#password", note: "typed hunter2" })
      .finish({ taskComplete: true, password: "hunter2" })
    expect(history.render({ password: "hunter2" })).toBe(
      '#2 fill -> #password (typed <secret:password>)\nFINAL {"taskComplete":true,"password":"<secret:password>"}',
    )
    expect(history.renderAll({ password: "hunter2" })).not.toContain("hunter2")
    expect(() => History.make({ historyWindow: -1 })).toThrow(/historyWindow must be a positive integer/)
  })
})

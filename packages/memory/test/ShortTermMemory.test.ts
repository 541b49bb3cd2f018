import type { Observation } from "@sextant/core"
import { describe, expect, it } from "vitest"
import { DEFAULT_WINDOW_SIZE, ShortTermMemory } from "../src/ShortTermMemory.ts"

const at = "2026-11-22T10:00:00.000Z"
const ok = (tool: string, data: unknown, extra: Partial<Observation> = {}): Observation => ({
  tool,
  ok: true,
  data,
  durationMs: 10,
  at,
  ...extra,
})

describe("ShortTermMemory", () => {
  it("renders navigation, extraction and error summaries under [Recent Observations]", () => {
    const memory = ShortTermMemory.make()
      .add(2, ok("navigate", null, { url: "http://127.0.0.1/products" }), {
        url: "http://127.0.0.1/products",
      })
      .add(3, ok("click", null), { selector: ".next" })
      .add(4, ok("extract", { items: Array.from({ length: 25 }, (_, index) => index) }), {
        selector: "list.items",
      })
      .add(
        5,
        {
          tool: "click",
          ok: false,
          data: null,
          durationMs: 5,
          at,
          error: {
            tag: "DriverError",
            reason: "ElementNotFound",
            message: "no element matches #more",
            retryable: true,
          },
        },
        { target: "#more" },
      )
    expect(memory.render()).toBe(
      [
        "[Recent Observations]",
        "Step 2 navigate(http://127.0.0.1/products) => success, now at http://127.0.0.1/products",
        "Step 3 click(.next) => success",
        "Step 4 extract(list.items) => 25 items",
        "Step 5 click(#more) => error: no element matches #more",
      ].join("\n"),
    )
    expect(memory.entries.map((entry) => entry.kind)).toEqual(["navigation", "action", "extraction", "error"])
  })

  it("keeps only the last windowSize observations, 30 by default", () => {
    let memory = ShortTermMemory.make()
    for (let step = 1; step <= 40; step++)
      memory = memory.add(step, ok("scroll", null), { direction: "down" })
    expect(DEFAULT_WINDOW_SIZE).toBe(30)
    expect(memory.entries).toHaveLength(30)
    expect(memory.entries[0]?.step).toBe(11)
    const small = ShortTermMemory.make({ windowSize: 2 })
      .add(1, ok("a", null))
      .add(2, ok("b", null))
      .add(3, ok("c", null))
    expect(small.render().split("\n").slice(1)).toEqual(["Step 2 b() => success", "Step 3 c() => success"])
  })

  it("replaces secret values with placeholders when rendering", () => {
    const memory = ShortTermMemory.make().add(1, ok("fill", null), { selector: "#password", text: "hunter2" })
    const withValues = memory.add(2, ok("fill", null), { text: "s3cret-hunter2" })
    expect(withValues.render({ password: "hunter2", token: "s3cret-hunter2" })).toBe(
      "[Recent Observations]\nStep 1 fill(#password) => success\nStep 2 fill(<secret:token>) => success",
    )
    expect(withValues.render((text) => text.replaceAll("s3cret", "***"))).toContain("fill(***-hunter2)")
  })

  it("renders nothing for an empty window and rejects a window below one", () => {
    expect(ShortTermMemory.make().render()).toBe("")
    expect(() => ShortTermMemory.make({ windowSize: 0 })).toThrow(/windowSize must be a positive integer/)
  })
})

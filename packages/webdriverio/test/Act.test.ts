import { describe, expect, it } from "@effect/vitest"
import type { DriverError } from "@sextant/core"
import { Effect } from "effect"
import { dragSpec, valueText } from "../src/internal/Act.ts"

describe("dragSpec", () => {
  it("drops on a target given as a ref or a CSS selector", () => {
    expect(dragSpec("drag", ["to", "e7"])).toEqual({ to: { ref: "e7" } })
    expect(dragSpec("drag", ["to", "#bin"])).toEqual({ to: { selector: "#bin" } })
  })

  it("drops at an offset in CSS pixels, a missing one counting as 0", () => {
    expect(dragSpec("drag", ["by", "40", "-10"])).toEqual({ dx: 40, dy: -10 })
    expect(dragSpec("drag", ["by", "25"])).toEqual({ dx: 25, dy: 0 })
  })

  it("adds nothing for other ops or a value that is not a drop point", () => {
    expect(dragSpec("click", ["to", "e7"])).toEqual({})
    expect(dragSpec("drag", "e7")).toEqual({})
    expect(dragSpec("drag", ["over", "e7"])).toEqual({})
  })
})

describe("valueText", () => {
  it.effect("takes a string as it is and writes a number out", () =>
    Effect.gen(function* () {
      expect(yield* valueText("input", "hello")).toBe("hello")
      expect(yield* valueText("set", 42)).toBe("42")
    }),
  )

  it.effect("refuses a list or no value with InvalidArgument naming the op and what came", () =>
    Effect.gen(function* () {
      const listed: DriverError = yield* Effect.flip(valueText("input", ["a", "b"]))
      expect(listed.method).toBe("act")
      expect(listed.reason._tag).toBe("InvalidArgument")
      expect(listed.message).toContain('input needs one text value, got ["a","b"]')
      const missing: DriverError = yield* Effect.flip(valueText("upload", undefined))
      expect(missing.message).toContain("upload needs one text value, got undefined")
    }),
  )
})

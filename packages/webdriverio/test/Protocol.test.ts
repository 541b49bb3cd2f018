import { describe, expect, it } from "vitest"
import { chordKeys, clickActions, keyActions, namedKeys, typeActions } from "../src/internal/Protocol.ts"

describe("chordKeys", () => {
  it("reads named keys, aliases and single characters", () => {
    expect(chordKeys("Enter")).toEqual([namedKeys.Enter])
    expect(chordKeys("Control+a")).toEqual([namedKeys.Control, "a"])
    expect(chordKeys("Ctrl+Shift+Tab")).toEqual([namedKeys.Control, namedKeys.Shift, namedKeys.Tab])
    expect(chordKeys("Esc")).toEqual([namedKeys.Escape])
    expect(chordKeys("+")).toEqual(["+"])
  })

  it("refuses what is neither a key name nor one character", () => {
    expect(chordKeys("Hyper")).toBeUndefined()
    expect(chordKeys("Control+Hyper")).toBeUndefined()
    expect(chordKeys("")).toBeUndefined()
  })
})

describe("action sequences", () => {
  it("presses a chord down in order and releases it in reverse, repeated", () => {
    const [source] = keyActions([namedKeys.Control!, "a"], 2)
    expect(source?.actions).toEqual([
      { type: "keyDown", value: namedKeys.Control },
      { type: "keyDown", value: "a" },
      { type: "keyUp", value: "a" },
      { type: "keyUp", value: namedKeys.Control },
      { type: "keyDown", value: namedKeys.Control },
      { type: "keyDown", value: "a" },
      { type: "keyUp", value: "a" },
      { type: "keyUp", value: namedKeys.Control },
    ])
  })

  it("types newlines and tabs as Enter and Tab", () => {
    const [source] = typeActions("a\n\t")
    expect(
      source?.actions.filter((action) => action.type === "keyDown").map((action) => action.value),
    ).toEqual(["a", namedKeys.Enter, namedKeys.Tab])
  })

  it("clicks at whole viewport pixels with one move, down and up", () => {
    const [source] = clickActions(10.6, 20.2)
    expect(source).toMatchObject({ type: "pointer", parameters: { pointerType: "mouse" } })
    expect(source?.actions).toEqual([
      { type: "pointerMove", x: 11, y: 20, origin: "viewport" },
      { type: "pointerDown", button: 0 },
      { type: "pointerUp", button: 0 },
    ])
  })
})

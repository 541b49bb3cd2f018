import { describe, expect, it } from "vitest"
import { createRefState, refAssigner } from "../../src/page/refs.ts"

/** Stands in for an element: refs read only `isConnected` and object identity. */
const element = (isConnected = true) => ({ isConnected }) as unknown as Element

describe("refs", () => {
  it("keep an element's ref from one look to the next", () => {
    const state = createRefState()
    const button = element()
    const [first] = refAssigner(state, false)(button, "button|Save|main")
    const [second] = refAssigner(state, false)(button, "button|Save|main")
    expect(first).toBe("e1")
    expect(second).toBe("e1")
  })

  it("give the ref of a removed element to the new element that takes its place", () => {
    const state = createRefState()
    const old = element()
    refAssigner(state, false)(old, "link|Next|nav")
    ;(old as { isConnected: boolean }).isConnected = false
    const [ref] = refAssigner(state, false)(element(), "link|Next|nav")
    expect(ref).toBe("e1")
  })

  it("give a new element a new ref while the element that holds the key is still in the page", () => {
    const state = createRefState()
    refAssigner(state, false)(element(), "link|Next|nav")
    const [ref] = refAssigner(state, false)(element(), "link|Next|nav")
    expect(ref).toBe("e2")
  })

  it("tell apart elements with the same role, name and context by their order in the look", () => {
    const state = createRefState()
    const assign = refAssigner(state, false)
    expect(assign(element(), "button|Add|results")).toEqual(["e1", "button|Add|results|0"])
    expect(assign(element(), "button|Add|results")).toEqual(["e2", "button|Add|results|1"])
  })

  it("keep the key a whole-page look recorded when a partial look sees less context", () => {
    const state = createRefState()
    const select = element()
    refAssigner(state, false)(select, "combobox|Country|form:Address")
    expect(refAssigner(state, true)(select, "combobox|Country|")).toEqual([
      "e1",
      "combobox|Country|form:Address|0",
    ])
    expect(state.byKey.get("combobox|Country||0")).toBeUndefined()
  })
})

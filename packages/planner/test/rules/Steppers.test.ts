import { describe, expect, it } from "vitest"
import { elementsFromOutline, STEPPER } from "../../src/rules/Outline.ts"
import { decideStep } from "../../src/rules/RuleStepPolicy.ts"

/**
 * A number shown between a − and a + button (a stepper with no field to type into): the outline marks
 * the pair, and the rule step policy presses one of them per turn, reading the number again each
 * turn, until the number is the one asked for. A number it cannot read, a button it cannot press or a
 * press that changes nothing ends the clause unfinished, never done.
 */

const TICKETS = (shown: string, { plusDisabled = false } = {}) => `- main:
  - h1 "Concert tickets"
  - form:
    - Standing tickets
    - button "Remove one" [ref=e3]
    - status: ${shown}
    - button "Add one" [ref=e5]${plusDisabled ? " [disabled]" : ""}
    - Quantity
    - button "−" [ref=e6]
    - 1
    - button "+" [ref=e8]
    - button "Continue" [ref=e9]`

const turn = (goal: string, outline: string, history: ReadonlyArray<string> = []) =>
  decideStep({ goal, url: "http://127.0.0.1/tickets", outline, history })

describe("elementsFromOutline: steppers", () => {
  it("marks the two buttons around a number with the number, their caption and which way each steps", () => {
    const [less, more, minus, plus, next] = elementsFromOutline(TICKETS("2"))
    expect(less?.attributes).toMatchObject({
      [STEPPER.shows]: "2",
      [STEPPER.label]: "Standing tickets",
      [STEPPER.step]: "down",
      [STEPPER.pair]: "e3",
    })
    expect(more?.attributes).toMatchObject({
      [STEPPER.shows]: "2",
      [STEPPER.step]: "up",
      [STEPPER.pair]: "e3",
    })
    expect(minus?.attributes).toMatchObject({ [STEPPER.shows]: "1", [STEPPER.label]: "Quantity" })
    expect(plus?.attributes).toMatchObject({ [STEPPER.step]: "up", [STEPPER.pair]: "e6" })
    expect(next?.attributes[STEPPER.pair]).toBeUndefined()
  })

  it("marks nothing when the text between two buttons is not a number", () => {
    const elements = elementsFromOutline(
      `- button "Back" [ref=e1]\n- Step two of three\n- button "Next" [ref=e2]`,
    )
    expect(elements.every((element) => element.attributes[STEPPER.pair] === undefined)).toBe(true)
  })
})

describe("rule step policy: a stepper is pressed towards the number asked for", () => {
  it("presses + while the number is below the target, by the caption or by the buttons' names", () => {
    const first = turn("set the standing tickets to 4", TICKETS("2"))
    expect(first.toolCalls).toEqual([{ name: "click", args: { target: "e5" } }])
    expect(first.taskComplete).toBe(false)
    // The next turn reads the number again: 3, still below 4, so + again.
    const second = turn("set the standing tickets to 4", TICKETS("3"), first.history)
    expect(second.toolCalls).toEqual([{ name: "click", args: { target: "e5" } }])
    expect(turn("数量改成3", TICKETS("2")).toolCalls).toEqual([{ name: "click", args: { target: "e8" } }])
  })

  it("presses − to go down, and is done (nothing pressed) when the number shown is the target", () => {
    expect(turn("lower the standing tickets to 1", TICKETS("3")).toolCalls).toEqual([
      { name: "click", args: { target: "e3" } },
    ])
    const done = turn("set the standing tickets to 3", TICKETS("3"))
    expect(done.toolCalls).toEqual([])
    expect(done.taskComplete).toBe(true)
  })

  it("stops unfinished when a press left the number as it was (the top of its range)", () => {
    const first = turn("set the standing tickets to 7", TICKETS("6"))
    expect(first.toolCalls).toEqual([{ name: "click", args: { target: "e5" } }])
    const stuck = turn("set the standing tickets to 7", TICKETS("6"), first.history)
    expect(stuck.toolCalls).toEqual([])
    expect(stuck.taskComplete).toBe(false)
    expect(stuck.history.join("\n")).toContain('still shows 6 after button "Add one" [e5] was pressed')
  })

  it("stops unfinished, pressing nothing, when the number cannot be read or the button is disabled", () => {
    const unreadable = TICKETS("2")
      .replace("- status: 2", "- status: two")
      .replace(/.*Continue.*/, "")
    // "two" is no number the outline reads: no stepper, and neither of its buttons is pressed.
    const unread = turn("set the standing tickets to 4", unreadable)
    expect(unread.toolCalls.filter((call) => call.name === "click")).toEqual([])
    expect(unread.taskComplete).toBe(false)
    const disabled = turn("set the standing tickets to 4", TICKETS("2", { plusDisabled: true }))
    expect(disabled.toolCalls).toEqual([])
    expect(disabled.taskComplete).toBe(false)
    expect(disabled.history.join("\n")).toContain("is disabled: 4 cannot be reached")
  })
})

import { BrowserDriver } from "@sextant/core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import {
  dragTool,
  focusTool,
  hoverTool,
  pressTool,
  scrollInsideTool,
  selectTextTool,
  setValueTool,
} from "../../src/browser/Input.ts"
import { navigateTool } from "../../src/browser/Navigation.ts"
import { type Harness, openHarness } from "./Harness.ts"

let harness: Harness
beforeAll(async () => {
  harness = await openHarness([7])
})
afterAll(async () => {
  await harness?.close()
})

const evaluate = (script: string) => harness.run(BrowserDriver.use((driver) => driver.evaluate(script)))
const open = (path: string) => harness.run(navigateTool.run({ url: harness.url(path) }))

describe("hover, focus and key chords in Chromium on the widget gallery", () => {
  it("hover moves a trusted pointer over the element: the tooltip opens and the hover menu shows", async () => {
    await open("/gallery/hover")
    expect(await evaluate("return document.querySelector('[role=img] + span').hidden")).toBe(true)
    await harness.run(hoverTool.run({ target: "[aria-label=Help]" }))
    expect(await evaluate("return document.querySelector('[role=img] + span').hidden")).toBe(false)
    await harness.run(hoverTool.run({ target: "main span:first-child" }))
    expect(
      await evaluate(
        "return getComputedStyle(document.querySelector('a[href=\"#signout\"]').parentElement).display",
      ),
    ).toBe("block")
  })

  it("focus gives a field named by its label the keyboard focus without typing", async () => {
    await open("/gallery/keys")
    await harness.run(focusTool.run({ label: "Notes" }))
    expect(await evaluate("return [document.activeElement.dataset.k, document.activeElement.value]")).toEqual(
      ["notes", ""],
    )
  })

  it("press sends a chord as held keys: Control+k opens the command palette", async () => {
    await open("/gallery/keys")
    expect(await evaluate("return document.querySelector('[aria-label=\"Command palette\"]').hidden")).toBe(
      true,
    )
    await harness.run(pressTool.run({ key: "Control+k" }))
    expect(await evaluate("return document.querySelector('[aria-label=\"Command palette\"]').hidden")).toBe(
      false,
    )
  })

  it("drag presses, moves and releases: a card lands on another column, a box moves by an offset", async () => {
    await open("/gallery/drag")
    await harness.run(dragTool.run({ target: "[data-card='Fix login bug']", to: "[data-column=Done]" }))
    expect(
      await evaluate(
        "return document.querySelector(\"[data-card='Fix login bug']\").closest('[data-column]').dataset.column",
      ),
    ).toBe("Done")
    const before = Number(
      await evaluate(
        "return document.querySelector('[aria-label=\"Movable box\"]').getBoundingClientRect().left",
      ),
    )
    await harness.run(dragTool.run({ target: "[aria-label='Movable box']", x: 100, y: 0 }))
    const after = Number(
      await evaluate(
        "return document.querySelector('[aria-label=\"Movable box\"]').getBoundingClientRect().left",
      ),
    )
    expect(Math.round(after - before)).toBeGreaterThanOrEqual(95)
    expect(Math.round(after - before)).toBeLessThanOrEqual(105)
    const refused = dragTool.input.safeParse({ target: "[aria-label='Movable box']" })
    expect(refused.success).toBe(false)
    expect(refused.error?.issues[0]?.message).toContain("give where to drop it")
  })

  it("selectText highlights exactly the phrase with the mouse, and names a phrase that is not there", async () => {
    await open("/gallery/select-text")
    await harness.run(selectTextTool.run({ text: "quick brown fox" }))
    expect(await evaluate("return String(document.getSelection()).trim()")).toBe("quick brown fox")
    await harness.run(selectTextTool.run({ text: "measure twice" }))
    expect(await evaluate("return String(document.getSelection()).trim()")).toBe("measure twice")
    const missing = await harness.fail(selectTextTool.run({ text: "not on this page" }))
    expect(String(missing)).toContain('no text "not on this page"')
  })

  it("focus, selectText and drag answer changed when the page holds their postcondition, NoOp when it does not", async () => {
    const shows = (result: { changed: boolean; signals: ReadonlyArray<string>; hint: string }) => ({
      changed: result.changed,
      noOp: result.signals.includes("NoOp"),
      hint: result.hint,
    })
    await open("/gallery/keys")
    expect(shows(await harness.run(focusTool.run({ label: "Notes" })))).toEqual({
      changed: true,
      noOp: false,
      hint: "focus: the focus is on it",
    })
    // A page that takes the focus away again: the focus never shows where it was asked.
    await evaluate(
      "document.querySelector('[data-k=notes]').addEventListener('focus', (event) => event.target.blur()); document.activeElement.blur()",
    )
    const refused = shows(await harness.run(focusTool.run({ label: "Notes" })))
    expect(refused).toMatchObject({ changed: false, noOp: true })
    expect(refused.hint).toMatch(/^focus: the focus is on body/)

    await open("/gallery/select-text")
    const selected = shows(await harness.run(selectTextTool.run({ text: "quick brown fox" })))
    expect(selected).toMatchObject({ changed: true, noOp: false })
    expect(selected.hint).toContain('the selection holds "quick brown fox')
    // A page that refuses selection: the words are pressed over, but nothing is selected.
    await evaluate(
      "getSelection().removeAllRanges(); document.addEventListener('selectstart', (event) => event.preventDefault())",
    )
    expect(shows(await harness.run(selectTextTool.run({ text: "measure twice" })))).toEqual({
      changed: false,
      noOp: true,
      hint: "selectText: nothing is selected",
    })

    await open("/gallery/drag")
    const moved = shows(
      await harness.run(dragTool.run({ target: "[aria-label='Movable box']", x: 100, y: 0 })),
    )
    expect(moved).toMatchObject({ changed: true, noOp: false })
    expect(moved.hint).toMatch(/^drag: it moved by (9[5-9]|10[0-5]) px$/)
    // The heading listens to no pointer: dragged, it stays where it is.
    expect(shows(await harness.run(dragTool.run({ target: "h1", x: 100, y: 0 })))).toEqual({
      changed: false,
      noOp: true,
      hint: "drag: it did not move",
    })
  })

  it("scrollInside wheels a box that scrolls on its own to its end, not the page", async () => {
    await open("/gallery/scroll-inside")
    await harness.run(
      scrollInsideTool.run({ target: "section[aria-label='Terms and conditions']", to: "bottom" }),
    )
    expect(
      await evaluate(
        "const box = document.querySelector(\"section[aria-label='Terms and conditions']\"); return box.scrollTop + box.clientHeight >= box.scrollHeight - 4",
      ),
    ).toBe(true)
  })

  it("setValue sets dates and times in the input's own format and moves an ARIA slider with keys", async () => {
    await open("/gallery/datetime")
    await harness.run(setValueTool.run({ target: "[data-k=endDate]", value: "June 3, 2024" }))
    await harness.run(setValueTool.run({ target: "[data-k=meetingTime]", value: "2:30 PM" }))
    expect(
      await evaluate(
        "return [document.querySelector('[data-k=endDate]').value, document.querySelector('[data-k=meetingTime]').value]",
      ),
    ).toEqual(["2024-06-03", "14:30"])
    const bad = await harness.fail(setValueTool.run({ target: "[data-k=startDate]", value: "someday" }))
    expect(String(bad)).toContain("2024-05-01")
    await open("/gallery/slider")
    await harness.run(setValueTool.run({ target: "span[role=slider]", value: "8" }))
    await harness.run(setValueTool.run({ target: "input[type=range]", value: "80" }))
    expect(
      await evaluate(
        "return [document.querySelector('span[role=slider]').getAttribute('aria-valuenow'), document.querySelector('input[type=range]').value]",
      ),
    ).toEqual(["8", "80"])
  })

  it("drag and scrollInside find an element with no ref by its words, and name words that are not there", async () => {
    await open("/gallery/drag")
    await harness.run(dragTool.run({ text: "Call supplier", toText: "In progress" }))
    expect(
      await evaluate(
        "return document.querySelector(\"[data-card='Call supplier']\").closest('[data-column]').dataset.column",
      ),
    ).toBe("In progress")
    const missing = await harness.fail(dragTool.run({ text: "No such card", toText: "Done" }))
    expect(String(missing)).toContain('an element with the text "No such card"')
    await open("/gallery/scroll-inside")
    await harness.run(scrollInsideTool.run({ text: "terms", to: "bottom" }))
    expect(
      await evaluate(
        "const box = document.querySelector(\"section[aria-label='Terms and conditions']\"); return box.scrollTop + box.clientHeight >= box.scrollHeight - 4",
      ),
    ).toBe(true)
  })
})

import { BrowserDriver } from "@sextant/core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { focusTool, hoverTool, pressTool } from "../../src/browser/Input.ts"
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
})

import { describe, expect, it } from "vitest"
import { type PageModules, usePageHarness } from "./support/PageModules.ts"

const harness = usePageHarness()

/** The state words of the element with this id, with the role the caller says it has. */
const wordsOf = (id: string, role: string, interactive = true): Promise<string[]> =>
  harness.browser.execute(
    (id, role, interactive) => {
      const { states } = (globalThis as unknown as { __page: PageModules }).__page
      const element = document.getElementById(id)!
      const tag = element.localName
      const isControl = tag === "input" || tag === "select" || tag === "textarea"
      return states.statesOf(element, tag, role, isControl, interactive).words
    },
    id,
    role,
    interactive,
  )

describe("states", () => {
  it("read a native checkbox as checked, or mixed when it is indeterminate", async () => {
    await harness.open(`<input type="checkbox" id="on" checked><input type="checkbox" id="some">`)
    await harness.browser.execute(() => {
      ;(document.getElementById("some") as HTMLInputElement).indeterminate = true
    })
    expect(await wordsOf("on", "checkbox")).toEqual(["checked"])
    expect(await wordsOf("some", "checkbox")).toEqual(["mixed"])
  })

  it("read a summary as expanded or collapsed from its details", async () => {
    await harness.open(`
      <details open><summary id="open">More</summary>x</details>
      <details><summary id="closed">Less</summary>y</details>`)
    expect(await wordsOf("open", "button")).toEqual(["expanded"])
    expect(await wordsOf("closed", "button")).toEqual(["collapsed"])
  })

  it("print the ARIA states in a fixed order", async () => {
    await harness.open(
      `<div id="tab" role="tab" aria-selected="true" aria-pressed="true" aria-disabled="true" aria-current="page" aria-invalid="true"></div>`,
    )
    expect(await wordsOf("tab", "tab")).toEqual(["selected", "pressed", "disabled", "invalid", "current"])
  })

  it("say required only of an interactive element", async () => {
    await harness.open(`<input id="name" required><input id="plain" disabled>`)
    expect(await wordsOf("name", "textbox")).toEqual(["required"])
    expect(await wordsOf("name", "textbox", false)).toEqual([])
    expect(await wordsOf("plain", "textbox")).toEqual(["disabled"])
  })

  it("do not read aria-current=false as current", async () => {
    await harness.open(`<a id="link" href="/" aria-current="false">Home</a>`)
    expect(await wordsOf("link", "link")).toEqual([])
  })
})

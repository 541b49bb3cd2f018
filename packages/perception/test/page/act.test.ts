import { describe, expect, it } from "vitest"
import { actScript, lookScript } from "../../src/index.ts"
import { unpackElement } from "../../src/internal/RawSnapshot.ts"
import { type PageModules, usePageHarness } from "./support/PageModules.ts"

const harness = usePageHarness()

/** Installs the page script, looks once, and answers the ref of the first element with this name. */
const refNamed = async (name: string): Promise<string> => {
  const raw = JSON.parse(String(await harness.browser.execute(lookScript({ mode: "interactive" })))) as {
    elements: Array<{ ref: string; name: string }>
  }
  const element = (raw.elements.map(unpackElement) as typeof raw.elements).find(
    (candidate) => candidate.name === name,
  )
  if (element === undefined) throw new Error(`no element named ${name} in ${JSON.stringify(raw.elements)}`)
  return element.ref
}

const act = (ref: string, op: string, value?: string | ReadonlyArray<string>) =>
  harness.browser.execute(actScript(ref, op, value)) as Promise<{ ok: boolean; message?: string }>

describe("act", () => {
  it("sets a value through the element's own setter and fires input and change", async () => {
    await harness.open(`<input id="field">`)
    const fired = await harness.browser.execute(() => {
      const { act } = (globalThis as unknown as { __page: PageModules }).__page
      const field = document.getElementById("field") as HTMLInputElement
      const events: string[] = []
      // A framework that tracks values replaces the instance setter; the prototype's must still run.
      Object.defineProperty(field, "value", { set: () => events.push("instance setter"), configurable: true })
      for (const type of ["input", "change"]) field.addEventListener(type, () => events.push(type))
      act.setNativeValue(field, "hello")
      act.fire(field, "input")
      act.fire(field, "change")
      delete (field as { value?: string }).value
      return { events, value: field.value }
    })
    expect(fired).toEqual({ events: ["input", "change"], value: "hello" })
  })

  it("selects a native option by its label or value and says which options exist when none match", async () => {
    await harness.open(
      `<label>Country <select><option value="de">Germany</option><option value="fr">France</option></select></label>`,
    )
    const ref = await refNamed("Country")
    expect(await act(ref, "select", "France")).toEqual({ ok: true })
    expect(await harness.browser.execute(() => document.querySelector("select")!.value)).toBe("fr")
    expect(await act(ref, "select", "de")).toEqual({ ok: true })
    expect(await harness.browser.execute(() => document.querySelector("select")!.value)).toBe("de")
    expect(await act(ref, "select", "Spain")).toEqual({
      ok: false,
      message: `no option of ${ref} matches Spain: options are Germany, France`,
    })
  })

  it("checks and unchecks by state, leaving a box already in that state alone", async () => {
    await harness.open(`<label><input type="checkbox" checked> News</label>`)
    const ref = await refNamed("News")
    expect(await act(ref, "check")).toEqual({ ok: true })
    expect(await harness.browser.execute(() => document.querySelector("input")!.checked)).toBe(true)
    expect(await act(ref, "uncheck")).toEqual({ ok: true })
    expect(await harness.browser.execute(() => document.querySelector("input")!.checked)).toBe(false)
  })

  it("tells the caller to click a custom select and to use input actions for unknown operations", async () => {
    await harness.open(`<div role="combobox" aria-label="Size" tabindex="0">M</div>`)
    const ref = await refNamed("Size")
    expect((await act(ref, "select", "L")).message).toBe(
      `${ref} is not a native select: click it and then click the option's ref`,
    )
    expect((await act(ref, "type", "L")).message).toBe(
      "type is not an in-page action: use the driver's input actions",
    )
  })

  it("answers a stale ref with the message that says to look again", async () => {
    await harness.open("<p>nothing</p>")
    await harness.browser.execute(lookScript())
    expect(await act("e404", "click")).toEqual({
      ok: false,
      stale: true,
      ref: "e404",
      message: "ref e404 is stale: call look() to refresh",
    })
  })

  it("names the page actions when asked for one it does not know", async () => {
    await harness.open("<p>page</p>")
    await harness.browser.execute(lookScript())
    expect((await act("_page", "scroll sideways")).message).toBe(
      "scroll sideways is not a page action: use scroll down, scroll up, scroll top, scroll bottom, back or refresh",
    )
  })
})

import { describe, expect, it } from "vitest"
import { type PageModules, usePageHarness } from "./support/PageModules.ts"

const harness = usePageHarness()

describe("visibility", () => {
  it("skips a zero-size block that is empty or clips what it holds, not one whose content overflows", async () => {
    await harness.open(`
      <div id="empty" style="height:0;width:0"></div>
      <div id="clipped" style="height:0;width:0;overflow:hidden"><p>hidden</p></div>
      <div id="overflowing" style="height:0;width:0"><p style="width:200px">shown</p></div>
      <span id="inline"></span>`)
    const skipped = await harness.browser.execute(() => {
      const { visibility } = (globalThis as unknown as { __page: PageModules }).__page
      return ["empty", "clipped", "overflowing", "inline"].map((id) => {
        const element = document.getElementById(id)!
        return visibility.takesNoSpace(element, element.localName, getComputedStyle(element))
      })
    })
    expect(skipped).toEqual([true, true, false, false])
  })

  it("reads no box size of an inline element or of a block whose children overflow it visibly", async () => {
    await harness.open(`
      <div id="parent"><p>shown</p></div>
      <span id="inline">text</span>
      <div id="leaf">text</div>`)
    const measured = await harness.browser.execute(() => {
      const { visibility } = (globalThis as unknown as { __page: PageModules }).__page
      return ["parent", "inline", "leaf"].map((id) => {
        const element = document.getElementById(id)!
        let reads = 0
        for (const property of ["clientWidth", "clientHeight"]) {
          const getter = Object.getOwnPropertyDescriptor(Element.prototype, property)!.get!
          Object.defineProperty(element, property, {
            get() {
              reads++
              return getter.call(this)
            },
          })
        }
        visibility.takesNoSpace(element, element.localName, getComputedStyle(element))
        return reads
      })
    })
    expect(measured[0]).toBe(0)
    expect(measured[1]).toBe(0)
    expect(measured[2]).toBeGreaterThan(0)
  })

  it("reads visibility hidden and collapse as hidden by style", async () => {
    await harness.open(
      `<p id="hidden" style="visibility:hidden">a</p><p id="collapse" style="visibility:collapse">b</p><p id="shown">c</p>`,
    )
    const hidden = await harness.browser.execute(() => {
      const { visibility } = (globalThis as unknown as { __page: PageModules }).__page
      return ["hidden", "collapse", "shown"].map((id) =>
        visibility.hiddenByStyle(getComputedStyle(document.getElementById(id)!)),
      )
    })
    expect(hidden).toEqual([true, true, false])
  })

  it("counts an element as rendered only while it is connected and shown", async () => {
    await harness.open(
      `<p id="shown">a</p><p id="none" style="display:none">b</p><p id="invisible" style="visibility:hidden">c</p>`,
    )
    const rendered = await harness.browser.execute(() => {
      const { visibility } = (globalThis as unknown as { __page: PageModules }).__page
      const detached = document.getElementById("shown")!.cloneNode(true) as Element
      return [
        ...["shown", "none", "invisible"].map((id) => visibility.rendered(document.getElementById(id)!)),
        visibility.rendered(detached),
      ]
    })
    expect(rendered).toEqual([true, false, false, false])
  })

  it("counts an element laid out as display: contents as rendered where its parent is", async () => {
    await harness.open(
      `<p><a id="shown" href="/a" style="display:contents">a</a></p>
      <p style="display:none"><a id="none" href="/b" style="display:contents">b</a></p>
      <p><a id="invisible" href="/c" style="display:contents;visibility:hidden">c</a></p>`,
    )
    const rendered = await harness.browser.execute(() => {
      const { visibility } = (globalThis as unknown as { __page: PageModules }).__page
      return ["shown", "none", "invisible"].map((id) => visibility.rendered(document.getElementById(id)!))
    })
    expect(rendered).toEqual([true, false, false])
  })

  it("counts a box as visible when it has an area that overlaps the viewport", async () => {
    await harness.open("<p>viewport</p>")
    const answers = await harness.browser.execute(() => {
      const { visibility } = (globalThis as unknown as { __page: PageModules }).__page
      const { innerWidth, innerHeight } = window
      return [
        visibility.visibleBox({ x: 10, y: 10, width: 20, height: 20 }),
        visibility.visibleBox({ x: 10, y: 10, width: 0, height: 20 }),
        visibility.visibleBox({ x: -30, y: 10, width: 20, height: 20 }),
        visibility.visibleBox({ x: 10, y: innerHeight, width: 20, height: 20 }),
        visibility.inViewport({ x: innerWidth - 1, y: 0, width: 0, height: 5 }),
      ]
    })
    expect(answers).toEqual([true, false, false, false, true])
  })
})

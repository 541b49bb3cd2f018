import { describe, expect, it } from "vitest"
import { type PageModules, usePageHarness } from "./support/PageModules.ts"

const harness = usePageHarness()

describe("frames", () => {
  it("places an element inside a same-origin iframe past the iframe's border and padding", async () => {
    await harness.open(`
      <body style="margin:0">
        <iframe id="frame" style="position:absolute;left:100px;top:50px;border:5px solid;padding:10px;width:300px;height:200px"
          srcdoc="<body style='margin:0'><button style='margin-left:20px;margin-top:30px;width:40px;height:10px'>Go</button></body>"></iframe>
      </body>`)
    await harness.browser.waitUntil(() =>
      harness.browser.execute(
        () =>
          (document.getElementById("frame") as HTMLIFrameElement).contentDocument?.querySelector("button") !=
          null,
      ),
    )
    const placed = await harness.browser.execute(() => {
      const { frames } = (globalThis as unknown as { __page: PageModules }).__page
      const button = (document.getElementById("frame") as HTMLIFrameElement).contentDocument!.querySelector(
        "button",
      )!
      const frame = frames.frameOf(button)
      return { path: frame.path, box: frames.boxOf(button, frame) }
    })
    expect(placed).toEqual({ path: ["#frame"], box: { x: 135, y: 95, width: 40, height: 10 } })
  })

  it("names the shadow hosts on the way to an element in an open shadow root", async () => {
    await harness.open(`<div id="outer"></div>`)
    const path = await harness.browser.execute(() => {
      const { frames } = (globalThis as unknown as { __page: PageModules }).__page
      const outer = document.getElementById("outer")!.attachShadow({ mode: "open" })
      outer.innerHTML = `<section id="inner"></section>`
      const inner = outer.getElementById("inner")!.attachShadow({ mode: "open" })
      inner.innerHTML = "<button>Deep</button>"
      return frames.frameOf(inner.querySelector("button")!).path
    })
    expect(path).toEqual(["#outer::shadow", "#inner::shadow"])
  })
})

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

describe("hitAt and viewportRect", () => {
  it("enter a same-origin iframe past its border and padding, the same offset frameOf adds", async () => {
    await harness.open(`
      <body style="margin:0">
        <iframe id="frame" style="position:absolute;left:100px;top:50px;border:5px solid;padding:10px;width:300px;height:200px"
          srcdoc="<body style='margin:0'><div id='a' style='position:absolute;left:0;top:0;width:12px;height:12px'>A</div><div id='b' style='position:absolute;left:12px;top:12px;width:12px;height:12px'>B</div></body>"></iframe>
      </body>`)
    await harness.browser.waitUntil(() =>
      harness.browser.execute(
        () =>
          (document.getElementById("frame") as HTMLIFrameElement).contentDocument?.getElementById("b") !=
          null,
      ),
    )
    const placed = await harness.browser.execute(() => {
      const { frames } = (globalThis as unknown as { __page: PageModules }).__page
      const b = (document.getElementById("frame") as HTMLIFrameElement).contentDocument!.getElementById("b")!
      const rect = frames.viewportRect(b)
      return { rect, hit: frames.hitAt(rect.x + 6, rect.y + 6)?.id }
    })
    // 100 + 5 border + 10 padding + 12, and 50 + 5 + 10 + 12.
    expect(placed).toEqual({ rect: { x: 127, y: 77, width: 12, height: 12 }, hit: "b" })
  })
})

describe("eachWindow", () => {
  it("visits a same-origin frame inside an open shadow root, which window.frames does not list", async () => {
    await harness.open(`<div id="host"></div><iframe id="plain" srcdoc="<title>plain</title>"></iframe>`)
    await harness.browser.execute(() => {
      const root = document.getElementById("host")!.attachShadow({ mode: "open" })
      root.innerHTML = `<iframe srcdoc="<title>shadowed</title>"></iframe>`
    })
    const framedTitle = () =>
      harness.browser.execute(
        () =>
          document.getElementById("host")!.shadowRoot!.querySelector("iframe")!.contentDocument?.title ?? "",
      )
    await harness.browser.waitUntil(async () => (await framedTitle()) === "shadowed")
    const visited = await harness.browser.execute(() => {
      const { frames } = (globalThis as unknown as { __page: PageModules }).__page
      const titles: Array<string> = []
      frames.eachWindow((view) => titles.push(view.document.title))
      return { titles, listed: window.frames.length }
    })
    expect(visited.listed).toBe(1)
    expect(visited.titles).toEqual(["", "shadowed", "plain"])
  })
})

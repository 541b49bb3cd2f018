import { mkdtemp, rm, writeFile } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { BrowserDriver, type DriverError, type PageSnapshot, ToolRegistry, UploadDirs } from "@sextant/core"
import { Effect } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { z } from "zod"
import { browserTools } from "../../src/browser/BrowserTools.ts"
import {
  clickMatchesTool,
  clickNthAnchorTool,
  clickTextMatchesTool,
} from "../../src/browser/ClickMatching.ts"
import { extractTool } from "../../src/browser/Extract.ts"
import {
  checkTool,
  clickTool,
  fillTool,
  pressTool,
  selectTool,
  uncheckTool,
  uploadTool,
} from "../../src/browser/Input.ts"
import { backTool, navigateTool, refreshTool, stopTool } from "../../src/browser/Navigation.ts"
import { screenshotTool } from "../../src/browser/Screenshot.ts"
import {
  scrollDownTool,
  scrollToBottomTool,
  scrollToMiddleTool,
  scrollTool,
  scrollToScreenTool,
  scrollToTopTool,
  scrollUpTool,
} from "../../src/browser/Scroll.ts"
import { delayTool, waitForTool } from "../../src/browser/Wait.ts"
import { type Harness, openHarness } from "./Harness.ts"

let harness: Harness
beforeAll(async () => {
  harness = await openHarness([0])
})
afterAll(async () => {
  await harness?.close()
})

const look = BrowserDriver.use((driver) => driver.look())
const evaluate = (script: string) => BrowserDriver.use((driver) => driver.evaluate(script))
const open = (path: string) => harness.run(navigateTool.run({ url: harness.url(path) }))

const refOf = (snapshot: PageSnapshot, role: string, name: string): string => {
  const element = Object.values(snapshot.elements).find((item) => item.role === role && item.name === name)
  if (element === undefined) throw new Error(`no ${role} "${name}" in\n${snapshot.tree}`)
  return element.ref
}

describe("browser tools in Chromium on the fixture site", () => {
  it("lists every tool once, each with input and output schemas and a description", () => {
    const names = browserTools.map((tool) => tool.name)
    expect(new Set(names).size).toBe(names.length)
    expect(names).toEqual(
      expect.arrayContaining([
        "navigate",
        "click",
        "fill",
        "press",
        "check",
        "uncheck",
        "select",
        "upload",
        "scrollDown",
        "scrollUp",
        "scrollToTop",
        "scrollToBottom",
        "scrollToMiddle",
        "scrollToScreen",
        "waitFor",
        "extract",
        "clickTextMatches",
        "clickMatches",
        "clickNthAnchor",
        "screenshot",
        "delay",
        "back",
        "refresh",
        "stop",
      ]),
    )
  })

  it("navigate loads a page and answers where it ended after redirects", async () => {
    const page = await open("/dashboard")
    expect(page.url).toBe(harness.url("/login"))
    expect(page.title).toContain("Sign in")
  })

  it("fill types into a field named by ref, by selector and by label, replacing its text", async () => {
    await open("/login")
    const snapshot = await harness.run(look)
    const byRef = await harness.run(
      fillTool.run({ target: refOf(snapshot, "textbox", "Email"), value: "x@y.z" }),
    )
    expect(byRef.ok).toBe(true)
    await harness.run(fillTool.run({ target: "#email", value: "alice@example.com" }))
    await harness.run(fillTool.run({ label: "Password", value: "wonderland" }))
    expect(await harness.run(evaluate("return [email.value, password.value]"))).toEqual([
      "alice@example.com",
      "wonderland",
    ])
    const missing = (await harness.fail(fillTool.run({ label: "Shoe size", value: "9" }))) as DriverError
    expect(missing.reason._tag).toBe("ElementNotFound")
    expect(missing.message).toContain('labelled "Shoe size"')
  })

  it("click by ref submits the form and reports the navigation", async () => {
    const snapshot = await harness.run(look)
    const result = await harness.run(clickTool.run({ target: refOf(snapshot, "button", "Sign in") }))
    expect(result.url).toBe(harness.url("/dashboard"))
    expect(result.signals).toContain("NavigationOccurred")
  })

  it("click by selector follows a link, and a missing selector is ElementNotFound", async () => {
    await open("/products")
    const result = await harness.run(clickTool.run({ target: "a[rel=next]" }))
    expect(result.url).toBe(harness.url("/products?page=2"))
    const error = (await harness.fail(clickTool.run({ target: "#no-such-thing" }))) as DriverError
    expect(error.reason._tag).toBe("ElementNotFound")
  })

  it("back and refresh move through history; stop keeps the loaded page", async () => {
    const back = await harness.run(backTool.run({}))
    expect(back.url).toBe(harness.url("/products"))
    const refreshed = await harness.run(refreshTool.run({}))
    expect(refreshed.url).toBe(harness.url("/products"))
    const stopped = await harness.run(stopTool.run({}))
    expect(stopped).toEqual({ url: harness.url("/products"), title: refreshed.title })
  })

  it("press Enter on the focused field submits it; press by ref and by selector", async () => {
    await open("/search")
    await harness.run(fillTool.run({ label: "Search products", value: "lantern" }))
    const submitted = await harness.run(pressTool.run({ key: "Enter" }))
    expect(submitted.url).toBe(harness.url("/search?q=lantern"))
    await harness.run(fillTool.run({ target: "#search-input", value: "compass" }))
    const bySelector = await harness.run(pressTool.run({ key: "Enter", target: "#search-input" }))
    expect(bySelector.url).toBe(harness.url("/search?q=compass"))
    const snapshot = await harness.run(look)
    await harness.run(fillTool.run({ target: "#search-input", value: "anchor" }))
    const byRef = await harness.run(
      pressTool.run(pressTool.input.parse({ target: refOf(snapshot, "combobox", "Search products") })),
    )
    expect(byRef.url).toBe(harness.url("/search?q=anchor"))
  })

  it("press with nothing focused goes to the page", async () => {
    await open("/login")
    const result = await harness.run(pressTool.run({ key: "Tab" }))
    expect(result.ok).toBe(true)
    expect(await harness.run(evaluate("return document.activeElement.tagName"))).not.toBe("BODY")
  })

  it("click fails with InvalidArgument for a bad selector and StaleRef or ElementNotFound for an unknown ref", async () => {
    const bad = (await harness.fail(clickTool.run({ target: "a[[" }))) as DriverError
    expect(bad.reason._tag).toBe("InvalidArgument")
    const stale = (await harness.fail(clickTool.run({ target: "e9999" }))) as DriverError
    expect(["StaleRef", "ElementNotFound"]).toContain(stale.reason._tag)
  })

  it("check and uncheck by label, ref and selector, and do nothing when already in that state", async () => {
    await open("/forms/contact")
    const checked = () =>
      harness.run(evaluate("return document.querySelector('input[name=subscribe]').checked"))
    await harness.run(checkTool.run({ label: "Subscribe to the newsletter" }))
    expect(await checked()).toBe(true)
    await harness.run(checkTool.run({ target: "input[name=subscribe]" }))
    expect(await checked()).toBe(true)
    const snapshot = await harness.run(look)
    const subscribe = refOf(snapshot, "checkbox", "Subscribe to the newsletter")
    await harness.run(uncheckTool.run({ target: subscribe }))
    expect(await checked()).toBe(false)
    await harness.run(checkTool.run({ target: subscribe }))
    expect(await checked()).toBe(true)
    await harness.run(uncheckTool.run({ target: "input[name=subscribe]" }))
    expect(await checked()).toBe(false)
    await harness.run(uncheckTool.run({ target: "input[name=subscribe]" }))
    expect(await checked()).toBe(false)
  })

  it("select chooses an option by label, ref and selector", async () => {
    const topic = () => harness.run(evaluate("return document.querySelector('select[name=topic]').value"))
    await harness.run(selectTool.run(selectTool.input.parse({ label: "Topic", values: "Sales" })))
    expect(await topic()).toBe("sales")
    await harness.run(
      selectTool.run(selectTool.input.parse({ target: "select[name=topic]", values: ["Feedback"] })),
    )
    expect(await topic()).toBe("feedback")
    const snapshot = await harness.run(look)
    const result = await harness.run(
      selectTool.run(
        selectTool.input.parse({ target: refOf(snapshot, "combobox", "Topic"), values: ["Support"] }),
      ),
    )
    expect(await topic()).toBe("support")
    expect(result.hint).toContain("Support")
  })

  it("upload puts a file into the file input by selector and by ref", async () => {
    const directory = await mkdtemp(join(tmpdir(), "sextant-tools-upload-"))
    try {
      const file = join(directory, "note.txt")
      await writeFile(file, "hello")
      const allowed = Effect.provideService(UploadDirs, { allowed: [directory] })
      await harness.run(uploadTool.run({ target: "input[type=file]", path: file }).pipe(allowed))
      const fileName = () =>
        harness.run(evaluate("return document.querySelector('input[type=file]').files[0]?.name"))
      expect(await fileName()).toBe("note.txt")
      const other = join(directory, "other.txt")
      await writeFile(other, "again")
      const snapshot = await harness.run(look)
      const fileRef = Object.values(snapshot.elements).find((element) =>
        element.name.startsWith("Attachment"),
      )
      await harness.run(uploadTool.run({ target: fileRef?.ref ?? "missing-ref", path: other }).pipe(allowed))
      expect(await fileName()).toBe("other.txt")
    } finally {
      await rm(directory, { recursive: true, force: true })
    }
  })

  it("scroll moves by screens, to the ends, to a ratio, to a screen and to an element", async () => {
    await open("/large?size=1")
    const scroll = (input: z.input<typeof scrollTool.input>) =>
      harness.run(scrollTool.run(scrollTool.input.parse(input)))
    const down = await scroll({ direction: "down", count: 2 })
    // A screen scroll keeps a little of the last screen in view, so two screens are less than 2 heights.
    expect(down.y).toBeGreaterThan(1.5 * down.viewportHeight)
    expect(down.y).toBeLessThanOrEqual(2 * down.viewportHeight)
    const up = await scroll({ direction: "up", count: 1 })
    expect(up.y).toBeGreaterThan(0)
    expect(up.y).toBeLessThan(down.y)
    const bottom = await scroll({ to: "bottom" })
    expect(bottom.atBottom).toBe(true)
    const top = await scroll({ to: "top" })
    expect(top.y).toBe(0)
    const middle = await scroll({ ratio: 0.5 })
    expect(middle.y).toBeGreaterThan(0.3 * (middle.height - middle.viewportHeight))
    expect(middle.y).toBeLessThan(0.7 * (middle.height - middle.viewportHeight))
    const quarter = await scroll({ ratio: 0.25 })
    expect(quarter.y).toBeLessThan(middle.y)
    const third = await scroll({ screen: 3 })
    expect(third.y).toBe(2 * third.viewportHeight)
    const first = await scroll({ screen: 1 })
    expect(first.y).toBe(0)
    const bySelector = await scroll({ target: "footer" })
    expect(bySelector.y).toBeGreaterThan(0)
    await scroll({ to: "top" })
    const snapshot = await harness.run(look)
    const lastRef = Object.keys(snapshot.elements).at(-1) ?? "e1"
    const byRef = await scroll({ target: lastRef })
    expect(byRef.y).toBeGreaterThan(0)
    const byDirection = await scroll({ direction: "up", count: 1 })
    expect(byDirection.y).toBeLessThan(byRef.y)
    expect(() => scrollTool.input.parse({ ratio: 0.5, screen: 2 })).toThrow(
      "give exactly one of direction, to, ratio, screen, target or text",
    )
  })

  it("the folded scroll names still run, for stored plans, and are never in a catalog", async () => {
    await open("/large?size=1")
    const down = await harness.run(scrollDownTool.run({ count: 2 }))
    expect(down.y).toBeGreaterThan(1.5 * down.viewportHeight)
    const up = await harness.run(scrollUpTool.run({ count: 1 }))
    expect(up.y).toBeLessThan(down.y)
    expect((await harness.run(scrollToBottomTool.run({}))).atBottom).toBe(true)
    expect((await harness.run(scrollToTopTool.run({}))).y).toBe(0)
    const middle = await harness.run(scrollToMiddleTool.run({ ratio: 0.5 }))
    expect(middle.y).toBeGreaterThan(0)
    const third = await harness.run(scrollToScreenTool.run({ n: 3 }))
    expect(third.y).toBe(2 * third.viewportHeight)
    const registry = Effect.runSync(ToolRegistry.make(browserTools))
    const folded = [
      "scrollDown",
      "scrollUp",
      "scrollToTop",
      "scrollToBottom",
      "scrollToMiddle",
      "scrollToScreen",
    ]
    expect(folded.filter((name) => registry.has(name))).toEqual(folded)
    expect(registry.catalog().filter((entry) => folded.includes(entry.name))).toEqual([])
    for (const tool of browserTools.filter((one) => folded.includes(one.name)))
      expect(tool.deprecated, tool.name).toMatch(/^scroll\(/)
  })

  it("scroll brings an element with no ref into view by its words, and fails naming words nothing shows", async () => {
    await open("/gallery/help-center")
    const onScreen = (heading: string) =>
      harness.run(
        evaluate(
          `const h = [...document.querySelectorAll("h2")].find((one) => one.textContent === ${JSON.stringify(heading)}); const box = h.getBoundingClientRect(); return box.top >= 0 && box.bottom <= window.innerHeight`,
        ),
      )
    expect(await onScreen("Contact us")).toBe(false)
    const scrolled = await harness.run(scrollTool.run(scrollTool.input.parse({ text: "Contact us" })))
    expect(scrolled.y).toBeGreaterThan(0)
    expect(await onScreen("Contact us")).toBe(true)
    const missing = await harness.run(
      Effect.flip(scrollTool.run(scrollTool.input.parse({ text: "Opening hours" }))),
    )
    expect(missing.message).toContain('an element with the text "Opening hours"')
    expect(() => scrollTool.input.parse({ text: "Contact us", to: "top" })).toThrow(/exactly one/)
  })

  it("waitFor waits for text, a selector, a ref, a JavaScript condition and a navigation", async () => {
    await open("/dynamic")
    const text = await harness.run(
      waitForTool.run(waitForTool.input.parse({ text: "Delayed content loaded" })),
    )
    expect(text.ok).toBe(true)
    const selector = await harness.run(
      waitForTool.run(waitForTool.input.parse({ target: "#delayed", state: "visible" })),
    )
    expect(selector.condition).toBe("#delayed to be visible")
    const snapshot = await harness.run(look)
    const byRef = await harness.run(
      waitForTool.run(waitForTool.input.parse({ target: refOf(snapshot, "button", "Open dialog") })),
    )
    expect(byRef.condition).toBe(`ref ${refOf(snapshot, "button", "Open dialog")}`)
    const js = await harness.run(
      waitForTool.run(waitForTool.input.parse({ js: "document.querySelectorAll('li').length >= 30" })),
    )
    expect(js.ok).toBe(true)
    await harness.run(
      evaluate(`setTimeout(() => { location.href = ${JSON.stringify(harness.url("/"))} }, 150)`),
    )
    const navigation = await harness.run(
      waitForTool.run(waitForTool.input.parse({ navigation: true, timeoutMs: 5000 })),
    )
    expect(navigation.condition).toBe("a navigation")
    const late = (await harness.fail(
      waitForTool.run(waitForTool.input.parse({ text: "never shown anywhere", timeoutMs: 300 })),
    )) as DriverError
    expect(late.reason._tag).toBe("Timeout")
  })

  it("extract reads text, attributes and HTML by selector, one or all, and by ref", async () => {
    await open("/products")
    const names = await harness.run(
      extractTool.run(extractTool.input.parse({ target: "main h2", all: true })),
    )
    expect(names.count).toBe(12)
    expect(names.values[0]).toBe("Brass Sextant")
    const link = await harness.run(
      extractTool.run(extractTool.input.parse({ target: "a[rel=next]", mode: "attr", attribute: "href" })),
    )
    expect(link.value).toBe(harness.url("/products?page=2"))
    const html = await harness.run(extractTool.run(extractTool.input.parse({ target: "h1", mode: "html" })))
    expect(html.value).toMatch(/^<h1[^>]*>Products<\/h1>$/)
    const snapshot = await harness.run(look)
    const byRef = await harness.run(
      extractTool.run(extractTool.input.parse({ target: refOf(snapshot, "link", "Next") })),
    )
    expect(byRef.value).toBe("Next")
    const missing = (await harness.fail(
      extractTool.run(extractTool.input.parse({ target: ".nothing-here" })),
    )) as DriverError
    expect(missing.reason._tag).toBe("ElementNotFound")
  })

  it("clickTextMatches clicks by visible text or pattern, clickMatches by attribute, clickNthAnchor by position", async () => {
    const next = await harness.run(
      clickTextMatchesTool.run(clickTextMatchesTool.input.parse({ text: "next" })),
    )
    expect(next.result.url).toBe(harness.url("/products?page=2"))
    expect(next.clicked[0]?.text).toBe("Next")
    const page = await harness.run(
      clickTextMatchesTool.run(clickTextMatchesTool.input.parse({ pattern: "^4$", selector: "nav a" })),
    )
    expect(page.result.url).toBe(harness.url("/products?page=4"))
    const detail = await harness.run(
      clickMatchesTool.run(
        clickMatchesTool.input.parse({ selector: "a", attribute: "href", pattern: "/products/4[0-9]$" }),
      ),
    )
    expect(detail.matches).toBe(9)
    expect(detail.result.url).toBe(harness.url("/products/40"))
    await harness.run(backTool.run({}))
    const last = await harness.run(clickNthAnchorTool.run({ index: -1, rootSelector: "main" }))
    expect(last.result.url).toBe(harness.url("/products?page=5"))
    const first = await harness.run(clickNthAnchorTool.run({ index: 0, rootSelector: "main" }))
    expect(first.result.url).toBe(harness.url("/products/49"))
    const none = (await harness.fail(
      clickTextMatchesTool.run(clickTextMatchesTool.input.parse({ text: "no such words" })),
    )) as DriverError
    expect(none.reason._tag).toBe("ElementNotFound")
  })

  it("screenshot takes the page and one element by selector and by ref", async () => {
    const page = await harness.run(screenshotTool.run({}))
    expect(Buffer.from(page.base64, "base64").subarray(1, 4).toString()).toBe("PNG")
    const table = await harness.run(screenshotTool.run({ target: "table" }))
    expect(table.width).toBeLessThan(page.width)
    expect(table.width).toBeGreaterThan(0)
    const snapshot = await harness.run(look)
    const button = await harness.run(screenshotTool.run({ target: refOf(snapshot, "button", "Add to cart") }))
    expect(button.height).toBeLessThan(table.height)
  })

  it("delay pauses for the time asked", async () => {
    const started = performance.now()
    const paused = await harness.run(delayTool.run({ ms: 120 }))
    expect(paused.waitedMs).toBe(120)
    expect(performance.now() - started).toBeGreaterThanOrEqual(110)
  })

  it("rejects bad arguments with the field named", () => {
    const parsed = waitForTool.input.safeParse({ text: "a", js: "b" })
    expect(parsed.success).toBe(false)
    const fill = fillTool.input.safeParse({ value: "x" })
    expect(fill.error?.issues[0]?.path).toEqual(["target"])
    expect(Effect.isEffect(clickTool.run({ target: "e1" }))).toBe(true)
  })

  it("clickTextMatches presses the control of the form just typed into when another of the same text sits elsewhere", async () => {
    // Signed out, /login shows "Sign in" twice: the header's link back to /login and the form's submit button.
    await open("/logout")
    await open("/login")
    await harness.run(fillTool.run({ target: "#email", value: "alice@example.com" }))
    await harness.run(fillTool.run({ target: "#password", value: "wonderland" }))
    const pressed = await harness.run(
      clickTextMatchesTool.run(clickTextMatchesTool.input.parse({ text: "Sign in" })),
    )
    expect(pressed.matches).toBe(2)
    expect(pressed.clicked[0]).toMatchObject({ text: "Sign in", tag: "button" })
    expect(pressed.result.url).toBe(harness.url("/dashboard"))
    // With no field focused, page order decides, as before: the header's link.
    await open("/logout")
    await open("/login")
    const unfocused = await harness.run(
      clickTextMatchesTool.run(clickTextMatchesTool.input.parse({ text: "Sign in" })),
    )
    expect(unfocused.clicked[0]).toMatchObject({ tag: "a" })
  })

  it("clickTextMatches presses the open modal dialog's control, not the same-text one on the page behind it", async () => {
    // The gallery's modal page: a "Save" button on the page, and another in the Edit profile dialog.
    await open("/gallery/dialog-modal")
    await harness.run(clickTextMatchesTool.run(clickTextMatchesTool.input.parse({ text: "Edit profile" })))
    await harness.run(fillTool.run({ label: "Nickname", value: "Ada" }))
    const pressed = await harness.run(
      clickTextMatchesTool.run(clickTextMatchesTool.input.parse({ text: "Save" })),
    )
    expect(pressed.matches).toBe(2)
    // The dialog's Save shows the nickname on the page and closes the dialog; the page's would do neither.
    expect(await harness.run(evaluate("return document.querySelector('output').value"))).toBe("Ada")
    expect(await harness.run(evaluate(`return document.querySelector('[role=dialog]').hidden`))).toBe(true)
    // With the dialog closed, the page's Save is the one left to press.
    const again = await harness.run(
      clickTextMatchesTool.run(clickTextMatchesTool.input.parse({ text: "Save" })),
    )
    expect(again.matches).toBe(1)
  })

  it("clickTextMatches refuses, pressing nothing, when the frame being typed into holds a control of the same text", async () => {
    // The gallery's iframe page: a "Send" button on the page, and the newsletter frame's own "Send".
    await open("/gallery/iframe")
    await harness.run(fillTool.run({ label: "Your name", value: "Grace" }))
    const refused = (await harness.fail(
      clickTextMatchesTool.run(clickTextMatchesTool.input.parse({ text: "Send" })),
    )) as DriverError
    expect(refused.reason._tag).toBe("InvalidArgument")
    expect(refused.message).toContain('iframe "')
    expect(refused.message).toContain("nothing was clicked")
    // The page's own Send was not pressed (a press shows "Done: Send" on the page).
    expect(await harness.run(evaluate("return document.body.innerText.includes('Done:')"))).toBe(false)
    // Nothing typed into the frame: the page's Send is the one to press.
    await open("/gallery/iframe")
    const pressed = await harness.run(
      clickTextMatchesTool.run(clickTextMatchesTool.input.parse({ text: "Send" })),
    )
    expect(pressed.clicked[0]).toMatchObject({ text: "Send", tag: "button" })
  })
})

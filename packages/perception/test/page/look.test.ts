import { describe, expect, it } from "vitest"
import { lookScript } from "../../src/index.ts"
import { unpackElement } from "../../src/internal/RawSnapshot.ts"
import { usePageHarness } from "./support/PageModules.ts"

const harness = usePageHarness()

interface RawLook {
  readonly failure?: string
  readonly lines: ReadonlyArray<string>
  readonly elements: ReadonlyArray<{
    readonly ref: string
    readonly role: string
    readonly name: string
    readonly guess?: { readonly from: string; readonly words: string }
  }>
  readonly texts: ReadonlyArray<ReadonlyArray<unknown>>
}

/** The raw answer of the installed page script's look on a page with this HTML. */
const lookAt = async (html: string, mode: "full" | "interactive"): Promise<RawLook> => {
  await harness.open(html)
  const raw = JSON.parse(String(await harness.browser.execute(lookScript({ mode })))) as RawLook
  // The page sends its elements as rows: read them back as the objects Node reads.
  return { ...raw, elements: (raw.elements ?? []).map(unpackElement) as RawLook["elements"] }
}

describe("look on minimal pages", () => {
  it("reads two short paragraphs in full mode as one line, the page that once crashed it", async () => {
    const raw = await lookAt("<body><p>Hello</p><p>World</p></body>", "full")
    expect(raw.failure).toBeUndefined()
    expect(raw.lines).toEqual(["- Hello · World"])
    expect(raw.texts).toEqual([
      ["main", "text", "Hello"],
      ["main", "text", "World"],
    ])
  })

  it("reads two short paragraphs in interactive mode as nothing to act on", async () => {
    const raw = await lookAt("<body><p>Hello</p><p>World</p></body>", "interactive")
    expect(raw.failure).toBeUndefined()
    expect(raw.lines).toEqual([])
  })

  it("reads an empty body as no lines in both modes", async () => {
    for (const mode of ["full", "interactive"] as const) {
      const raw = await lookAt("<body></body>", mode)
      expect(raw.failure).toBeUndefined()
      expect(raw.lines).toEqual([])
    }
  })

  it("reads a body of bare text as one line", async () => {
    expect((await lookAt("<body>Just text</body>", "full")).lines).toEqual(["- Just text"])
  })

  it("keeps the words after a link in prose on the link's line", async () => {
    const raw = await lookAt('<body><p>See <a href="/birds">a rare bird</a> seen in May</p></body>', "full")
    expect(raw.lines).toEqual(["- See", '- link "a rare bird" [ref=e1] -> /birds seen in May'])
  })

  it("reads a table row with empty cells without printing an empty row", async () => {
    const raw = await lookAt("<body><table><tr><td></td><td> </td></tr></table><p>After</p></body>", "full")
    expect(raw.failure).toBeUndefined()
    expect(raw.lines.filter((line) => /^\s*- [|\s]*$/.test(line))).toEqual([])
    expect(raw.lines.at(-1)).toBe("- After")
  })

  it("gives the one control of a page a ref in both modes", async () => {
    const full = await lookAt('<body><button id="go">Go</button></body>', "full")
    expect(full.lines).toEqual(['- button "Go" [ref=e1]'])
    const interactive = await lookAt('<body><button id="go">Go</button></body>', "interactive")
    expect(interactive.lines).toEqual(["e1 button Go"])
    expect(interactive.elements.map(({ ref, role, name }) => [ref, role, name])).toEqual([
      ["e1", "button", "Go"],
    ])
  })
})

describe("look on the open web: what a page shows is kept", () => {
  it("keeps a focusable link marked presentational and aria-hidden, named by its image", async () => {
    const raw = await lookAt(
      `<body><a href="/news/story" aria-hidden="true" role="presentation" tabindex="-1"><img alt="A story" width="10" height="10"></a>
      <h3><a href="/news/story">A story</a></h3></body>`,
      "full",
    )
    expect(raw.elements.map(({ role, name }) => [role, name])).toEqual([
      ["link", "A story"],
      ["link", "A story"],
    ])
  })

  it("names a menu item that opens a submenu by its own label, not by the submenu's entries", async () => {
    const raw = await lookAt(
      `<body><ul role="menubar"><li role="menuitem" tabindex="0" aria-haspopup="true"><span>Programm</span>
      <ul role="menu"><li role="menuitem"><a href="/themen">Themen</a></li></ul></li></ul></body>`,
      "full",
    )
    expect(raw.elements.map(({ role, name }) => [role, name])).toEqual([
      ["link", "Themen"],
      ["menuitem", "Themen"],
      ["menuitem", "Programm"],
    ])
  })

  it("names a card link by its words, not by the figure inside it; only a caption prints beneath it", async () => {
    const raw = await lookAt(
      `<body><a href="/songs"><figure><img width="9" height="9" alt="harry styles best songs keywords"></figure>
      <h3>Every Song, Ranked</h3><span>Music Lists</span></a>
      <a href="/tour"><figure><img width="9" height="9" alt="stage"><figcaption>Photo: Ada</figcaption></figure>
      <h3>The Tour</h3></a></body>`,
      "full",
    )
    expect(raw.lines).toEqual([
      '- link "Every Song, Ranked Music Lists" [ref=e1] -> /songs',
      '- link "The Tour" [ref=e2] -> /tour',
      '  - img "stage"',
      "  - Photo: Ada",
    ])
  })

  it("leaves a guess out of the name of the link around it", async () => {
    const raw = await lookAt(
      `<body><a href="/story"><span>From the web</span><span role="button" id="close-ad"></span>
      <span>A story</span></a></body>`,
      "full",
    )
    expect(raw.elements.map(({ role, name }) => [role, name])).toEqual([
      ["button", ""],
      ["link", "From the web A story"],
    ])
  })

  it("prints a guess marked by where it was read, after the ref, never as a quoted name", async () => {
    const html = `<body><button id="search-btn"><svg></svg></button><a href="/en/"></a>
      <a href="/98baf690-b75d-11e6-b4d7-0242ac120002"></a><button id="labelled1"></button>
      <a href="/account/order-history"><svg><use href="#icon-cart"></use></svg></a></body>`
    const full = await lookAt(html, "full")
    expect(full.lines).toEqual([
      "- button [ref=e1] (id search)",
      "- link [ref=e2] -> /en/",
      "- link [ref=e3] -> /98baf690…",
      "- button [ref=e4]",
      "- link [ref=e5] (icon cart) -> /account/order-history",
    ])
    const interactive = await lookAt(html, "interactive")
    expect(interactive.lines).toEqual([
      "e1 button (id search)",
      "e2 link (href en)",
      "e3 link",
      "e4 button",
      "e5 link (icon cart)",
    ])
    expect(full.elements.map(({ name, guess }) => [name, guess])).toEqual([
      ["", { from: "id", words: "search" }],
      ["", { from: "href", words: "en" }],
      ["", undefined],
      ["", undefined],
      ["", { from: "icon", words: "cart" }],
    ])
  })

  it("keeps the words between a listbox's options", async () => {
    const raw = await lookAt(
      `<body><div role="listbox"><div role="option">Ada</div><span>Suggested users</span><div role="option">Bo</div></div></body>`,
      "full",
    )
    expect(raw.lines.filter((line) => line.includes("Suggested users"))).toHaveLength(1)
  })

  it("names a card that holds controls by its first words and prints the rest beneath it", async () => {
    const words = "Banned Movies That You Should Watch Anyway, and Why"
    const raw = await lookAt(
      `<body><a href="/ad"><span>From the web</span><span role="button" aria-label="Report"></span>
      <span>${words}</span><div><div>Ad is hidden: please tell us why you hid this ad</div><button>Irrelevant</button></div></a></body>`,
      "full",
    )
    expect(raw.lines).toEqual([
      `- link "From the web Report ${words}…" [ref=e3] -> /ad`,
      '  - button "Report" [ref=e1]',
      "  - Ad is hidden: please tell us why you hid this ad",
      '  - button "Irrelevant" [ref=e2]',
    ])
  })

  it("prints the words a link's label does not say beneath it, once", async () => {
    const raw = await lookAt(
      `<body><a href="/orlean" aria-label="Susan Orlean Falls Asleep to the Dateline Podcast"><div>1.5x speed</div>
      <div>Susan Orlean Falls Asleep to the Dateline Podcast <span>They are cheesy, but great white noise.</span></div></a>
      <a href="/x" aria-label="Close"><span>×</span></a></body>`,
      "full",
    )
    expect(raw.lines).toEqual([
      '- link "Susan Orlean Falls Asleep to the Dateline Podcast" [ref=e1] -> /orlean',
      "  - 1.5x speed · They are cheesy, but great white noise.",
      '- link "Close" [ref=e2] -> /x',
    ])
  })

  it("names a card button around its headline link by the headline, the link and teaser beneath it", async () => {
    const teaser =
      "From acoustic tweezers to holograms, engineers are taking inspiration from the field of optics."
    const raw = await lookAt(
      `<body><div role="button" tabindex="0"><a href="/sound">Forget Lasers. The Hot New Tool Is Sound</a>
      <div>${teaser}</div><p>Sophia Chen</p></div></body>`,
      "full",
    )
    expect(raw.lines).toEqual([
      '- button "Forget Lasers. The Hot New Tool Is Sound…" [ref=e2]',
      '  - link "Forget Lasers. The Hot New Tool Is Sound" [ref=e1] -> /sound',
      `  - ${teaser}`,
      "  - Sophia Chen",
    ])
  })

  it("names a long heading by its start and prints the rest of its words under it", async () => {
    const words =
      "Lovato's comment upset Serbanescu, and he re-uploaded the drawing with a caption that said it wasn't intended to be a realistic image"
    const raw = await lookAt(`<body><h2>${words}</h2></body>`, "full")
    expect(raw.lines).toEqual([
      `- h2 "Lovato's comment upset Serbanescu, and he re-uploaded the drawing with a caption that said it wasn't…"`,
      "  - intended to be a realistic image",
    ])
  })

  it("reads an empty box the page labels as its label, in the text and in the name around it", async () => {
    const raw = await lookAt(
      `<body><a href="/what-is">Recommended by <span aria-label="Outbrain"></span></a>
      <div>Powered by <span aria-label="Chorus" style="display:inline-block;width:9px;height:9px"></span></div>
      <div aria-label="site logo"><a href="/" aria-label="Home"><svg width="9" height="9"></svg></a></div></body>`,
      "full",
    )
    expect(raw.lines).toEqual([
      '- link "Recommended by Outbrain" [ref=e1] -> /what-is',
      "- Powered by Chorus",
      '- link "Home" [ref=e2] -> /',
    ])
  })

  it("reads a link laid out as display: contents as a link with its ref, name and box", async () => {
    const raw = await lookAt(
      `<body><a href="/card" style="display:contents"><div style="width:90px;height:30px">Open the card</div></a></body>`,
      "full",
    )
    expect(raw.lines).toEqual(['- link "Open the card" [ref=e1] -> /card'])
    const [link] = raw.elements as ReadonlyArray<{
      ref: string
      role: string
      name: string
      box: { width: number; height: number }
      visible: boolean
    }>
    expect(link).toMatchObject({ ref: "e1", role: "link", name: "Open the card", visible: true })
    expect(link?.box).toMatchObject({ width: 90, height: 30 })
  })

  it("leaves the <title> of an svg marked presentational out of the name beside words", async () => {
    const raw = await lookAt(
      `<body><button>Get Started<svg role="presentation" width="9" height="9"><title>continue</title></svg></button>
      <button><svg role="presentation" width="9" height="9"><title>Close</title></svg></button>
      <button>Share<svg role="img" width="9" height="9"><title>facebook</title></svg></button></body>`,
      "full",
    )
    expect(raw.lines).toEqual([
      '- button "Get Started" [ref=e1]',
      // With no other words, the decoration's title is still a fair guess for the control, marked as one.
      "- button [ref=e2] (icon close)",
      '- button "Share facebook" [ref=e3]',
    ])
  })

  it("prints the rest of a long headline link under the heading line", async () => {
    const words =
      "New Mexico Safety Bureau Files Administrative Complaint Against Producers Seeking Enforcement Of Fine For Unsafe Working Conditions"
    const raw = await lookAt(`<body><h3><a href="/rust">${words}</a></h3></body>`, "full")
    expect(raw.lines).toEqual([
      '- h3 link "New Mexico Safety Bureau Files Administrative Complaint Against Producers Seeking Enforcement Of…" [ref=e1] -> /rust',
      "  - Fine For Unsafe Working Conditions",
    ])
  })

  it("keeps the words a card link's long heading leaves out of its name", async () => {
    const raw = await lookAt(
      `<body><a href="/musk"><div><h3>Elon Musk Sells More Tesla Shares To Pay For Twitter In Case He Loses Court Battle And Is Forced To Buy It</h3></div>
      <figure><img alt="" width="9" height="9"></figure><div>By Deadline staff</div></a></body>`,
      "full",
    )
    expect(raw.lines.join("\n")).toContain("Buy It")
    expect(raw.lines.join("\n")).toContain("By Deadline staff")
  })

  it("prints text beside a link that says the link's own words again, but a label beside its field once", async () => {
    const raw = await lookAt(
      `<body><div>Like <div><a href="/share">Like</a></div></div>
      <span id="mail">Email</span><input aria-labelledby="mail"></body>`,
      "full",
    )
    expect(raw.lines).toEqual(["- Like", '- link "Like" [ref=e1] -> /share', '- textbox "Email" [ref=e2]'])
  })

  it("prints the words an svg draws as text, not those of its defs or of a hidden part", async () => {
    const raw = await lookAt(
      `<body><p>Interest paid</p><svg width="300" height="60"><defs><text id="t">Template</text></defs>
      <rect width="25" height="20"></rect><text x="0" y="15">Gilead</text><text x="40" y="15">$20M</text>
      <g style="visibility:hidden"><text x="0" y="40">Draft</text></g>
      <g aria-hidden="true"><text x="0" y="50">Axis</text></g>
      <text x="80" y="15"><tspan>Johnson &amp; Johnson</tspan> <tspan>$160M</tspan></text></svg></body>`,
      "full",
    )
    expect(raw.lines).toEqual(["- Interest paid · Gilead · $20M · Johnson & Johnson $160M"])
  })

  it("keeps every word of a link named by a long heading it holds alone, the rest under it", async () => {
    const raw = await lookAt(
      `<body><a href="/fox"><div><h3>Lachlan Murdoch Shrugs Off Rocky Ad Market, We Are Seeing No Adverse Advertising Impact; Expects Big Ten Network Deal Near Term - Update</h3></div></a></body>`,
      "full",
    )
    expect(raw.lines).toEqual([
      '- link "Lachlan Murdoch Shrugs Off Rocky Ad Market, We Are Seeing No Adverse Advertising Impact; Expects Big…" [ref=e1] -> /fox',
      "  - Ten Network Deal Near Term - Update",
    ])
  })
})

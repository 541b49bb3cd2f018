import { describe, expect, it } from "vitest"
import { useHarness } from "./support/Harness.ts"
import { clickAt, look, refOf } from "./support/Look.ts"

const harness = useHarness({ seed: 0 })

/** Loads a minimal page written in the test, as a real document from the test page server. */
const show = async (html: string): Promise<void> => {
  await harness.browser.url(`${harness.pages.url}/inline?html=${encodeURIComponent(html)}`)
}

const full = async () => (await look(harness.browser)).tree
const interactive = async () => (await look(harness.browser, { mode: "interactive" })).tree

describe("reading minimal pages", () => {
  it("reads a page whose first printed items are short texts", async () => {
    await show("<body><p>Hello</p><p>World</p></body>")
    expect(await full()).toBe("- Hello · World")
    expect(await interactive()).toBe("")
  })

  it("keeps the text of a focusable block that holds a chapter", async () => {
    const sentence = "It was a dark and stormy night. "
    await show(`<div tabindex="0"><h2>Chapter 1</h2><p>${sentence.repeat(20)}</p><p>The last line.</p></div>`)
    const tree = await full()
    expect(tree).toContain('- h2 "Chapter 1"')
    expect(tree).toContain(`- ${sentence.repeat(20).trim()}`)
    expect(tree).toContain("The last line.")
    expect(tree).not.toContain("clickable")
  })

  it("offers a list item or row the page makes focusable as a control a click opens", async () => {
    // An inbox whose messages are `<li tabindex="0">` and table rows with a click handler; a list
    // item the page only lists, one taken out of the tab order and a disabled one stay text.
    await show(`<ul aria-label="Messages">
<li tabindex="0" data-from="Anna Berg"><strong>Anna Berg</strong><br>Can we move Thursday's call?</li>
<li tabindex="0" data-from="Billing"><strong>Billing</strong><br>Your invoice for November</li>
<li tabindex="-1">Skipped by Tab</li><li tabindex="0" aria-disabled="true">Disabled one</li><li>Plain item</li></ul>
<table><tr tabindex="0" data-from="Dev team"><td>Dev team</td><td>Deploy finished</td></tr></table>
<p id="pane">Select a message to read it.</p>
<script>for (const item of document.querySelectorAll("[data-from]")) item.addEventListener("click", () => {
  document.getElementById("pane").textContent = "Opened " + item.dataset.from })</script>`)
    const snapshot = await look(harness.browser)
    expect(snapshot.tree).toMatch(/- clickable "Anna Berg Can we move Thursday's call\?" \[ref=e\d+\]/)
    expect(snapshot.tree).toMatch(/- clickable "Billing Your invoice for November" \[ref=e\d+\]/)
    expect(snapshot.tree).toMatch(/- clickable "Dev team Deploy finished" \[ref=e\d+\]/)
    const named = Object.values(snapshot.elements).map((element) => `${element.role} ${element.name}`)
    for (const text of ["Skipped by Tab", "Disabled one", "Plain item"])
      expect(named.filter((line) => line.includes(text))).toEqual([])
    expect((await look(harness.browser, { mode: "interactive" })).tree).toMatch(/e\d+ Billing Your invoice/)
    await clickAt(harness.browser, refOf(snapshot, "clickable", /^Billing/))
    expect(await full()).toContain("Opened Billing")
    await clickAt(harness.browser, refOf(snapshot, "clickable", /^Dev team/))
    expect(await full()).toContain("Opened Dev team")
  })

  it("says how many options a select has beyond the first twelve and how to list them all", async () => {
    const options = Array.from({ length: 40 }, (_, index) => `<option>Land ${index}</option>`).join("")
    await show(`<label>Country <select>${options}</select></label>`)
    const snapshot = await look(harness.browser)
    const ref = Object.values(snapshot.elements)[0]!.ref
    expect(snapshot.tree).toContain(`|Land 11|…+28 more: look({ within: "${ref}" }) lists all]`)
    const within = await look(harness.browser, { within: ref })
    expect(within.tree).toContain("|Land 38|Land 39]")
    expect(snapshot.elements[ref]!.options).toHaveLength(40)
  })

  it("keeps a long article paragraph whole by default", async () => {
    const paragraph = `${"The sea was calm and the sky was clear. ".repeat(40)}The end.`
    await show(`<article><p>${paragraph}</p></article>`)
    expect(await full()).toContain(paragraph)
  })

  it("keeps the ref of a link inside a heading inside a layout table", async () => {
    await show(`<table><tr><td><h3><a href="/story">Big story</a></h3></td><td>Other cell</td></tr></table>`)
    expect(await full()).toMatch(/- link "Big story" \[ref=e\d+\] -> \/story \| Other cell/)
  })

  it("lists an image button by its alternative text", async () => {
    await show(`<form><input name="q"><input type="image" src="/missing.png" alt="Search"></form>`)
    expect(await full()).toMatch(/- button "Search" \[ref=e\d+\]/)
  })

  it("keeps the visible controls and the words of an aria-hidden menu", async () => {
    await show(`<div aria-hidden="true"><nav><a href="/one">Menu one</a><button>Close menu</button></nav>
<p>Decorative words</p></div><p>Shown</p>`)
    const tree = await full()
    expect(tree).toMatch(/- link "Menu one" \[ref=e\d+\] -> \/one/)
    expect(tree).toMatch(/- button "Close menu" \[ref=e\d+\]/)
    expect(tree).toContain("- Decorative words")
  })

  it("reads words in neighbouring boxes apart", async () => {
    await show(`<li style="display:inline-block"><span style="display:block">Sleep</span><span style="display:block">My Snoring</span></li>
<div><span style="display:inline-block">Alpha</span><span style="display:inline-block">Beta</span> <b>bold</b>face</div>`)
    const tree = await full()
    expect(tree).toContain("Sleep My Snoring")
    expect(tree).toContain("Alpha Beta boldface")
  })

  it("names a card link by its title, marked as cut, and joins the words that follow a link with a space", async () => {
    await show(`<a href="/welcome"><div>Welcome to</div><div>the big house</div>
<p>${"A long description of the house that goes on and on. ".repeat(3)}</p></a>
<p>Read the <a href="/a">first part</a> and then stop.</p>`)
    const tree = await full()
    expect(tree).toMatch(
      /- link "Welcome to the big house…" \[ref=e\d+\] -> \/welcome\n {2}- A long description of the house/,
    )
    expect(tree).toMatch(/- link "first part" \[ref=e\d+\] -> \/a and then stop\./)
    expect(tree).not.toContain(" · and then")
  })

  it("prints text that only repeats the line before it once", async () => {
    await show(
      `<article><h2>Same title</h2><p>Same title</p><img alt="Same title" src="/x.png" width="10" height="10"><p>Other</p></article>`,
    )
    const tree = await full()
    expect(tree.match(/Same title/g)).toHaveLength(1)
    expect(tree).toContain("Other")
  })

  it("splits a layout row that holds a page's worth of text into lines", async () => {
    const cells = Array.from({ length: 100 }, (_, index) => `<p>Paragraph number ${index} of the layout</p>`)
    await show(`<table><tr><td>${cells.join("")}</td><td>Side</td></tr></table>`)
    const lines = (await full()).split("\n")
    expect(Math.max(...lines.map((line) => line.length))).toBeLessThan(200)
    expect(lines.join("\n")).toContain("Paragraph number 99 of the layout")
  })

  it("marks what it guesses for links and buttons with no accessible name, from their target, icon, picture or id", async () => {
    await show(`<a href="/account/settings"><svg width="10" height="10"></svg></a>
<button><svg width="10" height="10"><use href="#icon-search"></use></svg></button>
<a href="/p"><img src="/avatar-small.png" width="10" height="10"></a>
<button id="nav-toggle"><span style="display:inline-block;width:10px;height:10px"></span></button>`)
    const tree = await interactive()
    expect(tree.split("\n")).toEqual([
      "e1 link (href settings)",
      "e2 button (icon search)",
      "e3 link (src avatar small)",
      "e4 button (id nav toggle)",
    ])
  })

  it("names a card button by all its content, the headline link inside it included, an aria-hidden image link left out", async () => {
    await show(`<ul><li><div role="button" tabindex="0"><a href="/story/future" aria-hidden="true" tabindex="-1">
      <img alt="future story image" src="/missing.png" width="40" height="30"></a><span>culture</span>
      <a href="/story/future">A Glimpse of the Future</a><p><span>Jason Parham</span></p></div></li></ul>`)
    const tree = await full()
    expect(tree).toMatch(/- button "culture A Glimpse of the Future Jason Parham" \[ref=e\d+\]/)
    // The image link before it printed the same target.
    expect(tree).toMatch(/- link "A Glimpse of the Future" \[ref=e\d+\]$/m)
    expect(tree.match(/-> \/story\/future/g)).toHaveLength(1)
  })

  it("names a link with a long run of words by its start, cut at a word, and prints the rest under it", async () => {
    const title =
      "PureGuardian 4.5L Ultrasonic Cool Mist Humidifier for the baby room and the nursery, quiet and small, Portable Travel Humidifier for $24.74"
    await show(`<ul><li><a href="/deal">${title}</a></li></ul>`)
    const tree = await full()
    expect(tree).toMatch(
      /- link "PureGuardian 4\.5L [^"]*…" \[ref=e\d+\] -> \/deal\n\s+- [^\n]*Portable Travel Humidifier for \$24\.74/,
    )
    // Every word of the title is in the outline once: the name's start and the rest beneath it.
    const shown = tree
      .replace(/- link "/, "")
      .replace(/\[ref=e\d+\] -> \/deal/, "")
      .replace(/[-"…\n]/g, " ")
      .split(/\s+/)
      .filter(Boolean)
    expect(shown.join(" ")).toBe(title)
  })

  it("names an option by all its content, the links inside it included", async () => {
    await show(`<div role="listbox" aria-label="Stories"><div role="option" aria-selected="true">
      <a href="/bird">A rare bird</a> <span>seen in May</span></div></div>`)
    expect(await full()).toMatch(/- option "A rare bird seen in May" \[ref=e\d+\] \[selected\]/)
  })

  it("names a control by its words, without its icon's title or a doubled label", async () => {
    await show(`<button><span>Open Navigation Menu</span><svg width="10" height="10"><title>Menu</title></svg></button>
<a href="/mail"><span>Free Email</span> <span>Free Email</span></a>
<button><svg width="10" height="10"><title>Close</title></svg></button>`)
    const tree = await interactive()
    expect(tree).toMatch(/^e\d+ button Open Navigation Menu$/m)
    expect(tree).toMatch(/^e\d+ Free Email$/m)
    expect(tree).toMatch(/^e\d+ button Close$/m)
  })

  it("says whose a cross-origin frame is", async () => {
    await show(`<iframe src="http://video.example.com/embed/1" width="100" height="100"></iframe>`)
    expect(await full()).toBe("- iframe (cross-origin: video.example.com)")
  })

  it("shortens link targets: same-origin paths, no tracking queries, opaque ids cut, another site by host and first segment", async () => {
    await show(`<a href="/path/page?utm_source=x&utm_campaign=y&page=2">Ours</a>
<a href="/item/a1b2c3d4e5f6a7b8c9d0e1f2?id=12345678901234567890&fbclid=abc">Item</a>
<a href="https://news.example.com/2019/a1b2c3d4e5f6a7b8c9d0e1f2?id=12345678901234567890&fbclid=abc">Theirs</a>`)
    const snapshot = await look(harness.browser)
    expect(snapshot.tree).toMatch(/- link "Ours" \[ref=e\d+\] -> \/path\/page\?page=2$/m)
    expect(snapshot.tree).toMatch(/- link "Item" \[ref=e\d+\] -> \/item\/a1b2c3d4…\?id=12345678…$/m)
    expect(snapshot.tree).toMatch(/- link "Theirs" \[ref=e\d+\] -> news\.example\.com\/2019\/…$/m)
    // The whole target stays in the snapshot's elements, tracking parameters and all.
    expect(snapshot.elements[refOf(snapshot, "link", "Theirs")]?.attributes.href).toBe(
      "https://news.example.com/2019/a1b2c3d4e5f6a7b8c9d0e1f2?id=12345678901234567890&fbclid=abc",
    )
  })
})

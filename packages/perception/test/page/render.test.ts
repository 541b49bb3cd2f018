import { describe, expect, it } from "vitest"
import { hoistNode, leaf } from "../../src/page/outline.ts"
import {
  COMPACT_NAME,
  compactName,
  optionsSuffix,
  renderInteractive,
  renderOutline,
} from "../../src/page/render.ts"
import type { Item, Node } from "../../src/page/types.ts"

const control = (role: string, name: string, ref: string, suffix = ""): Node => ({
  ...leaf(role, role, name, suffix),
  ref,
})
const link = (name: string, ref: string, url: string, target: string): Node => ({
  ...control("link", name, ref),
  url,
  target,
})
const heading = (level: number, name: string, kids: Item[] = []): Node => ({
  ...leaf("heading", `h${level}`, name, ""),
  heading: true,
  kids,
})
const container = (role: string, label: string, name: string, ref: string, kids: Item[]): Node => ({
  ...leaf(role, label, name, ""),
  ref,
  kids,
  container: true,
})

describe("rendering the full outline", () => {
  it("prints two short paragraphs on one line, the shape that once crashed the page script", () => {
    expect(renderOutline(["Hello", "World"]).lines).toEqual(["- Hello · World"])
  })

  it("prints long texts on lines of their own", () => {
    const long = "A paragraph that is far longer than forty characters in all."
    expect(renderOutline(["Intro", long]).lines).toEqual(["- Intro", `- ${long}`])
  })

  it("prints a control with its quoted name, ref, states and link target", () => {
    const link = { ...control("link", "Docs", "e3", " [current]"), url: "/docs" }
    expect(renderOutline([link]).lines).toEqual(['- link "Docs" [ref=e3] [current] -> /docs'])
  })

  it("prints a heading whose only content is a link of the same name as one line", () => {
    const item = heading(2, "Pricing", [control("link", "Pricing", "e1")])
    expect(renderOutline([item]).lines).toEqual(['- h2 link "Pricing" [ref=e1]'])
  })

  it("prints text that only repeats the heading before it once", () => {
    expect(renderOutline([heading(1, "Welcome"), "welcome"]).lines).toEqual(['- h1 "Welcome"'])
  })

  it("indents a container's content and anchors its ref to the lines it spans", () => {
    const form = container("form", "form", "Login", "e1", [
      control("textbox", "Email", "e2"),
      control("button", "Sign in", "e3"),
    ])
    const rendered = renderOutline(["Top", form])
    expect(rendered.lines).toEqual([
      "- Top",
      '- form "Login":',
      '  - textbox "Email" [ref=e2]',
      '  - button "Sign in" [ref=e3]',
    ])
    expect(rendered.anchors).toEqual([["e1", 'form "Login"', 1, 4]])
  })

  it("prints a table row as its cells joined by bars", () => {
    const cell = (kids: Item[]): Node => ({ ...leaf("cell", "cell", "", ""), kids, container: true })
    const row: Node = {
      ...leaf("row", "row", "", ""),
      kids: [cell(["Ada"]), cell([control("link", "Edit", "e4")])],
    }
    expect(renderOutline([row]).lines).toEqual(['- Ada | link "Edit" [ref=e4]'])
  })

  it("prints the content of a wrapper in its place, without a line of its own", () => {
    expect(renderOutline([hoistNode(["Inside"])]).lines).toEqual(["- Inside"])
  })

  it("prints a link's target once: a later link to the same document leaves it out", () => {
    const items = [
      link("Photo of the boots", "e1", "/boots", "https://shop.example/boots"),
      link("Boots", "e2", "/boots", "https://shop.example/boots"),
      link("Shoes", "e3", "/shoes", "https://shop.example/shoes"),
    ]
    expect(renderOutline(items).lines).toEqual([
      '- link "Photo of the boots" [ref=e1] -> /boots',
      '- link "Boots" [ref=e2]',
      '- link "Shoes" [ref=e3] -> /shoes',
    ])
  })

  it("prints the target of every link that stays on the page (its scripts decide what each does)", () => {
    const items = [
      { ...control("link", "Open", "e1"), url: "#" },
      { ...control("link", "Close", "e2"), url: "#" },
    ]
    expect(renderOutline(items).lines).toEqual([
      '- link "Open" [ref=e1] -> #',
      '- link "Close" [ref=e2] -> #',
    ])
  })

  it("prints text that repeats a text run again (the page shows it twice), and text that repeats a name once", () => {
    expect(renderOutline(["Ad", "Ad"]).lines).toEqual(["- Ad · Ad"])
    expect(renderOutline([control("button", "Share", "e1"), "Share"]).lines).toEqual([
      '- button "Share" [ref=e1]',
    ])
  })
})

describe("rendering the interactive view", () => {
  it("lists actions ref first, under the heading that introduces them", () => {
    const items = [heading(2, "Cart"), control("button", "Checkout", "e5", " [disabled]")]
    expect(renderInteractive(items).lines).toEqual(["## Cart", "e5 button Checkout [disabled]"])
  })

  it("drops a heading that no action follows and one that the next action repeats", () => {
    const items = [heading(2, "News"), heading(2, "Search"), control("button", "Search", "e1")]
    expect(renderInteractive(items).lines).toEqual(["e1 button Search"])
  })

  it("leaves prose out", () => {
    expect(renderInteractive(["Hello", "World"]).lines).toEqual([])
  })

  it("cuts a long name at a word, with …, counting a character outside ASCII twice", () => {
    const long = "Packers vs. Cowboys: Will the rookies keep Aaron Rodgers off the field?"
    expect(compactName(long)).toBe("Packers vs. Cowboys: Will…")
    expect(compactName("Short name")).toBe("Short name")
    const japanese = "児童の遅刻・欠席一覧を誤って保護者に配布、今後は紙への印刷をやめ"
    expect(compactName(japanese)).toBe(`${japanese.slice(0, COMPACT_NAME / 2)}…`)
    expect(renderInteractive([control("link", long, "e4")]).lines).toEqual(["e4 Packers vs. Cowboys: Will…"])
  })

  it("keeps a short last word that a cut would replace with …", () => {
    expect(compactName("Steam on Linux ticks up for May")).toBe("Steam on Linux ticks up for May")
    expect(compactName("Steam on Linux ticks up for December")).toBe("Steam on Linux ticks up for…")
  })

  it("cuts a name only as far as it still tells it apart from the other names of the view", () => {
    const items = [
      control("link", "Visit our newsroom on Instagram", "e1"),
      control("link", "Visit our newsroom on Pinterest", "e2"),
      control("link", "Contact tracing apps are coming to phones", "e3"),
    ]
    expect(renderInteractive(items).lines).toEqual([
      "e1 Visit our newsroom on Instagram",
      "e2 Visit our newsroom on Pinterest",
      "e3 Contact tracing apps are…",
    ])
    expect(compactName("Visit our newsroom on Instagram")).toBe("Visit our newsroom on…")
  })

  it("leaves out a link to a document an earlier link leads to under a name that says as much", () => {
    const items = [
      link("Photo of the boots", "e1", "/boots", "https://shop.example/boots"),
      control("button", "Add to cart", "e2"),
      link("Boots", "e3", "/boots", "https://shop.example/boots"),
      control("button", "Add to cart", "e4"),
      link("Home", "e5", "/boots", "https://shop.example/boots"),
      { ...control("link", "Details", "e6"), url: "#" },
      { ...control("link", "Details", "e7"), url: "#" },
    ]
    expect(renderInteractive(items).lines).toEqual([
      "e1 Photo of the boots",
      "e2 button Add to cart",
      "e4 button Add to cart",
      "e5 Home",
      "e6 Details",
      "e7 Details",
    ])
  })

  it("prints a named link as its ref and name alone, with no role; a nameless one says link", () => {
    const items = [
      control("link", "Home", "e1"),
      control("link", "Blog", "e2"),
      control("link", "Shop", "e3", " [current]"),
      control("button", "Menu", "e4"),
      heading(2, "Latest", [control("link", "Latest", "e5")]),
      control("textbox", "Search", "e6"),
      control("textbox", "Town", "e7"),
      control("link", "", "e8"),
    ]
    expect(renderInteractive(items).lines).toEqual([
      "e1 Home",
      "e2 Blog",
      "e3 Shop [current]",
      "e4 button Menu",
      "## e5 Latest",
      "e6 textbox Search",
      "e7 textbox Town",
      "e8 link",
    ])
  })

  it("prints the role once above a run of three or more controls of one role other than link", () => {
    const items = [
      control("button", "1", "e1"),
      control("button", "2", "e2"),
      control("button", "3", "e3", " [pressed]"),
      control("textbox", "Search", "e4"),
    ]
    expect(renderInteractive(items).lines).toEqual([
      "button:",
      "e1 1",
      "e2 2",
      "e3 3 [pressed]",
      "e4 textbox Search",
    ])
  })

  it("makes a link right after a run under a role line say its role, so it does not read as one more of the run", () => {
    const items = [
      control("tab", "Day", "e1"),
      control("tab", "Week", "e2"),
      control("tab", "Month", "e3"),
      control("link", "Help", "e4"),
      control("link", "About", "e5"),
    ]
    expect(renderInteractive(items).lines).toEqual([
      "tab:",
      "e1 Day",
      "e2 Week",
      "e3 Month",
      "e4 link Help",
      "e5 About",
    ])
  })

  it("drops a title heading that holds the name of the card link before it", () => {
    const items = [
      control("link", "Teams basics and how to use them…", "e1"),
      heading(3, "Key icon Teams basics and how to use them, part 115"),
      control("button", "Save", "e2"),
    ]
    expect(renderInteractive(items).lines).toEqual(["e1 Teams basics and how to use them…", "e2 button Save"])
  })

  it("cuts a long heading as it cuts names", () => {
    const items = [
      heading(2, "A heading that goes on for far longer than a name would"),
      control("button", "Go", "e1"),
    ]
    expect(renderInteractive(items).lines).toEqual(["## A heading that goes on for…", "e1 button Go"])
  })

  it("does not list again the options of a listbox whose options are controls of their own", () => {
    const listbox: Node = {
      ...control("listbox", "Size", "e1", " [options: S|M]"),
      kids: [control("option", "S", "e2"), control("option", "M", "e3")],
    }
    expect(renderInteractive([listbox]).lines).toEqual(["e1 listbox Size", "e2 option S", "e3 option M"])
  })

  it("drops a title heading that the link before it (a card's) already says", () => {
    const items = [
      control("link", "Steam on Linux ticks up for May", "e1"),
      heading(3, "Steam on Linux ticks up for May"),
      control("link", "51 Comments", "e2"),
      control("link", "News", "e3"),
      heading(2, "News"),
      control("link", "Today", "e4"),
    ]
    expect(renderInteractive(items).lines).toEqual([
      "e1 Steam on Linux ticks up for May",
      "e2 51 Comments",
      "e3 News",
      "## News",
      "e4 Today",
    ])
  })

  it("drops a title heading that repeats the card link before it word for word, though the page cut the heading with dots", () => {
    const items = [
      control("link", "Singer reveals what made her forever 'pissed' at her co-star…", "e1"),
      heading(5, "Singer reveals what made her forever 'pissed' at her..."),
      control("link", "Next story", "e2"),
    ]
    // Cut at 28 characters the heading and the link would read alike: both keep more words.
    expect(renderInteractive(items).lines).toEqual([
      "e1 Singer reveals what made her forever…",
      "e2 Next story",
    ])
  })

  it("anchors a container to the lines of its actions", () => {
    const nav = container("navigation", "nav", "", "e1", [
      control("link", "Home", "e2"),
      control("link", "Blog", "e3"),
    ])
    const rendered = renderInteractive([control("button", "Menu", "e9"), nav])
    expect(rendered.lines).toEqual(["e9 button Menu", "e2 Home", "e3 Blog"])
    expect(rendered.anchors).toEqual([["e1", "nav", 1, 3]])
  })

  it("anchors a container whose actions are a run of one role to the run's role line", () => {
    const nav = container("navigation", "nav", "", "e1", [
      control("menuitem", "Home", "e2"),
      control("menuitem", "Blog", "e3"),
      control("menuitem", "Shop", "e4"),
    ])
    const rendered = renderInteractive([control("button", "Menu", "e9"), nav])
    expect(rendered.lines).toEqual(["e9 button Menu", "menuitem:", "e2 Home", "e3 Blog", "e4 Shop"])
    expect(rendered.anchors).toEqual([["e1", "nav", 1, 5]])
  })
})

describe("option lists", () => {
  it("list every option up to the budget and say how to read the rest", () => {
    expect(optionsSuffix(["A", "B"], 12, "e2")).toBe(" [options: A|B]")
    expect(optionsSuffix(["A", "B", "C", "D"], 2, "e2")).toBe(
      ' [options: A|B|…+2 more: look({ within: "e2" }) lists all]',
    )
  })
})

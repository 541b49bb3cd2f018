import { describe, expect, it } from "vitest"
import { hoistNode, leaf } from "../../src/page/outline.ts"
import { optionsSuffix, renderInteractive, renderOutline } from "../../src/page/render.ts"
import type { Item, Node } from "../../src/page/types.ts"

const control = (role: string, name: string, ref: string, suffix = ""): Node => ({
  ...leaf(role, role, name, suffix),
  ref,
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

  it("anchors a container to the lines of its actions", () => {
    const nav = container("navigation", "nav", "", "e1", [
      control("link", "Home", "e2"),
      control("link", "Blog", "e3"),
    ])
    const rendered = renderInteractive([control("button", "Menu", "e9"), nav])
    expect(rendered.lines).toEqual(["e9 button Menu", "e2 link Home", "e3 link Blog"])
    expect(rendered.anchors).toEqual([["e1", "nav", 1, 3]])
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

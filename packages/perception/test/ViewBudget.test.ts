import { describe, expect, it } from "vitest"
import { countTokens, parseSnapshot } from "../src/index.ts"

/**
 * A page as the page script reports it: a header with a nav, a main with a long article and 120 links
 * between paragraphs, a form with an error, and a footer. The elements carry what a compact line needs.
 */
const page = () => {
  const lines: Array<string> = []
  const anchors: Array<[string, string, number, number]> = []
  const elements: Array<Record<string, unknown>> = []
  let next = 1
  const element = (role: string, name: string, extra: Record<string, unknown> = {}) => {
    const ref = `e${next++}`
    elements.push({
      ref,
      role,
      name,
      tag: role === "link" ? "a" : "input",
      attributes: {},
      visible: true,
      box: { x: 0, y: 0, width: 10, height: 10 },
      selectors: [],
      frame: [],
      key: `${role}:${name}`,
      region: "main",
      ...extra,
    })
    return ref
  }
  const open = (label: string, build: () => void) => {
    const ref = `e${next++}`
    const start = lines.length
    build()
    anchors.push([ref, label, start, lines.length])
  }
  open("header", () => {
    lines.push("- header:")
    lines.push(`  - link "Daily Planet" [ref=${element("link", "Daily Planet")}] -> /`)
    lines.push("  - Tuesday, 4 March · Weather: 12°C and cloudy over the whole of the city today")
    open('nav "Main"', () => {
      lines.push('  - nav "Main":')
      for (const section of ["World", "Business", "Sport", "Culture"])
        lines.push(`    - link "${section}" [ref=${element("link", section)}] -> /${section.toLowerCase()}`)
      lines.push("    - Sections updated every hour by our editors, day and night, all year round")
    })
  })
  open("main", () => {
    lines.push("- main:")
    lines.push('  - h1 "City council votes on the new tram line"')
    for (let index = 0; index < 120; index++) {
      lines.push(
        `  - Paragraph ${index} of the article: ${"the council debated the tram line for many hours and heard residents from every district ".repeat(3)}`,
      )
      lines.push(
        `  - link "Related story number ${index} about the tram line" [ref=${element("link", `Related story number ${index} about the tram line`)}] -> /news/${index}`,
      )
    }
    open('form "Comment"', () => {
      lines.push('  - form "Comment":')
      lines.push("    - alert: Your comment is too short")
      lines.push(
        `    - textbox "Comment" [ref=${element("textbox", "Comment", { required: true, value: "ok" })}] [required]: ok`,
      )
      lines.push(
        `    - combobox "Topic" [ref=${element("combobox", "Topic", { options: ["a", "b", "c", "d", "e", "f", "g"] })}]: a`,
      )
      lines.push(`    - button "Post" [ref=${element("button", "Post")}]`)
    })
  })
  open("footer", () => {
    lines.push("- footer:")
    lines.push("  - Copyright the Daily Planet, all rights reserved, printed on recycled paper")
    lines.push(`  - link "Privacy" [ref=${element("link", "Privacy")}] -> /privacy`)
  })
  return JSON.stringify({
    v: 1,
    url: "http://127.0.0.1:4000/article",
    title: "Article",
    mode: "full",
    lines,
    anchors,
    elements,
    forms: [],
    texts: [],
    nodes: 900,
    ms: 2,
    scroll: { y: 0, height: 900, viewportHeight: 900 },
  })
}

const refsOf = (tree: string) => [...tree.matchAll(/\[ref=(e\d+)\]/g)].map((match) => match[1]!)
const carried = (text: string) =>
  new Set([...text.matchAll(/(?<![\w-])(e\d+)(?![\w-])/g)].map((match) => match[1]!))

describe("look({ budget })", () => {
  const whole = parseSnapshot(page())
  const refs = refsOf(whole.tree)

  it("gives the whole outline when it fits the budget", () => {
    const snapshot = parseSnapshot(page(), { budget: 100_000 })
    expect(snapshot.tree).toBe(whole.tree)
    expect(snapshot.stats.truncated).toBe(false)
  })

  it("keeps every ref at every budget, within the budget while the controls fit it", () => {
    expect(countTokens(whole.tree)).toBeGreaterThan(9000)
    for (const budget of [6000, 3000, 1500, 800, 100]) {
      const snapshot = parseSnapshot(page(), { budget })
      const seen = carried(snapshot.tree)
      expect(
        refs.filter((ref) => !seen.has(ref)),
        String(budget),
      ).toEqual([])
      if (budget >= 1500) expect(countTokens(snapshot.tree), String(budget)).toBeLessThanOrEqual(budget)
      expect(snapshot.stats.truncated).toBe(true)
      // The whole outline stays on the snapshot for a later look({ since }).
      expect(snapshot.outline).toBe(whole.tree)
    }
  })

  it("leaves out the header's and footer's text before the article's, and the alert last", () => {
    const snapshot = parseSnapshot(page(), { budget: 6000 })
    expect(snapshot.tree).not.toContain("Weather: 12°C")
    expect(snapshot.tree).not.toContain("Copyright the Daily Planet")
    expect(snapshot.tree).toContain("Paragraph 0 of the article")
    expect(snapshot.tree).toContain("alert: Your comment is too short")
    expect(snapshot.tree).toContain('h1 "City council votes on the new tram line"')
    // The bottom of the article goes before its top.
    expect(snapshot.tree).not.toContain("Paragraph 119 of the article")
  })

  it("names each part left out with the look that shows it", () => {
    const snapshot = parseSnapshot(page(), { budget: 3000 })
    const main = JSON.parse(page()).anchors.find((anchor: [string, string]) => anchor[1] === "main")[0]
    expect(snapshot.tree).toMatch(
      new RegExp(`- \\[\\d+ lines of text left out: look\\(\\{ within: "${main}" \\}\\) shows main\\]`),
    )
    expect(snapshot.tree).toMatch(/- \[1 line of text left out: look\(\{ within: "e\d+" \}\) shows footer\]/)
  })

  it("prints the controls compactly when their full lines do not fit, with states, value and options", () => {
    const snapshot = parseSnapshot(page(), { budget: 1500 })
    expect(snapshot.tree).toMatch(/^e\d+ Related story number 3 about the…$/m)
    expect(snapshot.tree).toMatch(/^e\d+ textbox Comment \[required\]: ok$/m)
    expect(snapshot.tree).toMatch(
      /^e\d+ combobox Topic \[options: a\|b\|c\|d\|e\|…\+2: look\(\{ within: "e\d+" \}\)\]$/m,
    )
    expect(snapshot.tree).toMatch(/^e\d+ button Post$/m)
    expect(snapshot.tree).not.toContain("-> /news/")
  })

  it("names a row's cells as left out when the row prints only its controls", () => {
    const links = Array.from(
      { length: 300 },
      (_, index) => `  - link "Story ${index}" [ref=e${index + 10}] -> /s/${index}`,
    )
    const elements = [
      { ref: "e2", role: "link", name: "Edit" },
      ...links.map((_, index) => ({ ref: `e${index + 10}`, role: "link", name: `Story ${index}` })),
    ].map((element) => ({
      ...element,
      tag: "a",
      attributes: {},
      visible: true,
      box: { x: 0, y: 0, width: 1, height: 1 },
      selectors: [],
      frame: [],
      key: element.ref,
      region: "main",
    }))
    const raw = JSON.parse(page())
    const snapshot = parseSnapshot(
      JSON.stringify({
        ...raw,
        lines: ["- table:", '  - Lantern | Price $30 | link "Edit" [ref=e2] -> /edit', "- main:", ...links],
        anchors: [
          ["e1", "table", 0, 2],
          ["e3", "main", 2, 302],
        ],
        elements,
      }),
      { budget: 1000 },
    )
    expect(snapshot.tree).toMatch(/^e2 Edit$/m)
    expect(snapshot.tree).toContain('- [1 line of text left out: look({ within: "e1" }) shows table]')
  })

  it("lists every control over a budget they do not fit, and says so", () => {
    const snapshot = parseSnapshot(page(), { budget: 100 })
    expect(snapshot.tree.split("\n")[0]).toMatch(
      /^- \[over the budget of 100 tokens: the page's \d+ controls alone take more, and every one is listed\]$/,
    )
  })
})

describe("look({ from })", () => {
  it("starts the view at that line, and a cut names the look that reads on from it", () => {
    const whole = parseSnapshot(page()).tree.split("\n")
    const head = parseSnapshot(page(), { maxTokens: 400 })
    const next = /the next part: look\(\{ from: (\d+) \}\)/.exec(head.tree)
    expect(next).not.toBeNull()
    const from = Number(next![1])
    expect(head.tree.split("\n").at(-2)).toBe(whole[from - 1])
    const rest = parseSnapshot(page(), { from, maxTokens: 400 })
    expect(rest.tree.split("\n")[0]).toBe(whole[from])
    const after = /the next part: look\(\{ from: (\d+) \}\)/.exec(rest.tree)
    expect(Number(after![1])).toBeGreaterThan(from)
    expect(parseSnapshot(page(), { from: 100_000 }).tree).toMatch(
      /^\(the view has \d+ lines: nothing from line 100000 on\)$/,
    )
  })
})

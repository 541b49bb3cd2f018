import { describe, expect, it } from "@effect/vitest"
import {
  interactiveNodes,
  interactiveRecall,
  parseOutline,
  readElements,
  visibleTextRecall,
  words,
} from "../src/Recall.ts"

const PLAYWRIGHT = `- generic [active] [ref=e1]:
  - banner [ref=e2]:
    - link "Sextant Shop" [ref=e3] [cursor=pointer]:
      - /url: /
  - main [ref=e19]:
    - heading "Contact us" [level=1] [ref=e20]
    - textbox "Name" [ref=f1e24]
    - combobox "Topic" [ref=f1e33]:
      - option "Choose a topic" [selected]
    - radio "Email" [ref=f1e38]
    - text: Email
    - button "Say \\"hi\\"" [ref=e9]
    - paragraph [ref=e21]: A small shop.`

describe("parseOutline", () => {
  it("reads role, name and ref of node lines and skips text and property lines", () => {
    const nodes = parseOutline(PLAYWRIGHT)
    expect(nodes.map((node) => node.role)).toEqual([
      "generic",
      "banner",
      "link",
      "main",
      "heading",
      "textbox",
      "combobox",
      "option",
      "radio",
      "button",
      "paragraph",
    ])
    expect(nodes[2]).toEqual({ role: "link", name: "Sextant Shop", ref: "e3" })
    expect(nodes[7]).toEqual({ role: "option", name: "Choose a topic", ref: undefined })
  })

  it("unescapes quotes inside names", () => {
    expect(parseOutline(PLAYWRIGHT).find((node) => node.role === "button")?.name).toBe('Say "hi"')
  })

  it("decodes Playwright's \\xHH escapes of control characters in text and values, and \\u escapes in names", () => {
    // What Playwright prints for a link whose text holds a vertical tab, a button whose value holds a
    // NEL (U+0085) and a link whose name holds a unit separator (JSON.stringify writes \u001f).
    const outline = [
      "- link [ref=e5] [cursor=pointer]:",
      '  - text: "Read\\x0bmore"',
      '- button [ref=e6]: "Next\\x85page"',
      '- link "Top\\u001fstories" [ref=e7]',
    ].join("\n")
    expect(interactiveNodes(outline).map((node) => node.name)).toEqual([
      "Read\vmore",
      "Next\u0085page",
      "Top\u001fstories",
    ])
    const ours = [
      { role: "link", name: "Read more" },
      { role: "button", name: "Next page" },
      { role: "link", name: "Top stories" },
    ]
    expect(interactiveRecall(interactiveNodes(outline), ours).matched).toBe(3)
  })
})

describe("interactiveNodes", () => {
  it("keeps interactive roles that carry a ref, including frame refs, and drops ref-less options", () => {
    expect(interactiveNodes(PLAYWRIGHT).map((node) => `${node.role} ${node.name}`)).toEqual([
      "link Sextant Shop",
      "textbox Name",
      "combobox Topic",
      "radio Email",
      'button Say "hi"',
    ])
  })
})

describe("interactiveRecall", () => {
  it("matches across role aliases and name case and spacing", () => {
    const result = interactiveRecall(
      [
        { role: "searchbox", name: "Search  products" },
        { role: "listbox", name: "Topic" },
      ],
      [
        { role: "textbox", name: "search products" },
        { role: "combobox", name: "TOPIC" },
      ],
    )
    expect(result).toEqual({ expected: 2, matched: 2, recall: 1, unmatched: [] })
  })

  it("counts duplicates as a multiset and names what is missing", () => {
    const result = interactiveRecall(
      [
        { role: "button", name: "Add to cart" },
        { role: "button", name: "Add to cart" },
        { role: "link", name: "Next" },
      ],
      [
        { role: "button", name: "Add to cart" },
        { role: "link", name: "Previous" },
      ],
    )
    expect(result.matched).toBe(1)
    expect(result.recall).toBeCloseTo(1 / 3, 10)
    expect(result.unmatched).toEqual(['button "Add to cart"', 'link "Next"'])
  })

  it("lets a name cut with an ellipsis match the full name it starts, but not another role", () => {
    const expected = [{ role: "link", name: "A very long product description that goes on" }]
    expect(interactiveRecall(expected, [{ role: "link", name: "A very long product…" }]).recall).toBe(1)
    expect(interactiveRecall(expected, [{ role: "button", name: "A very long product…" }]).recall).toBe(0)
  })

  it("gives exact names their element before cut names compete for it", () => {
    const result = interactiveRecall(
      [
        { role: "link", name: "Open card 1…" },
        { role: "link", name: "Open card 10" },
      ],
      [
        { role: "link", name: "Open card 10" },
        { role: "link", name: "Open card 11" },
      ],
    )
    expect(result.matched).toBe(2)
  })

  it("matches an orphan tab to the same control under its tag's role, and only by its full name", () => {
    const tabs = [
      { role: "tab", name: "Jobs" },
      { role: "tab", name: "People" },
    ]
    const result = interactiveRecall(tabs, [
      { role: "button", name: "Jobs" },
      { role: "button", name: "People (3)" },
    ])
    expect(result.matched).toBe(1)
    expect(result.unmatched).toEqual(['tab "People"'])
    // A role that needs no container keeps needing its own role.
    expect(
      interactiveRecall([{ role: "link", name: "Jobs" }], [{ role: "button", name: "Jobs" }]).recall,
    ).toBe(0)
  })

  it("is complete when nothing is expected", () => {
    expect(interactiveRecall([], [{ role: "link", name: "x" }]).recall).toBe(1)
  })
})

describe("visibleTextRecall", () => {
  it("counts page words the outline keeps, as a multiset", () => {
    const result = visibleTextRecall("Sign in. Sign in again", '- button "Sign in" [ref=e1]')
    expect(result).toEqual({ pageWords: 5, keptWords: 2, recall: 0.4, missed: ["sign", "in", "again"] })
  })

  it("keeps a page word that innerText glued from neighbouring boxes when the outline has its parts in a row", () => {
    const outline = '- button "Report" [ref=e1]\n- button "Save" [ref=e2]\n- button "Follow" [ref=e3]'
    expect(visibleTextRecall("ReportSaveFollow", outline)).toEqual({
      pageWords: 1,
      keptWords: 1,
      recall: 1,
      missed: [],
    })
    // Each outline word serves once: a second glued copy needs a second run.
    expect(visibleTextRecall("ReportSaveFollow ReportSaveFollow", outline).keptWords).toBe(1)
    // Parts out of order or apart do not spell it.
    expect(visibleTextRecall("SaveReport", outline)).toMatchObject({ keptWords: 0, missed: ["savereport"] })
    // Link targets and refs between the parts are not words of the page.
    expect(
      visibleTextRecall("HomeLatest", '- link "Home" [ref=e1] -> /home\n- link "Latest" [ref=e2] -> /latest')
        .recall,
    ).toBe(1)
    // A single page word does not take the copy a glued run needs when another copy serves it: "the"
    // is kept by the second "The", "HomeThe" by the links in a row.
    expect(
      visibleTextRecall("the HomeThe", '- link "Home" [ref=e1]\n- link "The" [ref=e2]\n- The end').recall,
    ).toBe(1)
    // But each outline word still serves once: with one "The", the run and the word cannot both be kept.
    expect(visibleTextRecall("the HomeThe", '- link "Home" [ref=e1]\n- link "The" [ref=e2]')).toMatchObject({
      keptWords: 1,
      missed: ["homethe"],
    })
    // And the other way: the outline glues two neighbouring page words.
    expect(visibleTextRecall("by Elizabeth Raupach", "- by ElizabethRaupach").recall).toBe(1)
    expect(visibleTextRecall("Raupach by Elizabeth", "- by ElizabethRaupach").keptWords).toBe(1)
  })

  it("splits words on anything but letters and digits, across scripts", () => {
    expect(words("Price: $12.99 — Größe «XL», 登录")).toEqual(["price", "12", "99", "größe", "xl", "登录"])
  })
})

describe("the fair recall rule", () => {
  it("counts Playwright's YAML-quoted lines like any other", () => {
    const outline = `- 'link "Read: the story" [ref=e3]':\n  - /url: /story\n- "button \\"Say: hi\\" [ref=e4]"`
    expect(interactiveNodes(outline)).toEqual([
      { role: "link", name: "Read: the story", ref: "e3" },
      { role: "button", name: "Say: hi", ref: "e4" },
    ])
  })

  it("names a node printed without a name by its text", () => {
    const outline = `- button [ref=e5]: Close\n- link [ref=e6] [cursor=pointer]:\n  - /url: /x\n  - img\n  - text: Next page`
    expect(interactiveNodes(outline).map((node) => node.name)).toEqual(["Close", "Next page"])
  })

  it("reads a node printed without a name also by the content beneath it, a named child for its subtree", () => {
    // Playwright's AI mode drops a link's name when the nodes it came from print beneath it.
    const outline = [
      "- link [ref=e1] [cursor=pointer]:",
      "  - /url: /article/feud",
      '  - img "Watch Kristin Chenoweth on FAMILY FEUD Video" [ref=e2]',
      "  - text: Kristin Chenoweth Competes",
      "  - generic [ref=e3]:",
      '    - heading "Posted" [level=3] [ref=e4]:',
      "      - text: never read twice",
      "    - generic [ref=e5]: in Music",
    ].join("\n")
    const [node] = interactiveNodes(outline)
    expect(node).toEqual({
      role: "link",
      name: "Kristin Chenoweth Competes",
      ref: "e1",
      fromText: true,
      content: "Watch Kristin Chenoweth on FAMILY FEUD Video Kristin Chenoweth Competes Posted in Music",
    })
    // Either reading matches: the name cut where its card's text goes on beneath it, or the text.
    expect(
      interactiveRecall([node!], [{ role: "link", name: "Watch Kristin Chenoweth on FAMILY FEUD…" }]).recall,
    ).toBe(1)
    expect(interactiveRecall([node!], [{ role: "link", name: "Kristin Chenoweth Competes" }]).recall).toBe(1)
    expect(interactiveRecall([node!], [{ role: "link", name: "Watch Kathy Najimy…" }]).recall).toBe(0)
  })

  it("matches an element with neither name nor text to any left of its role", () => {
    const result = interactiveRecall(
      [
        { role: "link", name: "" },
        { role: "link", name: "Home" },
      ],
      [
        { role: "link", name: "Home" },
        { role: "link", name: "settings" },
      ],
    )
    expect(result.recall).toBe(1)
    expect(interactiveRecall([{ role: "link", name: "" }], [{ role: "button", name: "x" }]).recall).toBe(0)
  })

  it("matches a node printed without a name by its text to a name that holds the text, and only then", () => {
    // Inside an aria-hidden menu Playwright prints `- link [ref=e9]:` with the text "Birmingham" for a
    // link whose aria-label is "Switch to the Birmingham edition".
    const [node] = interactiveNodes(
      "- link [ref=e9] [cursor=pointer]:\n  - /url: birmingham\n  - text: Birmingham",
    )
    expect(node).toEqual({ role: "link", name: "Birmingham", ref: "e9", fromText: true })
    expect(
      interactiveRecall([node!], [{ role: "link", name: "Switch to the Birmingham edition" }]).recall,
    ).toBe(1)
    expect(interactiveRecall([node!], [{ role: "link", name: "Switch to the Mobile edition" }]).recall).toBe(
      0,
    )
    // A printed name is a name: it must equal ours, holding it is not enough.
    const named = { role: "link", name: "Birmingham" }
    expect(
      interactiveRecall([named], [{ role: "link", name: "Switch to the Birmingham edition" }]).recall,
    ).toBe(0)
  })

  it("reads a nameless field by its value in both outlines, and a named one by its name or its value", () => {
    // Playwright prints a field without a name as `- textbox [ref=e3]: https://qz.com/a`: its text is
    // the field's value; Sextant's element carries the same value beside an empty name.
    const [theirs] = interactiveNodes("- textbox [ref=e3]: https://qz.com/a")
    expect(readElements([{ role: "textbox", name: "", value: "https://qz.com/a" }])).toEqual([
      { role: "textbox", name: "https://qz.com/a", fromText: true },
    ])
    expect(
      interactiveRecall([theirs!], readElements([{ role: "textbox", name: "", value: "https://qz.com/a" }]))
        .recall,
    ).toBe(1)
    expect(
      interactiveRecall([theirs!], readElements([{ role: "textbox", name: "", value: "https://qz.com/b" }]))
        .recall,
    ).toBe(0)
    expect(readElements([{ role: "textbox", name: "Link", value: "https://qz.com/a" }])).toEqual([
      { role: "textbox", name: "Link", value: "https://qz.com/a" },
    ])
    expect(readElements([{ role: "link", name: "", value: "x" }])).toEqual([{ role: "link", name: "" }])
  })

  it("matches a field named by its value on one side with the field of that value on the other", () => {
    // accname names a field inside the box its aria-labelledby points at by the field's own value:
    // Playwright prints `textbox "https://…/defense-contracts"`, Sextant the field's <label> with the value.
    const [theirs] = interactiveNodes('- textbox "https://bloomberg.com/news/defense" [ref=e9]')
    const ours = readElements([
      { role: "textbox", name: "Permalink", value: "https://bloomberg.com/news/defense" },
    ])
    expect(interactiveRecall([theirs!], ours).recall).toBe(1)
    // And the other way round: a named field's printed value against a field named by it.
    const [labelled] = interactiveNodes('- textbox "Permalink" [ref=e9]: https://bloomberg.com/news/defense')
    expect(labelled).toEqual({
      role: "textbox",
      name: "Permalink",
      ref: "e9",
      value: "https://bloomberg.com/news/defense",
    })
    expect(
      interactiveRecall([labelled!], [{ role: "textbox", name: "https://bloomberg.com/news/defense" }])
        .recall,
    ).toBe(1)
    // A different value is a different field; a value names no link.
    const other = readElements([
      { role: "textbox", name: "Permalink", value: "https://bloomberg.com/news/other" },
    ])
    expect(interactiveRecall([theirs!], other).recall).toBe(0)
    expect(
      interactiveRecall(
        [{ role: "link", name: "https://bloomberg.com/news/defense" }],
        [{ role: "link", name: "Permalink", value: "https://bloomberg.com/news/defense" }],
      ).recall,
    ).toBe(0)
  })

  it("reads a named node also by what it shows, where its name took a part's label or title", () => {
    // Playwright's name takes a part's aria-label in place of the text it shows, and the title of an
    // empty box (no ref: no box); Sextant names the link by what a reader sees.
    const outline = [
      '- link "Dave Thomas: Keynote by EMPEX Conference 4 years ago EMPEX Conference 13K views" [ref=e1]:',
      "  - /url: /watch?v=6U",
      '  - heading "Dave Thomas: Keynote by EMPEX Conference 4 years ago" [level=3] [ref=e2]: "Dave Thomas: Keynote"',
      "  - generic [ref=e3]:",
      "    - generic [ref=e4]: EMPEX Conference",
      '    - tooltip "EMPEX Conference" [ref=e5]',
      "    - generic [aria-hidden] [ref=e6]: Jump to",
      "  - generic [ref=e7]: 13K views",
      '- link "Code Not available" [ref=e8]:',
      "  - /url: /repo",
      "  - text: Code",
      '  - generic "Not available"',
      '- link "Issues 4" [ref=e9]:',
      "  - /url: /repo/issues",
    ].join("\n")
    const [keynote, code, issues] = interactiveNodes(outline)
    expect(keynote?.shown).toBe("Dave Thomas: Keynote EMPEX Conference EMPEX Conference 13K views")
    expect(code?.shown).toBe("Code")
    expect(issues?.shown).toBeUndefined()
    const ours = [
      { role: "link", name: "Dave Thomas: Keynote EMPEX Conference EMPEX Conference 13K views" },
      { role: "link", name: "Code" },
      { role: "link", name: "Issues 4" },
    ]
    expect(interactiveRecall([keynote!, code!, issues!], ours).recall).toBe(1)
    // The accessible name still matches; words neither reading has do not.
    expect(interactiveRecall([code!], [{ role: "link", name: "Code Not available" }]).recall).toBe(1)
    expect(interactiveRecall([code!], [{ role: "link", name: "Code review" }]).recall).toBe(0)
    // Text the page hides from assistive technology is in no name: Playwright prints an inline
    // aria-hidden span as a text line, known by the page's aria-hidden texts (a saved page read as
    // windows-1252 shows the bullet "•" as "â€¢").
    const chapter =
      '- button "View chapter" [ref=e1]:\n  - text: â€¢\n  - generic "View chapter" [ref=e2]: Chapters'
    expect(interactiveNodes(chapter, { ariaHidden: ["â€¢", "Jump to"] })[0]?.shown).toBe("Chapters")
    expect(interactiveNodes(chapter)[0]?.shown).toBe("â€¢ Chapters")
    expect(interactiveRecall(interactiveNodes(chapter), [{ role: "button", name: "Chapters" }]).recall).toBe(
      0,
    )
    // A part that has a box (a ref) and no text stands for its name: leaving it out is a miss.
    const [logo] = interactiveNodes(
      '- link "Recommended by Outbrain" [ref=e1]:\n  - text: Recommended by\n  - img "Outbrain" [ref=e2]',
    )
    expect(logo?.shown).toBeUndefined()
    expect(interactiveRecall([logo!], [{ role: "link", name: "Recommended by" }]).recall).toBe(0)
  })

  it("matches text Playwright prints for a nameless node to the words Sextant prints beneath the element", () => {
    // Inside an aria-hidden dialog Playwright names nothing: `- button [ref=e9]: Dismiss` for a button
    // whose aria-label is "Close this dialog window"; Sextant names it and prints "Dismiss" beneath it.
    const [theirs] = interactiveNodes("- button [ref=e9]: Dismiss")
    const tree = '- button "Close this dialog window" [ref=e4]\n  - Dismiss\n- button "Log in" [ref=e5]'
    const ours = readElements(
      [
        { ref: "e4", role: "button", name: "Close this dialog window" },
        { ref: "e5", role: "button", name: "Log in" },
      ],
      tree,
    )
    expect(ours[0]).toEqual({ role: "button", name: "Close this dialog window", content: "  - Dismiss" })
    expect(interactiveRecall([theirs!], ours).recall).toBe(1)
    expect(
      interactiveRecall([theirs!], readElements([{ ref: "e4", role: "button", name: "Close" }])).recall,
    ).toBe(0)
    // A printed name is a name: it must match Sextant's name, not the words beneath it.
    expect(interactiveRecall([{ role: "button", name: "Dismiss" }], ours).recall).toBe(0)
  })

  it("matches nameless elements last, so they never take the element a named one needed", () => {
    const result = interactiveRecall(
      [
        { role: "link", name: "" },
        { role: "link", name: "Products", fromText: true },
      ],
      [
        { role: "link", name: "All products" },
        { role: "link", name: "Home" },
      ],
    )
    expect(result).toEqual({ expected: 2, matched: 2, recall: 1, unmatched: [] })
  })

  it("compares names by their letters and digits, and reads a label printed twice as the label", () => {
    expect(
      interactiveRecall([{ role: "link", name: "dc comics |" }], [{ role: "link", name: "DC Comics" }])
        .recall,
    ).toBe(1)
    expect(
      interactiveRecall([{ role: "link", name: "ParentingParenting" }], [{ role: "link", name: "Parenting" }])
        .recall,
    ).toBe(1)
    expect(
      interactiveRecall([{ role: "link", name: "Parenting" }], [{ role: "link", name: "Parenting tips" }])
        .recall,
    ).toBe(0)
    expect(
      interactiveRecall([{ role: "link", name: "dc comics" }], [{ role: "link", name: "dc comic" }]).recall,
    ).toBe(0)
  })
})

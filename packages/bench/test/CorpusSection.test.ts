import { describe, expect, it } from "@effect/vitest"
import { type CorpusPageResult, corpusSections, textTokenMeasures } from "../src/CorpusSection.ts"

const page = (name: string, overrides: Partial<CorpusPageResult> = {}): CorpusPageResult => ({
  page: name,
  gotoMs: 100,
  navigateMs: 100,
  playwrightTokens: 1000,
  fullTokens: 400,
  interactiveTokens: 50,
  snapshotMs: 20,
  lookFullMs: 8,
  lookInteractiveMs: 6,
  interactiveRecall: { expected: 10, matched: 10, recall: 1, unmatched: [] },
  textRecall: 1,
  statedCut: false,
  missingWords: [],
  pageWords: 500,
  innerTextTokens: 400,
  ...overrides,
})

const cell = (sections: ReturnType<typeof corpusSections>, measure: string) =>
  sections[0]!.rows.find((row) => row[0]!.startsWith(measure))

describe("corpusSections", () => {
  it("judges each goal on the median page and names the pages below a recall goal", () => {
    const sections = corpusSections({
      folder: "/corpus",
      pages: [
        page("a.html"),
        page("b.html", { fullTokens: 500, navigateMs: 150 }),
        page("c.html", {
          interactiveRecall: { expected: 4, matched: 3, recall: 0.75, unmatched: ['link "More"'] },
          textRecall: 0.9,
        }),
      ],
    })
    expect(cell(sections, "Full view tokens")).toEqual([
      "Full view tokens / Playwright AI snapshot",
      "0.4000×",
      "≤ 0.45×",
      "yes",
    ])
    expect(cell(sections, "navigate")?.slice(1)).toEqual(["1.000×", "≤ 1.1×", "yes"])
    expect(cell(sections, "Interactive recall")?.slice(1)).toEqual([
      "2 / 3 (lowest 75.0%)",
      "every page",
      "no",
    ])
    expect(cell(sections, "Visible-text recall")?.slice(1)).toEqual([
      "2 / 3 (lowest 90.0%)",
      "every page",
      "no",
    ])
    expect(sections[1]!.rows).toEqual([["c.html", "3/4", 'link "More"', "90.0%", "500", ""]])
  })

  it("counts a page whose text is cut with a stated handle as meeting the text goal", () => {
    const sections = corpusSections({
      folder: "/corpus",
      pages: [page("a.html", { textRecall: 0.5, statedCut: true })],
    })
    expect(cell(sections, "Visible-text recall")?.at(-1)).toBe("yes")
    expect(sections).toHaveLength(1)
  })

  it("judges the full view against the page's own innerText and the interactive view in tokens, naming the pages over 1.3×", () => {
    const pages = [
      page("a.html", { fullTokens: 100, innerTextTokens: 100, interactiveTokens: 300 }),
      page("b.html", { fullTokens: 120, innerTextTokens: 100, interactiveTokens: 450 }),
      page("c.html", { fullTokens: 200, innerTextTokens: 100, interactiveTokens: 900 }),
      page("d.html", { fullTokens: 150, innerTextTokens: 0, interactiveTokens: 40 }),
    ]
    const measures = textTokenMeasures(pages)
    // Ratios 1, 1.2, 2 and 150 (no text counts as one token): median 1.6, two pages over.
    expect(measures.fullPerInnerText).toBeCloseTo(1.6)
    expect(measures.over.map((entry) => entry.page)).toEqual(["d.html", "c.html"])
    expect(measures.interactiveTokens).toBe(375)
    const sections = corpusSections({ folder: "/corpus", pages })
    expect(cell(sections, "Full view tokens / page innerText")?.slice(1)).toEqual([
      "1.600× (2 / 4 pages over 1.3×)",
      "≤ 1.3×",
      "no",
    ])
    expect(cell(sections, "Interactive view tokens (median")?.slice(1)).toEqual(["375", "≤ 500", "yes"])
  })

  it("says a result written before the innerText measure did not measure it", () => {
    const { innerTextTokens: _, ...old } = page("a.html")
    const sections = corpusSections({ folder: "/corpus", pages: [old as CorpusPageResult] })
    expect(cell(sections, "Full view tokens / page innerText")?.slice(1)).toEqual([
      "not measured",
      "≤ 1.3×",
      "—",
    ])
  })

  it("counts failed pages against the total, names them in their own table and titles the set by its material", () => {
    const sections = corpusSections(
      {
        folder: "/articles",
        pages: [page("a.html"), page("b.html", { textRecall: 0.9, missingWords: ["teaser", "words"] })],
        errors: [{ page: "c.html", error: "navigate timed out" }],
      },
      { pages: "article pages", source: "From a benchmark." },
    )
    expect(sections[0]!.title).toBe("Page view on 3 article pages")
    expect(sections[0]!.note?.startsWith("From a benchmark. Saved pages")).toBe(true)
    expect(cell(sections, "Pages read without")?.slice(1)).toEqual(["2 / 3", "all", "no"])
    expect(sections[1]).toMatchObject({
      title: "Article pages that failed",
      rows: [["c.html", "navigate timed out"]],
    })
    expect(sections[2]!.rows).toEqual([["b.html", "10/10", "", "90.0%", "500", "teaser words"]])
  })
})

import { describe, expect, it } from "@effect/vitest"
import { type CorpusPageResult, corpusSections } from "../src/CorpusSection.ts"

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
    expect(sections[1]!.rows).toEqual([["c.html", "3/4", 'link "More"', "90.0%", "500"]])
  })

  it("counts a page whose text is cut with a stated handle as meeting the text goal", () => {
    const sections = corpusSections({
      folder: "/corpus",
      pages: [page("a.html", { textRecall: 0.5, statedCut: true })],
    })
    expect(cell(sections, "Visible-text recall")?.at(-1)).toBe("yes")
    expect(sections).toHaveLength(1)
  })
})

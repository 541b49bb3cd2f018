import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { describe, expect, it } from "@effect/vitest"
import type { PageSnapshot } from "@sextant/core"
import {
  type ConformanceCase,
  conformanceSections,
  measureConformance,
  nameExact,
  normalizeName,
  playwrightReading,
  type Reading,
  roleExact,
  scoreConformance,
  sextantReading,
} from "../src/ConformanceSection.ts"

const shown = (role: string, name = ""): Reading => ({ shown: true, role, name })
const folded: Reading = { shown: false, role: "", name: "" }

const item = (overrides: Partial<ConformanceCase>): ConformanceCase => ({
  file: "a.html",
  index: 0,
  testname: "case",
  chromium: shown("button", "label"),
  sextant: shown("button", "label"),
  playwright: shown("button", "label"),
  ...overrides,
})

describe("conformance comparison", () => {
  it("collapses ASCII whitespace as WPT's label check does, and keeps a no-break space", () => {
    expect(normalizeName("  a\t\n b\f ")).toBe("a b")
    expect(normalizeName("label\u00a0")).toBe("label\u00a0")
  })

  it("counts a folded element as a miss unless the test expects no name or no node", () => {
    expect(nameExact("label", folded)).toBe(false)
    expect(nameExact("", folded)).toBe(true)
    expect(roleExact("tabpanel", folded)).toBe(false)
    expect(roleExact("none", folded)).toBe(true)
    expect(roleExact("none", shown("generic"))).toBe(true)
    expect(roleExact("none", shown("option", "x"))).toBe(false)
    expect(roleExact("tab", shown("tab"))).toBe(true)
  })

  it("reads the element's own first line of Playwright's snapshot, and no node when it prints only children", () => {
    expect(playwrightReading('- button "a \\"b\\""')).toEqual(shown("button", 'a "b"'))
    expect(playwrightReading('- heading "label" [level=3]')).toEqual(shown("heading", "label"))
    expect(playwrightReading("- listitem: x")).toEqual(shown("listitem", ""))
    expect(playwrightReading("- text: x")).toEqual(folded)
    expect(playwrightReading('- link "a"\n- link "b"')).toEqual(folded)
    expect(playwrightReading("")).toEqual(folded)
  })

  it("reads Sextant's element by ref, a container by its within-look's first line, and no ref as folded", () => {
    const snapshot = {
      elements: { e1: { ref: "e1", role: "textbox", name: "Email" } },
    } as unknown as PageSnapshot
    expect(sextantReading("e1", snapshot)).toEqual(shown("textbox", "Email"))
    expect(sextantReading("e2", snapshot, '- nav "label": x')).toEqual(shown("navigation", "label"))
    expect(sextantReading("e3", snapshot, '- tablist:\n  - tab "x" [ref=e4]')).toEqual(shown("tablist", ""))
    expect(sextantReading(null, snapshot)).toEqual(folded)
  })

  it("reads an element with a line but no ref from that line, a heading's level label as heading", () => {
    const snapshot = { elements: {} } as unknown as PageSnapshot
    expect(sextantReading(null, snapshot, undefined, 'h3 "Prices"')).toEqual(shown("heading", "Prices"))
    expect(sextantReading(null, snapshot, undefined, 'h2 link "News" [ref=e4] -> /news')).toEqual(
      shown("heading", "News"),
    )
    expect(sextantReading(null, snapshot, undefined, 'img "Logo"')).toEqual(shown("img", "Logo"))
    expect(sextantReading(null, snapshot, undefined, 'meter "Fuel": 40')).toEqual(shown("meter", "Fuel"))
    expect(sextantReading(null, snapshot, undefined, null)).toEqual(folded)
  })

  it("scores all cases, the cases Chromium passes and Chromium's interactive ones, with folded cases apart", () => {
    const cases = [
      item({ expectedName: "label" }),
      item({ expectedName: "label", sextant: folded, chromium: shown("heading", "label") }),
      item({
        expectedName: "label",
        chromium: shown("button", "wrong"),
        playwright: shown("button", "wrong"),
      }),
      item({
        expectedRole: "none",
        chromium: shown("none"),
        sextant: folded,
        playwright: shown("option", "x"),
      }),
    ]
    const score = scoreConformance(cases)
    expect(score.names.all).toEqual({
      cases: 3,
      chromium: 2,
      sextant: 2,
      playwright: 2,
      sextantFolded: 1,
      sextantShownPasses: 2,
    })
    expect(score.names.chromiumPasses).toMatchObject({ cases: 2, chromium: 2, sextant: 1, playwright: 2 })
    expect(score.names.interactive).toMatchObject({ cases: 2, chromium: 1, sextant: 2 })
    expect(score.roles.all).toMatchObject({ cases: 1, chromium: 1, sextant: 1, playwright: 0 })
    const sections = conformanceSections({ folder: "/wpt", files: ["a.html"], cases })
    expect(sections[0]!.rows[0]).toEqual([
      "All",
      "3",
      "2/3 (66.7%)",
      "2/3 (66.7%)",
      "2/3 (66.7%)",
      "1",
      "2/2 (100.0%)",
    ])
    expect(sections[2]!.rows).toEqual([["a.html", "4", "3", "3", "2", "2"]])
    expect(sections[3]!.rows).toEqual([["a.html", "case", '"label"', "folded (no node)"]])
  })
})

describe("measureConformance", () => {
  it("reads each case in all three engines on a served folder, running the page's own scripts, a heading from its printed line", async () => {
    const folder = await mkdtemp(join(tmpdir(), "sextant-wpt-"))
    try {
      await mkdir(join(folder, "name"))
      await writeFile(
        join(folder, "name", "cases.html"),
        `<!doctype html>
<script src="/resources/testharness.js"></script>
<script src="/wai-aria/scripts/aria-utils.js"></script>
<label for="t">Email</label><input id="t" type="text" data-expectedlabel="Email" data-testname="label for">
<nav aria-label="Site" data-expectedlabel="Site" data-expectedrole="navigation" data-testname="nav"><a href="#">x</a></nav>
<h2 data-expectedlabel="Title" data-testname="heading">Title</h2>
<p data-expectedrole="paragraph" data-testname="paragraph">Words</p>
<span id="host"></span>
<button aria-labelledby="host" data-expectedlabel="from shadow" data-testname="shadow"></button>
<script>
AriaUtils.verifyLabelsBySelector(".ex")
document.getElementById("host").attachShadow({ mode: "open" }).innerHTML = "from shadow"
</script>`,
      )
      await writeFile(join(folder, "name", "empty.html"), "<!doctype html><p>no cases</p>")
      const result = await measureConformance(folder, () => undefined)
      expect(result.files).toEqual(["name/cases.html"])
      const byName = Object.fromEntries(result.cases.map((entry) => [entry.testname, entry]))
      expect(byName["label for"]!.sextant).toEqual(shown("textbox", "Email"))
      expect(byName["label for"]!.chromium).toEqual(shown("textbox", "Email"))
      expect(byName["label for"]!.playwright).toEqual(shown("textbox", "Email"))
      expect(byName.nav!.sextant).toEqual(shown("navigation", "Site"))
      expect(byName.nav!.chromium.role).toBe("navigation")
      // A heading prints its line without a ref (`h2 "Title"`): read from that line.
      expect(byName.heading!.sextant).toEqual(shown("heading", "Title"))
      // A paragraph is folded into its parent's lines: no node of its own.
      expect(byName.paragraph!.sextant).toEqual(folded)
      expect(byName.heading!.playwright).toEqual(shown("heading", "Title"))
      // The inline script ran past its AriaUtils call (the stand-in): the shadow root names the button.
      expect(byName.shadow!.chromium.name).toBe("from shadow")
      expect(byName.shadow!.sextant).toEqual(shown("button", "from shadow"))
    } finally {
      await rm(folder, { recursive: true, force: true })
    }
  }, 120_000)
})

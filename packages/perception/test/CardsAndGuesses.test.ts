import { describe, expect, it } from "vitest"
import { unmarkedGuesses } from "./support/CorpusCheck.ts"
import { useHarness } from "./support/Harness.ts"
import { look, refOf } from "./support/Look.ts"

const harness = useHarness({ seed: 0 })

/** The words of a text, lower-cased, for "every word is kept" checks. */
const wordsOf = (text: string): ReadonlyArray<string> => text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []

/** The words of `text` the outline does not print. */
const missing = (tree: string, text: string): ReadonlyArray<string> => {
  const printed = new Set(wordsOf(tree))
  return wordsOf(text).filter((word) => !printed.has(word))
}

/** The text of the element matching `selector` on the open page. */
const textOf = (selector: string): Promise<string> =>
  harness.browser.execute(
    // The words as rendered, boxes apart ("2 hours ago" and the headline are two runs, not "agoThe").
    // biome-ignore lint/performance/useDomNodeTextContent: the rendered text is what a reader sees
    (selector) => (document.querySelector(selector) as HTMLElement).innerText,
    selector,
  )

describe("the /reading page: card links, a long select and unnamed icon controls", () => {
  it("keeps the teaser of a card link beneath its headline", async () => {
    await harness.browser.url(`${harness.site.url}/reading`)
    const snapshot = await look(harness.browser)
    const ref = refOf(snapshot, "link", /^Herons return to the marsh/)
    const line = snapshot.tree.split("\n").findIndex((candidate) => candidate.includes(`[ref=${ref}]`))
    expect(snapshot.tree.split("\n")[line + 1]).toContain("Volunteers counted forty grey herons")
    expect(missing(snapshot.tree, await textOf("#card-marsh"))).toEqual([])
  })

  it("keeps the words a reader sees where a part of a link speaks by its own label (a time labelled with its ISO date)", async () => {
    await harness.browser.url(`${harness.site.url}/reading`)
    const snapshot = await look(harness.browser)
    // The standard's name takes the time's aria-label; the "21:31" a reader sees prints beneath it.
    const ref = refOf(snapshot, "link", /^Ferry timetable changes/)
    expect(snapshot.elements[ref]!.name).toContain("2026-11-02T21:31:00Z")
    const line = snapshot.tree.split("\n").findIndex((candidate) => candidate.includes(`[ref=${ref}]`))
    expect(snapshot.tree.split("\n")[line + 1]?.trim()).toBe("- 21:31")
    expect(missing(snapshot.tree, await textOf("#card-ferry"))).toEqual([])
  })

  it("keeps every word of a card whose first part is longer than a name", async () => {
    await harness.browser.url(`${harness.site.url}/reading`)
    const snapshot = await look(harness.browser)
    // A time glued to a long headline is one run of words: the name takes its start, cut at a word,
    // and the rest of the headline prints beneath it before the teaser.
    const ref = refOf(snapshot, "link", /^2 hours ago/)
    expect(snapshot.elements[ref]!.name.endsWith("…")).toBe(true)
    expect(missing(snapshot.tree, await textOf("#card-orchard"))).toEqual([])
    expect(snapshot.tree).toContain("\n      - spraying and waiting for them\n")
    // The same for a card that holds a control: its title is cut, the rest and the button beneath.
    const saved = refOf(snapshot, "link", /^The lighthouse keeper/)
    expect(snapshot.elements[saved]!.name.endsWith("…")).toBe(true)
    expect(missing(snapshot.tree, await textOf("#card-saved"))).toEqual([])
    expect(snapshot.tree).toContain("\n      - stairs\n")
  })

  it("cuts a long option list only with a stated handle that lists them all", async () => {
    await harness.browser.url(`${harness.site.url}/reading`)
    const snapshot = await look(harness.browser)
    const ref = refOf(snapshot, "combobox", "Country")
    expect(snapshot.tree).toContain(`|Finland|France|…+21 more: look({ within: "${ref}" }) lists all]`)
    const within = await look(harness.browser, { within: ref })
    expect(within.tree).toContain("|Sweden|Switzerland]")
    expect(snapshot.elements[ref]!.options).toHaveLength(33)
  })

  it("marks a guess from an id, a link target or an icon as a guess, and guesses nothing from a hash, digits or a letter", async () => {
    await harness.browser.url(`${harness.site.url}/reading`)
    const snapshot = await look(harness.browser)
    const lines = snapshot.tree.split("\n")
    const tools = lines.slice(lines.findIndex((line) => line.includes('nav "Tools"')) + 1)
    expect(tools.map((line) => line.trim().replace(/\[ref=e\d+\]/, "[ref]"))).toEqual([
      "- button [ref] (icon search)",
      "- link [ref] -> /reading/en/",
      "- link [ref] -> /reading/98baf690…",
      "- button [ref]",
      "- link [ref] -> /reading/i",
      '- button "Print this page" [ref]',
    ])
    const guesses = Object.values(snapshot.elements).flatMap((element) =>
      element.guess === undefined ? [] : [[element.role, element.name, element.guess]],
    )
    expect(guesses).toEqual([
      ["button", "", { from: "icon", words: "search" }],
      ["link", "", { from: "href", words: "en" }],
    ])
    expect(unmarkedGuesses(snapshot)).toEqual([])
    // The interactive view prints no link target: there a guess from one is printed marked.
    const interactive = await look(harness.browser, { mode: "interactive" })
    expect(interactive.tree).toMatch(/^e\d+ button \(icon search\)$/m)
    expect(interactive.tree).toMatch(/^e\d+ link \(href en\)$/m)
    expect(interactive.tree).not.toMatch(/"(search|en|labelled1|i)"/)
  })
})

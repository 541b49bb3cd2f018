import { describe, expect, it } from "vitest"
import { useHarness } from "./support/Harness.ts"
import { look, refOf } from "./support/Look.ts"

const harness = useHarness({ seed: 0 })

/** The words of a text, lower-cased, for "every word is kept" checks. */
const wordsOf = (text: string): ReadonlyArray<string> => text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []

/** The words of the open page's text (`innerText`, what a reader sees) that the outline does not print. */
const missing = async (tree: string): Promise<ReadonlyArray<string>> => {
  const printed = new Set(wordsOf(tree))
  // biome-ignore lint/performance/useDomNodeTextContent: the rendered text is what a reader sees
  const text = await harness.browser.execute(() => document.body.innerText)
  return wordsOf(text).filter((word) => !printed.has(word))
}

/** The lines printed beneath the line that carries `ref` (deeper indented), trimmed. */
const beneath = (tree: string, ref: string): ReadonlyArray<string> => {
  const lines = tree.split("\n")
  const at = lines.findIndex((line) => line.includes(`[ref=${ref}]`))
  const depth = lines[at]!.length - lines[at]!.trimStart().length
  const below: string[] = []
  for (let next = at + 1; next < lines.length; next++) {
    const line = lines[next]!
    if (line.length - line.trimStart().length <= depth) break
    below.push(line.trim())
  }
  return below
}

describe("words a reader sees on /words pages", () => {
  it("names a card link whose parts sit in one block by its headline and prints its teaser and byline beneath it", async () => {
    await harness.browser.url(`${harness.site.url}/words/news`)
    const snapshot = await look(harness.browser)
    const ref = refOf(snapshot, "link", "Council approves the new harbour plan…")
    expect(beneath(snapshot.tree, ref)).toEqual([
      "- After a long night of debate the council voted seven to two for the plan, which moves the ferry pier north.",
      "- By Jane Doe",
    ])
    expect(await missing(snapshot.tree)).toEqual([])
  })

  it("prints a link whose text is its name as one line, with nothing beneath it", async () => {
    await harness.browser.url(`${harness.site.url}/words/news`)
    const snapshot = await look(harness.browser)
    const ref = refOf(snapshot, "link", "Market returns to the square")
    expect(snapshot.tree.split("\n")).toContain(
      `  - link "Market returns to the square" [ref=${ref}] -> /words/news/market`,
    )
    expect(beneath(snapshot.tree, ref)).toEqual([])
  })

  it("cuts a select of 300 options with the count left out and the look that lists them all", async () => {
    await harness.browser.url(`${harness.site.url}/words/select`)
    const snapshot = await look(harness.browser)
    const ref = refOf(snapshot, "combobox", "Parcel")
    expect(snapshot.tree).toContain(`|Parcel 012|…+288 more: look({ within: "${ref}" }) lists all]`)
    expect(snapshot.elements[ref]!.options).toHaveLength(300)
    const within = await look(harness.browser, { within: ref })
    expect(within.tree).toContain(`[options: ${snapshot.elements[ref]!.options!.join("|")}]`)
  })

  it("keeps the words of a consent banner a script left aria-hidden, with its button", async () => {
    await harness.browser.url(`${harness.site.url}/words/consent`)
    const snapshot = await look(harness.browser)
    expect(snapshot.tree).toContain(
      "- We use cookies to count visits to the museum's pages. By staying on this site you accept our",
    )
    refOf(snapshot, "button", "Close")
    expect(beneath(snapshot.tree, refOf(snapshot, "button", "Close"))).toEqual(["- I agree"])
  })

  it("names a language link by its full name and leaves out the abbreviation the page hides beside it", async () => {
    await harness.browser.url(`${harness.site.url}/words/consent`)
    const snapshot = await look(harness.browser)
    const ref = refOf(snapshot, "link", "Deutsch")
    expect(beneath(snapshot.tree, ref)).toEqual([])
    expect(snapshot.tree).not.toMatch(/^\s*- DE$/m)
    expect(refOf(snapshot, "link", "Français")).not.toBe(ref)
  })
})

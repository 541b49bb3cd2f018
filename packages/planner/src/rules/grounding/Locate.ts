import { GLOSSARY, normalizeText } from "../Grounding.ts"
import { LOCATE_ASKING, LOCATE_VERBS } from "../Vocabulary.ts"

/**
 * "Find the section about refunds", "Where's the contact phone number?", "定位到 Shipping times": on a
 * page with no search box such a goal asks to bring a part of *this* page on screen, not to use the
 * site's search. The part is the section whose heading and text carry every word the goal says of it
 * (at least one of them in the heading); a goal whose words no section covers, or that two sections fit
 * alike, is refused with the words, never read as the nearest section.
 */

/** A heading of the page and the words of the text under it, up to the next heading (from the outline). */
interface Section {
  readonly heading: string
  readonly own: ReadonlyArray<string>
  readonly body: ReadonlyArray<string>
}

const HEADING = /^\s*- h[1-6] "((?:[^"\\]|\\.)*)"/

const wordsOf = (text: string): ReadonlyArray<string> =>
  normalizeText(text)
    .split(" ")
    .filter((word) => word !== "")

/** The sections of an outline: each heading line and the text lines (not controls) under it. */
const sectionsOf = (outline: string): ReadonlyArray<Section> => {
  const sections: Array<{ heading: string; own: ReadonlyArray<string>; body: Array<string> }> = []
  for (const line of outline.split("\n")) {
    const heading = HEADING.exec(line)
    if (heading !== null) {
      const text = heading[1]!.replace(/\\(.)/g, "$1")
      sections.push({ heading: text, own: wordsOf(text), body: [] })
    } else if (!line.includes("[ref=")) sections.at(-1)?.body.push(...wordsOf(line.replace(/^\s*- /, "")))
  }
  return sections
}

/** A word without its plural or verb ending ("returns" → "return", "changing" → "chang"). */
const stem = (word: string): string =>
  word.length <= 3
    ? word
    : word
        .replace(/ies$/, "y")
        .replace(/s$/, "")
        .replace(/(?:ing|ed|e)$/, "")

const sameWord = (one: string, other: string): boolean => one === other || stem(one) === stem(other)

/** The heading a text names exactly (case, spacing and punctuation aside), if the outline shows one. */
export const headingNamed = (outline: string | undefined, text: string): string | undefined => {
  if (outline === undefined) return undefined
  const wanted = normalizeText(text)
  return sectionsOf(outline).find((section) => normalizeText(section.heading) === wanted)?.heading
}

/**
 * What a goal asks to find when it starts with a word that asks to bring something on screen
 * (`locate.verbs` of the language data, after "please", "can you", "帮我" …): the rest of the goal, or
 * `undefined` when it does not start so.
 */
export const locateQuery = (goal: string): string | undefined => {
  let rest = goal
    .normalize("NFKC")
    .trim()
    .replace(/^(?:(?:please|can you|could you|would you|help me|kindly|帮我|请|麻烦你?)[\s,，]*)+/i, "")
  const verb = LOCATE_VERBS.find((word) =>
    /\p{Script=Han}/u.test(word)
      ? rest.startsWith(word)
      : new RegExp(`^${word.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}\\b`, "i").test(rest),
  )
  if (verb === undefined) return undefined
  rest = rest.slice(verb.length).trim()
  return rest === "" ? undefined : rest
}

/**
 * The words a query says of what it looks for, each with the words that may stand for it: Latin words
 * (less the `locate.asking` words) and the English words of the Chinese words the glossary knows.
 */
const queryWords = (query: string): ReadonlyArray<ReadonlyArray<string>> => {
  const latin = wordsOf(query.replace(/\p{Script=Han}+/gu, " "))
    .filter((word) => !LOCATE_ASKING.has(word) && !/^\d$/.test(word))
    .map((word) => [word])
  const asked = [...LOCATE_ASKING].reduce((text, word) => text.replaceAll(word, " "), query)
  const chinese = [...GLOSSARY.entries()]
    .filter(([word]) => /\p{Script=Han}/u.test(word) && asked.includes(word))
    .map(([, english]) => english.flatMap(wordsOf))
  return [...latin, ...chinese]
}

/**
 * The heading of the one section of the page a "find X" goal means, or why there is none.
 *
 * @example
 * ```ts
 * import { locateSection } from "./Locate.ts"
 * locateSection("the section about refunds", outline) // { heading: "Refunds and returns" }
 * locateSection("the opening hours", outline) // { reason: 'no section of this page is about "opening", "hours"' }
 * ```
 */
export const locateSection = (
  query: string,
  outline: string,
): { readonly heading: string } | { readonly reason: string } => {
  const words = queryWords(query)
  if (words.length === 0) return { reason: `"${query}" says nothing this page could show` }
  const covers = (pool: ReadonlyArray<string>, alternatives: ReadonlyArray<string>) =>
    alternatives.some((word) => pool.some((own) => sameWord(own, word)))
  const fits = sectionsOf(outline)
    .map((section) => ({
      section,
      inHeading: words.filter((alternatives) => covers(section.own, alternatives)).length,
      covered: words.every((alternatives) => covers([...section.own, ...section.body], alternatives)),
    }))
    .filter((fit) => fit.covered && fit.inHeading > 0)
  const said = words.map((alternatives) => `"${alternatives[0]}"`).join(", ")
  if (fits.length === 0) return { reason: `no section of this page is about ${said}` }
  const most = Math.max(...fits.map((fit) => fit.inHeading))
  const best = fits.filter((fit) => fit.inHeading === most)
  if (best.length > 1)
    return {
      reason: `${said} fits more than one section of this page: ${best.map((fit) => `"${fit.section.heading}"`).join(", ")}`,
    }
  return { heading: best[0]!.section.heading }
}

import type { PageElement } from "@sextant/core"
import type { Command } from "../Command.ts"
import { GLOSSARY, normalizeText } from "../Grounding.ts"

/**
 * Following a link to the thing a goal names: "log in and extract the products" lands on a dashboard
 * that holds no products, one link ("Browse products") away from them. A person follows the link
 * whose words name the goal's object; so does the rule agent, once, when the extraction found no list
 * on the page it was on.
 */

type ExtractCommand = Extract<Command, { kind: "extract" }>

/** The words the goal uses for the things to extract ("products", "the articles"). */
const objectWords = (command: ExtractCommand): ReadonlyArray<string> => {
  const said = command.items ?? command.fields.join(" ")
  return normalizeText(said)
    .split(" ")
    .filter((word) => word !== "" && !["the", "all", "every", "each", "of", "a", "an"].includes(word))
}

/** The English stem of a word, so "product" and "products", "category" and "categories" meet. */
const stem = (word: string): string =>
  word.endsWith("ies") && word.length > 4
    ? `${word.slice(0, -3)}y`
    : word.endsWith("es") && /(?:s|x|ch|sh)es$/.test(word)
      ? word.slice(0, -2)
      : word.endsWith("s") && !word.endsWith("ss") && word.length > 3
        ? word.slice(0, -1)
        : word

/**
 * The regular expression (case-insensitive source) a link's text must match to name the goal's object,
 * or undefined when the goal names none: `\bproducts?\b` for "products". A Chinese word also matches
 * its usual English page words (商品 → products).
 */
export const objectPattern = (command: ExtractCommand): string | undefined => {
  const words = objectWords(command)
  if (words.length === 0) return undefined
  const alternatives = words.flatMap((word) => {
    const english = GLOSSARY.get(word) ?? []
    return [word, ...english].map((one) => {
      const root = stem(one).replace(/[.*+?^${}()|[\]\\]/g, "\\$&")
      return /^[a-z0-9 -]+$/.test(root) ? `\\b${root}(?:s|es)?\\b` : root
    })
  })
  return `(?:${[...new Set(alternatives)].join("|")})`
}

/**
 * The one link on the page whose name names the goal's object, or undefined when none does or the
 * links that do go to different addresses (then which one is meant is not plain, and the run does
 * not guess).
 *
 * @example
 * ```ts
 * // dashboard links: "Browse products", "Search the shop", "Contact us"
 * linkToObject({ kind: "extract", fields: ["products"], pages: 1 }, elements)?.name // "Browse products"
 * ```
 */
export const linkToObject = (
  command: ExtractCommand,
  elements: ReadonlyArray<PageElement>,
): PageElement | undefined => {
  const pattern = objectPattern(command)
  if (pattern === undefined) return undefined
  const matcher = new RegExp(pattern, "iu")
  const links = elements.filter(
    (element) => element.role === "link" && element.disabled !== true && matcher.test(element.name),
  )
  // The outline prints a link's address once per page: a named link without one goes where an
  // earlier link went. One address among the matches is one place to go.
  const addressed = links.filter((link) => link.attributes.href !== undefined)
  const targets = new Set(addressed.map((link) => link.attributes.href))
  if (targets.size > 1) return undefined
  return addressed[0] ?? (links.length === 1 ? links[0] : undefined)
}

/** A history line of an extraction that found no list on its page. */
const NO_LIST = /^\d+\. (?:extractList|pagination)\(.*\) -> failed: .*no repeated items/

/** Whether the newest tool call was an extraction that found no list on its page. */
export const extractionFoundNoList = (history: ReadonlyArray<string>): boolean => {
  const line = history.findLast((entry) => /^\d+\. \w+\(/.test(entry))
  return line !== undefined && NO_LIST.test(line)
}

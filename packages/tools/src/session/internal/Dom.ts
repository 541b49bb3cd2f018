import { parseHTML } from "linkedom"

/** The DOM types linkedom returns (structurally the standard DOM). */
export type DomDocument = Document
export type DomElement = Element

/** Parses a whole HTML page with linkedom. */
export const parseDocument = (html: string): DomDocument =>
  (parseHTML(html) as unknown as { document: DomDocument }).document

/**
 * Parses an HTML fragment (such as one element's outerHTML) and returns its first element, or
 * undefined when the fragment holds no element.
 */
export const parseFragment = (html: string): DomElement | undefined => {
  const document = parseDocument(`<!doctype html><html><head></head><body>${html}</body></html>`)
  return document.body?.firstElementChild ?? undefined
}

/** Collapses runs of white space to one space and trims. */
export const normalizeSpace = (text: string): string => text.replace(/\s+/g, " ").trim()

/** The visible-ish text of an element: its text content with white space collapsed. */
export const textOf = (element: DomElement): string => normalizeSpace(element.textContent ?? "")

const BLOCK_TAGS = new Set([
  "ADDRESS",
  "ARTICLE",
  "ASIDE",
  "BLOCKQUOTE",
  "BR",
  "DD",
  "DIV",
  "DL",
  "DT",
  "FIGCAPTION",
  "FIGURE",
  "FOOTER",
  "FORM",
  "H1",
  "H2",
  "H3",
  "H4",
  "H5",
  "H6",
  "HEADER",
  "HR",
  "LI",
  "MAIN",
  "NAV",
  "OL",
  "P",
  "PRE",
  "SECTION",
  "TABLE",
  "TD",
  "TH",
  "TR",
  "UL",
])
const SKIPPED_TAGS = new Set(["SCRIPT", "STYLE", "NOSCRIPT", "TEMPLATE"])

/**
 * Text of a subtree with one line per block element, so `<h1>A</h1><p>B</p>` reads `A\nB` rather
 * than `AB` (textContent runs blocks together).
 */
export const blockText = (root: Node): string => {
  const parts: Array<string> = []
  const walk = (node: Node): void => {
    if (node.nodeType === 3) {
      parts.push(node.nodeValue ?? "")
      return
    }
    if (node.nodeType !== 1 && node.nodeType !== 9 && node.nodeType !== 11) return
    const tag = (node as Element).tagName?.toUpperCase() ?? ""
    if (SKIPPED_TAGS.has(tag)) return
    const block = BLOCK_TAGS.has(tag)
    if (block) parts.push("\n")
    for (const child of Array.from(node.childNodes)) walk(child)
    if (block) parts.push("\n")
  }
  walk(root)
  return parts
    .join("")
    .split("\n")
    .map(normalizeSpace)
    .filter((line) => line !== "")
    .join("\n")
}

/**
 * Elements matching `selector` inside `root`, the root itself included when it matches, so a selector
 * written for a card also works on the card's own outerHTML. Throws a SyntaxError for a bad selector.
 */
export const selectAll = (root: DomElement | DomDocument, selector: string): Array<DomElement> => {
  const found = Array.from(root.querySelectorAll(selector))
  if ("matches" in root && typeof root.matches === "function" && root.matches(selector)) {
    return [root, ...found]
  }
  return found
}

/** Resolves `href` against `base`; undefined for a malformed or non-HTTP link. */
export const absoluteHttpUrl = (href: string, base: string): string | undefined => {
  try {
    const url = new URL(href, base)
    if (url.protocol !== "http:" && url.protocol !== "https:") return undefined
    url.hash = ""
    return url.href
  } catch {
    return undefined
  }
}

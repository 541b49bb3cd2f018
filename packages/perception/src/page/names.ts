import { INLINE, presentational, SKIP } from "./roles.ts"
import { collapse } from "./text.ts"
import { OPAQUE } from "./urls.ts"

/*
 * Accessible names: what a label, aria-label(ledby), title or placeholder calls an element, and a
 * fallback for controls that have none by those rules.
 */

/**
 * Words CSS generates before or after an element (`::before { content: "New: " }`), which the
 * accessible-name computation reads as part of its text: the quoted strings of `content`, without
 * `none`/`normal`, counters or images, and without the private-use characters of icon fonts.
 */
export const generatedText = (element: Element, pseudo: "::before" | "::after"): string => {
  const content = getComputedStyle(element, pseudo).content
  if (!content || content === "none" || content === "normal") return ""
  // `content: "★" / "Rated"` gives an alternative text after the slash; it speaks for the rest.
  const parts = content.split(/\s\/\s/)
  const source = parts.length > 1 ? parts[parts.length - 1]! : content
  let text = ""
  for (const match of source.matchAll(/"((?:[^"\\]|\\.)*)"|'((?:[^'\\]|\\.)*)'/g))
    text += (match[1] ?? match[2] ?? "").replace(/\\(.)/g, "$1")
  return text.replace(/[\uE000-\uF8FF]/g, "")
}

/** Hidden from every reader: not rendered (`display: none`, `hidden`) or `visibility: hidden`. */
const notRendered = (element: Element): boolean => {
  if (typeof element.checkVisibility === "function")
    return !element.checkVisibility({ visibilityProperty: true } as CheckVisibilityOptions)
  const style = getComputedStyle(element)
  return style.display === "none" || style.visibility === "hidden"
}

/** Taken out of the accessibility tree by the page: `aria-hidden="true"` on it or on an ancestor. */
const ariaHidden = (element: Element): boolean => element.closest("[aria-hidden=true]") !== null

/** Hidden as accname 1.2 means it: not rendered, or hidden from the accessibility tree. */
const hidden = (element: Element): boolean => notRendered(element) || ariaHidden(element)

/**
 * Text of an element for aria-labelledby, labels, legends and captions, as the accessible-name
 * computation reads it: through the flat tree (a slot's assigned nodes, a host's shadow root), with
 * text CSS generates before and after elements. Hidden descendants are left out unless the element
 * itself is hidden (a hidden node referenced by aria-labelledby still names: all its words count).
 * Hidden means what accname 1.2 says: not rendered, or `aria-hidden="true"`.
 */
export const plainText = (element: Element, skip?: Element, tooltips = false): string => {
  let text = ""
  const skipHidden = !hidden(element)
  const visitChildren = (parent: globalThis.Node): void => {
    if (parent.nodeType === 1 && (parent as Element).localName === "slot") {
      const assigned = (parent as HTMLSlotElement).assignedNodes({ flatten: true })
      if (assigned.length > 0) {
        for (const node of assigned) visit(node)
        return
      }
    }
    const from = parent.nodeType === 1 ? ((parent as Element).shadowRoot ?? parent) : parent
    for (let c = from.firstChild; c !== null; c = c.nextSibling) visit(c)
  }
  const visit = (node: globalThis.Node): void => {
    if (node === skip) return
    if (node.nodeType === 3) {
      const parent = node.parentElement
      if (skipHidden && parent !== null && getComputedStyle(parent).visibility !== "visible") return
      text += node.nodeValue ?? ""
    } else if (node.nodeType === 1) {
      const child = node as Element
      const tag = child.localName
      if (SKIP.has(tag) || tag === "textarea") return
      // Words a page hides from assistive technology stay out, and no descendant can bring them back.
      if (skipHidden && child.getAttribute("aria-hidden") === "true") return
      if (skipHidden && child !== element && tag !== "slot" && notRendered(child)) {
        // A box hidden by visibility may still show children that make themselves visible.
        if (getComputedStyle(child).display !== "none") visitChildren(child)
        return
      }
      // A control embedded in the words (or referenced by aria-labelledby itself) speaks by its
      // value, as accname 1.2 (2C) reads it: a select by its chosen option, a slider or spin button
      // by its value text. Typed text is left out: it may be a secret the view must not repeat.
      const embedded = embeddedValue(child, tag)
      if (embedded !== undefined) {
        text += ` ${embedded} `
        return
      }
      // An element inside that carries its own label speaks by it (a label's icon button "close nav").
      // A slot is no element of the flat tree a name is read through: what is assigned to it (or its
      // default content) speaks, never a label the slot carries.
      const label = tag === "slot" ? undefined : child.getAttribute("aria-label")?.trim()
      if (label) text += ` ${label} `
      else if (tag === "img") text += ` ${child.getAttribute("alt") ?? ""} `
      else if (tag === "input") {
        const type = (child as HTMLInputElement).type
        if (type === "submit" || type === "button" || type === "reset")
          text += ` ${(child as HTMLInputElement).value} `
        // An image button speaks its alternative text, as an image does.
        else if (type === "image") text += ` ${child.getAttribute("alt") ?? ""} `
      } else {
        const start = text.length
        text += generatedText(child, "::before")
        visitChildren(child)
        text += generatedText(child, "::after")
        // In an aria-labelledby node, a part that gives no words speaks by its tooltip, as accname
        // 1.2 (2I) reads it (browsers do not read it so in a label's text).
        const title = tooltips ? child.getAttribute("title")?.trim() : undefined
        if (title && !/[\p{L}\p{N}]/u.test(text.slice(start))) text += ` ${title} `
      }
      if (!INLINE.has(tag)) text += " "
    }
  }
  visit(element)
  return collapse(text).trim()
}

/**
 * The value an embedded control speaks inside another element's name: a select's chosen options, a
 * range's or an ARIA slider's or spin button's value text, a custom listbox or combobox's selected
 * option. `undefined` for anything else, which is read as any other element.
 */
const embeddedValue = (element: Element, tag: string): string | undefined => {
  if (tag === "select") return selectedText(element as HTMLSelectElement)
  if (tag === "input" && (element as HTMLInputElement).type === "range")
    return element.getAttribute("aria-valuetext") ?? (element as HTMLInputElement).value
  const role = element.getAttribute("role")?.trim().split(/\s+/)[0]
  if (role === "slider" || role === "spinbutton")
    return element.getAttribute("aria-valuetext") ?? element.getAttribute("aria-valuenow") ?? ""
  if (role === "listbox" || role === "combobox") {
    const chosen = element.querySelector("[role=option][aria-selected=true]")
    return chosen === null ? "" : collapse(chosen.textContent ?? "").trim()
  }
  return undefined
}

/** The ids an element is labelled by: `aria-labelledby`, or the misspelling browsers honour too. */
export const labelledBy = (element: Element): string | null =>
  element.getAttribute("aria-labelledby") ?? element.getAttribute("aria-labeledby")

export const byIds = (element: Element, ids: string): string => {
  const root = element.getRootNode() as Document | ShadowRoot
  const parts: string[] = []
  for (const id of ids.trim().split(/\s+/)) {
    const target = root.getElementById(id)
    if (target !== null) parts.push(target.getAttribute("aria-label") ?? plainText(target, undefined, true))
  }
  return parts.join(" ").trim()
}

export const labelName = (element: Element): string => {
  const labelled = labelledBy(element)
  if (labelled) {
    const text = byIds(element, labelled)
    if (text) return text
  }
  const aria = element.getAttribute("aria-label")
  if (aria?.trim()) return collapse(aria).trim()
  return ""
}

/**
 * The page's own label for an element in words it shows nowhere else: its `aria-label`, or the
 * text of the `aria-labelledby` nodes when every one of them is hidden. A label read from a node the
 * page shows (a list labelled by the heading above it) is empty here: the view prints those words
 * where they stand.
 */
export const unshownLabel = (element: Element): string => {
  const ids = labelledBy(element)?.trim()
  if (ids) {
    const root = element.getRootNode() as Document | ShadowRoot
    const targets = ids
      .split(/\s+/)
      .map((id) => root.getElementById(id))
      .filter((target) => target !== null)
    if (targets.some((target) => !hidden(target))) return ""
    const text = byIds(element, ids)
    if (text) return text
  }
  const aria = element.getAttribute("aria-label")
  return aria?.trim() ? collapse(aria).trim() : ""
}

export const controlName = (element: Element, tag: string): string => {
  const explicit = labelName(element)
  if (explicit) return explicit
  const labels = (element as HTMLInputElement).labels
  if (labels && labels.length > 0) {
    const text = Array.from(labels, (label) => plainText(label, element))
      .join(" ")
      .trim()
    if (text) return text
  }
  if (tag === "input") {
    const input = element as HTMLInputElement
    const type = input.type
    if (type === "submit") return input.value || "Submit"
    if (type === "reset") return input.value || "Reset"
    if (type === "button") return input.value
    if (type === "image") return input.alt || input.value || "Submit"
  }
  return collapse(element.getAttribute("title") ?? element.getAttribute("placeholder") ?? "").trim()
}

export const selectedText = (select: HTMLSelectElement): string =>
  Array.from(select.selectedOptions, (option) => collapse(option.label || option.text).trim()).join(", ")

/**
 * The name a link or button takes from a part inside it when its content gives none: a descendant's
 * `aria-label`, `title` or image `alt` (the accessible-name computation reads those of the nodes it
 * walks), even where the part itself takes no space (an empty icon span with a label).
 */
export const innerName = (element: Element): string => {
  const inner = element.querySelector("[aria-label],[title],img[alt]:not([alt=''])")
  const labelled =
    inner?.getAttribute("aria-label") ?? inner?.getAttribute("title") ?? inner?.getAttribute("alt")
  return labelled?.trim() ? collapse(labelled).trim() : ""
}

/** Parts of a code name that say nothing of the purpose (`icon-search`, `btn_close`, `fa-user`). */
const CODE_WORDS =
  /^(icon|icons|ico|svg|glyph|glyphs|btn|button|fa|fas|far|js|img|image|link|sprite|assets?)$/i

/**
 * Whether a token of a code name reads as a word: letters only, at least two, with a vowel, and not a
 * run of hexadecimal digits long enough to be a hash (`deadbeef`, `c0ffee42` is no word either).
 */
const isWord = (token: string): boolean =>
  /^\p{L}{2,}$/u.test(token) &&
  /[aeiouyäöüéèáàíóúøåæœ]|[^\p{Script=Latin}]/iu.test(token) &&
  !/^[a-f]{8,}$/i.test(token)

/**
 * The words a reader would guess from a code name (an id, a file name, a path segment): split at
 * punctuation and camelCase, without the words that name the kind of thing (`icon`, `btn`). None
 * when a token mixes letters and digits (`labelled1`, `b75d`, `ember123`: generated, not written),
 * nor when no token is a word (a number run, a single letter, a hash): a guess is words or nothing.
 */
export const codeWords = (raw: string): string => {
  const tokens = raw
    .replace(/([\p{Ll}])(\p{Lu})/gu, "$1 $2")
    .split(/[^\p{L}\p{N}]+/u)
    .filter((token) => token !== "")
  const words = tokens.filter((token) => !/^\p{N}+$/u.test(token) && !CODE_WORDS.test(token))
  // One token that is no word (`labelled1`, `b75d`) marks the whole name as generated.
  if (words.length === 0 || !words.every(isWord)) return ""
  return words.join(" ").toLowerCase()
}

/** Where a guess was read, as `NameGuess.from` says (see `@sextant/core`). */
export type GuessSource = "id" | "name" | "data-action" | "href" | "src" | "icon"

/** Words guessed for an unnamed control from the page's code, and where they were read. */
export interface Guess {
  readonly from: GuessSource
  readonly words: string
}

/**
 * A guess at what a link or button with no accessible name is for (an icon, an empty anchor): a
 * decorative icon's `<title>` or symbol name, its picture's file name, then where a link goes or the
 * id a button carries. Never a name: the outline prints it marked, `button [ref=e5] (id search)`.
 */
export const guessName = (element: Element, tag: string): Guess | undefined => {
  // A picture the page marks as decoration names nothing, but its <title> is a fair guess for a
  // control that has no other words.
  for (const title of element.querySelectorAll("svg[role] > title")) {
    const text = codeWords(collapse(title.textContent ?? "").trim())
    if (text && presentational(title.parentElement!, "svg")) return { from: "icon", words: text }
  }
  const symbol = element.querySelector("use")
  const symbolHref = symbol?.getAttribute("href") ?? symbol?.getAttribute("xlink:href") ?? ""
  const symbolName = codeWords(symbolHref.replace(/^.*[#/]/, ""))
  if (symbolName) return { from: "icon", words: symbolName }
  // A picture's file name, not the data of an inline one (`data:image/gif;base64,…`).
  const source = element.querySelector("img")?.getAttribute("src")?.trim() ?? ""
  if (!/^(data|blob):/i.test(source)) {
    const file = source
      .split(/[?#]/)[0]!
      .replace(/^.*\//, "")
      .replace(/\.[a-z0-9]{2,5}$/i, "")
    const picture = OPAQUE.test(file) ? "" : codeWords(file)
    if (picture) return { from: "src", words: picture }
  }
  if (tag === "a" || tag === "area") {
    let url: URL | undefined
    try {
      url = new URL((element as HTMLAnchorElement).href)
    } catch {
      url = undefined
    }
    // A script link (`javascript:void(0)`) goes nowhere: its code names nothing.
    if (url === undefined || url.protocol === "javascript:") return undefined
    // Only the last segment says where the link goes; a parent's words (`/reading/i`) would name
    // every link under it alike.
    let segment =
      url.pathname
        .split("/")
        .filter((part) => part !== "")
        .at(-1) ?? ""
    try {
      segment = decodeURIComponent(segment)
    } catch {
      // A malformed escape reads as it is.
    }
    const named = OPAQUE.test(segment) ? "" : codeWords(segment.replace(/\.[a-z0-9]{2,5}$/i, ""))
    if (named) return { from: "href", words: named }
    return undefined
  }
  for (const attribute of ["data-action", "name", "id"] as const) {
    const named = codeWords(element.getAttribute(attribute) ?? "")
    if (named) return { from: attribute, words: named }
  }
  return undefined
}

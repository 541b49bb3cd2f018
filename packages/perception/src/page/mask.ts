import { openRoots, parentAcrossShadow } from "./frames.ts"

/*
 * Masking for screenshots: the values of text fields, and the elements whose own text the executor
 * found to hold a secret, are drawn as discs (`-webkit-text-security`) while a screenshot is taken,
 * in the page, its same-origin frames and every open shadow root in them, and given back afterwards.
 * The secrets never go into the page: the page hands its texts out and the executor names the ones
 * to mask.
 */

// Input types whose value is never shown as text, or holds no text.
const UNMASKED_TYPES = new Set([
  "password",
  "hidden",
  "checkbox",
  "radio",
  "submit",
  "button",
  "file",
  "image",
  "range",
  "color",
])

/**
 * The longest own text of one element `maskPage` hands out. Past it the text is not handed out: the
 * element is masked outright (fail closed), since a secret could sit anywhere in the part not read.
 * Long enough that real paragraphs and table cells are read, short enough that one enormous text
 * (a log in a `<pre>`) does not cross WebDriver whole.
 */
const TEXT_LIMIT = 100_000

/** Marks a masked element; holds the `-webkit-text-security` it had inline before, `[value, priority]`. */
const MARK = "data-sextant-masked"
const PROPERTY = "-webkit-text-security"

/**
 * Every document and open shadow root the page can reach: each open shadow root, and each same-origin
 * frame, also one inside a shadow root (which `window.frames` does not list).
 */
const eachRoot = (visit: (root: Document | ShadowRoot) => void): void => {
  for (const root of openRoots(document, true)) visit(root)
}

/**
 * Draws an element's text as discs, `!important` inline so that no page rule (`input {
 * -webkit-text-security: none !important }`) draws it as text, remembering its inline value and
 * priority before. An element already masked keeps what it had before the first mask.
 */
const hide = (element: HTMLElement): void => {
  if (!element.hasAttribute(MARK)) {
    const before = [element.style.getPropertyValue(PROPERTY), element.style.getPropertyPriority(PROPERTY)]
    element.setAttribute(MARK, JSON.stringify(before))
  }
  element.style.setProperty(PROPERTY, "disc", "important")
}

/** Gives a masked element its inline value and priority back, and drops the mark. */
const show = (element: HTMLElement): void => {
  let before: unknown
  try {
    before = JSON.parse(element.getAttribute(MARK) ?? "")
  } catch {
    before = undefined
  }
  const [value, priority] = Array.isArray(before) ? before : []
  if (typeof value === "string" && value !== "")
    element.style.setProperty(PROPERTY, value, typeof priority === "string" ? priority : "")
  else element.style.removeProperty(PROPERTY)
  element.removeAttribute(MARK)
}

/** Masks every text field with a value that is not a password field. */
const maskFields = (): void => {
  eachRoot((root) => {
    for (const field of Array.from(root.querySelectorAll<HTMLInputElement>("input, textarea"))) {
      const type = (field.getAttribute("type") || "text").toLowerCase()
      if (!UNMASKED_TYPES.has(type) && field.value !== "") hide(field)
    }
  })
}

// The elements maskPage handed out, by index, for maskTexts.
let textElements: Array<Element> = []

/**
 * The first half of masking a page: masks every text field with a value that is not a password
 * field, and answers every element with text of its own, in the page, its same-origin frames and
 * every open shadow root in them, as `[index, text]` pairs; `maskTexts` masks the ones the caller
 * picks by index. Text directly in a shadow root counts as its host's. An element whose own text is
 * longer than `TEXT_LIMIT` is not handed out but masked here outright: no secret can hide past a cut.
 */
export const maskPage = (): Array<[number, string]> => {
  maskFields()
  const elements: Array<Element> = []
  const texts: Array<[number, string]> = []
  eachRoot((root) => {
    const start = root.nodeType === 9 ? ((root as Document).body ?? (root as Document).documentElement) : root
    if (start === null) return
    const walker = (root.ownerDocument ?? (root as Document)).createTreeWalker(start, NodeFilter.SHOW_TEXT)
    const own = new Map<Element, string>()
    for (let node = walker.nextNode() as Text | null; node; node = walker.nextNode() as Text | null) {
      const parent = parentAcrossShadow(node)
      if (!parent || node.data.trim() === "" || parent.localName === "script" || parent.localName === "style")
        continue
      own.set(parent, (own.get(parent) ?? "") + node.data)
    }
    for (const [element, text] of own) {
      if (text.length > TEXT_LIMIT) {
        hide(element as HTMLElement)
        continue
      }
      texts.push([elements.length, text])
      elements.push(element)
    }
  })
  textElements = elements
  return texts
}

/**
 * The second half of masking a page: masks the elements `maskPage` answered at these indexes, then
 * answers how many masked elements (fields, texts) do not draw as discs after all. A page that makes
 * `setProperty` do nothing, or styles them back, gets no error from the masking itself, so this is
 * read from the computed style: the screenshot is taken only when it is 0.
 */
export const maskTexts = (indexes: ReadonlyArray<number>): number => {
  for (const index of indexes) {
    const element = textElements[index] as HTMLElement | undefined
    if (element !== undefined) hide(element)
  }
  let shown = 0
  eachRoot((root) => {
    for (const element of Array.from(root.querySelectorAll<HTMLElement>(`[${MARK}]`))) {
      const view = element.ownerDocument.defaultView ?? window
      if (view.getComputedStyle(element).getPropertyValue(PROPERTY) !== "disc") shown++
    }
  })
  return shown
}

/**
 * Gives every masked element (fields and texts) its style back, in the page, its same-origin frames
 * and their open shadow roots.
 */
export const unmaskPage = (): void => {
  eachRoot((root) => {
    for (const element of Array.from(root.querySelectorAll<HTMLElement>(`[${MARK}]`))) show(element)
  })
  textElements = []
}

import { eachWindow } from "./frames.ts"

/*
 * Masking for screenshots: the values of text fields, and the elements whose own text the executor
 * found to hold a secret, are drawn as discs (`-webkit-text-security`) while a screenshot is taken,
 * in the page and its same-origin frames, and given back afterwards. The secrets never go into the
 * page: the page hands its texts out and the executor names the ones to mask.
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

/** The style a masked field or element had before, `-` for none. */
const NONE = "-"
const TEXT_MARK = "data-sextant-masked-text"

const restore = (element: HTMLElement, before: string): void => {
  if (before === NONE) element.style.removeProperty("-webkit-text-security")
  else element.style.setProperty("-webkit-text-security", before)
}

/** Masks (or, with `mask` false, unmasks) every text field with a value that is not a password field. */
export const maskFields = (mask: boolean): void => {
  eachWindow((view) => {
    for (const field of Array.from(view.document.querySelectorAll<HTMLInputElement>("input, textarea"))) {
      const type = (field.getAttribute("type") || "text").toLowerCase()
      if (UNMASKED_TYPES.has(type)) continue
      if (mask && field.value !== "") {
        field.dataset.sextantMasked = field.style.getPropertyValue("-webkit-text-security") || NONE
        field.style.setProperty("-webkit-text-security", "disc")
      } else if (!mask && field.dataset.sextantMasked !== undefined) {
        restore(field, field.dataset.sextantMasked)
        delete field.dataset.sextantMasked
      }
    }
  })
}

// The elements pageTexts handed out, by index, for maskTexts.
let textElements: Array<Element> = []

/**
 * Every element with text of its own, in the page and its same-origin frames, as `[index, text]` pairs
 * (text cut at 2000 characters); `maskTexts` masks them by index.
 */
export const pageTexts = (): Array<[number, string]> => {
  const elements: Array<Element> = []
  const texts: Array<[number, string]> = []
  eachWindow((view) => {
    const root = view.document.body ?? view.document.documentElement
    const walker = view.document.createTreeWalker(root, NodeFilter.SHOW_TEXT)
    const own = new Map<Element, string>()
    for (let node = walker.nextNode() as Text | null; node; node = walker.nextNode() as Text | null) {
      const parent = node.parentElement
      if (!parent || node.data.trim() === "" || parent.localName === "script" || parent.localName === "style")
        continue
      own.set(parent, (own.get(parent) ?? "") + node.data)
    }
    for (const [element, text] of own) {
      texts.push([elements.length, text.slice(0, 2000)])
      elements.push(element)
    }
  })
  textElements = elements
  return texts
}

/** Masks the elements `pageTexts` answered at these indexes. */
export const maskTexts = (indexes: ReadonlyArray<number>): void => {
  for (const index of indexes) {
    const element = textElements[index] as HTMLElement | undefined
    if (element === undefined) continue
    element.setAttribute(TEXT_MARK, element.style.getPropertyValue("-webkit-text-security") || NONE)
    element.style.setProperty("-webkit-text-security", "disc", "important")
  }
}

/** Gives every element `maskTexts` masked its style back, in the page and its same-origin frames. */
export const unmaskTexts = (): void => {
  eachWindow((view) => {
    for (const element of Array.from(view.document.querySelectorAll<HTMLElement>(`[${TEXT_MARK}]`))) {
      restore(element, element.getAttribute(TEXT_MARK) ?? NONE)
      element.removeAttribute(TEXT_MARK)
    }
  })
  textElements = []
}

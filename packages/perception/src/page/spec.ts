import { shown } from "./visibility.ts"

/* The page functions a generated test's steps and assertions read (@sextant/explorer's runner). */

/** How many elements a CSS selector matches. */
export const countMatches = (selector: string): number => document.querySelectorAll(selector).length

/**
 * What an assertion reads of one element: its rendered text, its value, whether it is shown, whether a
 * checkbox or radio is checked, and the text of a select list's chosen option.
 */
export interface ElementState {
  readonly text: string
  readonly value?: string | undefined
  readonly visible: boolean
  readonly checked?: boolean | undefined
  readonly chosen?: string | undefined
}

/** The state of the first element a selector matches (`visible` is `shown`), or null when none does. */
export const elementState = (selector: string): ElementState | null => {
  const element = document.querySelector(selector)
  if (element === null) return null
  return {
    // biome-ignore lint/performance/useDomNodeTextContent: what a person reads, as an assertion states it
    text: (element as HTMLElement).innerText ?? element.textContent ?? "",
    value: "value" in element ? String(element.value) : undefined,
    visible: shown(element),
    checked:
      element instanceof HTMLInputElement && (element.type === "checkbox" || element.type === "radio")
        ? element.checked
        : element.hasAttribute("aria-checked")
          ? element.getAttribute("aria-checked") === "true"
          : undefined,
    chosen: element instanceof HTMLSelectElement ? (element.selectedOptions[0]?.text ?? "") : undefined,
  }
}

/** The page's rendered text ("" before it has a body). */
// biome-ignore lint/performance/useDomNodeTextContent: the text as the page shows it
export const bodyText = (): string => (document.body ? document.body.innerText : "")

/** The rendered text of the page's `main`, else of its body. */
export const mainText = (): string => {
  const root = document.querySelector("main") ?? document.body
  // biome-ignore lint/performance/useDomNodeTextContent: the text as the page shows it
  return root ? (root as HTMLElement).innerText : ""
}

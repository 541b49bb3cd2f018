import { collapse } from "./text.ts"

/* Choosing options of a native <select>: the one select handler, for the actor and for `act`. */

/** What choosing options did: the labels chosen, or why nothing was chosen. */
export type Choice =
  | { readonly ok: true; readonly selected: string[] }
  | { readonly ok: false; readonly reason: "notselect" }
  | { readonly ok: false; readonly reason: "nooption"; readonly wanted: string; readonly options: string[] }
  | { readonly ok: false; readonly reason: "toomany"; readonly count: number }

/** An option's label as the page shows it, whitespace collapsed. */
export const optionLabel = (option: HTMLOptionElement): string => collapse(option.label).trim()

/** The option a wanted entry names: its value exactly, else its label or text (whitespace collapsed). */
const optionFor = (options: HTMLOptionElement[], entry: string): HTMLOptionElement | undefined => {
  const wanted = collapse(entry).trim()
  return (
    options.find((option) => option.value === entry) ??
    options.find((option) => optionLabel(option) === wanted || collapse(option.text).trim() === wanted)
  )
}

/**
 * Chooses options of a native `<select>` as WebDriver's element selection does: every wanted entry
 * must name an option (one entry for a single select), then the options' selectedness is set and
 * `input` and `change` fire. Nothing changes when an entry names no option.
 */
export const chooseOptions = (element: Element, wanted: ReadonlyArray<string>): Choice => {
  if (element.localName !== "select") return { ok: false, reason: "notselect" }
  const select = element as HTMLSelectElement
  const options = Array.from(select.options)
  const chosen: HTMLOptionElement[] = []
  for (const entry of wanted) {
    const option = optionFor(options, entry)
    if (option === undefined)
      return { ok: false, reason: "nooption", wanted: entry, options: options.map(optionLabel) }
    chosen.push(option)
  }
  if (!select.multiple && chosen.length > 1) return { ok: false, reason: "toomany", count: chosen.length }
  select.focus({ preventScroll: true })
  for (const option of options) option.selected = chosen.includes(option)
  select.dispatchEvent(new Event("input", { bubbles: true, composed: true }))
  select.dispatchEvent(new Event("change", { bubbles: true }))
  return { ok: true, selected: chosen.map(optionLabel) }
}

/* States: what an element says about itself (checked, expanded, disabled…), as flags and as words. */

export interface States {
  /** The words the outline prints in brackets after the element, in order. */
  readonly words: string[]
  readonly checked: boolean | "mixed" | undefined
  readonly selected: boolean | undefined
  readonly expanded: boolean | undefined
  /** A toggle button's `aria-pressed`: undefined for a plain button. */
  readonly pressed: boolean | "mixed" | undefined
  readonly disabled: boolean
  readonly required: boolean
  readonly invalid: boolean
}

/**
 * The states of an element with this tag and role. `isControl` is true for input, select and
 * textarea (their native states count); `interactive` says whether `required` is worth a word.
 */
export const statesOf = (
  element: Element,
  tag: string,
  role: string,
  isControl: boolean,
  interactive: boolean,
): States => {
  const words: string[] = []
  let checked: boolean | "mixed" | undefined
  let selected: boolean | undefined
  let expanded: boolean | undefined
  const ariaChecked = element.getAttribute("aria-checked")
  if (tag === "input" && (role === "checkbox" || role === "radio" || role === "switch"))
    checked = (element as HTMLInputElement).indeterminate ? "mixed" : (element as HTMLInputElement).checked
  else if (ariaChecked !== null) checked = ariaChecked === "mixed" ? "mixed" : ariaChecked === "true"
  if (checked === true) words.push("checked")
  else if (checked === "mixed") words.push("mixed")
  const ariaSelected = element.getAttribute("aria-selected")
  if (ariaSelected !== null) selected = ariaSelected === "true"
  if (selected === true) words.push("selected")
  const ariaExpanded = element.getAttribute("aria-expanded")
  if (ariaExpanded !== null) expanded = ariaExpanded === "true"
  else if (tag === "summary" && element.parentElement?.localName === "details")
    expanded = (element.parentElement as HTMLDetailsElement).open
  if (expanded !== undefined) words.push(expanded ? "expanded" : "collapsed")
  const ariaPressed = element.getAttribute("aria-pressed")
  const pressed =
    ariaPressed === null || ariaPressed === "" || ariaPressed === "undefined"
      ? undefined
      : ariaPressed === "mixed"
        ? "mixed"
        : ariaPressed === "true"
  if (pressed === true) words.push("pressed")
  const disabled =
    element.getAttribute("aria-disabled") === "true" ||
    (isControl || tag === "button" ? element.matches(":disabled") : false)
  if (disabled) words.push("disabled")
  const required =
    element.getAttribute("aria-required") === "true" || (isControl && (element as HTMLInputElement).required)
  if (required && interactive) words.push("required")
  const invalid =
    element.getAttribute("aria-invalid") === "true" || (isControl && element.matches(":user-invalid"))
  if (invalid) words.push("invalid")
  const current = element.getAttribute("aria-current")
  if (current && current !== "false") words.push("current")
  return { words, checked, selected, expanded, pressed, disabled, required, invalid }
}

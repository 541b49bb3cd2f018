/** What one look() is asked for; `PageScript.ts` sends only the options the page reads. */
export interface LookOptions {
  readonly mode?: "full" | "interactive"
  readonly within?: string
  readonly secretSelectors?: ReadonlyArray<string>
  readonly maxTextLength?: number
  readonly maxNameLength?: number
  readonly maxOptions?: number
}

/** One node of the outline before rendering. Plain text runs are strings. */
export interface Node {
  role: string
  label: string
  name: string
  ref: string
  suffix: string
  url: string
  /** The document a link leads to (whole, without its fragment); absent when it stays on this page. */
  target?: string
  /** Text that follows an inline node in the same line of prose. */
  tail: string
  kids: Item[]
  container: boolean
  heading: boolean
  /** An svg named only by its `<title>`: an icon, left out of a name read from content beside words. */
  icon?: boolean
  /** A control kept from an aria-hidden subtree: shown, but no part of the name of what holds it. */
  ariaHidden?: boolean
  /** A figure, group or toolbar read through: its content is its own, no part of a control's name. */
  ownContent?: boolean
  /**
   * What a control with no name seems to be for, guessed from its code (its link target, an icon's
   * file name, its id): printed marked as a guess, no part of an enclosing name.
   */
  guess?: { readonly from: string; readonly words: string }
  /** A control named by its own words: text beside it that says its name again is more of the page. */
  ownWords?: boolean
  /**
   * A structure element (an article, a list, a row, a cell, a separator) the page names with words
   * its content does not show: it prints a line of its own with that name.
   */
  named?: boolean
  /** A heading whose name was cut (the rest prints under it): all its words, for a name read from content. */
  whole?: string
  /**
   * The element a node with a line but no ref stands for (a heading, an image, a meter), so the line
   * it printed can be found from the element (`printedAs`).
   */
  source?: Element
}

export type Item = string | Node

/** One actionable element as `look` reports it (see `RawSnapshot` in `../internal/RawSnapshot.ts`). */
export interface RawElement {
  ref: string
  key: string
  role: string
  name: string
  /** Words guessed for an element with no name, and where they were read (see `Node.guess`). */
  guess?: { readonly from: string; readonly words: string }
  tag: string
  attributes: Record<string, string>
  value?: string
  checked?: boolean | "mixed"
  selected?: boolean
  expanded?: boolean
  pressed?: boolean | "mixed"
  disabled?: boolean
  required?: boolean
  invalid?: boolean
  visible: boolean
  box: Box
  options?: string[]
  selectors: string[]
  frame?: string[]
  form?: string
  region: string
}

export interface RawForm {
  key: string
  ref: string
  name: string
  fields: string[]
  submit?: string
}

export interface Box {
  x: number
  y: number
  width: number
  height: number
}

/** A document or shadow root being walked, and where it sits in the top-level viewport. */
export interface Frame {
  /** Offset of this document's viewport in the top-level viewport. */
  x: number
  y: number
  path: string[]
  root: Document | ShadowRoot
}

/** A text run for screen semantics: its region, its kind and its words (a count for result lists). */
export type Text = [region: string, kind: string, text: string, count?: number]

/** A container's span of lines: its ref, the label the outline prints, first line, line after the last. */
export type Anchor = [ref: string, label: string, start: number, end: number]

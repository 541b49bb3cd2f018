import type { Item, Node } from "./types.ts"

/** Separators between inline links carry no words and are left out. */
export const PUNCTUATION = /^[\s|·•/,;:\-–—]*$/

export const collapse = (text: string): string => text.replace(/\s+/g, " ")

/** Cuts long text with a marker that says how much is left out and how to read it. */
export const clip = (text: string, max: number): string =>
  text.length <= max
    ? text
    : `${text.slice(0, max).trimEnd()}… (+${text.length - max} chars: raise maxTextLength to read them)`

export const clipName = (text: string, max: number): string =>
  text.length <= max ? text : `${text.slice(0, max).trimEnd()}…`

/**
 * A run of words too long for a name, split where a name of it stops: its start, cut at a word when
 * one ends past half of `max`, and the rest, which a control prints beneath its name so no word a
 * reader sees is lost.
 */
export const splitName = (text: string, max: number): [head: string, rest: string] => {
  if (text.length <= max) return [text, ""]
  const space = text.lastIndexOf(" ", max)
  const cut = space > max / 2 ? space : max
  return [text.slice(0, cut).trimEnd(), text.slice(cut).trim()]
}

// Captured when the script is evaluated: a page script may replace JSON.stringify later (old
// libraries did).
export const stringify = JSON.stringify

export const quote = (text: string): string => stringify(text)

/** A CSS attribute-selector string literal. */
export const cssString = (value: string): string => `"${value.replace(/\\/g, "\\\\").replace(/"/g, '\\"')}"`

/** How the text runs of one walk join up; the walker updates it as it enters and leaves elements. */
export interface JoinState {
  /** The last thing added to the current list is a text run that the next words continue. */
  joinable: boolean
  /** The last element ended a box of its own (inline-block, block span): the next words start apart. */
  spaceNext: boolean
  /** An inline node (a link in prose) whose following words go into its `tail`. */
  attachTo: Node | null
}

/** Adds a text node's words to `out`: continuing the last run, a link's tail, or a new run. */
export const pushText = (join: JoinState, out: Item[], raw: string): void => {
  const text = collapse(raw)
  if (text === "" || text === " ") {
    if (text === " " && join.joinable && typeof out[out.length - 1] === "string") out[out.length - 1] += " "
    return
  }
  const last = out[out.length - 1]
  const apart = (before: string) =>
    join.spaceNext && !/\s$/.test(before) && !text.startsWith(" ") ? " " : ""
  if (join.attachTo !== null && last === join.attachTo) {
    join.attachTo.tail += apart(join.attachTo.tail) + text
    join.spaceNext = false
    return
  }
  if (join.joinable && typeof last === "string") out[out.length - 1] = last + apart(last) + text
  else out.push(text)
  join.joinable = true
  join.spaceNext = false
}

/**
 * Trims and clips the text runs of a finished list (and the tails of its inline nodes), dropping
 * empty runs and tails that are only separators. `note` hears the texts kept, for screen semantics:
 * every tail, and the runs too unless `record` is false (a control's or heading's own words).
 */
export const finishTexts = (
  items: ReadonlyArray<Item>,
  maxText: number,
  note?: (text: string) => void,
  record = true,
): Item[] => {
  const result: Item[] = []
  for (const item of items) {
    if (typeof item === "string") {
      const text = item.trim()
      if (text) {
        result.push(clip(text, maxText))
        if (record) note?.(text)
      }
    } else {
      if (item.tail) {
        item.tail = PUNCTUATION.test(item.tail) ? "" : clip(item.tail.trim(), maxText)
        if (item.tail) note?.(item.tail)
      }
      result.push(item)
    }
  }
  return result
}

import type { PageElement } from "@sextant/core"
import { fitsTokens } from "../Tokens.ts"
import type { Anchor, Budgeted } from "./Budget.ts"

/*
 * A model's view within a token budget: every line with a ref stays, text goes by priority, and each
 * part left out is named by one line with the look that shows it.
 */

const REF = /\[ref=(e\d+)\]/g
const HEADING = /^\s*- h[1-6]\b/
/** Text a model must see before anything else: what the page says went wrong or asks now. */
const URGENT = /^\s*- (alert|alertdialog|dialog|status)\b/
/** Landmarks around the content: their text goes first. */
const QUIET = /^(header|nav|footer|aside)\b/
/** Containers whose text says what a form or a dialog asks: it goes last. */
const ASKING = /^(form|dialog|alertdialog|alert|search)\b/
/** A text line longer than this is a paragraph: it goes before short lines (labels, prices, counts). */
const PARAGRAPH = 200
/** A handle names the widest container holding a line that has at most this many lines (else the narrowest). */
const REGION_LINES = 200
/** Dropped lines outside every container further apart than this get handles of their own. */
const RUN_GAP = 30
/** A compact control's name stops here, at a word, with "…" (`elements[ref].name` keeps it whole). */
const COMPACT_NAME = 32
/** A compact select lists this many options, then how many more and the look that lists them. */
const COMPACT_OPTIONS = 5

type Kind = "control" | "container" | "heading" | "text"

interface Line {
  readonly text: string
  readonly kind: Kind
  readonly refs: ReadonlyArray<string>
  /** The container with a ref whose handle names the line (an index into the anchors), or -1. */
  readonly group: number
  /** Lower goes first. */
  readonly rank: number
}

const cutName = (name: string): string => {
  if (name.length <= COMPACT_NAME) return name
  const space = name.lastIndexOf(" ", COMPACT_NAME)
  return `${name.slice(0, space > COMPACT_NAME / 2 ? space : COMPACT_NAME).trimEnd()}…`
}

/** A control as the interactive view prints it: `e4 Home` for a link, `e9 button Search [disabled]: value` otherwise. */
export const compactControl = (element: PageElement): string => {
  const name = element.name === "" ? "" : ` ${cutName(element.name)}`
  if (element.role === "link" && name !== "") return `${element.ref}${name}`
  let line = `${element.ref} ${element.role}${name}`
  if (element.checked === true) line += " [checked]"
  if (element.checked === "mixed") line += " [mixed]"
  if (element.selected === true) line += " [selected]"
  if (element.expanded === true) line += " [expanded]"
  if (element.expanded === false) line += " [collapsed]"
  if (element.pressed === true) line += " [pressed]"
  if (element.disabled === true) line += " [disabled]"
  if (element.required === true) line += " [required]"
  if (element.invalid === true) line += " [invalid]"
  if (element.value !== undefined && element.value !== "") line += `: ${cutName(element.value)}`
  const options = element.options ?? []
  if (options.length > 0) {
    const more = options.length - COMPACT_OPTIONS
    line += ` [options: ${options.slice(0, COMPACT_OPTIONS).join("|")}${more > 0 ? `|…+${more}: look({ within: "${element.ref}" })` : ""}]`
  }
  return line
}

const classify = (lines: ReadonlyArray<string>, anchors: ReadonlyArray<Anchor>): Array<Line> => {
  const starts = new Set(anchors.map(([, , start]) => start))
  return lines.map((text, index) => {
    const refs = [...text.matchAll(REF)].map((match) => match[1]!)
    const holders = anchors.filter(([, , start, end]) => start <= index && index < end)
    // Outermost first: the widest region that is not too long to read in one look names the line.
    const widest = [...holders].sort((left, right) => right[3] - right[2] - (left[3] - left[2]))
    const region = widest.find(([, , start, end]) => end - start <= REGION_LINES) ?? widest.at(-1)
    const group = region === undefined ? -1 : anchors.indexOf(region)
    const kind: Kind =
      refs.length > 0
        ? "control"
        : starts.has(index) && text.endsWith(":")
          ? "container"
          : HEADING.test(text)
            ? "heading"
            : "text"
    const labels = holders.filter(([, , start]) => start !== index).map(([, label]) => label)
    const quiet = labels.some((label) => QUIET.test(label))
    const asking = URGENT.test(text) || labels.some((label) => ASKING.test(label))
    const rank = asking
      ? 5
      : kind === "heading"
        ? quiet
          ? 3
          : 4
        : quiet
          ? 0
          : text.trim().length > PARAGRAPH
            ? 1
            : 2
    return { text, kind, refs, group, rank }
  })
}

/** Where a dropped line's handle points: a container to open, or a line to read on from. */
const handleOf = (group: number, first: number, anchors: ReadonlyArray<Anchor>, place: Place): string => {
  if (group >= 0) {
    const [ref, label] = anchors[group]!
    return `look({ within: "${ref}" }) shows ${label}`
  }
  return `${readOn(place, first)} reads on from there`
}

/** Where a view starts: the ref it is within, and the line of that view it starts at. */
export interface Place {
  readonly within?: string | undefined
  readonly from?: number | undefined
}

/** The look that reads a view on from its line `line` (counted from where it starts). */
export const readOn = (place: Place, line: number): string => {
  const from = (place.from ?? 0) + line
  return place.within === undefined
    ? `look({ from: ${from} })`
    : `look({ within: "${place.within}", from: ${from} })`
}

const indentOf = (text: string): string => /^\s*/.exec(text)![0]

const wordsOf = (text: string): Array<string> => text.toLowerCase().match(/[\p{L}\p{N}]{2,}/gu) ?? []

/** Whether a full line has words its compact controls do not say (link targets and role words aside). */
const saysMore = (full: string, compact: string): boolean => {
  const said = new Set(wordsOf(compact))
  const rest = full
    .replace(/ -> \S+/g, " ")
    .replace(/\[ref=e\d+\]/g, " ")
    .replace(/^\s*- \S+/, " ")
  return wordsOf(rest).some((word) => !said.has(word) && !ROLE_WORDS.has(word))
}

/** Roles and states a full line prints that its compact form says otherwise or not at all. */
const ROLE_WORDS = new Set([
  "link",
  "button",
  "textbox",
  "checkbox",
  "radio",
  "combobox",
  "searchbox",
  "slider",
  "spinbutton",
  "switch",
  "tab",
  "menuitem",
  "option",
  "listbox",
  "img",
  "ref",
  "checked",
  "mixed",
  "selected",
  "expanded",
  "collapsed",
  "pressed",
  "disabled",
  "required",
  "invalid",
  "current",
  "file",
  "options",
])

/**
 * Renders the view with the lines in `dropped` left out: each group of them (one per container with
 * a ref, the widest of at most `REGION_LINES` lines; one per run outside every container) is named
 * where its first line was.
 * `compact` prints controls as the interactive view does, one per line, and the rest flush left.
 */
const render = (
  lines: ReadonlyArray<Line>,
  dropped: ReadonlySet<number>,
  anchors: ReadonlyArray<Anchor>,
  elements: Readonly<Record<string, PageElement>>,
  compact: boolean,
  place: Place,
): string => {
  const out: Array<string> = []
  const handles = new Map<string, { at: number; count: number; first: number; indent: string }>()
  let runKey = ""
  let lastOutside = Number.NEGATIVE_INFINITY
  const leaveOut = (line: Line, index: number): void => {
    let key = `g${line.group}`
    if (line.group < 0) {
      if (index - lastOutside > RUN_GAP) runKey = `r${index}`
      lastOutside = index
      key = runKey
    }
    const handle = handles.get(key)
    if (handle !== undefined) handle.count++
    else {
      handles.set(key, {
        at: out.length,
        count: 1,
        first: index,
        indent: compact ? "" : indentOf(line.text),
      })
      out.push("")
    }
  }
  lines.forEach((line, index) => {
    if (dropped.has(index)) {
      leaveOut(line, index)
      return
    }
    if (!compact) out.push(line.text)
    else if (line.kind === "control") {
      const controls = line.refs.map((ref) => {
        const element = elements[ref]
        return element === undefined ? line.text.trim() : compactControl(element)
      })
      // Words the full line says beside its controls (a row's cells, text after a link) are left out too.
      if (saysMore(line.text, controls.join(" "))) leaveOut(line, index)
      out.push(
        ...(line.refs.length > 1 && controls.join(" · ").length <= PARAGRAPH
          ? [controls.join(" · ")]
          : controls),
      )
    } else out.push(line.text.trimStart())
  })
  for (const [key, handle] of handles) {
    const group = key.startsWith("g") ? Number(key.slice(1)) : -1
    const what = handle.count === 1 ? "1 line of text" : `${handle.count} lines of text`
    out[handle.at] = `${handle.indent}- [${what} left out: ${handleOf(group, handle.first, anchors, place)}]`
  }
  return out.join("\n")
}

/** The smallest `count` for which `fits(count)` holds, assuming it keeps holding above it; `max` when none does. */
const smallest = (max: number, fits: (count: number) => boolean): number => {
  let low = 0
  let high = max
  while (low < high) {
    const middle = Math.floor((low + high) / 2)
    if (fits(middle)) high = middle
    else low = middle + 1
  }
  return low
}

/**
 * The view of a full outline within `budget` tokens (see `LookOptions.budget`): the whole outline
 * when it fits; else the outline with text left out by priority; else every control printed compactly
 * with what text still fits; else every control alone, over the budget, with a line saying so.
 */
export const applyViewBudget = (
  rawLines: ReadonlyArray<string>,
  anchors: ReadonlyArray<Anchor>,
  elements: Readonly<Record<string, PageElement>>,
  budget: number,
  place: Place = {},
): Budgeted => {
  const whole = rawLines.join("\n")
  if (fitsTokens(whole, budget)) return { tree: whole, truncated: false }
  const lines = classify(rawLines, anchors)
  // Least needed first; within a rank, the bottom of the page before the top.
  const order = lines
    .map((line, index) => ({ line, index }))
    .filter(({ line }) => line.kind === "heading" || line.kind === "text")
    .sort((left, right) => left.line.rank - right.line.rank || right.index - left.index)
    .map(({ index }) => index)
  const attempt = (count: number, compact: boolean) =>
    render(lines, new Set(order.slice(0, count)), anchors, elements, compact, place)
  for (const compact of [false, true]) {
    const count = smallest(order.length, (dropped) => fitsTokens(attempt(dropped, compact), budget))
    const tree = attempt(count, compact)
    if (fitsTokens(tree, budget)) return { tree, truncated: true }
  }
  const controls = lines.reduce((total, line) => total + line.refs.length, 0)
  return {
    tree: `- [over the budget of ${budget} tokens: the page's ${controls} controls alone take more, and every one is listed]\n${attempt(order.length, true)}`,
    truncated: true,
  }
}

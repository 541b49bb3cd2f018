import { collapse } from "./text.ts"
import { shown } from "./visibility.ts"

/*
 * Reading a calendar date picker, for the `pickDate` tool (@sextant/tools), by its semantics rather
 * than its markup: the grid of days (`role=grid`, or a table of day numbers) nearest the field, the
 * month it shows (a caption such as "May 2024" or "2024年5月", else the month most of its day labels
 * name), the buttons that move it (named Next/Previous month, ›/‹, 下个月/上个月 by text, aria-label or
 * title), and the cell of the wanted day (its aria-label names the day, or its number in the month).
 */

/** What one read of the picker found; the selectors are marks set on the elements for one action. */
export interface CalendarState {
  /** The field was found by its selector. */
  readonly field: boolean
  /** The field's `type` attribute (`date` for a native date input). */
  readonly fieldType: string
  /** The field's value. */
  readonly value: string
  /** A grid of days is shown. */
  readonly open: boolean
  /** The month the grid shows, `2024-05`, when it can be read. */
  readonly shown: string | null
  /** The cell (or its button) of the wanted day, when the grid shows it. */
  readonly day: string | null
  readonly next: string | null
  readonly previous: string | null
  /** A button beside the field that looks like it opens a calendar. */
  readonly opener: string | null
}

/** The attribute `readCalendar` marks elements with; `clearMarks("data-sextant-date")` removes it. */
const MARK = "data-sextant-date"

const clean = (text: string | null | undefined): string => collapse(String(text ?? "")).trim()
const pad = (value: string | number): string => String(value).padStart(2, "0")
const disabled = (element: Element): boolean =>
  (element as HTMLButtonElement).disabled === true || element.getAttribute("aria-disabled") === "true"
const nameOf = (element: Element): string =>
  clean(element.getAttribute("aria-label") || element.getAttribute("title") || element.textContent)
const dayNumber = (element: Element): number =>
  /^\d{1,2}$/.test(clean(element.textContent)) ? Number(clean(element.textContent)) : 0
const center = (element: Element): [number, number] => {
  const box = element.getBoundingClientRect()
  return [box.left + box.width / 2, box.top + box.height / 2]
}

/**
 * Reads the picker of the field `fieldSelector` names, looking for the day `wanted` (`2024-05-14`),
 * and marks the elements to act on (the day, Next, Previous, the opener) with `data-sextant-date`.
 * `months` are the English month names in lower case, January first (core's `MONTH_NAMES`).
 * Only shown elements (`shown`) count.
 */
export const readCalendar = (
  fieldSelector: string,
  wanted: string,
  months: ReadonlyArray<string>,
): CalendarState => {
  for (const element of Array.from(document.querySelectorAll(`[${MARK}]`))) element.removeAttribute(MARK)
  const mark = (element: Element | null | undefined, name: string): string | null => {
    if (!element) return null
    element.setAttribute(MARK, name)
    return `[${MARK}="${name}"]`
  }
  const monthOf = (word: string): number => {
    const lower = word.toLowerCase().replace(/\.$/, "")
    if (lower.length < 3) return 0
    return months.findIndex((name) => name === lower || (name.startsWith(lower) && lower.length <= 4)) + 1
  }
  // A whole day named in words: "May 14, 2024", "Tuesday, 14 May 2024", "2024-05-14", "2024年5月14日".
  const dayOf = (text: string): string | null => {
    let match =
      /(\d{4})-(\d{1,2})-(\d{1,2})/.exec(text) ?? /(\d{4})\s*年\s*(\d{1,2})\s*月\s*(\d{1,2})/.exec(text)
    if (match) return `${match[1]}-${pad(match[2] ?? "")}-${pad(match[3] ?? "")}`
    match = /([A-Za-z]{3,9})\.?\s+(\d{1,2})(?:st|nd|rd|th)?,?\s+(\d{4})/.exec(text)
    if (match && monthOf(match[1] ?? "") > 0)
      return `${match[3]}-${pad(monthOf(match[1] ?? ""))}-${pad(match[2] ?? "")}`
    match = /(\d{1,2})(?:st|nd|rd|th)?\s+([A-Za-z]{3,9})\.?,?\s+(\d{4})/.exec(text)
    if (match && monthOf(match[2] ?? "") > 0)
      return `${match[3]}-${pad(monthOf(match[2] ?? ""))}-${pad(match[1] ?? "")}`
    return null
  }
  // A month named with its year: "May 2024", "2024年5月".
  const monthShown = (text: string): string | null => {
    for (const found of text.matchAll(/\b([A-Za-z]{3,9})\.?,?\s+(\d{4})\b/g))
      if (monthOf(found[1] ?? "") > 0) return `${found[2]}-${pad(monthOf(found[1] ?? ""))}`
    const match = /(\d{4})\s*年\s*(\d{1,2})\s*月/.exec(text)
    return match ? `${match[1]}-${pad(match[2] ?? "")}` : null
  }
  const field = document.querySelector(fieldSelector)
  const state = {
    field: field !== null,
    fieldType: field ? String(field.getAttribute("type") ?? "") : "",
    value: field && "value" in field ? String(field.value) : "",
    open: false,
    shown: null as string | null,
    day: null as string | null,
    next: null as string | null,
    previous: null as string | null,
    opener: null as string | null,
  }
  const distance = (element: Element): number => {
    if (!field) return 0
    const [x1, y1] = center(field)
    const [x2, y2] = center(element)
    return Math.hypot(x1 - x2, y1 - y2)
  }
  const cellsOf = (grid: Element) =>
    Array.from(grid.querySelectorAll("[role=gridcell], td, button, [role=button], a")).filter(shown)
  const grid = Array.from(document.querySelectorAll("[role=grid], table"))
    .filter(shown)
    .filter(
      (candidate) =>
        candidate.getAttribute("role") === "grid" ||
        cellsOf(candidate).filter((cell) => dayNumber(cell) > 0).length >= 28,
    )
    .sort((a, b) => distance(a) - distance(b))[0]
  if (grid) {
    state.open = true
    const moves = (root: Element) =>
      Array.from(root.querySelectorAll("button, [role=button], a, [tabindex]")).filter(
        (element) => !grid.contains(element) && shown(element) && !disabled(element),
      )
    const NEXT = /\bnext\b|›|»|→|^>$|下一?个?月|下月/i
    const PREVIOUS = /\bprev(ious)?\b|‹|«|←|^<$|上一?个?月|上月/i
    const YEAR = /\byear\b|年/i
    const pick = (buttons: Element[], pattern: RegExp): Element | null => {
      const fitting = buttons.filter((button) => pattern.test(nameOf(button)) && !YEAR.test(nameOf(button)))
      return fitting.find((button) => /month|月/i.test(nameOf(button))) ?? fitting[0] ?? null
    }
    let root: Element = grid.closest("[role=dialog]") ?? grid
    for (let up = 0; up < 5 && root.parentElement && !pick(moves(root), NEXT); up += 1)
      root = root.parentElement
    const buttons = moves(root)
    state.next = mark(pick(buttons, NEXT), "next")
    state.previous = mark(pick(buttons, PREVIOUS), "previous")
    // The caption: the grid's own name, else the words around it that are not day cells or buttons.
    const captions = [grid.getAttribute("aria-label") ?? ""]
    const labelledBy = grid.getAttribute("aria-labelledby")
    if (labelledBy)
      for (const id of labelledBy.split(/\s+/)) captions.push(document.getElementById(id)?.textContent ?? "")
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT)
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const parent = node.parentElement
      if (!parent || (grid.contains(parent) && !parent.closest("caption, thead"))) continue
      if (parent.closest("button, [role=button]")) continue
      captions.push(node.textContent ?? "")
    }
    for (const caption of captions) {
      state.shown = monthShown(clean(caption))
      if (state.shown) break
    }
    const cells = cellsOf(grid).filter((cell) => !disabled(cell))
    const days = cells.map((cell) => dayOf(clean(cell.getAttribute("aria-label"))))
    if (!state.shown) {
      const counts = new Map<string, number>()
      for (const day of days) if (day) counts.set(day.slice(0, 7), (counts.get(day.slice(0, 7)) ?? 0) + 1)
      state.shown = [...counts.entries()].sort((a, b) => b[1] - a[1])[0]?.[0] ?? null
    }
    // The wanted day by its label, else by its number in the month shown (cells of the months around
    // it are often disabled or carry another month in their label).
    let target = cells.find((_, index) => days[index] === wanted)
    if (!target && state.shown === wanted.slice(0, 7))
      target = cells.find(
        (cell, index) => days[index] === null && dayNumber(cell) === Number(wanted.slice(8)),
      )
    if (target) {
      const inner = target.matches("button, [role=button], a")
        ? target
        : target.querySelector("button, [role=button], a")
      state.day = mark(inner ?? target, "day")
    }
  } else if (field) {
    // No grid yet: a button beside the field (within a few ancestors) named like a calendar.
    const OPENER = /calendar|date|日期|日历|📅|🗓/i
    let near = field.parentElement
    for (let up = 0; up < 3 && near && !state.opener; up += 1, near = near.parentElement) {
      const found = Array.from(near.querySelectorAll("button, [role=button]"))
        .filter((button) => shown(button) && !disabled(button) && OPENER.test(nameOf(button)))
        .sort((a, b) => distance(a) - distance(b))[0]
      state.opener = mark(found, "opener")
    }
  }
  return state
}

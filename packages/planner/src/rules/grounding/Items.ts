/**
 * The lists a page shows and one item of them: an `ItemPick` of `@sextant/core` ("the second one", "the
 * cheapest flight") → the item's own control on the page, read from a `look()` outline. The step policy
 * grounds a `pick` command with it and the executor's goal check reads the same page again with it, so
 * "exactly that item" means the same thing to both.
 *
 * A list is what a person sees as one: items that each carry a control of the same name (`Select`, `Add
 * to cart`) side by side, or a group of radios. An item's text is what the outline prints between the
 * control of the item before it and its own control (the first item: back to a heading of the kind the
 * others start with, or no further than the longest other item). Reading a price, a time, a duration, a
 * day or a rating out of that text is reading, not judgement; the least or the greatest is taken only when
 * every item prints exactly one such value and one item alone has it. Anything else is refused with the
 * reason, never guessed.
 */
import { type ItemMeasure, type ItemPick, readCalendarDay } from "@sextant/core"
import { ITEM_CONTROLS } from "../Vocabulary.ts"
import { samePlural, wordsOf } from "../Words.ts"

/** One item of a list: its position (1-based), its own control and the text the page prints for it. */
export interface ListItem {
  readonly index: number
  readonly ref: string
  readonly role: string
  readonly name: string
  readonly text: string
}

/** A list on the page: repeated controls of one name, or a group of radios. */
export interface PageList {
  readonly kind: "controls" | "radios"
  /** The name the items' controls share (`Select`), empty for radios. */
  readonly control: string
  readonly items: ReadonlyArray<ListItem>
}

/** The item a pick names and the list it is in, or why it cannot be told. */
export type PickedItem =
  | { readonly ok: true; readonly item: ListItem; readonly list: PageList }
  | { readonly ok: false; readonly reason: string }

interface Line {
  readonly indent: number
  readonly role: string
  readonly name: string
  readonly ref: string | undefined
  /** The words a person reads on the line. */
  readonly text: string
  /** Heading level, 0 when the line is no heading. */
  readonly level: number
  /** Inside the header, the navigation or the footer: never an item of a content list. */
  readonly chrome: boolean
}

const LINE = /^(\s*)-\s+(.*)$/
const REGIONS = /^(header|nav|navigation|banner|footer|contentinfo)\b/
const ROLE = /^(h[1-6]\s+)?([\w-]+)(?:\s+("(?:[^"\\]|\\.)*"))?/

const unquote = (quoted: string | undefined): string => {
  if (quoted === undefined) return ""
  try {
    return JSON.parse(quoted) as string
  } catch {
    return quoted.slice(1, -1)
  }
}

/** The outline's lines with their indent, role, name, ref and the region they sit in. */
const readLines = (outline: string): ReadonlyArray<Line> => {
  const lines: Array<Line> = []
  const stack: Array<{ indent: number; chrome: boolean }> = []
  for (const raw of outline.split("\n")) {
    const match = LINE.exec(raw)
    if (match === null) continue
    const indent = match[1]!.length
    const content = match[2]!
    while (stack.length > 0 && stack.at(-1)!.indent >= indent) stack.pop()
    const chrome = stack.some((entry) => entry.chrome) || (indent === 0 && REGIONS.test(content))
    stack.push({ indent, chrome })
    const ref = /\[ref=(e\d+)\]/.exec(content)?.[1]
    const heading = /^h([1-6])\s+("(?:[^"\\]|\\.)*")\s*$/.exec(content)
    const role = ROLE.exec(content)
    if (ref !== undefined && role !== null) {
      const name = unquote(role[3])
      lines.push({ indent, role: role[2]!, name, ref, text: name, level: 0, chrome })
    } else if (heading !== null) {
      const name = unquote(heading[2])
      lines.push({
        indent,
        role: "heading",
        name,
        ref: undefined,
        text: name,
        level: Number(heading[1]),
        chrome,
      })
    } else {
      lines.push({ indent, role: "text", name: "", ref: undefined, text: content.trim(), level: 0, chrome })
    }
  }
  return lines
}

/** The text of the lines of one item, joined. */
const joined = (lines: ReadonlyArray<Line>): string =>
  lines
    .map((line) => line.text)
    .filter((text) => text !== "")
    .join(" · ")

/**
 * The lines that belong to the first item: those before its control, back to a heading of the level the
 * other items start with (when they all start with one), never past a line that contains the list, a
 * top-level heading or the longest other item.
 */
const firstItemLines = (
  lines: ReadonlyArray<Line>,
  control: number,
  others: ReadonlyArray<ReadonlyArray<Line>>,
): ReadonlyArray<Line> => {
  const indent = lines[control]!.indent
  const headed = others.every((item) => item[0] !== undefined && item[0].level > 0)
  const level = headed ? others[0]![0]!.level : 0
  const longest = Math.max(...others.map((item) => item.length))
  const taken: Array<Line> = []
  for (let index = control - 1; index >= 0 && taken.length < longest; index -= 1) {
    const line = lines[index]!
    if (line.indent < indent || line.level === 1 || (line.level > 0 && line.level < level)) break
    taken.unshift(line)
    if (headed && line.level === level) break
  }
  return taken
}

/** Controls of one role and name repeated among siblings: the items' own controls (`Select` × 6). */
const controlLists = (lines: ReadonlyArray<Line>): ReadonlyArray<PageList> => {
  const groups = new Map<string, Array<number>>()
  lines.forEach((line, index) => {
    if (line.ref === undefined || line.chrome || line.name.trim() === "") return
    if (!["button", "link"].includes(line.role)) return
    const key = `${line.indent}|${line.role}|${line.name.trim().toLowerCase()}`
    groups.set(key, [...(groups.get(key) ?? []), index])
  })
  const lists: Array<PageList> = []
  for (const positions of groups.values()) {
    if (positions.length < 2) continue
    const segments = positions.map((position, at) =>
      at === 0 ? [] : lines.slice(positions[at - 1]! + 1, position),
    )
    segments[0] = [...firstItemLines(lines, positions[0]!, segments.slice(1))]
    const first = lines[positions[0]!]!
    lists.push({
      kind: "controls",
      control: first.name.trim(),
      items: positions.map((position, at) => {
        const line = lines[position]!
        return {
          index: at + 1,
          ref: line.ref!,
          role: line.role,
          name: line.name,
          text: joined(segments[at]!),
        }
      }),
    })
  }
  return lists
}

/** Radios side by side (text lines between them allowed): one group each run. */
const radioLists = (lines: ReadonlyArray<Line>): ReadonlyArray<PageList> => {
  const lists: Array<PageList> = []
  let run: Array<Line> = []
  const close = () => {
    if (run.length >= 2)
      lists.push({
        kind: "radios",
        control: "",
        items: run.map((line, at) => ({
          index: at + 1,
          ref: line.ref!,
          role: line.role,
          name: line.name,
          text: line.name,
        })),
      })
    run = []
  }
  for (const line of lines) {
    if (line.ref !== undefined && line.role === "radio" && !line.chrome) {
      if (run.length > 0 && run[0]!.indent !== line.indent) close()
      run.push(line)
    } else if (line.ref !== undefined || line.level > 0) close()
  }
  close()
  return lists
}

/**
 * The lists the outline shows: items with a repeated control of one name, and radio groups.
 *
 * @example
 * ```ts
 * import { readLists } from "@sextant/planner"
 * readLists('- main:\n  - A · €10\n  - button "Select" [ref=e1]\n  - B · €8\n  - button "Select" [ref=e2]')[0]?.items.map((item) => item.text)
 * // ["A · €10", "B · €8"]
 * ```
 */
export const readLists = (outline: string): ReadonlyArray<PageList> => {
  const lines = readLines(outline)
  return [...controlLists(lines), ...radioLists(lines)]
}

const words = (text: string): string => text.normalize("NFKC").toLowerCase().replace(/\s+/g, " ").trim()

/** Whether a control's name is one the action presses: its words start with one of the action's control words. */
const pressedFor = (name: string, action: ItemPick["action"]): boolean => {
  const said = words(name)
  return ITEM_CONTROLS[action].some(
    (word) =>
      said === word || said.startsWith(`${word} `) || (/\p{Script=Han}/u.test(word) && said.startsWith(word)),
  )
}

/** A price as a number: `€74`, `$1,250.50`, `12,50 €`, `EUR 30`, `¥98`, `30元`. */
const PRICE =
  /(?:[$€£¥]|\b(?:US\$|EUR|USD|GBP|CHF|CNY|RMB)\s?)\s?(\d[\d,.]*)|(\d[\d,.]*)\s?(?:[$€£¥]|(?:EUR|USD|GBP|CHF|CNY|RMB)\b|元|欧元|美元)/giu
const amount = (digits: string): number => {
  // "12,50": a decimal comma; "1,250.50" and "1,250": thousands.
  const decimalComma = /^\d+,\d{2}$/.test(digits)
  return Number(decimalComma ? digits.replace(",", ".") : digits.replace(/,/g, "").replace(/\.$/, ""))
}
/** A time of day in minutes: `06:10`, `9:05 pm`. */
const TIME = /\b(\d{1,2}):(\d{2})(?:\s*([ap])\.?m\.?\b)?/gi
/** Two times with only a range mark between them: `06:10 – 10:45`. */
const RANGE_MARK = /^\s*(?:[-–—~→]|to|至|到)\s*$/i
/** A duration in minutes: `3h 40m`, `2 hr 10 min`, `45 min`, `1小时20分`. */
const DURATION =
  /\b(\d+)\s*(?:h|hr|hrs|hours?)\b\s*(?:(\d+)\s*(?:m|min|mins|minutes?)\b)?|\b(\d+)\s*(?:min|mins|minutes?)\b|(\d+)\s*小时\s*(?:(\d+)\s*分钟?)?/giu
/** A calendar day: `2026-11-24`, `24 November 2026`, `November 24, 2026`. */
const DAY =
  /\b\d{4}-\d{2}-\d{2}\b|\b\d{1,2}\s+[A-Z][a-z]+\s+\d{4}\b|\b[A-Z][a-z]+\s+\d{1,2},\s+\d{4}\b|\d{4}年\d{1,2}月\d{1,2}日/gu
/** A rating: `★ 4.5`, `4.5/5`, `4.5 stars`, `rated 4.5`, `评分 4.5`. */
const RATING =
  /[★⭐]\s*(\d(?:\.\d+)?)|\b(\d(?:\.\d+)?)\s*(?:\/\s*5|out of 5|stars?|[★⭐])|\b(?:rating|rated)\s*:?\s*(\d(?:\.\d+)?)|评分\s*:?\s*(\d(?:\.\d+)?)/giu

/** The values of one kind an item's text prints, in the order they appear, as numbers to compare. */
export const valuesOf = (text: string, measure: ItemMeasure): ReadonlyArray<number> => {
  switch (measure) {
    case "price":
      return [...text.matchAll(PRICE)].map((match) => amount(match[1] ?? match[2]!))
    case "time": {
      const times = [...text.matchAll(TIME)].map((match) => {
        const hours = Number(match[1]) % (match[3] === undefined ? 24 : 12)
        return {
          at: match.index,
          end: match.index + match[0].length,
          minutes: (hours + (match[3]?.toLowerCase() === "p" ? 12 : 0)) * 60 + Number(match[2]),
        }
      })
      // "06:10 – 10:45": a range is one value, its start (the departure).
      if (times.length === 2 && RANGE_MARK.test(text.slice(times[0]!.end, times[1]!.at)))
        return [times[0]!.minutes]
      return times.map((time) => time.minutes)
    }
    case "duration":
      return [...text.matchAll(DURATION)].map((match) =>
        match[3] !== undefined
          ? Number(match[3])
          : match[4] !== undefined
            ? Number(match[4]) * 60 + Number(match[5] ?? 0)
            : Number(match[1]) * 60 + Number(match[2] ?? 0),
      )
    case "date":
      return [...text.matchAll(DAY)].flatMap((match) => {
        const day = readCalendarDay(match[0])
        return day === undefined ? [] : [Date.UTC(day.year, day.month - 1, day.day)]
      })
    case "rating":
      return [...text.matchAll(RATING)].map((match) => Number(match[1] ?? match[2] ?? match[3] ?? match[4]))
  }
}

const MEASURE_NAMES: Readonly<Record<ItemMeasure, string>> = {
  price: "price",
  time: "time of day",
  duration: "duration",
  date: "date",
  rating: "rating",
}

/** The item a rank names: the one item with the least or greatest value of the first measure every item prints. */
const ranked = (list: PageList, rank: NonNullable<ItemPick["rank"]>): PickedItem => {
  for (const measure of rank.measures) {
    const values = list.items.map((item) => valuesOf(item.text, measure))
    if (values.every((found) => found.length === 0)) continue
    const unclear = list.items.findIndex((_, at) => values[at]!.length !== 1)
    if (unclear >= 0) {
      const count = values[unclear]!.length
      return {
        ok: false,
        reason: `item ${unclear + 1} of the list ("${list.items[unclear]!.text.slice(0, 80)}") prints ${count === 0 ? "no" : count} ${MEASURE_NAMES[measure]}${count > 1 ? "s" : ""}: which one counts needs a model`,
      }
    }
    const flat = values.map((found) => found[0]!)
    const best = rank.order === "least" ? Math.min(...flat) : Math.max(...flat)
    const at = flat.flatMap((value, index) => (value === best ? [index] : []))
    if (at.length > 1)
      return {
        ok: false,
        reason: `items ${at.map((index) => index + 1).join(" and ")} of the list tie for the ${rank.order === "least" ? "least" : "greatest"} ${MEASURE_NAMES[measure]}: which one is meant needs a model`,
      }
    return { ok: true, item: list.items[at[0]!]!, list }
  }
  return {
    ok: false,
    reason: `no item of the list prints a ${rank.measures.map((measure) => MEASURE_NAMES[measure]).join(" or ")} to compare`,
  }
}

/** The one item whose text holds every word of `name` (plural or not), or why there is none or several. */
const named = (list: PageList, name: string): PickedItem => {
  const wanted = wordsOf(name)
  const holding = list.items.filter((item) => {
    const words = wordsOf(item.text)
    return wanted.every((word) => words.some((one) => samePlural(one, word)))
  })
  if (holding.length === 1) return { ok: true, item: holding[0]!, list }
  return {
    ok: false,
    reason:
      holding.length === 0
        ? `no item of the list (${list.items.length} items) is named "${name}"`
        : `items ${holding.map((item) => item.index).join(" and ")} of the list are all named "${name}": which one is meant needs a model`,
  }
}

/**
 * The item of the page's list that a pick names, with its own control, or why it cannot be told: no
 * list whose items have a control for the action (or a radio, to choose), more than one such list, a
 * position past the end, an item that prints no value or several of the kind the rank compares, a tie.
 *
 * @example
 * ```ts
 * import { resolvePick } from "@sextant/planner"
 * const outline = '- main:\n  - A · €10\n  - button "Select" [ref=e1]\n  - B · €8\n  - button "Select" [ref=e2]'
 * resolvePick(outline, { said: "the cheapest", rank: { measures: ["price"], order: "least" }, action: "choose" })
 * // { ok: true, item: { index: 2, ref: "e2", … }, list }
 * ```
 */
export const resolvePick = (outline: string, pick: ItemPick): PickedItem => {
  const lists = readLists(outline).filter((list) =>
    list.kind === "radios" ? pick.action === "choose" : pressedFor(list.control, pick.action),
  )
  const what = pick.action === "cart" ? "an Add to cart control" : "a Select control or a radio"
  if (lists.length === 0)
    return {
      ok: false,
      reason: `no list on this page has items with ${what} each, to pick "${pick.said}" from`,
    }
  if (lists.length > 1)
    return {
      ok: false,
      reason: `${lists.length} lists on this page have items with ${what} each (${lists.map((list) => (list.kind === "radios" ? "radios" : `"${list.control}"`)).join(", ")}): which one "${pick.said}" is in needs a model`,
    }
  const list = lists[0]!
  if (pick.rank !== undefined) return ranked(list, pick.rank)
  if (pick.name !== undefined) return named(list, pick.name)
  const ordinal = pick.ordinal ?? 1
  const item = ordinal > 0 ? list.items[ordinal - 1] : list.items[list.items.length + ordinal]
  return item === undefined
    ? { ok: false, reason: `the list has ${list.items.length} items: there is no "${pick.said}"` }
    : { ok: true, item, list }
}

/**
 * Calendar days as people write them in commands: `2024-05-14`, `2024/5/14`, `June 14, 2024`,
 * `Jun 14th 2024`, `14 June 2024`, `the 14th of June 2024`, `2024年5月20日`. A text is a day only when the whole of it is one.
 */

/** One calendar day; `month` is 1–12. */
export interface CalendarDay {
  readonly year: number
  readonly month: number
  readonly day: number
}

/** The months in English, lower case, January first: what month words are read against (also in page scripts). */
export const MONTH_NAMES: ReadonlyArray<string> = [
  "january",
  "february",
  "march",
  "april",
  "may",
  "june",
  "july",
  "august",
  "september",
  "october",
  "november",
  "december",
]

/** The month (1–12) a word names: its full name or its first three letters (`Sept` too). */
const monthOf = (word: string): number | undefined => {
  const lower = word.toLowerCase().replace(/\.$/, "")
  if (lower.length < 3) return undefined
  const index = MONTH_NAMES.findIndex(
    (name) => name === lower || (name.startsWith(lower) && lower.length <= 4),
  )
  return index < 0 ? undefined : index + 1
}

const MONTH_WORD = "([A-Za-z]{3,9}\\.?)"
const DAY_NUMBER = "(\\d{1,2})(?:st|nd|rd|th)?"
const FORMS: ReadonlyArray<{
  readonly pattern: RegExp
  readonly read: (match: RegExpExecArray) => [number | undefined, number | undefined, number]
}> = [
  {
    pattern: /^(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})$/,
    read: (match) => [Number(match[1]), Number(match[2]), Number(match[3])],
  },
  {
    pattern: /^(\d{4})\s*年\s*(\d{1,2})\s*月\s*(\d{1,2})\s*[日号]?$/,
    read: (match) => [Number(match[1]), Number(match[2]), Number(match[3])],
  },
  {
    pattern: new RegExp(`^${MONTH_WORD}\\s+${DAY_NUMBER},?\\s+(\\d{4})$`),
    read: (match) => [Number(match[3]), monthOf(match[1]!), Number(match[2])],
  },
  {
    pattern: new RegExp(`^(?:the\\s+)?${DAY_NUMBER}\\s+(?:of\\s+)?${MONTH_WORD},?\\s+(\\d{4})$`, "i"),
    read: (match) => [Number(match[3]), monthOf(match[2]!), Number(match[1])],
  },
]

/**
 * The calendar day `text` names, or undefined when it names none (or a day no calendar has, such as
 * 2024-02-30).
 *
 * @example
 * ```ts
 * import { readCalendarDay } from "@sextant/core"
 * readCalendarDay("June 14, 2024") // { year: 2024, month: 6, day: 14 }
 * readCalendarDay("2024年5月20日") // { year: 2024, month: 5, day: 20 }
 * readCalendarDay("14 pages") // undefined
 * ```
 */
export const readCalendarDay = (text: string): CalendarDay | undefined => {
  const trimmed = text.normalize("NFKC").trim().replace(/\s+/g, " ")
  for (const form of FORMS) {
    const match = form.pattern.exec(trimmed)
    if (match === null) continue
    const [year, month, day] = form.read(match)
    if (year === undefined || month === undefined || month < 1 || month > 12 || day < 1) return undefined
    if (day > new Date(Date.UTC(year, month, 0)).getUTCDate()) return undefined
    return { year, month, day }
  }
  return undefined
}

/** A day as a date input holds it: `2024-05-14`. */
export const isoDay = (day: CalendarDay): string =>
  `${String(day.year).padStart(4, "0")}-${String(day.month).padStart(2, "0")}-${String(day.day).padStart(2, "0")}`

/** A day of the year with no year said ("31 December"): which year is the page's to say. */
export interface MonthDay {
  readonly month: number
  readonly day: number
}

const MONTH_DAY_FORMS: ReadonlyArray<{
  readonly pattern: RegExp
  readonly read: (match: RegExpExecArray) => [number | undefined, number]
}> = [
  {
    pattern: new RegExp(`^${MONTH_WORD}\\s+${DAY_NUMBER}$`),
    read: (match) => [monthOf(match[1]!), Number(match[2])],
  },
  {
    pattern: new RegExp(`^(?:the\\s+)?${DAY_NUMBER}\\s+(?:of\\s+)?${MONTH_WORD}$`, "i"),
    read: (match) => [monthOf(match[2]!), Number(match[1])],
  },
  { pattern: /^(\d{1,2})\s*月\s*(\d{1,2})\s*[日号]$/, read: (match) => [Number(match[1]), Number(match[2])] },
]

/**
 * The day of the year `text` names with no year (`31 December`, `Dec 31st`, `the 31st of December`,
 * `12月31日`), or undefined when it names none or says a year (that is {@link readCalendarDay}'s).
 *
 * @example
 * ```ts
 * readMonthDay("31 December") // { month: 12, day: 31 }
 * readMonthDay("12月20日") // { month: 12, day: 20 }
 * readMonthDay("December 31, 2026") // undefined
 * ```
 */
export const readMonthDay = (text: string): MonthDay | undefined => {
  const trimmed = text.normalize("NFKC").trim().replace(/\s+/g, " ")
  for (const form of MONTH_DAY_FORMS) {
    const match = form.pattern.exec(trimmed)
    if (match === null) continue
    const [month, day] = form.read(match)
    // A leap year's calendar: 29 February is a day of some years.
    if (month === undefined || month < 1 || month > 12 || day < 1) return undefined
    if (day > new Date(Date.UTC(2000, month, 0)).getUTCDate()) return undefined
    return { month, day }
  }
  return undefined
}

/**
 * A day with no year as ISO 8601 writes a recurring day (`--12-31`): what the rules type for a date
 * field, whose page supplies the year (the next such day from the field's own date, or from today).
 */
export const isoMonthDay = (day: MonthDay): string =>
  `--${String(day.month).padStart(2, "0")}-${String(day.day).padStart(2, "0")}`

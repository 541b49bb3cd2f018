import { setNativeValue } from "./act.ts"
import { brief } from "./describe.ts"

/*
 * Inputs whose text cannot be typed key by key in every locale: the browser takes their value in one
 * format (2024-05-01, 14:30, 2024-05-01T14:30, #ff0000, a number), as Playwright's fill does.
 */

/** The input types whose value is assigned rather than typed, with the format each takes. */
export const VALUE_FORMATS: Readonly<Record<string, string>> = {
  date: "2024-05-01",
  time: "14:30",
  "datetime-local": "2024-05-01T14:30",
  month: "2024-05",
  week: "2024-W18",
  color: "#ff0000",
  range: "a number",
}

const pad = (number: number | string): string => String(number).padStart(2, "0")

/** A day with no year, as ISO 8601 writes a recurring day and the rules type it: `--12-31`. */
export const YEARLESS_DAY = /^--(\d{2})-(\d{2})$/

/**
 * The first day of that month and day on or after today, or after the field's earliest day (`min`)
 * when that is later: "31 December" asked of a booking form is the next one.
 */
const nextDay = (month: number, day: number, min: string | undefined): string => {
  const now = new Date()
  const today = `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`
  const origin = min !== undefined && /^\d{4}-\d{2}-\d{2}$/.test(min) && min > today ? min : today
  const year = Number(origin.slice(0, 4))
  for (let candidate = year; candidate <= year + 8; candidate++) {
    // 29 February waits for a leap year.
    if (new Date(Date.UTC(candidate, month, 0)).getUTCDate() < day) continue
    const iso = `${String(candidate).padStart(4, "0")}-${pad(month)}-${pad(day)}`
    if (iso >= origin) return iso
  }
  return `--${pad(month)}-${pad(day)}`
}

/** Text as the input type takes it: a date as 2024-05-01, a time as 14:30; other text as given. */
export const inputFormat = (type: string, text: string, min?: string): string => {
  const value = String(text).trim()
  if (type === "date") {
    if (/^\d{4}-\d{2}-\d{2}$/.test(value)) return value
    const yearless = YEARLESS_DAY.exec(value)
    if (yearless) return nextDay(Number(yearless[1]), Number(yearless[2]), min)
    const slash = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/.exec(value)
    if (slash) return `${slash[3]}-${pad(slash[1] ?? "")}-${pad(slash[2] ?? "")}`
    // A text with no year is not guessed one (the browser's parser says 2001): the field refuses it.
    if (!/\d{4}/.test(value)) return value
    const parsed = new Date(value + (/\d{1,2}:\d{2}/.test(value) ? "" : " 12:00"))
    return Number.isNaN(parsed.getTime())
      ? value
      : `${parsed.getFullYear()}-${pad(parsed.getMonth() + 1)}-${pad(parsed.getDate())}`
  }
  if (type === "time") {
    const match = /^(\d{1,2}):(\d{2})(?::(\d{2}))?\s*([ap]\.?m\.?)?$/i.exec(value)
    if (!match) return value
    let hours = Number(match[1])
    const meridiem = (match[4] || "").toLowerCase()
    if (meridiem.startsWith("p") && hours < 12) hours += 12
    if (meridiem.startsWith("a") && hours === 12) hours = 0
    return `${pad(hours)}:${match[2]}${match[3] ? `:${match[3]}` : ""}`
  }
  if (type === "datetime-local") {
    const match = /^(\S+)[ T](\S+(?:\s*[ap]\.?m\.?)?)$/i.exec(value)
    return match ? `${inputFormat("date", match[1] ?? "")}T${inputFormat("time", match[2] ?? "")}` : value
  }
  return value
}

/**
 * Assigns a value-format input its value (focus, native setter, `input` and `change`), or says which
 * format it takes when the browser refuses the text (the input is left empty then).
 */
export const assignValue = (
  element: HTMLInputElement,
  type: string,
  text: string,
):
  | { readonly assigned: true; readonly value: string }
  | { readonly error: "badvalue"; readonly detail: string } => {
  // A day with no year is the next one from today, or from the field's earliest day when later.
  const wanted = inputFormat(type, text, element.min || undefined)
  element.focus({ preventScroll: true })
  setNativeValue(element, wanted)
  if (element.value !== wanted && !(type === "range" && Number(element.value) === Number(wanted))) {
    setNativeValue(element, "")
    const format =
      type === "range"
        ? `a number from ${element.min || 0} to ${element.max || 100}`
        : (VALUE_FORMATS[type] ?? "its own format")
    return {
      error: "badvalue",
      detail: `${brief(element)} (${type}) does not take ${JSON.stringify(String(text))}: give it as ${format}`,
    }
  }
  element.dispatchEvent(new Event("input", { bubbles: true, composed: true }))
  element.dispatchEvent(new Event("change", { bubbles: true }))
  return { assigned: true, value: element.value }
}

import type { Verb } from "./lang/Lexicon.ts"
import { joinTokens, type Token } from "./Tokenizer.ts"
import {
  ARTICLES,
  CHINESE_NUMERALS,
  CHINESE_VERBS,
  CLOCK,
  ENGLISH_VERBS,
  FILLERS,
  RECIPIENTS,
  SOFT_FILLERS,
} from "./Vocabulary.ts"

/**
 * The words of a clause, read one token at a time: verbs, fillers, the text of a value. Shared by the
 * clause splitter (`Grammar.ts`) and the slot filler (`Slots.ts`).
 */

/** Lower-case, NFKC, punctuation to spaces, spaces collapsed. */
export const normalizeText = (text: string): string =>
  text
    .normalize("NFKC")
    .toLowerCase()
    .replace(/[\p{P}\p{S}]+/gu, " ")
    .replace(/\s+/g, " ")
    .trim()

/** The words of a text, lower case; each Han character is a word of its own, as Chinese has no spaces. */
export const wordsOf = (text: string): ReadonlyArray<string> =>
  normalizeText(text)
    .replace(/(\p{Script=Han})/gu, " $1 ")
    .split(" ")
    .filter((word) => word !== "")

/** Plural role nouns ("buttons", "results") read as their singular. */
export const singular = (word: string): string =>
  word.endsWith("s") && word.length > 3 ? word.slice(0, -1) : word

/** The same word, or one its plural ("adult", "adults"; "box", "boxes"): how a name is said either way. */
export const samePlural = (one: string, other: string): boolean =>
  one === other || `${one}s` === other || `${other}s` === one || `${one}es` === other || `${other}es` === one

export const isWord = (token: Token | undefined, ...words: ReadonlyArray<string>): boolean =>
  token !== undefined && (token.kind === "word" || token.kind === "keyword") && words.includes(token.value)

/** Matches a verb at `position`; answers the verb and how many tokens it took. */
export const matchVerb = (
  tokens: ReadonlyArray<Token>,
  position: number,
): readonly [Verb, number] | undefined => {
  const token = tokens[position]
  if (token === undefined) return undefined
  if (token.kind === "keyword") {
    // "下午两点取车", "3点": an hour word after a number tells the time; it is no verb (点 = click).
    const before = tokens[position - 1]?.value.at(-1)
    if (CLOCK.hour.includes(token.value) && before !== undefined && chineseNumber(before) !== undefined)
      return undefined
    const verb = CHINESE_VERBS.get(token.value)
    return verb === undefined ? undefined : [verb, 1]
  }
  if (token.kind !== "word") return undefined
  for (const [words, verb] of ENGLISH_VERBS) {
    if (
      words.every(
        (word, offset) =>
          tokens[position + offset]?.kind === "word" && tokens[position + offset]?.value === word,
      )
    ) {
      // "Send me emails once a month": the verb sends something to someone; it submits no form.
      if (verb === "submit" && RECIPIENTS.has(tokens[position + words.length]?.value ?? "")) return undefined
      return [verb, words.length]
    }
  }
  return undefined
}

export const isFillerAt = (tokens: ReadonlyArray<Token>, index: number): boolean => {
  const token = tokens[index]!
  if (!FILLERS.has(token.value)) return false
  if (!SOFT_FILLERS.has(token.value)) return true
  const next = tokens[index + 1]
  return (
    next === undefined ||
    next.kind === "punct" ||
    FILLERS.has(next.value) ||
    matchVerb(tokens, index + 1) !== undefined
  )
}

export const stripFillers = (tokens: ReadonlyArray<Token>): ReadonlyArray<Token> => {
  let start = 0
  while (start < tokens.length && (isFillerAt(tokens, start) || tokens[start]!.kind === "punct")) start += 1
  let end = tokens.length
  while (end > start && (tokens[end - 1]!.kind === "punct" || isWord(tokens[end - 1], "please", "一下")))
    end -= 1
  return tokens.slice(start, end)
}

export const indexOfWord = (tokens: ReadonlyArray<Token>, words: ReadonlyArray<string>, from = 0): number => {
  for (let index = from; index < tokens.length; index += 1) {
    if (isWord(tokens[index], ...words)) return index
  }
  return -1
}

export const lastIndexOfWord = (tokens: ReadonlyArray<Token>, words: ReadonlyArray<string>): number => {
  for (let index = tokens.length - 1; index >= 0; index -= 1) {
    if (isWord(tokens[index], ...words)) return index
  }
  return -1
}

/** Text of tokens as typed, with leading articles and trailing particles dropped. */
export const valueText = (tokens: ReadonlyArray<Token>): string => {
  let start = 0
  // "街道地址填：淮海中路123号": a colon before the value is no part of it.
  while (
    start < tokens.length - 1 &&
    // A capitalised article inside the sentence starts a name ("type The Beatles").
    ((tokens[start]!.kind === "word" &&
      ARTICLES.has(tokens[start]!.value) &&
      !/^\p{Lu}/u.test(tokens[start]!.raw)) ||
      (tokens[start]!.kind === "punct" && /^[:：]$/.test(tokens[start]!.value)))
  )
    start += 1
  let end = tokens.length
  while (end > start && isWord(tokens[end - 1], "的", "中", "里", "内", "上")) end -= 1
  return joinTokens(tokens.slice(start, end))
}

export const chineseNumber = (text: string): number | undefined => {
  if (/^\d+$/.test(text)) return Number(text)
  if (text === "十") return 10
  if (text.length === 2 && text.startsWith("十")) return 10 + (CHINESE_NUMERALS.get(text[1]!) ?? 0)
  return CHINESE_NUMERALS.get(text)
}

const escaped = (words: ReadonlyArray<string>): string =>
  [...words]
    .sort((one, other) => other.length - one.length)
    .map((word) => word.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"))
    .join("|")
const HALF_OF_DAY = `(${escaped([...CLOCK.am, ...CLOCK.pm])})`
const CLOCK_TIME = new RegExp(
  `^(?:${HALF_OF_DAY}\\s*)?(\\d{1,2}|[${[...CHINESE_NUMERALS.keys()].join("")}]{1,3})(?:\\s*[:：](\\d{2})|\\s*(?:${escaped(CLOCK.hour)})(?:(${escaped(CLOCK.half)})|(\\d{1,2})\\s*(?:${escaped(CLOCK.minute)})?)?)?(?:\\s*${HALF_OF_DAY})?$`,
  "iu",
)

/** Where a time of day may be said inside a longer text; `clockTime` says whether it is one. */
export const CLOCK_IN_TEXT = new RegExp(CLOCK_TIME.source.slice(1, -1), "giu")

/**
 * The time of day a value says, as a time input holds it ("9:30 am" → 09:30, "4 pm" → 16:00,
 * "下午两点" → 14:00, "上午10点15分" → 10:15), or undefined when the whole value is no time: an hour
 * alone needs a half of the day or an hour word, and an hour past 12 takes no "pm".
 */
export const clockTime = (text: string): string | undefined => {
  const match = CLOCK_TIME.exec(text.normalize("NFKC").trim().replace(/\s+/g, " "))
  if (match === null) return undefined
  const [, before, hourText, colonMinutes, half, minutesText, after] = match
  const said = (before ?? after)?.toLowerCase()
  if (said === undefined && colonMinutes === undefined && !CLOCK.hour.some((word) => match[0].includes(word)))
    return undefined
  const hour = chineseNumber(hourText!)
  const minutes = half !== undefined ? 30 : Number(colonMinutes ?? minutesText ?? 0)
  if (hour === undefined || hour > 23 || minutes > 59 || (before !== undefined && after !== undefined))
    return undefined
  const pm = said !== undefined && CLOCK.pm.includes(said)
  if (said !== undefined && (hour > 12 || hour === 0)) return undefined
  const hours = said === undefined ? hour : (hour % 12) + (pm ? 12 : 0)
  return `${String(hours).padStart(2, "0")}:${String(minutes).padStart(2, "0")}`
}

/** Where a calendar day may be said inside a longer text; `readCalendarDay` says whether it is one. */
export const DATE_IN_TEXT =
  /\d{4}[-/.]\d{1,2}[-/.]\d{1,2}|\d{4}\s*年\s*\d{1,2}\s*月\s*\d{1,2}\s*[日号]?|\b[A-Za-z]{3,9}\.?\s+\d{1,2}(?:st|nd|rd|th)?,?\s+\d{4}\b|\b\d{1,2}(?:st|nd|rd|th)?\s+(?:of\s+)?[A-Za-z]{3,9}\.?,?\s+\d{4}\b/g

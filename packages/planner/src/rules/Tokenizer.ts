/**
 * Splits a command typed in English or Chinese (or both) into tokens the rule grammar reads.
 *
 * Latin text splits on spaces; Chinese text has no spaces, so a run of Han characters is cut by
 * longest match against the grammar's keyword lexicon, and whatever lies between keywords stays one
 * `text` token (a product name, a label). Quoted values stay whole, whatever script they are in. The
 * lexicon is built from the language data (`lang/zh.ts`).
 */

import { CHINESE_LEXICON, GLOSSARY } from "./Vocabulary.ts"

/** What one token is. */
export type TokenKind =
  /** A Latin-script word, lower-cased in `value`. */
  | "word"
  /**
   * A value in quotes (`"Sign In"`, `“台灯”`, `「提交」`), or an input placeholder kept whole with its
   * brackets (`<secret:password>`, `{{inputs.email}}`), which the executor fills in at the tool.
   */
  | "quoted"
  /** A number written in digits (`3`, `#3`, `2.5`). */
  | "number"
  /** Something that can only be an address: `https://…`, `www.…`, `example.com/x`, `/login`. */
  | "url"
  /** An email address, kept whole. */
  | "email"
  /** A Chinese word from the lexicon (`搜索`, `然后`, `按钮`). */
  | "keyword"
  /** Chinese text between lexicon words. */
  | "text"
  /** Punctuation that can separate clauses or list items: `,` `;` `，` `、` `。` `>` `›`. */
  | "punct"

/** One token: its kind, the normalised value the grammar compares and the text as typed. */
export interface Token {
  readonly kind: TokenKind
  readonly value: string
  readonly raw: string
  /** Whether a space came before it in the input (to rebuild values as typed). */
  readonly spaced: boolean
}

const HAN = /\p{Script=Han}/u
const QUOTES: ReadonlyArray<readonly [string, string]> = [
  ['"', '"'],
  ["“", "”"],
  ["‘", "’"],
  ["「", "」"],
  ["『", "』"],
  ["«", "»"],
  ["`", "`"],
  ["'", "'"],
]
const PUNCTUATION = new Set([
  ",",
  ";",
  "，",
  "、",
  "。",
  "；",
  ">",
  "›",
  "»",
  "→",
  "：",
  ":",
  "!",
  "！",
  "?",
  "？",
])
const URL_PATTERN =
  /^(?:[a-z][a-z0-9+.-]*:\/\/\S+|www\.\S+|localhost(?::\d+)?(?:\/\S*)?|(?:\d{1,3}\.){3}\d{1,3}(?::\d+)?(?:\/\S*)?|[a-z0-9-]+(?:\.[a-z0-9-]+)*\.(?:com|org|net|io|dev|app|cn|co|uk|de|fr|jp|edu|gov|info|ai)(?::\d+)?(?:\/\S*)?|\/[\w\-./?=&%#~+]*)$/i
const EMAIL_PATTERN = /^[\w.+-]+@[\w-]+(?:\.[\w-]+)+$/
const NUMBER_PATTERN = /^#?\d+(?:\.\d+)?$/

/**
 * The placeholders the executor writes instead of a task input (`<secret:password>`) and resolves at
 * the tool: a goal reaches the grammar with them in place of the values, so they must stay one value.
 */
const PLACEHOLDER_PATTERN = /^(?:<secret:[A-Za-z0-9_.-]+>|\{\{\s*inputs\.[A-Za-z0-9_.-]+\s*\}\})/

const isHan = (character: string): boolean => HAN.test(character)

const WORDS = new Intl.Segmenter("zh", { granularity: "word" })

/**
 * Positions of a Han run that fall strictly inside a word of three or more characters, by the
 * platform's dictionary segmenter (ICU): a one-character particle there is part of the word ("目的地",
 * destination, holds 的), not a particle. Only single characters are judged this way: the segmenter
 * splits some verbs the lexicon knows ("点|击"), so longer keywords keep their place.
 */
const insideWords = (run: string): ReadonlySet<number> => {
  const inside = new Set<number>()
  for (const { segment, index } of WORDS.segment(run)) {
    if (segment.length < 3) continue
    for (let offset = 1; offset < segment.length - 1; offset++) inside.add(index + offset)
  }
  return inside
}

/** The glossary's Chinese names, longest first: a one-character particle at their start is part of them. */
const GLOSSARY_NAMES: ReadonlyArray<string> = [...GLOSSARY.keys()]
  .filter((word) => word.length > 1 && /^\p{Script=Han}+$/u.test(word))
  .toSorted((left, right) => right.length - left.length)

const segmentHan = (run: string, spaced: boolean, into: Array<Token>): void => {
  const inside = insideWords(run)
  let pending = ""
  let first = true
  const flush = () => {
    if (pending !== "") {
      into.push({ kind: "text", value: pending, raw: pending, spaced: first && spaced })
      first = false
      pending = ""
    }
  }
  let position = 0
  while (position < run.length) {
    const found = CHINESE_LEXICON.find((word) => run.startsWith(word, position))
    // "内容" (content) is a name the glossary knows, not the particle 内 before 容.
    const named =
      found?.length === 1 ? GLOSSARY_NAMES.find((word) => run.startsWith(word, position)) : undefined
    if (named !== undefined) {
      pending += named
      position += named.length
      continue
    }
    const keyword = found !== undefined && found.length === 1 && inside.has(position) ? undefined : found
    if (keyword === undefined) {
      pending += run[position]
      position += 1
      continue
    }
    flush()
    into.push({ kind: "keyword", value: keyword, raw: keyword, spaced: first && spaced })
    first = false
    position += keyword.length
  }
  flush()
}

const classifyChunk = (chunk: string, spaced: boolean): Token => {
  if (EMAIL_PATTERN.test(chunk)) return { kind: "email", value: chunk, raw: chunk, spaced }
  if (NUMBER_PATTERN.test(chunk))
    return { kind: "number", value: chunk.replace(/^#/, ""), raw: chunk, spaced }
  if (URL_PATTERN.test(chunk)) return { kind: "url", value: chunk, raw: chunk, spaced }
  return { kind: "word", value: chunk.toLowerCase(), raw: chunk, spaced }
}

/** Pushes a run of non-space, non-Han text, splitting off punctuation at its ends. */
const pushLatin = (chunk: string, spaced: boolean, into: Array<Token>): void => {
  let start = 0
  let end = chunk.length
  const leading: Array<Token> = []
  while (start < end && PUNCTUATION.has(chunk[start]!) && chunk[start] !== "/") {
    leading.push({ kind: "punct", value: chunk[start]!, raw: chunk[start]!, spaced: spaced && start === 0 })
    start += 1
  }
  const trailing: Array<Token> = []
  while (end > start && (PUNCTUATION.has(chunk[end - 1]!) || chunk[end - 1] === ".")) {
    trailing.unshift({ kind: "punct", value: chunk[end - 1]!, raw: chunk[end - 1]!, spaced: false })
    end -= 1
  }
  into.push(...leading)
  const core = chunk.slice(start, end)
  if (core !== "") {
    // "A,B" and "File>Export" are lists written without spaces.
    const parts = /^[a-z]+:\/\//i.test(core) || EMAIL_PATTERN.test(core) ? [core] : core.split(/([,;>›])/)
    parts.forEach((part, index) => {
      if (part === "") return
      const partSpaced = index === 0 ? spaced && leading.length === 0 : false
      if (PUNCTUATION.has(part)) into.push({ kind: "punct", value: part, raw: part, spaced: false })
      else into.push(classifyChunk(part, partSpaced))
    })
  }
  into.push(...trailing)
}

const closingQuote = (text: string, position: number): readonly [string, number] | undefined => {
  const character = text[position]!
  const pair = QUOTES.find(([open]) => open === character)
  if (pair === undefined) return undefined
  // An apostrophe inside a word ("don't") is not a quote.
  if (character === "'" && position > 0 && /[\p{L}\p{N}]/u.test(text[position - 1]!)) return undefined
  const close = text.indexOf(pair[1], position + 1)
  if (close <= position + 1) return undefined
  return [text.slice(position + 1, close), close + 1]
}

/**
 * Tokenizes one command.
 *
 * @example
 * ```ts
 * import { tokenize } from "@sextant/planner"
 * tokenize('type "hello world" into Search').map((token) => token.kind)
 * // ["word", "quoted", "word", "word"]
 * tokenize("在搜索框中输入台灯").map((token) => token.value) // ["在", "搜索框", "中", "输入", "台灯"]
 * ```
 */
export const tokenize = (input: string): ReadonlyArray<Token> => {
  const text = input.normalize("NFKC").replace(/\u3000/g, " ")
  const tokens: Array<Token> = []
  let position = 0
  let spaced = false
  while (position < text.length) {
    const character = text[position]!
    if (/\s/.test(character)) {
      spaced = true
      position += 1
      continue
    }
    const placeholder = PLACEHOLDER_PATTERN.exec(text.slice(position))?.[0]
    if (placeholder !== undefined) {
      tokens.push({ kind: "quoted", value: placeholder, raw: placeholder, spaced })
      position += placeholder.length
      spaced = false
      continue
    }
    const quoted = closingQuote(text, position)
    if (quoted !== undefined) {
      tokens.push({ kind: "quoted", value: quoted[0], raw: quoted[0], spaced })
      position = quoted[1]
      spaced = false
      continue
    }
    if (isHan(character)) {
      let end = position
      while (end < text.length && isHan(text[end]!)) end += 1
      const first = tokens.length
      segmentHan(text.slice(position, end), spaced, tokens)
      // "T恤", "U盘": a letter or two written onto Han text with no space are one name with it.
      const latin = tokens[first - 1]
      const han = tokens[first]
      if (
        !spaced &&
        latin?.kind === "word" &&
        /^[A-Za-z]{1,2}$/.test(latin.raw) &&
        text.slice(position - latin.raw.length, position) === latin.raw &&
        han?.kind === "text"
      )
        tokens.splice(first - 1, 2, {
          kind: "text",
          value: latin.value + han.value,
          raw: latin.raw + han.raw,
          spaced: latin.spaced,
        })
      position = end
      spaced = false
      continue
    }
    if (PUNCTUATION.has(character) && character !== ">" && !/[\w/]/.test(text[position + 1] ?? "")) {
      tokens.push({ kind: "punct", value: character, raw: character, spaced })
      position += 1
      spaced = false
      continue
    }
    let end = position
    while (
      end < text.length &&
      !/\s/.test(text[end]!) &&
      !isHan(text[end]!) &&
      !"“”「」『』，。、；：！？".includes(text[end]!)
    ) {
      end += 1
    }
    if (end === position) {
      tokens.push({ kind: "punct", value: character, raw: character, spaced })
      position += 1
    } else {
      pushLatin(text.slice(position, end), spaced, tokens)
      position = end
    }
    spaced = false
  }
  return tokens
}

/** Joins tokens back into the text as typed, keeping spaces only where the input had them. */
export const joinTokens = (tokens: ReadonlyArray<Token>): string =>
  tokens
    .map((token, index) => (index > 0 && token.spaced ? ` ${token.raw}` : token.raw))
    .join("")
    .trim()

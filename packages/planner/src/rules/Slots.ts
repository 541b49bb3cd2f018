import { isoDay, isoMonthDay, readCalendarDay, readMonthDay } from "@sextant/core"
import type { ItemPhrase, RoleHint, TargetPhrase } from "./Command.ts"
import type { SlotFiller } from "./Templates.ts"
import { joinTokens, type Token } from "./Tokenizer.ts"
import {
  ARTICLES,
  CHECKED_WORDS,
  CHORD,
  CONTAINER_AFTER,
  CONTAINER_BARE,
  CONTAINER_BEFORE,
  ENGLISH_NUMBERS,
  FROM_END,
  GENERIC_CLICK_VERBS,
  ITEM_NOUNS,
  ITEM_TAILS,
  KEYS,
  NAME_MARKERS,
  OF_THE_DAY,
  ORDINAL_WORDS,
  QUANTITIES,
  QUANTITY_PHRASES,
  ROLE_NOUNS,
  STATE_LINKS,
  STATE_NEGATIONS,
  UNCHECKED_WORDS,
} from "./Vocabulary.ts"
import {
  chineseNumber,
  indexOfWord,
  isWord,
  lastIndexOfWord,
  matchVerb,
  singular,
  stripFillers,
  valueText,
} from "./Words.ts"

/**
 * The typed slot filler of the sentence templates: a run of tokens → the value of a slot of one of the
 * types `lang/Lexicon.ts` lists (a target phrase, a list, a day, a key chord …), or a refusal. The
 * target reader (`parseTargetPhrase`) is the `target` type.
 */

const startsWithRoleNoun = (tokens: ReadonlyArray<Token>, index: number): boolean =>
  ROLE_NOUNS.some(([nouns]) =>
    nouns.every((noun, offset) => {
      const candidate = tokens[index + offset]
      return (
        candidate !== undefined &&
        (candidate.value === noun || (offset === nouns.length - 1 && singular(candidate.value) === noun))
      )
    }),
  )

/**
 * "the second link", "the first one", "the last" are positions; "First name" and "Last name" are
 * labels: an ordinal word counts only before a role noun, "one" or nothing.
 */
const ordinalStandsAlone = (tokens: ReadonlyArray<Token>, next: number): boolean => {
  let index = next
  while (tokens[index] !== undefined && ORDINAL_WORDS.has(tokens[index]!.value)) index += 1
  const token = tokens[index]
  // "the last shipping option": a position among the options of the group its lower-case words name.
  const last = tokens.length - 1
  if (
    last > index &&
    isWord(tokens[last], "option") &&
    tokens.slice(next - 1, last).every((word) => word.kind === "word" && !/\p{Lu}/u.test(word.raw))
  )
    return true
  return (
    token === undefined ||
    token.kind === "punct" ||
    isWord(token, "one", "of", "in", "on", "inside", "under", "labelled", "labeled", "named", "called") ||
    startsWithRoleNoun(tokens, index)
  )
}

/** A mark between the steps of a menu path: "File > Export", "File → Export", "File » Export". */
export const isPathMark = (token: Token | undefined): boolean =>
  token !== undefined && [">", "›", "→", "»", "->", "⟶", "▸", "＞"].includes(token.value)

const CLAUSE_COMMAS = new Set([",", "，", ";", "；", "。"])

/**
 * The tokens of a menu path inside a phrase, when the path is not the whole phrase: in brackets ("a
 * file (File → Open…)": the words before describe it) or followed by a comma and a remark ("File →
 * Export → CSV，帮我导出一下": the path ends at the comma).
 */
const menuPathIn = (input: ReadonlyArray<Token>): ReadonlyArray<Token> | undefined => {
  const lastMark = input.findLastIndex(isPathMark)
  if (lastMark < 0) return undefined
  const open = input.findIndex((token) => /^[(（]/.test(token.raw))
  const close = input.findIndex((token, index) => index >= open && /[)）]$/.test(token.raw))
  if (open >= 0 && open < lastMark && close > lastMark) {
    const strip = (token: Token, pattern: RegExp): Token => ({
      ...token,
      value: token.value.replace(pattern, ""),
      raw: token.raw.replace(pattern, ""),
    })
    const inside = input.slice(open, close + 1).map((token, index, all) => {
      const opened = index === 0 ? strip(token, /^[(（]/) : token
      return index === all.length - 1 ? strip(opened, /[)）]$/) : opened
    })
    return inside.filter((token) => token.raw !== "")
  }
  const comma = input.findIndex((token, index) => index > lastMark && CLAUSE_COMMAS.has(token.value))
  return comma < 0 ? undefined : input.slice(0, comma)
}

/**
 * Reads a phrase naming an element.
 *
 * @example
 * ```ts
 * // parseTargetPhrase(tokenize("the second link")) → { role: "link", ordinal: 2, raw: "the second link" }
 * ```
 */
export const parseTargetPhrase = (input: ReadonlyArray<Token>): TargetPhrase => {
  let tokens = stripFillers(menuPathIn(input) ?? input).filter(
    (token) => token.kind !== "punct" || isPathMark(token),
  )
  const raw = valueText(tokens)
  // A menu path: "File > Export > PDF".
  if (tokens.some(isPathMark)) {
    const path: Array<string> = []
    let segment: Array<Token> = []
    for (const token of tokens) {
      if (isPathMark(token)) {
        path.push(valueText(segment))
        segment = []
      } else segment.push(token)
    }
    path.push(valueText(segment))
    const clean = path.filter((part) => part !== "")
    return { raw, path: clean, text: clean[clean.length - 1]!, role: "menuitem" }
  }
  // "the Send button outside the newsletter form", "… outside of the dialog", "… not in the sidebar",
  // "… from the top navigation, not the footer": a container the element must not be in.
  const outsideAt = tokens.findIndex(
    (token, index) =>
      index > 0 &&
      (isWord(token, "outside") ||
        (isWord(token, "not") && isWord(tokens[index + 1], "in", "inside", "within", "from", "the"))),
  )
  if (outsideAt > 0) {
    const skip = isWord(tokens[outsideAt + 1], "of", "in", "inside", "within", "from") ? 2 : 1
    const away = tokens.slice(outsideAt + skip)
    const inner = parseTargetPhrase(tokens.slice(0, outsideAt))
    // "the outside link" names a link: only a phrase on each side makes "outside" a container.
    if (away.length > 0 && (inner.text !== undefined || inner.role !== undefined)) {
      const outside = parseTargetPhrase(away)
      // "not the one in the dialog": the container of "the one" is the place to avoid.
      const place =
        outside.container !== undefined && outside.text !== undefined && /^ones?$/i.test(outside.text)
          ? outside.container
          : outside
      return { ...inner, raw, outside: place }
    }
  }
  let container: TargetPhrase | undefined
  // Chinese container first: "对话框中的确定", "在对话框中 … 确定".
  const chineseIn = indexOfWord(
    tokens,
    CONTAINER_BEFORE.map((word) => `${word}的`),
  )
  if (chineseIn > 0) {
    container = parseTargetPhrase(tokens.slice(0, chineseIn))
    tokens = tokens.slice(chineseIn + 1)
  } else {
    const middle = tokens.findIndex(
      (token, index) => isWord(token, ...CONTAINER_BEFORE) && isWord(tokens[index + 1], "的") && index > 0,
    )
    if (middle > 0) {
      container = parseTargetPhrase(tokens.slice(isWord(tokens[0], "在") ? 1 : 0, middle))
      tokens = tokens.slice(middle + 2)
    }
  }
  // English container: "OK in the dialog", "Save inside the Settings panel".
  const inIndex = lastIndexOfWord(tokens, CONTAINER_AFTER)
  if (container === undefined && inIndex > 0 && inIndex < tokens.length - 1) {
    const rest = tokens.slice(inIndex + 1)
    const restTarget = parseTargetPhrase(rest)
    const article = rest[0]?.kind === "word" && ["the", "this", "that"].includes(rest[0].value)
    const containerRole =
      restTarget.role !== undefined &&
      ["dialog", "form", "section", "menuitem", "tab", "listbox", "row"].includes(restTarget.role)
    const loose = isWord(tokens[inIndex], "on", "from") ? article : true
    // "on the page" names no container.
    const wholePage = restTarget.role === undefined && isWord(rest[rest.length - 1], "page", "页面")
    // "Sextant under Projects", "the Sextant folder in Projects": a container named by a proper name, or
    // by a name in quotes in any script (`click "Call" in "李娜 | 星河科技"`).
    const bare =
      !article &&
      isWord(tokens[inIndex], ...CONTAINER_BARE) &&
      restTarget.role === undefined &&
      (/^\p{Lu}/u.test(rest[0]?.raw ?? "") || (rest.length === 1 && rest[0]?.kind === "quoted"))
    if (
      loose &&
      !wholePage &&
      ((restTarget.role !== undefined && (article || containerRole)) ||
        ((article || bare) && restTarget.text !== undefined))
    ) {
      container = restTarget
      tokens = tokens.slice(0, inIndex)
    } else if (wholePage && article) tokens = tokens.slice(0, inIndex)
  }
  let ordinal: number | undefined
  let role: RoleHint | undefined
  const words: Array<Token> = []
  let index = 0
  while (index < tokens.length) {
    const token = tokens[index]!
    if (token.kind === "word" && ARTICLES.has(token.value) && words.length === 0) {
      index += 1
      continue
    }
    if (
      token.kind === "word" &&
      ORDINAL_WORDS.has(token.value) &&
      ordinal === undefined &&
      words.length === 0 &&
      ordinalStandsAlone(tokens, index + 1)
    ) {
      ordinal = ORDINAL_WORDS.get(token.value)!
      index += 1
      continue
    }
    if (token.kind === "word" && /^\d+(st|nd|rd|th)$/.test(token.value) && ordinal === undefined) {
      ordinal = Number.parseInt(token.value, 10)
      index += 1
      continue
    }
    if (isWord(token, "第")) {
      const next = tokens[index + 1]
      const number = next === undefined ? undefined : chineseNumber(next.value)
      if (number !== undefined) {
        ordinal = number
        index += isWord(tokens[index + 2], "个", "项", "条", "页") ? 3 : 2
        continue
      }
    }
    if (isWord(token, "最后一个", "最后")) {
      ordinal = -1
      index += isWord(tokens[index + 1], "个") ? 2 : 1
      continue
    }
    // "Tab #3", "button number 2", "link no. 4" — a number right after a role noun is a position.
    if (role !== undefined && words.length === 0 && ordinal === undefined) {
      if (token.kind === "number" && token.raw.startsWith("#")) {
        ordinal = Number(token.value)
        index += 1
        continue
      }
      if (isWord(token, "number", "no") && tokens[index + 1]?.kind === "number") {
        ordinal = Number(tokens[index + 1]!.value)
        index += 2
        continue
      }
    }
    if (token.kind === "word" || token.kind === "keyword") {
      const found = ROLE_NOUNS.find(([nouns]) =>
        nouns.every((noun, offset) => {
          const candidate = tokens[index + offset]
          if (candidate === undefined || (candidate.kind !== "word" && candidate.kind !== "keyword"))
            return false
          return (
            candidate.value === noun || (offset === nouns.length - 1 && singular(candidate.value) === noun)
          )
        }),
      )
      // A role noun names the kind when it starts or ends the phrase: "the Save button", "button ONE".
      if (found !== undefined && role === undefined) {
        const after = index + found[0].length
        const atEnd =
          after >= tokens.length ||
          isWord(tokens[after], "labelled", "labeled", "named", "called", "titled", "saying", "with", "的")
        const atStart = words.length === 0
        if (atEnd || atStart) {
          role = found[1]
          index = after
          continue
        }
      }
    }
    if (
      isWord(token, ...NAME_MARKERS) ||
      (isWord(token, "with") && isWord(tokens[index + 1], "text", "label")) ||
      (isWord(token, "next") && isWord(tokens[index + 1], "to"))
    ) {
      index += isWord(token, "with") || isWord(token, "next") ? 2 : 1
      continue
    }
    if (isWord(token, "的") && (index === tokens.length - 1 || words.length === 0)) {
      index += 1
      continue
    }
    words.push(token)
    index += 1
  }
  // "button #2" left a lone number: it is a position.
  if (ordinal === undefined && role !== undefined && words.length === 1 && words[0]!.kind === "number") {
    ordinal = Number(words[0]!.value)
    words.length = 0
  }
  // "the Forgot password? text": "text" says what kind of thing, not its name.
  if (words.length > 1 && isWord(words[words.length - 1], "text", "label", "文字")) words.pop()
  let text = valueText(words.filter((token) => !isWord(token, "的")))
  // "the search box" and "搜索框" name a search field even with no other words.
  if (text === "" && role === "textbox" && tokens.some((token) => isWord(token, "search", "搜索框")))
    text = "search"
  const phrase: { -readonly [Key in keyof TargetPhrase]: TargetPhrase[Key] } = { raw }
  if (text !== "") phrase.text = text
  if (role !== undefined) phrase.role = role
  if (ordinal !== undefined) phrase.ordinal = ordinal
  if (container !== undefined) phrase.container = container
  return phrase
}

/** Splits "A, B and C" / "A、B和C" into values. */
export const splitList = (tokens: ReadonlyArray<Token>): ReadonlyArray<string> => {
  const items: Array<string> = []
  let current: Array<Token> = []
  for (const token of tokens) {
    if (
      isWord(token, "and", "or", "和", "与", "或", "及", "以及", "&") ||
      (token.kind === "punct" && [",", "，", "、", ";"].includes(token.value))
    ) {
      if (current.length > 0) items.push(valueText(current))
      current = []
    } else current.push(token)
  }
  if (current.length > 0) items.push(valueText(current))
  return items.filter((item) => item !== "")
}

/** Splits field tokens at "and" / "和" / "、" into several fields ("New password 和 Confirm new password 都"). */
export const splitFields = (tokens: ReadonlyArray<Token>): ReadonlyArray<ReadonlyArray<Token>> => {
  const parts: Array<Array<Token>> = [[]]
  for (const token of tokens) {
    if (
      isWord(token, "and", "和", "与", "以及") ||
      (token.kind === "punct" && ["、", ","].includes(token.value))
    )
      parts.push([])
    else if (!isWord(token, "都", "均", "both")) parts[parts.length - 1]!.push(token)
  }
  return parts.filter((part) => part.length > 0)
}

/** Fills a template's slot from its tokens, or refuses them (undefined). */
export const fillSlot: SlotFiller = (type, tokens) => {
  const words = tokens.map((token) => token.value)
  switch (type) {
    case "owner": {
      // "Anna's", "Dev team’s": the owner's name without the possessive, read as a target.
      const last = tokens.at(-1)
      const bare = last?.kind === "word" ? last.value.replace(/['’]s$/u, "") : ""
      if (last === undefined || bare === "" || bare === last.value) return undefined
      const rawBare = last.raw.replace(/['’]s$/iu, "")
      return fillSlot("target", [...tokens.slice(0, -1), { ...last, value: bare, raw: rawBare }])
    }
    case "target":
    case "container": {
      const target = parseTargetPhrase(tokens)
      return target.raw === "" && target.role === undefined && target.ordinal === undefined
        ? undefined
        : target
    }
    case "key":
      return (words.length === 1 ? KEYS.get(words[0]!.toLowerCase()) : undefined) ?? chordOf(tokens)
    case "chord":
      return chordOf(tokens)
    case "action": {
      const verb = matchVerb(tokens, 0)
      if (verb === undefined || verb[1] !== tokens.length) return undefined
      const raw = joinTokens(tokens)
      return GENERIC_CLICK_VERBS.has(raw.toLowerCase()) ? null : raw.split(" ")[0]
    }
    case "path": {
      // "依次点击 File、Export、PDF": one path, outermost first.
      const path = tokens.some((token) => token.value === "、") ? splitList(tokens) : []
      return path.length > 1
        ? { raw: path.join(" > "), path, text: path.at(-1)!, role: "menuitem" }
        : undefined
    }
    case "url":
      return tokens.length === 1 && tokens[0]!.kind === "url" ? tokens[0]!.raw : undefined
    case "quoted":
      return tokens.length === 1 && tokens[0]!.kind === "quoted" ? tokens[0]!.raw : undefined
    case "control": {
      const target = parseTargetPhrase(tokens)
      return target.role === undefined ? undefined : target
    }
    case "quantity": {
      if (tokens.length !== 1) return undefined
      const token = tokens[0]!
      return token.kind === "number"
        ? Number(token.value)
        : (ENGLISH_NUMBERS.get(token.value) ?? chineseNumber(token.value))
    }
    case "ordinal":
      return words.length === 1 ? ORDINAL_WORDS.get(words[0]!) : undefined
    case "number":
      return tokens.length === 1 && tokens[0]!.kind === "number" ? tokens[0]!.raw : undefined
    case "reference":
      return words.every((word) => ["it", "them", "that", "this", "它", "它们"].includes(word))
        ? true
        : undefined
    case "state": {
      // One state word, with links and negations around it: "are checked", "is not selected", "没有被勾选".
      const states = words.filter((word) => CHECKED_WORDS.includes(word) || UNCHECKED_WORDS.includes(word))
      const negated = words.some((word) => STATE_NEGATIONS.includes(word))
      const other = words.some(
        (word) =>
          !CHECKED_WORDS.includes(word) &&
          !UNCHECKED_WORDS.includes(word) &&
          !STATE_NEGATIONS.includes(word) &&
          !STATE_LINKS.includes(word),
      )
      if (states.length !== 1 || other) return undefined
      return CHECKED_WORDS.includes(states[0]!) !== negated ? "check" : "uncheck"
    }
    case "targets": {
      // A name made only of a state's links names nothing ("make sure it is checked").
      const parts = splitFields(tokens)
      const links = (part: ReadonlyArray<Token>) => part.every((token) => STATE_LINKS.includes(token.value))
      return parts.length === 0 || parts.some(links)
        ? undefined
        : parts.map((part) => parseTargetPhrase(part))
    }
    case "place": {
      const place = tokens.filter((token) => !isWord(token, "在", "从", "于", "中", "里", "内", "的"))
      return place.length === 0 ? undefined : parseTargetPhrase(place)
    }
    case "date": {
      // A day with no year ("31 December") is typed as `--12-31`: the date field's page says the year.
      const text = valueText(tokens)
      const day = readCalendarDay(text)
      if (day !== undefined) return isoDay(day)
      const yearless = readMonthDay(text)
      return yearless === undefined ? undefined : isoMonthDay(yearless)
    }
    case "option":
    case "choice": {
      const quoted = tokens.filter((token) => token.kind === "quoted").map((token) => token.raw)
      const commas = tokens.some((token) => token.kind === "punct" && [",", "，", "、"].includes(token.value))
      if (type === "option" && quoted.length === 0 && commas) return undefined
      const options =
        quoted.length > 0
          ? quoted
          : type === "option"
            ? [valueText(tokens)]
            : splitList(
                tokens.filter(
                  (token, index) => !(index === 0 && token.kind === "word" && ARTICLES.has(token.value)),
                ),
              )
      const target = parseTargetPhrase(tokens)
      return options.length === 0 && target.ordinal === undefined ? undefined : { options, target }
    }
    case "item":
      return readItem(tokens)
    case "namedItem":
      return readItem(tokens) ?? readNamedItem(tokens)
    case "boxes": {
      const names = splitFields(tokens)
      const words = (name: ReadonlyArray<Token>) => name.filter((token) => token.kind !== "punct").length
      if (names.length < 2 || names.some((name) => words(name) > MAX_LISTED_BOX_WORDS)) return undefined
      return names.map((name) => parseTargetPhrase(name))
    }
    default: {
      const value = valueText(tokens)
      return value === "" ? undefined : value
    }
  }
}

const HAN_END = /\p{Script=Han}$/u

/**
 * Reads one item of a list said by its position or by a quantity, and nothing else: `the second one`,
 * `the 3rd room`, `the second to last one`, `the cheapest flight`, `the last train of the day` (the
 * latest time), `第二个航班`, `倒数第二个`, `最便宜的商品`, `评分最高的那个`. After the position or the quantity
 * only a name of the items (`one`, `flight`, `商品`) and a tail (`on the page`) may follow: any other word
 * (`the cheapest nonstop flight`, `the first name`) leaves it unread, so a condition is never dropped.
 */
export const readItem = (tokens: ReadonlyArray<Token>): ItemPhrase | undefined => {
  if (tokens.length === 0 || tokens.some((token) => token.kind === "quoted" || token.kind === "punct"))
    return undefined
  const said = joinTokens(tokens)
  let rest = said.normalize("NFKC").toLowerCase().replace(/\s+/g, " ").trim()
  /** The longest of `phrases` that starts the rest as whole words (Chinese needs no space after it). */
  const take = (phrases: ReadonlyArray<string>): string | undefined => {
    const found = phrases.find(
      (phrase) =>
        rest.startsWith(phrase) &&
        (rest.length === phrase.length || rest[phrase.length] === " " || HAN_END.test(phrase)),
    )
    if (found !== undefined) rest = rest.slice(found.length).trimStart()
    return found
  }
  take(["the", "a", "an", "my", "this", "that", "your", "our"])
  let ordinal: number | undefined
  let rank: ItemPhrase["rank"]
  const fromEndBefore = take(FROM_END.filter((phrase) => HAN_END.test(phrase))) !== undefined
  const chinese = /^第\s*([一二两三四五六七八九十\d]+)\s*(?:个|项|条|班|件|位|款)?/u.exec(rest)
  const english = /^(\S+?)(?= |$)/.exec(rest)?.[1]
  if (chinese !== null) {
    ordinal = chineseNumber(chinese[1]!)
    rest = rest.slice(chinese[0].length).trimStart()
  } else if (/^最后(?:一\s*(?:个|项|条|班|件|款))?/u.test(rest)) {
    ordinal = -1
    rest = rest.replace(/^最后(?:一\s*(?:个|项|条|班|件|款))?/u, "").trimStart()
  } else if (english !== undefined && (ORDINAL_WORDS.has(english) || /^\d+(?:st|nd|rd|th)$/.test(english))) {
    ordinal = ORDINAL_WORDS.get(english) ?? Number.parseInt(english, 10)
    rest = rest.slice(english.length).trimStart()
    if (ordinal > 0 && take(FROM_END.filter((phrase) => !HAN_END.test(phrase))) !== undefined)
      ordinal = -ordinal
  } else {
    const quantity = take(QUANTITY_PHRASES)
    if (quantity === undefined) return undefined
    const { measures, order } = QUANTITIES.get(quantity)!
    rank = { measures: [...measures], order }
  }
  if (ordinal === undefined && rank === undefined) return undefined
  if (ordinal !== undefined && fromEndBefore) ordinal = ordinal > 0 ? -ordinal : ordinal
  if (ordinal === 0 || (fromEndBefore && ordinal === undefined)) return undefined
  take(["的"])
  take(ITEM_NOUNS)
  // "the last train of the day": the latest time, not the last of the list.
  if ((ordinal === 1 || ordinal === -1) && take(OF_THE_DAY) !== undefined) {
    rank = { measures: ["time"], order: ordinal === 1 ? "least" : "most" }
    ordinal = undefined
  }
  take(ITEM_TAILS)
  if (rest !== "") return undefined
  return { said, ...(ordinal === undefined ? {} : { ordinal }), ...(rank === undefined ? {} : { rank }) }
}

/**
 * One item of a list said by its own words, its article dropped: `the scented candle`, `Linen cushions`.
 * Words only (no quoted text, no punctuation, no number: a count is a slot of its own), at most
 * {@link MAX_ITEM_NAME_WORDS} of them; `resolvePick` takes the one item whose text holds them all.
 */
const readNamedItem = (tokens: ReadonlyArray<Token>): ItemPhrase | undefined => {
  const words = tokens.filter(
    (token, index) => !(index === 0 && token.kind === "word" && ARTICLES.has(token.value)),
  )
  if (
    words.length === 0 ||
    words.length > MAX_ITEM_NAME_WORDS ||
    words.some((token) => token.kind !== "word" && token.kind !== "keyword")
  )
    return undefined
  return { said: joinTokens(tokens), name: joinTokens(words) }
}

/** Words longer than this in an item named by its words are a description, not a name. */
const MAX_ITEM_NAME_WORDS = 4

/** Words longer than this in one name of a list are read as one label ("I agree to the terms and conditions"). */
const MAX_LISTED_BOX_WORDS = 3

/** "Ctrl+K", "Control+Shift+p", "⌘K": a key chord as the driver names it. */
const chordOf = (tokens: ReadonlyArray<Token>): string | undefined => {
  const text = tokens.map((token) => token.raw).join("")
  const modifiers = [...CHORD.keys()].join("|")
  if (!new RegExp(`^(?:(?:${modifiers})\\+)+[\\w]+$`, "i").test(text)) return undefined
  const parts = text.split("+")
  const key = parts.pop()!
  return [
    ...parts.map((part) => CHORD.get(part.toLowerCase()) ?? part),
    KEYS.get(key.toLowerCase()) ?? (key.length === 1 ? key.toLowerCase() : key),
  ].join("+")
}

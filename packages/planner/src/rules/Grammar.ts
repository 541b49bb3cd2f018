import { isoDay, readCalendarDay } from "@sextant/core"
import type { Command, TargetPhrase } from "./Command.ts"
import type { Hint, Messages, Verb } from "./lang/Lexicon.ts"
import { describerOf, misreading, needsModel, rankingsRead, type ValueReference } from "./Reading.ts"
import { fillSlot, isPathMark, parseTargetPhrase, splitFields, splitList } from "./Slots.ts"
import { compileTemplates, matchTemplates } from "./Templates.ts"
import { joinTokens, type Token, tokenize } from "./Tokenizer.ts"
import {
  AGAIN,
  ALWAYS_SEPARATES,
  ARTICLES,
  ASIDES,
  CHECKED_WORDS,
  CHINESE_NEGATIONS,
  CHINESE_NUMERALS,
  CHINESE_VERBS,
  CHORD,
  CLOCK_WORDS,
  CLOSING_PRESSES,
  COUNTERS,
  COURTESIES,
  DIRECTIONS,
  ENGLISH_NUMBERS,
  ENGLISH_VERBS,
  FIELD_LINKS,
  FILLERS,
  FUNCTION_WORDS,
  GENERIC_CLICK_VERBS,
  ITEM_VERBS,
  KEYS,
  LANGUAGES,
  LITERAL_NOUNS,
  MESSAGE_WORDS,
  messagesFor,
  ORDINAL_WORDS,
  PAIR_WORDS,
  PASSWORD_WORDS,
  PLACE_WORDS,
  READ_WORDS,
  REPEAT_WORDS,
  REPEATED,
  ROLE_NOUNS,
  SCROLL_WORDS,
  SEARCH_SCOPE_WORDS,
  SEARCH_WORDS,
  SEPARATES_BEFORE_VERB,
  SOFT_FILLERS,
  SOFTENERS,
  STATE_LINKS,
  STATE_NEGATIONS,
  STATEMENT_NOT_VALUE,
  UNCHECKED_WORDS,
  USER_WORDS,
  VALUE_NOUNS,
  VERB_CONTROLS,
} from "./Vocabulary.ts"
import {
  chineseNumber,
  clockTime,
  indexOfWord,
  isWord,
  lastIndexOfWord,
  matchVerb,
  singular,
  stripFillers,
  valueText,
} from "./Words.ts"

/**
 * The rule grammar: a command → clauses → one `Command` each.
 *
 * ```
 * command  := clause (separator clause)*
 * separator:= "then" | ";" | "。" | "然后" | "接着" | "之后"          (always)
 *           | "and" | "," | "，" | "并" | "再" | "和"                 (only before a verb)
 * clause   := prefix? verb arguments                  (prefix: Chinese "在 <field> 中", "用 X 和 Y")
 * target   := article? ordinal? words role? container?  | role ordinal | path (">")
 * ```
 *
 * A clause after "then" that has no verb repeats the verb before it ("click ONE then TWO").
 */

const TEMPLATES = compileTemplates(LANGUAGES)

/** The grammar's answer: the commands, or why it could not read the text. */
export type ParseResult =
  | {
      readonly ok: true
      readonly commands: ReadonlyArray<Command>
      /** Read as a form on paper ("Start date 2024-12-24"): no word of it is an action (see `verblessPairs`). */
      readonly verbless?: true
    }
  | {
      readonly ok: false
      readonly reason: string
      /** The clause the refusal is about when it has no action word (the words a page may still place). */
      readonly noActionIn?: string
      /** The value the refusal is about when it is a reference the page may answer ("李娜的邮箱"). */
      readonly reference?: ValueReference
    }

const isSeparator = (token: Token): boolean =>
  (token.kind === "word" || token.kind === "keyword" || token.kind === "punct") &&
  (SEPARATES_BEFORE_VERB.has(token.value) || ALWAYS_SEPARATES.has(token.value))

/** The tokens from `start` up to the next separator. */
const segmentAt = (tokens: ReadonlyArray<Token>, start: number): ReadonlyArray<Token> => {
  let end = start
  while (end < tokens.length && !isSeparator(tokens[end]!)) end += 1
  return tokens.slice(start, end)
}

/** A Chinese verb written as one keyword ("勾选", "点击"). */
const isChineseVerb = (token: Token | undefined): boolean =>
  token !== undefined && token.kind === "keyword" && CHINESE_VERBS.has(token.value)

/**
 * Whether the token at `index` is a field link (写) after a field's name: "简介写：…", "主题写“周会”" type
 * into the field before it. At the start of a clause ("写邮件给李娜") it names no field and links nothing.
 */
const linksField = (tokens: ReadonlyArray<Token>, index: number): boolean => {
  const link = tokens[index]
  const field = tokens[index - 1]
  const value = tokens[index + 1]
  if (link === undefined || link.kind !== "keyword" || !FIELD_LINKS.has(link.value)) return false
  // The word before it is the field's name ("简介", "邮箱"), not a particle ("页面上写了什么" says what is written).
  const named =
    field !== undefined &&
    (field.kind === "text" ||
      field.kind === "word" ||
      field.kind === "quoted" ||
      (field.kind === "keyword" &&
        (USER_WORDS.includes(field.value) || PASSWORD_WORDS.includes(field.value))))
  // A value follows, and no aspect particle ("写了", "写着"), which makes the link a verb of a statement.
  if (!named || value === undefined || (value.kind === "text" && /^[了着过]/u.test(value.value))) return false
  // "把数字写在备注里", "写到 F": the words before it are what is written, not a field; only "<field> 写 <value>" links.
  return !isWord(value, "在", "到") && !tokens.slice(0, index).some((token) => isWord(token, "把", "将"))
}

/** Whether the words at `start` are a field's name and its link ("内容写 …"), up to the next punctuation. */
const fieldLinkAhead = (tokens: ReadonlyArray<Token>, start: number): boolean => {
  for (let index = start + 1; index < tokens.length && index <= start + 4; index += 1) {
    const token = tokens[index]!
    if (token.kind === "punct" || token.kind === "quoted" || isChineseVerb(token)) return false
    if (linksField(tokens.slice(start), index - start)) return true
  }
  return false
}

/** The stops that end a sentence, and with it the instruction. */
const SENTENCE_STOPS = new Set(["。", ".", "!", "！", "?", "？"])

/**
 * The stop that closes a written sentence typed as a value, which is part of the value: an unquoted value
 * after a colon that runs to the end of the instruction keeps its closing "。" (or . ! ?) when it reads as
 * a sentence — it holds a word that only a sentence says (我, I, we: the statements' `notValue` words) or
 * punctuation of its own ("求职信填：我有五年港口物流经验。" types the 。). Otherwise the stop closes the
 * instruction, not the value: "城市填北京。" and "城市填：北京。" type 北京. Undefined when no stop is kept.
 */
const closingStop = (clause: ReadonlyArray<Token>, after: ReadonlyArray<Token>): Token | undefined => {
  const stop = clause.at(-1)
  if (stop === undefined || stop.kind !== "punct" || !SENTENCE_STOPS.has(stop.value)) return undefined
  if (after[0]?.kind !== "punct" || !/^[:：]$/.test(after[0].value)) return undefined
  const value = after.slice(1)
  if (value.length === 0 || value.some((token) => token.kind === "quoted")) return undefined
  const text = joinTokens(value)
  const sentence =
    value.some((token) => token.kind === "punct") ||
    text
      .toLowerCase()
      .split(/[\s,]+/)
      .some((word) => STATEMENT_NOT_VALUE.has(word)) ||
    [...STATEMENT_NOT_VALUE].some((word) => /\p{Script=Han}/u.test(word) && text.includes(word))
  return sentence ? { ...stop, spaced: false } : undefined
}

/**
 * Whether the segment after a comma or "and" is a clause of its own although it has no verb first:
 * a Chinese clause with its verb after the field ("邮箱填写 x"), or another field–value pair like the
 * one before it ("Fill Name with A, Email with B", "Enter A in Name and B in Email", "Name: A, Email: B").
 */
const startsPair = (
  current: ReadonlyArray<Token>,
  segment: ReadonlyArray<Token>,
  earlier: ReadonlyArray<ReadonlyArray<Token>>,
): boolean => {
  if (segment.length === 0 || current.length === 0) return false
  const head = stripFillers(current)
  if (segment.some(isChineseVerb) && head.some(isChineseVerb)) return true
  // A clause with no verb of its own ("new-pass in New password") goes on with the verb before it.
  const verbOf = (tokens: ReadonlyArray<Token>) => {
    const stripped = stripFillers(tokens)
    return stripped.length === 0 ? undefined : matchVerb(stripped, 0)?.[0]
  }
  const verb =
    verbOf(head) ??
    [...earlier]
      .reverse()
      .map(verbOf)
      .find((found) => found !== undefined)
  const pairing =
    verb === "type" || verb === "set" || (verb === undefined && head.some((token) => token.value === ":"))
  // "城市填 München，邮编 80331": after a clause that types (its verb after its topic), a segment that is a
  // field's name and a written value is the next pair, not more of the value.
  if (
    head.some(
      (token, index) =>
        (isChineseVerb(token) && matchVerb(head, index)?.[0] === "type") || linksField(head, index),
    ) &&
    chinesePair(segment) !== undefined
  )
    return true
  if (!pairing) return false
  if (isWord(segment[0], "in", "into")) return true
  return PAIR_WORDS.some(
    (word) =>
      segment.slice(1).some((token) => token.value === word) &&
      head.slice(1).some((token) => token.value === word),
  )
}

/**
 * "邮编 80331": a Chinese field's name (words of no verb) followed by a written value (digits, capitals,
 * an email, a quoted literal), the way a form is filled out on paper; else undefined.
 */
const chinesePair = (
  segment: ReadonlyArray<Token>,
): { readonly field: ReadonlyArray<Token>; readonly value: string } | undefined => {
  const pair = stripFillers(segment)
  let value = pair.length
  while (value > 1 && valueLike(pair[value - 1]!)) value -= 1
  if (value === pair.length || !pair.slice(0, value).every((token) => token.kind === "text")) return undefined
  return { field: pair.slice(0, value), value: valueText(pair.slice(value)) }
}

/** Words that, alone in a clause after a box or a choice, name the button that finishes the form. */
const FINISHING_WORDS = new Set([
  "save",
  "submit",
  "apply",
  "confirm",
  "continue",
  "next",
  "done",
  "finish",
  "保存",
  "提交",
  "确认",
  "继续",
])

/**
 * How many tokens at `index` say "do not" ("don't", "do not", "never", "不要", "别", "请勿"), or 0. Only a
 * negation followed by a verb makes a negated step; the caller checks the verb.
 */
const negationLength = (tokens: ReadonlyArray<Token>, index: number): number => {
  const token = tokens[index]
  if (token === undefined || token.kind === "quoted" || token.kind === "punct") return 0
  if (isWord(token, "don't", "dont", "never", "don’t")) return 1
  if (isWord(token, "do", "please") && isWord(tokens[index + 1], "not", "don't", "never")) return 2
  if (isWord(token, "not", "without")) return 1
  // Chinese: the negation may be one token ("不要") or split ("不", "用"); the longest one counts.
  let text = ""
  let length = 0
  for (let end = index; end < Math.min(tokens.length, index + 3); end += 1) {
    const next = tokens[end]!
    if (next.kind === "quoted" || next.kind === "punct") break
    text += next.value
    if (CHINESE_NEGATIONS.includes(text)) length = end - index + 1
    if (!CHINESE_NEGATIONS.some((negation) => negation.startsWith(text))) break
  }
  return length
}

/**
 * "… and save", "… and submit it", "… and save the changes": a control's name (the lexicon's closing
 * presses) said as the instruction's last words, with nothing after it but what it acts on.
 */
const closingPress = (tokens: ReadonlyArray<Token>, at: number): boolean => {
  const token = tokens[at]
  if (
    token === undefined ||
    (token.kind !== "word" && token.kind !== "text") ||
    !CLOSING_PRESSES.has(token.value)
  )
    return false
  const rest = tokens.slice(at + 1).filter((after) => after.kind !== "punct")
  return CLOSING_OBJECTS.has(rest.map((after) => after.value).join(" "))
}

/** What a closing press may be said to act on ("save it", "save the changes"), or nothing. */
const CLOSING_OBJECTS: ReadonlySet<string> = new Set([
  "",
  "it",
  "them",
  "this",
  "changes",
  "the changes",
  "my changes",
  "the form",
  "everything",
])

/** Cuts a command into clauses at separators (see the grammar above). */
const splitClauses = (tokens: ReadonlyArray<Token>): ReadonlyArray<ReadonlyArray<Token>> => {
  const clauses: Array<Array<Token>> = [[]]
  let position = 0
  while (position < tokens.length) {
    const token = tokens[position]!
    const current = clauses[clauses.length - 1]!
    const isAlways =
      (token.kind === "word" || token.kind === "keyword" || token.kind === "punct") &&
      ALWAYS_SEPARATES.has(token.value)
    // "next" separates only when it is not "next page".
    const isNextPage = token.value === "next" && isWord(tokens[position + 1], "page")
    // "Company: Kite Labs. The contact email is …": a full stop ends a sentence, and so a clause.
    const fullStop = token.kind === "punct" && token.value === "." && position < tokens.length - 1
    // "求职信填：我有五年港口物流经验。": the stop that ends a value written after a colon stays with it,
    // for `closingStop` to judge.
    const closesColonValue =
      token.kind === "punct" &&
      token.value === "。" &&
      tokens.slice(position + 1).every((next) => next.kind === "punct") &&
      current.some((earlier) => earlier.kind === "punct" && /^[:：]$/.test(earlier.value))
    if (closesColonValue) {
      current.push(token)
      position += 1
      continue
    }
    if ((isAlways && !isNextPage) || fullStop) {
      if (current.length > 0) clauses.push([])
      position += 1
      continue
    }
    if (
      (token.kind === "word" || token.kind === "keyword" || token.kind === "punct") &&
      SEPARATES_BEFORE_VERB.has(token.value)
    ) {
      let next = position + 1
      let always = false
      while (
        next < tokens.length &&
        (SEPARATES_BEFORE_VERB.has(tokens[next]!.value) ||
          FILLERS.has(tokens[next]!.value) ||
          ALWAYS_SEPARATES.has(tokens[next]!.value))
      ) {
        // "and then", ", then": the clause ends here, whatever follows.
        if (ALWAYS_SEPARATES.has(tokens[next]!.value) && tokens[next]!.kind !== "quoted") always = true
        next += 1
      }
      const negation = negationLength(tokens, next)
      const startsClause =
        always ||
        matchVerb(tokens, next) !== undefined ||
        // ", don't click the footer one", "，不要勾选 Sports", "but not Sports": a negated step is a
        // clause of its own, with the verb before it when it names none.
        negation > 0 ||
        // "，配送选 Overnight": after a comma, a Chinese clause may name its topic before its verb.
        (token.value === "," && isChineseVerb(tokens[next + 1]) && !isChineseVerb(tokens[next])) ||
        // "，内容写“明天十点开会”": a field's name and its link start the next typing.
        (token.value === "," && fieldLinkAhead(tokens, next)) ||
        isWord(tokens[next], "在", "用", "以", "从", "把", "将") ||
        closingPress(tokens, next) ||
        startsPair(current, segmentAt(tokens, next), clauses.slice(0, -1))
      if (startsClause && current.length > 0) {
        clauses.push([])
        position = next
        continue
      }
    }
    // "Edit the profile: set Nickname to Lin and …": a colon before a verb ends a heading; the colon
    // stays on it so the heading can be told from a command ("Nickname: Lin" has no verb after it).
    if (token.value === ":" || token.value === "：") {
      let next = position + 1
      while (next < tokens.length && FILLERS.has(tokens[next]!.value)) next += 1
      if (matchVerb(tokens, next) !== undefined && current.length > 0) {
        current.push(token)
        clauses.push([])
        position = next
        continue
      }
    }
    current.push(token)
    position += 1
  }
  return clauses.filter((clause) => clause.length > 0)
}

const fail = (reason: string, noActionIn?: string): ParseResult =>
  noActionIn === undefined ? { ok: false, reason } : { ok: false, reason, noActionIn }

type ClauseResult =
  | { readonly command: Command }
  | { readonly commands: ReadonlyArray<Command> }
  | { readonly reason: string; readonly noActionIn?: string }
  /** What the verb needs, said by the language data in the clause's language. */
  | { readonly hint: Hint }

/** A clause read, or refused with its reason in words. */

/**
 * The "!" or "?" written against the end of a value that mixes letters and digits, which is part of it:
 * "Type Engine1843!" types `Engine1843!` (a password or a code keeps every character, as a credential
 * does in a log-in), where "Type hello!" types `hello`. Undefined when the clause ends otherwise.
 */
const attachedMark = (clause: ReadonlyArray<Token>, after: ReadonlyArray<Token>): Token | undefined => {
  const mark = clause.at(-1)
  const value = after.at(-1)
  if (mark === undefined || mark.kind !== "punct" || mark.spaced || !/^[!?]$/.test(mark.value))
    return undefined
  if (value === undefined || value.kind === "punct" || value.kind === "quoted" || clause.at(-2) !== value)
    return undefined
  return /\p{L}/u.test(value.raw) && /\d/.test(value.raw) ? mark : undefined
}
type ClauseRead = Exclude<ClauseResult, { hint: Hint }>

const parseLogin = (before: ReadonlyArray<Token>, after: ReadonlyArray<Token>): ClauseResult => {
  const tokens = [...before, ...after]
  let username: string | undefined
  let password: string | undefined
  const valueAt = (position: number): string | undefined => {
    let index = position
    while (isWord(tokens[index], "is", "of", "=", "为", "是", ":", "the") || tokens[index]?.value === ":")
      index += 1
    const token = tokens[index]
    if (token === undefined || token.kind === "punct") return undefined
    // A credential is every character typed: "12reads!" keeps its "!" (a comma or full stop after it ends the clause).
    let raw = token.raw
    for (let next = tokens[++index]; next?.kind === "punct" && !next.spaced; next = tokens[++index]) {
      if (",.;:)]，。；：）".includes(next.raw)) break
      raw += next.raw
    }
    return raw
  }
  tokens.forEach((token, index) => {
    if (isWord(token, ...PASSWORD_WORDS)) password ??= valueAt(index + 1)
    else if (isWord(token, "as", "以", ...USER_WORDS.filter((word) => !["e-mail", "login"].includes(word)))) {
      const value = valueAt(index + 1)
      if (value !== undefined && !isWord(tokens[index + 1], "password", "密码")) username ??= value
    }
  })
  if (username === undefined) {
    const email = tokens.find((token) => token.kind === "email")
    if (email !== undefined) username = email.raw
  }
  // "log in with alice and wonderland", "用 alice 和 wonderland 登录", "alice / wonderland".
  const withIndex = indexOfWord(tokens, ["with", "using", "用", "使用"])
  if (withIndex >= 0 && (username === undefined || password === undefined)) {
    const values = tokens
      .slice(withIndex + 1)
      .filter(
        (token) =>
          token.kind !== "punct" &&
          !isWord(token, "and", "和", "/", "password", "密码", "username", "用户名", "登录", "the"),
      )
    if (username === undefined && values[0] !== undefined) username = values[0].raw
    if (password === undefined && values[1] !== undefined && values[1].raw !== username)
      password = values[1].raw
  }
  const slash = tokens.findIndex((token) => token.raw.includes("/") && token.kind === "word")
  if (slash >= 0 && username === undefined) {
    const [user, secret] = tokens[slash]!.raw.split("/")
    username = user
    password = secret
  }
  const command: { kind: "login"; username?: string; password?: string } = { kind: "login" }
  if (username !== undefined) command.username = username
  if (password !== undefined) command.password = password
  return { command }
}

/** "type X into F", "fill F with X", "enter X as F", "在 F 中输入 X", "输入 X 到 F", "X into both F fields". */
const parseType = (
  before: ReadonlyArray<Token>,
  after: ReadonlyArray<Token>,
  verbRaw: string,
  previousValue: string | undefined,
): ClauseResult => {
  const field = (tokens: ReadonlyArray<Token>): TargetPhrase | undefined => {
    const stripped = stripFillers(tokens).filter(
      (token) => !isWord(token, "在", "于", "中", "里", "内", "的"),
    )
    if (stripped.length === 0) return undefined
    const target = parseTargetPhrase(stripped)
    return target.role === undefined ? { ...target, role: "textbox" } : target
  }
  const command = (value: string, target: TargetPhrase | undefined): ClauseResult => {
    if (value === "") return { reason: messagesFor(joinTokens([...before, ...after])).needsValue(verbRaw) }
    return {
      command: target === undefined ? { kind: "type", value } : { kind: "type", value, field: target },
    }
  }
  /**
   * Several fields take the same value: "A and B", "both A fields"; or one value each, in order, when as
   * many values are said as fields ("Enter ann and x9 as the username and password").
   */
  const many = (value: string, tokens: ReadonlyArray<Token>, said?: ReadonlyArray<Token>): ClauseResult => {
    const both = tokens.some((token) => isWord(token, "both", "都", "均"))
    const parts = splitFields(tokens)
    const values = said === undefined || both ? [] : splitFields(said)
    if (parts.length > 1 && values.length === parts.length) {
      const fields = parts.map(field)
      if (fields.every((target) => target !== undefined))
        return {
          commands: fields.map((target, index) => ({
            kind: "type" as const,
            value: valueText(values[index]!),
            field: target!,
          })),
        }
    }
    if (parts.length > 1) {
      const fields = parts.map(field).filter((target): target is TargetPhrase => target !== undefined)
      return { commands: fields.map((target) => ({ kind: "type" as const, value, field: target })) }
    }
    const target = field(parts[0] ?? tokens)
    if (both && target !== undefined && value !== "") {
      // "both new password fields": the first two fields named so.
      const { ordinal: _ordinal, ...rest } = target
      return {
        commands: [1, 2].map((ordinal) => ({ kind: "type" as const, value, field: { ...rest, ordinal } })),
      }
    }
    return command(value, target)
  }
  // "… and confirm it": the same value into the confirmation field.
  const confirmAt = after.findIndex(
    (token, index) => isWord(token, "confirm") && isWord(after[index - 1], "and") && index > 1,
  )
  if (confirmAt > 0 && before.length === 0) {
    const first = parseType([], after.slice(0, confirmAt - 1), verbRaw, previousValue)
    if ("command" in first && first.command.kind === "type") {
      return {
        commands: [
          first.command,
          {
            kind: "type",
            value: first.command.value,
            field: { raw: "confirm", text: "confirm", role: "textbox" },
          },
        ],
      }
    }
  }
  // "Enter the username "ann" and the password "x9" into the fields": each quoted literal goes into the
  // field its words name.
  const labelled = labelledLiterals(after)
  if (labelled !== undefined && before.length === 0)
    return {
      commands: labelled.map(({ label, value }) => ({ kind: "type" as const, value, field: field(label)! })),
    }
  // Chinese: 在 F 中 输入 X / F 输入 X / 把 X 输入到 F / A 和 B 都填 X
  if (before.length > 0) {
    if (isWord(before[0], "把", "将"))
      return command(valueText(before.slice(1)), field(after.filter((token) => !isWord(token, "到"))))
    return many(valueText(after), before)
  }
  // "输入优惠码 SAVE20": a Chinese field name, then a value in other script.
  if (
    after.length > 1 &&
    after[0]!.kind === "text" &&
    after.slice(1).every((token) => token.kind !== "keyword")
  )
    return command(valueText(after.slice(1)), field(after.slice(0, 1)))
  // "in Confirm new password" after "Type X in New password and …": the value said before.
  if (isWord(after[0], "in", "into") && previousValue !== undefined)
    return many(previousValue, after.slice(1))
  const into = indexOfWord(after, ["into", "到", "在", "beside"])
  if (into > 0) return many(valueText(after.slice(0, into)), after.slice(into + 1), after.slice(0, into))
  const nextTo = after.findIndex((token, index) => isWord(token, "next") && isWord(after[index + 1], "to"))
  if (nextTo > 0) return command(valueText(after.slice(0, nextTo)), field(after.slice(nextTo + 2)))
  const asIndex = indexOfWord(after, ["as"])
  const withIndex = indexOfWord(after, ["with", "为", "成"])
  if (asIndex > 0 && (withIndex < 0 || asIndex < withIndex))
    return many(valueText(after.slice(0, asIndex)), after.slice(asIndex + 1), after.slice(0, asIndex))
  if (withIndex > 0) return command(valueText(after.slice(withIndex + 1)), field(after.slice(0, withIndex)))
  const colon = after.findIndex((token) => token.value === ":")
  // "Fill in the form: name Ada, email ada@x.com": field–value pairs after the colon, each its own field.
  const listed = colon > 0 ? fieldValuePairs(after.slice(colon + 1)) : undefined
  if (listed !== undefined && listed.length > 1) return { commands: listed }
  if (colon > 0) return command(valueText(after.slice(colon + 1)), field(after.slice(0, colon)))
  const inIndex = indexOfWord(after, ["in", "on", "inside", "for"])
  if (inIndex > 0)
    return many(valueText(after.slice(0, inIndex)), after.slice(inIndex + 1), after.slice(0, inIndex))
  const named = fieldThenValue(after)
  if (named !== undefined) return command(named.value, field(named.field))
  // "enter first name Katherine, last name Johnson and email kj@nasa.gov": field–value pairs after the verb.
  const pairs = fieldValuePairs(after)
  if (pairs !== undefined && pairs.length > 1) return { commands: pairs }
  return command(valueText(after), undefined)
}

/** Words the grammar itself reads (verbs, fillers, roles, ordinals, keys, joining words): never content. */
let grammarWords: ReadonlySet<string> | undefined

const GRAMMAR_WORDS = (): ReadonlySet<string> =>
  (grammarWords ??= new Set(
    [
      ...ENGLISH_VERBS.flatMap(([words]) => words),
      ...FILLERS,
      ...SOFT_FILLERS,
      ...ALWAYS_SEPARATES,
      ...SEPARATES_BEFORE_VERB,
      ...ORDINAL_WORDS.keys(),
      ...ENGLISH_NUMBERS.keys(),
      ...ROLE_NOUNS.flatMap(([words]) => words),
      ...MESSAGE_WORDS,
      ...KEYS.keys(),
      ...ARTICLES,
      ...PAIR_WORDS,
      ...COUNTERS,
      ...AGAIN.flatMap((words) => words.split(" ")),
      ...DIRECTIONS.keys(),
      ...SEARCH_SCOPE_WORDS,
      ...SCROLL_WORDS,
      ...CHECKED_WORDS,
      ...UNCHECKED_WORDS,
      ...[...GENERIC_CLICK_VERBS].flatMap((verb) => verb.split(" ")),
    ].map((word) => word.toLowerCase()),
  ))

/** Every word a command carries, lower-cased. */
const wordsOfCommands = (value: unknown, into: Set<string>): Set<string> => {
  if (typeof value === "string")
    for (const word of value.toLowerCase().split(/[^\p{L}\p{N}'’-]+/u)) into.add(word)
  else if (Array.isArray(value)) for (const item of value) wordsOfCommands(item, into)
  else if (typeof value === "object" && value !== null)
    for (const item of Object.values(value)) wordsOfCommands(item, into)
  return into
}

/**
 * The content words of the instruction that no command carries and the grammar does not read itself
 * ("book" in "book the flight on 12/03" read as a field): the reason to refuse, naming them, or undefined.
 */
const unplacedWords = (
  tokens: ReadonlyArray<Token>,
  commands: ReadonlyArray<Command>,
  say: Messages,
): string | undefined => {
  const carried = wordsOfCommands(commands, new Set())
  const exempt = new Set<number>()
  // "Edit the profile: set Nickname to Lin": a heading before a colon says what the steps are for.
  const colon = tokens.findIndex((token) => token.value === ":" || token.value === "：")
  if (colon > 0 && matchVerb(tokens, colon + 1) !== undefined)
    for (let index = 0; index < colon; index += 1) exempt.add(index)
  // "Open the command palette with Control+K": what the chord is for.
  const chord = commands.some((command) => command.kind === "press" && command.key.includes("+"))
  if (chord) {
    const using = indexOfWord(tokens, ["with", "using"])
    for (let index = 0; index < using; index += 1) exempt.add(index)
    // "按 Ctrl+K 打开命令面板": in Chinese, what the chord is for comes after it.
    const key = tokens.findIndex((token) => token.value.includes("+"))
    for (let index = key + 1; key >= 0 && index < tokens.length; index += 1)
      if (tokens[index]!.kind === "text") exempt.add(index)
  }
  // "…，帮我导出一下": a closing remark restating the clause before it.
  const remark = tokens.findIndex((token) => isWord(token, "帮我", "帮忙"))
  const remarkEnd = tokens.findIndex((token, index) => index > remark && isWord(token, "一下"))
  for (let index = remark; remark >= 0 && index <= remarkEnd; index += 1) exempt.add(index)
  // "Click Save, not Cancel": what not to do is honoured by not doing it (or by an exclusion).
  for (let index = 0; index < tokens.length; index += 1) {
    const negation = negationLength(tokens, index)
    if (negation > 0) for (let part = index; part < index + negation; part += 1) exempt.add(part)
    if (!isWord(tokens[index], "not", "don't", "dont", "never", "without") && negation === 0) continue
    for (let next = index + 1; next < tokens.length && tokens[next]!.kind !== "punct"; next += 1) {
      if (isWord(tokens[next], "then", "and", "but")) break
      exempt.add(next)
    }
  }
  // A run of Chinese is cut where the lexicon knows a word ("页脚" may read "页" + "脚"), so a Chinese
  // word is placed when a command carries it inside a longer string, or it is a numeral of an ordinal
  // or a date ("第二个", "2024年5月20日").
  const carriedText = JSON.stringify(commands).toLowerCase()
  // "下午两点", "4 pm": the words of a time of day are placed when a command carries the time read from them.
  const clockWords = /"\d{2}:\d{2}"/.test(carriedText) ? CLOCK_WORDS : new Set<string>()
  const chineseCarried = (word: string): boolean =>
    carriedText.includes(word) ||
    [...word].every(
      (character) =>
        CHINESE_NUMERALS.has(character) ||
        "第个年月日".includes(character) ||
        COUNTERS.includes(character) ||
        [...clockWords].some((clock) => clock.includes(character)),
    )
  // "Paste the invite code shown on the page into …", "把页面上显示的邀请码粘贴到 …": where the text to paste
  // comes from (the step policy reads it on the page, or refuses) — the words between the verb and the
  // field's marker, or between 把 and the verb.
  if (commands.some((command) => command.kind === "paste")) {
    const verb = tokens.findIndex(
      (token) =>
        CHINESE_VERBS.get(token.value) === "paste" ||
        ENGLISH_VERBS.some(
          ([words, name]) => name === "paste" && words.join(" ") === token.value.toLowerCase(),
        ),
    )
    const into = tokens.findIndex((token, index) => index > verb && isWord(token, "into", "in", "to", "onto"))
    for (let index = verb + 1; verb >= 0 && index < into; index += 1) exempt.add(index)
    const ba = tokens.findIndex((token, index) => index < verb && isWord(token, "把", "将"))
    for (let index = ba + 1; ba >= 0 && index < verb; index += 1) exempt.add(index)
  }
  const typesIntoField = commands.some((command) => command.kind === "type" && command.field !== undefined)
  // "the 14th of June 2024": the day's number with its ending is read into a day typed.
  const typesDay = commands.some(
    (command) => command.kind === "type" && /^(\d{4}|-)-\d{2}-\d{2}$/.test(command.value),
  )
  const left = tokens
    .filter((_, index) => !exempt.has(index))
    .filter((token) => token.kind === "word" || (token.kind === "text" && !chineseCarried(token.value)))
    .flatMap((token) => token.value.split(/[^\p{L}\p{N}'’-]+/u))
    .filter(
      (word) =>
        !(chord && CHORD.has(word)) &&
        /\p{L}/u.test(word) &&
        !GRAMMAR_WORDS().has(word) &&
        !GRAMMAR_WORDS().has(singular(word)) &&
        !FUNCTION_WORDS.has(word) &&
        !READ_WORDS.has(word) &&
        !clockWords.has(word.toLowerCase()) &&
        !(typesDay && /^\d{1,2}(?:st|nd|rd|th)$/i.test(word)) &&
        // "my phone number 030 …": the noun that says what the typed value is.
        !(VALUE_NOUNS.has(word.toLowerCase()) && typesIntoField) &&
        !carried.has(word) &&
        // "Anna's", "Anna’s" of "open Anna's email": the owner the command carries, said with its possessive.
        !carried.has(word.replace(/['’]s$/u, "")),
    )
  return left.length === 0 ? undefined : say.couldNotPlace([...new Set(left)])
}

/**
 * "the username "ann" and the password "x9" (into the fields)": two or more quoted literals, each after
 * the words naming its field, joined by "and" or commas, optionally followed by a destination that is
 * only a role noun ("into the fields", "into the boxes"). Undefined when any literal has no field words
 * or the destination names a field of its own.
 */
const labelledLiterals = (
  tokens: ReadonlyArray<Token>,
): ReadonlyArray<{ readonly label: ReadonlyArray<Token>; readonly value: string }> | undefined => {
  if (tokens.filter((token) => token.kind === "quoted").length < 2) return undefined
  const into = indexOfWord(tokens, ["into", "in"])
  const head = into > 0 ? tokens.slice(0, into) : tokens
  if (into > 0) {
    const destination = parseTargetPhrase(stripFillers(tokens.slice(into + 1)))
    if (destination.text !== undefined || destination.role === undefined) return undefined
  }
  const pairs: Array<{ label: ReadonlyArray<Token>; value: string }> = []
  let label: Array<Token> = []
  for (const token of head) {
    if (token.kind === "quoted") {
      const words = label.filter((word) => !isWord(word, "the", "your", "my", "a", "an"))
      if (words.length === 0 || !words.every((word) => word.kind === "word")) return undefined
      pairs.push({ label: words, value: token.value })
      label = []
    } else if (isWord(token, "and") || (token.kind === "punct" && [",", "，"].includes(token.value))) {
      if (label.length > 0) return undefined
    } else label.push(token)
  }
  return label.length === 0 && pairs.length > 1 ? pairs : undefined
}

/** A token that reads as a value rather than a word of a field's name: written, not said. */
const valueLike = (token: Token): boolean =>
  token.kind === "quoted" ||
  token.kind === "email" ||
  token.kind === "number" ||
  token.kind === "url" ||
  (token.kind === "word" && /[\p{Lu}\d]/u.test(token.raw))

/** "<word> the <setting> to <value>" with a value written as one ("3", "Large", "50%"), or undefined. */
const settingTo = (tokens: ReadonlyArray<Token>): Command | undefined => {
  if (tokens[0]?.kind !== "word" || !isWord(tokens[1], "the", "my", "your")) return undefined
  const to = lastIndexOfWord(tokens, ["to"])
  if (to < 3 || to !== tokens.length - 2 || !valueLike(tokens[to + 1]!)) return undefined
  const field = tokens.slice(2, to)
  if (!field.every((token) => token.kind === "word")) return undefined
  const target = parseTargetPhrase(field)
  return {
    kind: "type",
    value: valueText(tokens.slice(to + 1)),
    field: target.role === undefined ? { ...target, role: "textbox" } : target,
  }
}

/**
 * "Enter the coupon code WINTER", "type your name Ada Lovelace": after an article, the words name a field
 * and the value follows them — a quoted literal, an email, a number, or the trailing words written with
 * capitals or digits. Words that are all lower case ("type the quick brown fox") stay one value.
 */
/** Words that only say a wish before "my …" ("I want", "I'd like", "we would like"). */
const WISH_WORDS = ["i", "i'd", "we", "we'd", "want", "would", "like", "need"] as const

const fieldThenValue = (
  tokens: ReadonlyArray<Token>,
  needsArticle = true,
): { readonly field: ReadonlyArray<Token>; readonly value: string } | undefined => {
  // "I want my bio to say …", "I'd like my city to be …": the wish before the field names nothing.
  const wish = needsArticle ? 0 : tokens.findIndex((token) => !isWord(token, ...WISH_WORDS))
  const owner = wish > 0 && isWord(tokens[wish], "the", "my", "our") ? wish : -1
  const article = owner >= 0 ? owner + 1 : isWord(tokens[0], "the", "your", "my") ? 1 : 0
  if (needsArticle && article === 0) return undefined
  let start = tokens.length
  while (start > article + 1 && valueLike(tokens[start - 1]!)) start -= 1
  // "My city is Ghent", "my bio to say …": the verb between them is neither the field's name nor the value.
  let end = start
  while (end > article + 1 && isWord(tokens[end - 1], "is", "are", "was", "=", "be", "say")) end -= 1
  if (owner >= 0 && (end === start || !isWord(tokens[end - 1], "to"))) return undefined
  if (owner >= 0) end -= 1
  const field = tokens.slice(article, end)
  if (start === tokens.length || field.length === 0 || !field.every((token) => token.kind === "word"))
    return undefined
  // A field's name does not end on "a", "the", "as", "to", "on", "at" ("Export the document as a PDF", "Pick-up on 2026-12-18" name no field).
  if (
    isWord(
      field.at(-1),
      "a",
      "an",
      "the",
      "as",
      "to",
      "of",
      "in",
      "for",
      "into",
      "with",
      "and",
      "or",
      "on",
      "at",
    )
  )
    return undefined
  // With no verb, "Book the flight from A to B on 12/03" is a sentence, not a field's name: an article
  // after its first word says so.
  if (!needsArticle && field.slice(1).some((token) => isWord(token, "the", "a", "an"))) return undefined
  return { field, value: valueText(tokens.slice(start)) }
}

/** A field whose name says it holds a day / a time of day. */
const DATE_FIELD = /\bdates?\b|日期/i
const TIME_FIELD = /\btimes?\b|时间/i

/** "把开始日期定在2024年3月8日": a day typed into a date field is written as a date input holds it. */
const datedValue = (command: Command): Command => {
  // "把成人改成4位": a number with a counter word is the number.
  const counter = COUNTERS.find((word) => command.kind === "type" && command.value.endsWith(word))
  const count =
    counter === undefined || command.kind !== "type"
      ? undefined
      : chineseNumber(command.value.slice(0, -counter.length).trim())
  if (count !== undefined && command.kind === "type") return { ...command, value: String(count) }
  const day =
    command.kind === "type" && DATE_FIELD.test(command.field?.text ?? "")
      ? readCalendarDay(command.value)
      : undefined
  if (day !== undefined && command.kind === "type") return { ...command, value: isoDay(day) }
  // "还车时间选早上八点", "set the pick-up time to 4 pm": a time is written as a time input holds it (16:00).
  if (command.kind === "select" && TIME_FIELD.test(command.list?.text ?? "")) {
    const times = command.options.map(clockTime)
    if (!times.every((time) => time !== undefined)) return command
    return {
      ...command,
      options: times,
      target: { ...command.target, raw: times.join(", "), text: times.join(", ") },
    }
  }
  const time =
    command.kind === "type" && TIME_FIELD.test(command.field?.text ?? "")
      ? clockTime(command.value)
      : undefined
  return time === undefined || command.kind !== "type" ? command : { ...command, value: time }
}

/**
 * "Sign up as Grace Hopper with grace@example.com and password cobol1959 on the Premium plan, accepting
 * the terms": a registration form filled from what the sentence gives — the name after "as", an email,
 * the value after "password", "the X plan", accepting or agreeing to the terms — then submitted. With
 * nothing after the verb it is a click on the control that says so ("Sign up").
 */
const parseSignUp = (after: ReadonlyArray<Token>, verbRaw: string): ClauseResult => {
  const tokens = stripFillers(after)
  if (tokens.length === 0) return { command: { kind: "click", target: { raw: verbRaw, text: verbRaw } } }
  const stops = (token: Token | undefined) =>
    token === undefined ||
    token.kind === "punct" ||
    token.kind === "email" ||
    isWord(token, "with", "and", "using", "on", "password", "accepting", "agreeing", "choosing", "for")
  const field = (text: string): TargetPhrase => ({ raw: text, text, role: "textbox" })
  const commands: Array<Command> = []
  // "as Grace Hopper", "an account for Edsger Dijkstra": the name follows "as", or "for" before a capital.
  // A list of labelled values ("Create an account: full name Barbara Liskov; email …") names it "name".
  const asWord = indexOfWord(tokens, ["as", "name"])
  const as =
    asWord >= 0
      ? asWord
      : tokens.findIndex(
          (token, index) => isWord(token, "for") && /^\p{Lu}/u.test(tokens[index + 1]?.raw ?? ""),
        )
  if (as >= 0) {
    let end = as + 1
    while (!stops(tokens[end])) end += 1
    const name = valueText(tokens.slice(as + 1, end))
    const label = isWord(tokens[as], "name") && isWord(tokens[as - 1], "full") ? "full name" : "name"
    if (name !== "") commands.push({ kind: "type", value: name, field: field(label) })
  }
  const email = tokens.find((token) => token.kind === "email")
  if (email !== undefined) commands.push({ kind: "type", value: email.raw, field: field("email") })
  const password = indexOfWord(tokens, ["password"])
  if (password >= 0) {
    let at = password + 1
    while (isWord(tokens[at], "is", "of") || tokens[at]?.value === ":") at += 1
    const value = tokens[at]
    if (value !== undefined && value.kind !== "punct")
      commands.push({ kind: "type", value: value.raw, field: field("password") })
  }
  const plan = indexOfWord(tokens, ["plan"])
  if (plan > 0) {
    let start = plan
    while (start > 0 && !stops(tokens[start - 1]) && !isWord(tokens[start - 1], "the", "a")) start -= 1
    const chosen = valueText(tokens.slice(start, plan))
    if (chosen !== "")
      commands.push({
        kind: "select",
        options: [chosen],
        list: { raw: "plan", text: "plan" },
        target: { raw: chosen, text: chosen },
      })
  }
  const terms = tokens.findIndex(
    (token, index) =>
      isWord(token, "terms") &&
      tokens
        .slice(Math.max(0, index - 3), index)
        .some((word) => isWord(word, "accept", "accepting", "agree", "agreeing")),
  )
  if (terms >= 0) commands.push({ kind: "check", target: { raw: "terms", text: "terms" } })
  if (commands.length === 0) return { hint: "signUp" }
  commands.push({ kind: "submit" })
  return { commands }
}

/**
 * "Start date 2024-12-24, end date 2024-12-31": an instruction with no verb at all whose every part is
 * a field's name followed by a value written as one (digits, capitals, an email, a quoted literal) — the
 * way a form is filled out on paper. Anything else verbless is not read this way.
 */
const verblessPairs = (tokens: ReadonlyArray<Token>): ReadonlyArray<Command> | undefined =>
  tokens.some((_, index) => matchVerb(tokens, index) !== undefined) ? undefined : fieldValuePairs(tokens)

/**
 * Parts split at commas, "and" and the end of a sentence ("Company: Kite Labs. The contact email is …"
 * is two pairs, never one value running on), each a field's name followed by a written value; else
 * undefined.
 */
const fieldValuePairs = (tokens: ReadonlyArray<Token>): ReadonlyArray<Command> | undefined => {
  const parts: Array<Array<Token>> = [[]]
  for (const token of tokens) {
    if (
      isWord(token, "and") ||
      (token.kind === "punct" && [",", "，", ";", "；", "、", ".", "。"].includes(token.value))
    )
      parts.push([])
    else parts.at(-1)!.push(token)
  }
  const commands: Array<Command> = []
  for (const part of parts) {
    const named = fieldThenValue(stripFillers(part), false)
    if (named === undefined) return undefined
    const target = parseTargetPhrase(named.field)
    commands.push({ kind: "type", value: named.value, field: { ...target, role: target.role ?? "textbox" } })
  }
  return commands
}

/**
 * "Apply the coupon code WINTER", "redeem the gift card code GIFT-25": type the value into the field the
 * words name, then press the button named by the verb (Apply, Redeem). Without a value it is a click on
 * the words ("apply the filters").
 */
const parseApply = (after: ReadonlyArray<Token>, verbRaw: string): ClauseResult => {
  const control = VERB_CONTROLS.get(verbRaw.toLowerCase()) ?? verbRaw
  const button: TargetPhrase = { raw: control, text: control.toLowerCase(), role: "button" }
  // "Use coupon SPRING15", "apply promo code X9": a field said in lower case with no article, then the value.
  const bare = fieldThenValue(after, false)
  const named =
    fieldThenValue(after) ?? (bare?.field.every((token) => !/[\p{Lu}\d]/u.test(token.raw)) ? bare : undefined)
  if (named === undefined) {
    // "apply the filters": the button that says so ("Apply filters"), or Apply itself.
    const target = parseTargetPhrase(after)
    if (target.raw === "") return { command: { kind: "click", target: button } }
    return {
      command: {
        kind: "click",
        target: { ...target, raw: `${verbRaw} ${target.raw}`, text: `${button.text} ${target.text}` },
      },
    }
  }
  const target = parseTargetPhrase(named.field)
  return {
    commands: [
      {
        kind: "type",
        value: named.value,
        field: target.role === undefined ? { ...target, role: "textbox" } : target,
      },
      { kind: "click", target: button },
    ],
  }
}

/** The element a scroll happens inside: "inside the Change log", "the end of the terms", "the terms box", "在 X 中". */
const scrollWithin = (
  before: ReadonlyArray<Token>,
  after: ReadonlyArray<Token>,
): TargetPhrase | undefined => {
  const chinese = before.filter(
    (token, index) =>
      !SCROLL_WORDS.has(token.value) &&
      !isWord(token, "往下", "往上") &&
      !(index === 0 && isWord(token, "把", "将")),
  )
  if (chinese.length > 0) return parseTargetPhrase(chinese)
  const marker = after.findIndex(
    (token, index) =>
      isWord(token, "inside", "within", "through") ||
      (isWord(token, "in") && !isWord(after[index + 1], "view")) ||
      (isWord(token, "of") && isWord(after[index - 1], "end", "bottom", "top", "start")),
  )
  const words: Array<Token> = []
  if (marker >= 0) {
    for (const token of after.slice(marker + 1)) {
      if (words.length > 0 && (isWord(token, "to", "down", "up") || token.kind === "punct")) break
      if (!SCROLL_WORDS.has(token.value) || words.length > 0) words.push(token)
    }
  } else {
    // "scroll the terms box to the bottom": the object right after the verb.
    for (const token of after) {
      if (
        (SCROLL_WORDS.has(token.value) && !isWord(token, "the")) ||
        token.kind === "punct" ||
        token.kind === "number"
      )
        break
      if (!(words.length === 0 && isWord(token, "the", "this", "that"))) words.push(token)
    }
  }
  if (words.length === 0) return undefined
  return parseTargetPhrase(words)
}

/** "scroll the terms box to the bottom", "在 X 中滚动到底部": a scroll inside an element, or undefined. */
const scrollInside = (before: ReadonlyArray<Token>, after: ReadonlyArray<Token>): Command | undefined => {
  const within = scrollWithin(before, after)
  if (within === undefined || (within.text === undefined && within.role === undefined)) return undefined
  const top = after.some((token) => isWord(token, "top", "顶部", "beginning", "start", "up", "向上"))
  return { kind: "scroll", to: top ? "top" : "bottom", within }
}

/** The page limit of "every page": the most the pagination tool visits. */
const ALL_PAGES = 200

const parseExtract = (before: ReadonlyArray<Token>, after: ReadonlyArray<Token>): ClauseResult => {
  let tokens = [...before.filter((token) => !isWord(token, "从", "在")), ...after]
  let pages = 1
  let allPages = false
  // "on the first 3 pages", "from 2 pages", "前3页", "all pages", "every page", "所有页"
  const pageIndex = tokens.findIndex((token) => isWord(token, "pages", "page", "页"))
  if (pageIndex > 0) {
    allPages = tokens
      .slice(Math.max(0, pageIndex - 2), pageIndex)
      .some((token) => isWord(token, "all", "every", "each", "所有", "全部", "每"))
    const number = tokens
      .slice(Math.max(0, pageIndex - 2), pageIndex)
      .find(
        (token) =>
          token.kind === "number" ||
          ENGLISH_NUMBERS.has(token.value) ||
          chineseNumber(token.value) !== undefined,
      )
    if (number !== undefined)
      pages = Number(
        number.kind === "number"
          ? number.value
          : (ENGLISH_NUMBERS.get(number.value) ?? chineseNumber(number.value)),
      )
    let start = pageIndex
    while (
      start > 0 &&
      (tokens[start - 1]!.kind === "number" ||
        isWord(
          tokens[start - 1],
          "on",
          "from",
          "across",
          "the",
          "this",
          "first",
          "前",
          "all",
          "of",
          "in",
          "for",
        ) ||
        ENGLISH_NUMBERS.has(tokens[start - 1]!.value) ||
        chineseNumber(tokens[start - 1]!.value) !== undefined)
    )
      start -= 1
    tokens = [...tokens.slice(0, start), ...tokens.slice(pageIndex + 1)]
  }
  tokens = tokens.filter((token) => token.kind !== "punct" || [",", "，", "、"].includes(token.value))
  const ofIndex = indexOfWord(tokens, ["of", "from", "for", "的"])
  const fieldTokens =
    ofIndex >= 0
      ? isWord(tokens[ofIndex], "的")
        ? tokens.slice(ofIndex + 1)
        : tokens.slice(0, ofIndex)
      : tokens
  const itemTokens =
    ofIndex >= 0 ? (isWord(tokens[ofIndex], "的") ? tokens.slice(0, ofIndex) : tokens.slice(ofIndex + 1)) : []
  const clean = (list: ReadonlyArray<Token>) =>
    list.filter((token) => !isWord(token, "all", "each", "every", "the", "所有", "全部", "每个", "上"))
  const fields = splitList(clean(fieldTokens))
  const items = valueText(clean(itemTokens))
  if (fields.length === 0) return { hint: "extract" }
  return {
    command: {
      kind: "extract",
      fields,
      ...(items === "" ? {} : { items }),
      pages: allPages ? ALL_PAGES : pages,
      ...(allPages ? { allPages } : {}),
    },
  }
}

const targetCommand = (
  kind: "click" | "open" | "check" | "uncheck",
  tokens: ReadonlyArray<Token>,
  verbRaw: string,
): ClauseRead => {
  const target = parseTargetPhrase(tokens)
  if (target.raw === "" && target.role === undefined && target.ordinal === undefined)
    return { reason: messagesFor(joinTokens(tokens)).needsWhat(verbRaw) }
  return { command: { kind, target } }
}

/** "drag A 100 pixels to the right": a drag by an offset in CSS pixels, or undefined. */
const dragBy = (before: ReadonlyArray<Token>, verbAfter: ReadonlyArray<Token>): Command | undefined => {
  // "把 Move me 方块向右拖动 100 像素": the thing dragged and the way it goes are said before the verb.
  const moved = isWord(before[0], "把", "将") ? before.slice(1) : before.length === 0 ? [] : undefined
  if (moved === undefined) return undefined
  const after = [...moved, ...verbAfter]
  const pixels = after.findIndex(
    (token, index) => token.kind === "number" && isWord(after[index + 1], "pixels", "pixel", "px", "像素"),
  )
  if (pixels < 0) return undefined
  const amount = Number(after[pixels]!.value)
  const isWay = (token: Token) => isWord(token, ...DIRECTIONS.keys())
  const way = after.slice(pixels).find(isWay) ?? after.slice(0, pixels).find(isWay)
  const direction = way === undefined ? "right" : DIRECTIONS.get(way.value)!
  const offset = {
    x: direction === "right" ? amount : direction === "left" ? -amount : 0,
    y: direction === "down" ? amount : direction === "up" ? -amount : 0,
  }
  const end = after.findIndex(
    (token, index) => index === pixels || (index < pixels && token.kind === "keyword" && isWay(token)),
  )
  const source = parseTargetPhrase(after.slice(0, isWord(after[end - 1], "by") ? end - 1 : end))
  return { kind: "drag", source, offset }
}

/**
 * "Change my password from hunter2 to Blue#Kite77": a password changed from one value to another is the
 * old one typed into the current password field and the new one into the new password field and its
 * confirmation, as a change-password form asks, then its "Change password" pressed. Only for a field a
 * password word names; undefined otherwise.
 */
const passwordChange = (verb: string, after: ReadonlyArray<Token>): ReadonlyArray<Command> | undefined => {
  const from = after.findIndex((token) => isWord(token, "from"))
  const to = after.findIndex((token, index) => index > from + 1 && isWord(token, "to"))
  if (from <= 0 || to < 0 || to === after.length - 1) return undefined
  const named = after
    .slice(0, from)
    .filter(
      (token) =>
        !(token.kind === "word" && (ARTICLES.has(token.value) || isWord(token, "my", "our", "your"))),
    )
  if (named.length !== 1 || !isWord(named[0], ...PASSWORD_WORDS)) return undefined
  const old = valueText(after.slice(from + 1, to))
  const next = valueText(after.slice(to + 1))
  if (old === "" || next === "") return undefined
  const field = (text: string): TargetPhrase => ({ raw: text, text, role: "textbox" })
  const word = named[0]!.raw
  // The change is made by the form's own control of that name ("Change password"): the fields alone
  // change nothing, and a page without such a control leaves the part not done.
  const control = `${verb} ${word}`
  return [
    { kind: "type", value: old, field: field(`current ${word}`) },
    { kind: "type", value: next, field: field(`new ${word}`) },
    { kind: "type", value: next, field: field("confirm") },
    { kind: "click", target: { raw: control, text: control, role: "button" } },
  ]
}

/** A clause with no verb that pairs fields and values: "First name: Ada, Last name: Hopper". */
const parsePairs = (tokens: ReadonlyArray<Token>): ClauseRead | undefined => {
  const colon = tokens.findIndex((token) => token.value === ":")
  if (colon <= 0 || colon === tokens.length - 1) return undefined
  const value = valueText(tokens.slice(colon + 1))
  const target = parseTargetPhrase(tokens.slice(0, colon))
  const field = target.role === undefined ? { ...target, role: "textbox" as const } : target
  // "Shipping speed: Overnight" names a choice as often as a text: grounding decides (type into a
  // field, else select the option).
  return { command: { kind: "type", value, field } }
}

const parseClause = (
  clause: ReadonlyArray<Token>,
  previousVerb: readonly [Verb, string] | undefined,
  previousValue?: string,
  /** Read the clause as if "book" and "add" were no verbs: they said no item of a list. */
  withoutItemVerbs = false,
): ClauseRead & { verb?: readonly [Verb, string] } => {
  const tokens = stripFillers(clause)
  if (tokens.length === 0) return { reason: "an empty clause" }
  // "… and save it": the control of that name pressed, whatever it saves.
  if (matchVerb(tokens, 0) === undefined && closingPress(tokens, 0)) {
    const name = tokens[0]!.raw
    return { command: { kind: "click", target: { raw: name, text: name } } }
  }
  // "The contact email is ops@kitelabs.dev": a sentence that says a field's value, whatever verb its
  // field's name may hold ("contact").
  const stated = isWord(tokens[0], "the", "my", "your") && tokens.some((token) => isWord(token, "is"))
  const said = stated ? fieldThenValue(tokens) : undefined
  if (said !== undefined) {
    const target = parseTargetPhrase(said.field)
    return {
      command: { kind: "type", value: said.value, field: { ...target, role: target.role ?? "textbox" } },
    }
  }
  // The verb may follow a Chinese prefix ("在搜索框中输入", "用 X 和 Y 登录").
  let verbAt = -1
  let verb: readonly [Verb, number] | undefined
  for (let index = 0; index < tokens.length; index += 1) {
    const token = tokens[index]!
    if (index > 0 && token.kind !== "keyword") continue
    verb = matchVerb(tokens, index) ?? (linksField(tokens, index) ? (["type", 1] as const) : undefined)
    if (verb !== undefined && withoutItemVerbs && ITEM_VERBS.has(verb[0])) verb = undefined
    if (verb !== undefined) {
      verbAt = index
      break
    }
  }
  let before: ReadonlyArray<Token> = []
  let after: ReadonlyArray<Token>
  let verbName: Verb
  let verbRaw: string
  const inherited = verb === undefined || verbAt < 0
  if (verb === undefined || verbAt < 0) {
    // "… then button TWO": repeat the verb before.
    if (tokens.length === 1 && tokens[0]!.kind === "url")
      return { command: { kind: "navigate", url: tokens[0]!.raw } }
    // "…, then go on to the review", "proceed to payment": moving on to a step is a press, never a value.
    const moveOn = isWord(tokens[0], "go", "move", "carry", "proceed", "continue", "advance")
      ? isWord(tokens[1], "on", "ahead", "forward")
        ? 2
        : 1
      : 0
    if (moveOn > 0 && isWord(tokens[moveOn], "to") && tokens.length > moveOn + 1)
      return { ...targetCommand("click", tokens, "click"), verb: ["click", "click"] as const }
    const pairs = parsePairs(tokens)
    if (pairs !== undefined) return { ...pairs, verb: ["type", "type"] as const }
    // "Dim the brightness to 3", "bump the quantity to 4": a word the rules do not know, then a named
    // setting and "to" a value, sets it.
    const setting = settingTo(tokens)
    if (setting !== undefined) return { command: setting, verb: ["set", "set"] as const }
    // "File > Export > CSV": a menu path is a click.
    if (tokens.some(isPathMark))
      return {
        command: { kind: "click", target: parseTargetPhrase(tokens) },
        verb: ["click", "click"] as const,
      }
    // "城市填 München，邮编 80331": after a typing clause, a Chinese field's name and a written value is
    // the next field typed, not a control.
    const pair = previousVerb?.[0] === "type" ? chinesePair(tokens) : undefined
    if (pair !== undefined) {
      const target = parseTargetPhrase(pair.field)
      return {
        command: { kind: "type", value: pair.value, field: { ...target, role: target.role ?? "textbox" } },
        verb: previousVerb!,
      }
    }
    // "…, then save" after a typing clause: a button, not another value.
    if (
      previousVerb !== undefined &&
      (previousVerb[0] === "type" || previousVerb[0] === "set") &&
      !tokens.some((token) => PAIR_WORDS.includes(token.value))
    )
      return { ...targetCommand("click", tokens, "click"), verb: ["click", "click"] as const }
    // "tick Newsletter, then save", "选中 A，然后保存": a lone word that finishes a form, after a box or a
    // choice, is the button that finishes it, never another box to tick.
    if (
      previousVerb !== undefined &&
      (previousVerb[0] === "check" || previousVerb[0] === "uncheck" || previousVerb[0] === "select") &&
      tokens.length === 1 &&
      FINISHING_WORDS.has(tokens[0]!.value.toLowerCase())
    )
      return { ...targetCommand("click", tokens, "click"), verb: ["click", "click"] as const }
    if (previousVerb === undefined)
      return {
        reason: messagesFor(joinTokens(tokens)).noAction(joinTokens(tokens)),
        noActionIn: joinTokens(tokens),
      }
    // "search for lantern, then summarize the reviews": a word no verb names, before "the", is an action
    // the rules do not know, never another value of the verb before (a search for "summarize the reviews").
    const leading = tokens[0]
    if (leading?.kind === "word" && isWord(tokens[1], "the", "a", "an"))
      return { reason: messagesFor(joinTokens(tokens)).couldNotPlace([leading.value]) }
    verbName = previousVerb[0]
    verbRaw = previousVerb[1]
    after = tokens
  } else {
    verbName = verb[0]
    verbRaw = joinTokens(tokens.slice(verbAt, verbAt + verb[1]))
    before = tokens.slice(0, verbAt)
    after = tokens.slice(verbAt + verb[1])
    // A Chinese verb after a prefix that is itself a verb ("用 … 登录") is fine; an English clause starts with its verb.
  }
  const say = messagesFor(joinTokens(tokens))
  const withVerb = (result: ClauseResult) => {
    if ("hint" in result) return { reason: say.hints[result.hint] }
    // "…, then continue to payment": a clause with no verb of its own that names no field is no value
    // typed somewhere; its words name a control.
    if (
      inherited &&
      "command" in result &&
      result.command.kind === "type" &&
      result.command.field === undefined
    )
      return { ...targetCommand("click", tokens, "click"), verb: ["click", "click"] as const }
    return { ...result, verb: [verbName, verbRaw] as const }
  }
  // The clause as the templates read it: whole, then from its verb (a Chinese clause may say more before it).
  const templated = (): ClauseRead | undefined => {
    const verbTokens = verb === undefined ? tokenize(verbRaw) : tokens.slice(verbAt, verbAt + verb[1])
    const commands =
      (before.length > 0 ? matchTemplates(TEMPLATES, verbName, tokens, fillSlot) : undefined) ??
      matchTemplates(TEMPLATES, verbName, [...verbTokens, ...after], fillSlot)
    return commands === undefined
      ? undefined
      : commands.length === 1
        ? { command: commands[0]! }
        : { commands }
  }
  // No sentence of the verb fits: the words no slot took, or what the verb needs.
  const unread = (): ClauseRead => ({ reason: unplacedWords(after, [], say) ?? say.needsWhat(verbRaw) })
  // Templates first, for every verb but a scroll inside an element and a drag by pixels, which code reads
  // before them; the code below reads the verbs whose words come in any order, and refuses the rest.
  // "Sign in with Google", "continue using GitHub": one name after "with" and no password is a provider's
  // button to press, never a username to type.
  const provider = after.filter((token) => token.kind !== "punct")
  if (
    verbName === "login" &&
    before.length === 0 &&
    provider.length === 2 &&
    isWord(provider[0], "with", "using", "via") &&
    provider[1]!.kind === "word" &&
    /^\p{Lu}/u.test(provider[1]!.raw)
  )
    return {
      ...targetCommand("click", tokenize(`${verbRaw} ${provider[0]!.raw} ${provider[1]!.raw}`), "click"),
      verb: ["click", "click"] as const,
    }
  const changed = verbName === "set" && before.length === 0 ? passwordChange(verbRaw, after) : undefined
  if (changed !== undefined) return withVerb({ commands: changed })
  const fromTemplate = verbName === "scroll" || verbName === "drag" ? undefined : templated()
  if (fromTemplate !== undefined) return withVerb(fromTemplate)
  // "Book check-in for May 22", "Add a comment", "把这本书加入心愿单": a verb read only with an item of a
  // list that names none is read as the clause was before the verb was known.
  if (ITEM_VERBS.has(verbName) && !inherited) return parseClause(clause, previousVerb, previousValue, true)
  switch (verbName) {
    case "login":
      // A credential ends the clause with every character typed: "password 12reads!" keeps its "!".
      return withVerb(
        parseLogin(before, [
          ...after,
          ...clause
            .slice(clause.findLastIndex((token) => token.kind !== "punct") + 1)
            .filter((token) => token.value !== "。"),
        ]),
      )
    case "search":
      return withVerb({ hint: "search" })
    case "type": {
      const stop = closingStop(clause, after) ?? attachedMark(clause, after)
      return withVerb(
        parseType(before, stop === undefined ? after : [...after, stop], verbRaw, previousValue),
      )
    }
    case "set":
      return withVerb({ hint: "set" })
    case "select":
      return withVerb({ hint: "select" })
    case "ensure": {
      // No sentence fits: a state was said but nothing to check, or no state.
      const stateWords = [...CHECKED_WORDS, ...UNCHECKED_WORDS]
      const onlyState =
        after.some((token) => isWord(token, ...stateWords)) &&
        after.every(
          (token) =>
            token.kind === "punct" || isWord(token, ...stateWords, ...STATE_LINKS, ...STATE_NEGATIONS),
        )
      return withVerb({ hint: onlyState ? "ensureWhat" : "ensureState" })
    }
    case "drag": {
      const by = dragBy(before, after)
      return withVerb(by === undefined ? (templated() ?? { hint: "drag" }) : { command: by })
    }
    case "apply": {
      const applied = parseApply(after, verbRaw)
      // A verb that names no control ("use") applies only a value to a field; otherwise it is no action word.
      if (VERB_CONTROLS.has(verbRaw.toLowerCase()) && !("commands" in applied))
        return { reason: say.noAction(joinTokens(tokens)), noActionIn: joinTokens(tokens) }
      return withVerb(applied)
    }
    case "signUp":
      return withVerb(parseSignUp(after, verbRaw))
    case "scroll": {
      const inside = scrollInside(before, after)
      return withVerb(inside === undefined ? (templated() ?? unread()) : { command: inside })
    }
    case "extract":
      return withVerb(parseExtract(before, after))
    default:
      // A verb read by templates alone (click, select, open …) whose clause fits no sentence of it.
      return withVerb(unread())
  }
}

/** Puts a command's element inside a container said before it ("In Colors, select Blue"). */
const withContainer = (command: Command, container: TargetPhrase): Command => {
  switch (command.kind) {
    case "select":
      return command.list === undefined ? { ...command, list: container } : command
    case "type":
      return command.field === undefined ? command : { ...command, field: { ...command.field, container } }
    case "click":
    case "open":
    case "check":
    case "uncheck":
    case "hover":
    case "focus":
      return { ...command, target: { ...command.target, container } }
    default:
      return command
  }
}

/** Chinese words that say a thing has appeared: 出现, 出现后, 显示出来, 加载出来. */
const APPEARED = /^(出现|显示|出来|加载)/

/**
 * A clause that waits for something to appear: what it waits for, and the words after the wait in the
 * same clause ("等 X 出现后点击它" holds its next step; in English "and"/"then" has already split it off).
 */
const waitedFor = (
  bare: ReadonlyArray<Token>,
): { readonly target: ReadonlyArray<Token>; readonly rest: ReadonlyArray<Token> } | undefined => {
  if (isWord(bare[0], "wait") && isWord(bare[1], "for", "until") && bare.length > 2) {
    const words = bare.slice(2)
    const end = isWord(words[words.length - 1], "appears", "shows", "loads")
      ? -1
      : isWord(words[words.length - 1], "appear", "show", "load") && isWord(words[words.length - 2], "to")
        ? -2
        : undefined
    return { target: words.slice(0, end), rest: [] }
  }
  // Chinese runs come as text as well as words: read the word whatever its kind, but never a quoted literal.
  const says = (token: Token | undefined, ...words: ReadonlyArray<string>) =>
    token !== undefined && token.kind !== "quoted" && words.includes(token.value)
  if (!says(bare[0], "等", "等待", "等到", "等候")) return undefined
  const start = says(bare[1], "到") ? 2 : 1
  const appeared = bare.findIndex(
    (token, index) => index > start && token.kind !== "quoted" && APPEARED.test(token.value),
  )
  if (appeared < 0) return undefined
  let rest = appeared + 1
  while (
    rest < bare.length &&
    (bare[rest]!.kind === "punct" || says(bare[rest], "以", "后", "以后", "之后", "再", "然后"))
  )
    rest += 1
  return { target: bare.slice(start, appeared), rest: bare.slice(rest) }
}

const CONTAINER_ROLES = new Set([
  "dialog",
  "form",
  "navigation",
  "banner",
  "contentinfo",
  "menu",
  "region",
  "tabpanel",
])

/** Words that point back at a thing already named: "the footer one", "页脚那个". */
const POINTING = /(?:^|\s)(?:the|that|this|one|ones|it)(?=\s|$)|那个|这个|那|个$/g

/**
 * A negated step, read against the commands before it:
 * - "don't tick Sports", "不要勾选 Sports": the box must end unticked (an `uncheck`);
 * - "don't click the footer Pricing", "别点页脚那个" after a click: the click's target, not in the place
 *   the negation names (an exclusion, like "Pricing, not the footer one");
 * - anything else is refused: the rule agent cannot check that a thing was not done.
 */
const negatedStep = (
  words: ReadonlyArray<Token>,
  commands: ReadonlyArray<Command>,
  previousVerb: readonly [Verb, string] | undefined,
  previousValue: string | undefined,
): { readonly add?: Command; readonly replace?: Command } | { readonly reason: string } => {
  const said = joinTokens(words)
  const refused = { reason: messagesFor(said).negated(said) }
  const parsed = parseClause(words, previousVerb, previousValue)
  if ("reason" in parsed || !("command" in parsed)) return refused
  const command = parsed.command
  if (command.kind === "check") return { add: { kind: "uncheck", target: command.target } }
  const last = commands.at(-1)
  if (
    (command.kind === "click" || command.kind === "open") &&
    last !== undefined &&
    (last.kind === "click" || last.kind === "open") &&
    last.target.outside === undefined
  ) {
    const named = new Set(last.target.text?.toLowerCase().split(/\s+/) ?? [])
    const targetWords = command.target.raw.split(/\s+/)
    const rest = targetWords.filter((word) => !named.has(word.toLowerCase()))
    // "the footer one", "页脚那个": the control just named, pointed at in another place.
    const pointing = /\b(?:one|that)\b|那个|这个/i.test(said)
    // "not the footer", "not the one in the dialog": a part of the page, not another control.
    const namesPlace =
      PLACE_WORDS.test(command.target.raw) ||
      (command.target.role !== undefined && CONTAINER_ROLES.has(command.target.role))
    // "Click Save, not Cancel": another control, which no step of the command clicks.
    if (rest.length === targetWords.length && !pointing && !namesPlace) return {}
    // "don't click the footer Pricing": the same name, in a place excluded.
    const placeTokens = tokenize(rest.join(" ").replace(POINTING, " ").replace(/\s+/g, " ").trim())
    let first = 0
    while (isWord(placeTokens[first], "in", "on", "inside", "within", "from", "at")) first += 1
    const place = placeTokens.slice(first)
    if (place.length === 0) return refused
    // "页脚里的" reads as a place holding nothing named: the place itself is what is excluded.
    const phrase = parseTargetPhrase(place)
    const outside =
      phrase.text === undefined && phrase.role === undefined && phrase.container !== undefined
        ? phrase.container
        : phrase
    return { replace: { ...last, target: { ...last.target, outside } } }
  }
  return refused
}

/** A command whose target is "it" ("click it", "点击它") aimed at what an earlier clause named. */
const withReferent = (command: Command, referent: TargetPhrase): Command => {
  if (!("target" in command) || command.target === undefined) return command
  if (!["it", "them", "它", "它们"].includes(command.target.raw.trim().toLowerCase())) return command
  return { ...command, target: referent } as Command
}

/** "输入一次", "type it again": a typing clause whose only words say to type the same value again. */
const repeatsTyping = (tokens: ReadonlyArray<Token>): boolean => {
  const verb = matchVerb(tokens, 0)
  if (verb === undefined || verb[0] !== "type") return false
  const rest = tokens
    .slice(verb[1])
    .map((token) => token.value)
    .filter((word) => word !== "it")
  return rest.length > 0 && AGAIN.includes(rest.join(" "))
}

/** The place a clause names ("in the Shipping tab", "在 Shipping 标签页中"), or undefined when it names none. */
const placeOf = (tokens: ReadonlyArray<Token>): ReadonlyArray<Token> | undefined => {
  if (isWord(tokens[0], "in", "on", "inside", "within")) return tokens.slice(1)
  if (isWord(tokens[0], "在") && tokens.length > 1) {
    const end = isWord(tokens[tokens.length - 1], "中", "里", "内", "上", "里面", "中间") ? -1 : undefined
    const place = tokens.slice(1, end)
    return place.length === 0 ? undefined : place
  }
  return undefined
}

/** Punctuation between which thanks may stand alone. */
const COURTESY_BREAKS = new Set([",", ".", "!", "?", ";", "，", "。", "！", "？", "；", "、"])

const isCourtesyBreak = (token: Token | undefined): boolean =>
  token?.kind === "punct" && COURTESY_BREAKS.has(token.value)

/**
 * The tokens without a softener between a verb and what it acts on ("搜一下台灯" searched for "一下台灯"); one
 * that ends its clause ("…，帮我复制一下") takes nothing with it and stays.
 */
const withoutSofteners = (tokens: ReadonlyArray<Token>): ReadonlyArray<Token> =>
  tokens.filter(
    (token, index) =>
      !(
        token.kind === "keyword" &&
        SOFTENERS.has(token.value) &&
        isChineseVerb(tokens[index - 1]) &&
        tokens[index + 1] !== undefined &&
        tokens[index + 1]!.kind !== "punct"
      ),
  )

/**
 * A clause's words without the aside that ends them ("search for lantern for me"), when a verb and a word it
 * acts on precede it (not only a pronoun: "type it too").
 */
const withoutAside = (segment: ReadonlyArray<Token>): ReadonlyArray<Token> => {
  for (const aside of ASIDES) {
    const start = segment.length - aside.length
    const before = segment.slice(0, start).filter((token) => !isWord(token, "it", "them", "this", "that"))
    if (before.length < 2) continue
    const tail = segment.slice(start)
    if (tail.every((token, index) => token.kind === "word" && token.value === aside[index]))
      return segment.slice(0, start)
  }
  return segment
}

/**
 * The tokens without the thanks that stand alone between punctuation, at the start or at the end
 * ("…, thanks", "Thanks! Type …", "…。谢谢"), with the punctuation before them: no clause and no part of a
 * value ("search for lantern, thanks" searched for "lantern, thanks"). Thanks that are words of a clause
 * ("click Thanks") stay.
 */
const withoutCourtesies = (tokens: ReadonlyArray<Token>): ReadonlyArray<Token> => {
  const kept: Array<Token> = []
  let start = 0
  while (start < tokens.length) {
    let end = start
    while (end < tokens.length && !isCourtesyBreak(tokens[end])) end += 1
    const segment = tokens.slice(start, end)
    const said = segment.map((token) => token.value)
    const courtesy =
      segment.length > 0 &&
      segment.every((token) => token.kind === "word" || token.kind === "keyword" || token.kind === "text") &&
      (COURTESIES.has(said.join(" ")) || COURTESIES.has(said.join("")))
    if (!courtesy) {
      kept.push(...withoutAside(segment))
      if (end < tokens.length) kept.push(tokens[end]!)
    } else if (isCourtesyBreak(kept.at(-1))) {
      // "…, thanks, then …": the break before the thanks goes, the one after stays.
      kept.pop()
      if (end < tokens.length) kept.push(tokens[end]!)
    }
    start = end + 1
  }
  return kept
}

/** A command's tokens without its thanks, the asides that end its clauses and the softeners after its verbs. */
const spokenTokens = (text: string): ReadonlyArray<Token> =>
  withoutSofteners(withoutCourtesies(tokenize(text)))

/**
 * A command cut into its clauses the way the grammar cuts it, each as typed (quoted values whole): for
 * reading a goal clause by clause when the whole of it cannot be read.
 *
 * @example
 * ```ts
 * import { clausesOf } from "@sextant/planner"
 * clausesOf('type "Ada, then Bob" into Name, then tell me what you think')
 * // ['type "Ada, then Bob" into Name', "tell me what you think"]
 * ```
 */
export const clausesOf = (text: string): ReadonlyArray<string> =>
  splitClauses(spokenTokens(text))
    .map((clause) => joinTokens(clause.map(quotedAsTyped)))
    .filter((clause) => clause !== "")

/** A quoted value back in quotes (the tokenizer keeps its words only); a placeholder keeps its brackets. */
const quotedAsTyped = (token: Token): Token =>
  token.kind !== "quoted" || /^(?:<[^>]*>|\{\{.*\}\})$/.test(token.raw)
    ? token
    : { ...token, raw: token.raw.includes('"') ? `“${token.raw}”` : `"${token.raw}"` }

/**
 * Reads a command typed in English or Chinese into one `Command` per clause.
 *
 * @example
 * ```ts
 * import { parseCommands } from "@sextant/planner"
 * parseCommands('log in as alice@example.com with password wonderland, then search for lantern')
 * // { ok: true, commands: [{ kind: "login", username: "alice@example.com", password: "wonderland" },
 * //                        { kind: "search", query: "lantern" }] }
 * parseCommands("在搜索框中输入台灯，然后点击第一个结果")
 * // { ok: true, commands: [{ kind: "type", value: "台灯", field: … }, { kind: "click", target: { role: "result", ordinal: 1, … } }] }
 * ```
 */
export const parseCommands = (text: string): ParseResult => {
  const tokens = spokenTokens(text)
  const say = messagesFor(text)
  if (tokens.length === 0) return fail(say.empty)
  // "Pick the cheapest flight that lands before noon", "Type the sum of the two numbers": words that need
  // a model are refused, with the leading word no verb names among the words not placed — unless each
  // ranking is a quantity the grammar reads into an item of a list ("book the cheapest flight").
  const leading = tokens[0]!
  const unplaced =
    leading.kind === "word" && matchVerb(tokens, 0) === undefined && isWord(tokens[1], "the", "a", "an")
      ? [leading.value]
      : []
  const judged = needsModel(tokens, unplaced, say)
  if (judged === undefined) return readClauses(text, tokens, say)
  // A superlative the rules read ("the cheapest flight") is a quantity of an item of a list: the parse
  // stands only when every ranking word went into such a quantity; otherwise the ranking needs a model.
  const read = readClauses(text, tokens, say)
  return read.ok && rankingsRead(tokens, read.commands) ? read : fail(judged)
}

/** A value's words, lower-cased, without the punctuation around them. */
const plainWords = (text: string): ReadonlyArray<string> =>
  text
    .toLowerCase()
    .split(/\s+/)
    .map((word) => word.replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, ""))

/**
 * A typed value without the words before it that name its own field ("type my name Ada into Name" typed
 * "name Ada"; "my phone number 030 …"): the field's words and the nouns that say what a value is, when at
 * least one of them is the field's, something is left after them, and the value was not quoted whole.
 */
const withoutFieldWords = (command: Command, tokens: ReadonlyArray<Token>): Command => {
  if (command.kind !== "type" || command.field?.text === undefined) return command
  if (tokens.some((token) => token.kind === "quoted" && token.value === command.value)) return command
  const own = new Set(plainWords(command.field.text))
  const words = command.value.split(/\s+/)
  const plain = plainWords(command.value)
  let lead = 0
  while (lead < words.length - 1 && (own.has(plain[lead]!) || VALUE_NOUNS.has(plain[lead]!))) lead += 1
  if (!plain.slice(0, lead).some((word) => own.has(word))) return command
  return { ...command, value: words.slice(lead).join(" ") }
}

/**
 * "Type the word hello", "enter the code SAVE20": after a describer, a noun that introduces a literal is
 * no part of it; the text after it is the value. (A value said after a describer with no such text is
 * refused by the reading check.)
 */
const withoutLiteralNoun = (command: Command, text: string, tokens: ReadonlyArray<Token>): Command => {
  if (command.kind !== "type") return command
  if (tokens.some((token) => token.kind === "quoted" && token.value === command.value)) return command
  const [first, ...rest] = command.value.trim().split(/\s+/)
  if (first === undefined || rest.length === 0 || !LITERAL_NOUNS.has(first.toLowerCase())) return command
  return describerOf(text, command.value, command.field?.raw) === undefined
    ? command
    : { ...command, value: rest.join(" ") }
}

/**
 * "Click Next twice", "click Next 3 times", "点击 Next 三次": a click said with how many times is that many
 * clicks on the target without the count (its `raw` keeps the words as said). Up to 20.
 */
const repeatedClicks = (commands: ReadonlyArray<Command>): ReadonlyArray<Command> =>
  commands.flatMap((command): ReadonlyArray<Command> => {
    if (command.kind !== "click") return [command]
    const match = REPEATED.exec(command.target.text ?? command.target.raw)
    if (match === null) return [command]
    const [, target, word, number] = match
    const count =
      word !== undefined
        ? REPEAT_WORDS.get(word.toLowerCase())
        : (ENGLISH_NUMBERS.get(number!.toLowerCase()) ?? chineseNumber(number!))
    if (count === undefined || count < 1 || count > 20) return [command]
    return Array.from({ length: count }, () => ({ ...command, target: { ...command.target, text: target! } }))
  })

/**
 * "Choose the colours Green, Black and White": a choice of capitalised options led by lower-case words names
 * its list by those words ("colours"); they are no part of the first option.
 */
const listBeforeOptions = (command: Command): Command => {
  if (command.kind !== "select" || command.list !== undefined || command.options.length < 2) return command
  const [first, ...others] = command.options
  const words = first!.trim().split(/\s+/)
  const lead = words.findIndex((word) => /^\p{Lu}/u.test(word))
  if (lead < 1 || !words.slice(0, lead).every((word) => /^\p{Ll}/u.test(word))) return command
  if (!others.every((option) => /^\p{Lu}/u.test(option.trim()))) return command
  const list = words.slice(0, lead).join(" ")
  return {
    ...command,
    options: [words.slice(lead).join(" "), ...others],
    list: { raw: list, text: list },
  }
}

/** Whether a field is a search box by its words ("搜索框", "Search articles"). */
const namesSearch = (field: TargetPhrase): boolean =>
  [field.text ?? "", field.raw].some((words) =>
    SEARCH_WORDS.some((word) => words.toLowerCase().includes(word.toLowerCase())),
  )

/**
 * "份量改成8人份", "数量设为3件": a value that is a number and the counter of what it counts is the number
 * (8, 3); the counter says what is counted, which the field's name says already.
 */
const countedValue = (command: Command): Command => {
  if (command.kind !== "type") return command
  const match = /^([零一二两三四五六七八九十\d]+)\s*(\p{Script=Han}{1,2})$/u.exec(command.value.trim())
  if (match === null || !COUNTERS.includes(match[2]!)) return command
  const number = chineseNumber(match[1]!)
  return number === undefined ? command : { ...command, value: String(number) }
}

/** The clauses of an instruction read into commands, or why not (`parseCommands` without the model check). */
const readClauses = (text: string, tokens: ReadonlyArray<Token>, say: Messages): ParseResult => {
  const read = (clauses: ReadonlyArray<Command>): ParseResult => {
    const said = repeatedClicks(clauses)
    // A description is caught as said ("the date shown on the page"), before a field's words leave it.
    const misread = misreading(text, tokens, said, say)
    const placed = said.map((command) => withoutFieldWords(command, tokens))
    if (misread?.reference !== undefined)
      return { ok: false, reason: misread.reason, reference: misread.reference }
    const wrong = misread?.reason ?? unplacedWords(tokens, placed, say)
    if (wrong !== undefined) return fail(wrong)
    return {
      ok: true,
      commands: placed.map((command) => listBeforeOptions(withoutLiteralNoun(command, text, tokens))),
    }
  }
  const pairs = verblessPairs(tokens)
  if (pairs !== undefined) {
    const result = read(pairs)
    return result.ok ? { ...result, verbless: true } : result
  }
  const commands: Array<Command> = []
  let previousVerb: readonly [Verb, string] | undefined
  let previousValue: string | undefined
  let pendingContainer: TargetPhrase | undefined
  let referent: TargetPhrase | undefined
  const clauses = [...splitClauses(tokens)]
  for (const [position, written] of clauses.entries()) {
    // "Wait for Load results and click it", "等 Load results 按钮出现后点击它": the thing waited for is
    // what "it" names next; the policy waits by itself for a target that is not on the page yet.
    const waited = waitedFor(stripFillers(written))
    if (waited !== undefined && (waited.rest.length > 0 || position < clauses.length - 1)) {
      referent = parseTargetPhrase(waited.target)
      if (waited.rest.length === 0) continue
    }
    const clause = waited !== undefined && waited.rest.length > 0 ? waited.rest : written
    const bare = stripFillers(clause)
    // A heading before a colon that names no action ("Edit the profile:") says what the steps after it
    // are for; the steps are the commands.
    // ("Search: type lantern" is a heading too: its words do not make a command of their own.)
    const heading = clause.at(-1)?.value === ":" || clause.at(-1)?.value === "："
    if (
      heading &&
      position < clauses.length - 1 &&
      (!bare.some((_, index) => matchVerb(bare, index) !== undefined) ||
        "reason" in parseClause(clause, previousVerb, previousValue))
    )
      continue
    // "In the Notifications tab, check Weekly digest", "在 Shipping 标签页中，…": a place for the clause
    // after it. A word of the place that is also a verb ("In the Time zone list, …") does not make it
    // a command when the clause reads as none.
    const typing = previousVerb !== undefined && (previousVerb[0] === "type" || previousVerb[0] === "set")
    const place = placeOf(bare)
    // "…，并在确认框里再输入一次": the value typed before, typed again into the place named.
    const next = stripFillers(clauses[position + 1] ?? [])
    if (typing && place !== undefined && previousValue !== undefined && repeatsTyping(next)) {
      const field = parseTargetPhrase(place)
      commands.push({
        kind: "type",
        value: previousValue,
        field: { ...field, role: field.role ?? "textbox" },
      })
      clauses.splice(position + 1, 1)
      continue
    }
    if (!typing && place !== undefined && position < clauses.length - 1) {
      const asCommand = bare.some((_, index) => matchVerb(bare, index) !== undefined)
        ? parseClause(clause, previousVerb, previousValue)
        : undefined
      if (asCommand === undefined || "reason" in asCommand) {
        pendingContainer = parseTargetPhrase(place)
        continue
      }
    }
    // "don't click the footer Pricing", "不要勾选 Sports": what not to do is never done; it becomes an
    // exclusion or a state to end in, or the command is refused.
    const negation = negationLength(bare, 0)
    if (negation > 0 && (matchVerb(bare, negation) !== undefined || previousVerb !== undefined)) {
      const negated = negatedStep(bare.slice(negation), commands, previousVerb, previousValue)
      if ("reason" in negated) return fail(negated.reason)
      if (negated.replace !== undefined) commands[commands.length - 1] = negated.replace
      if (negated.add !== undefined) commands.push(negated.add)
      pendingContainer = undefined
      referent = undefined
      continue
    }
    // "在搜索框输入 lantern 并搜索", "type lantern and search": a bare "search" sends what was just typed.
    const typed = commands.at(-1)
    if (
      typed?.kind === "type" &&
      bare.length > 0 &&
      matchVerb(bare, 0)?.[0] === "search" &&
      matchVerb(bare, 0)?.[1] === bare.length
    ) {
      // "目的地改成 Madrid，然后搜索": after a field that is no search box, a bare "search" presses the form's
      // search control; it is never a search of the site with the field's value.
      if (typed.field !== undefined && !namesSearch(typed.field)) {
        commands.push({ kind: "click", target: parseTargetPhrase(bare) })
        previousVerb = ["click", "click"]
        pendingContainer = undefined
        referent = undefined
        continue
      }
      commands[commands.length - 1] = {
        kind: "search",
        query: typed.value,
        ...(typed.field === undefined ? {} : { field: typed.field }),
      }
      continue
    }
    const result = parseClause(clause, previousVerb, previousValue)
    // "File → Export → CSV，帮我复制一下", "…, please do it": a closing remark that names its verb and
    // nothing else restates the clause before it.
    if (
      "reason" in result &&
      commands.length > 0 &&
      bare.length > 0 &&
      bare.length <= 2 &&
      matchVerb(bare, bare.length - 1) !== undefined &&
      clause.some((token) => isWord(token, "帮我", "帮忙", "一下", "please")) &&
      !clause.some((token) => isWord(token, "then", "然后", "再", "接着"))
    )
      continue
    if ("reason" in result) return fail(result.reason, result.noActionIn)
    const produced = "commands" in result ? result.commands : [result.command]
    // "Register …, Premium plan, and accept the terms": boxes ticked right after a sign-up are part of
    // its form, so they are ticked before the form is sent.
    // "Create an account: full name …; email …; password …; then click Create account": the parts of one
    // sign-up fill one form, sent once, by the control that names the sign-up when one is said.
    const sent = commands.at(-1)
    // "Log in as … and keep me signed in": a box said after a log-in is one of its form, ticked before it is sent.
    if (sent?.kind === "login" && produced.length > 0 && produced.every((each) => each.kind === "check")) {
      commands.splice(-1, 1, {
        ...sent,
        options: [...(sent.options ?? []), ...produced.map((each) => each.target)],
      })
      continue
    }
    if (sent?.kind === "submit" && previousVerb?.[0] === "signUp") {
      // "…, choose the Plus plan, accept the terms and create the account": every field, box and choice
      // said after the sign-up is of its form, filled before the form is sent.
      if (produced.every((each) => ["check", "uncheck", "select", "type"].includes(each.kind))) {
        commands.splice(-1, 1, ...produced, sent)
        continue
      }
      const click = produced.length === 1 && produced[0]!.kind === "click" ? produced[0]!.target : undefined
      const named = tokenize(click?.role === undefined ? (click?.text ?? "") : "")
      const names = matchVerb(named, 0)
      if (result.verb?.[0] === "signUp" || (names?.[0] === "signUp" && names[1] === named.length))
        commands.pop()
    }
    for (const produced1 of produced) {
      const command = countedValue(
        datedValue(referent === undefined ? produced1 : withReferent(produced1, referent)),
      )
      // "在含托运行李的航班里选最便宜的": a place said before an item of a list narrows the list, which the
      // rules cannot do: its words are not placed.
      if (command.kind === "pick" && pendingContainer !== undefined)
        return fail(say.couldNotPlace([pendingContainer.raw]))
      commands.push(pendingContainer === undefined ? command : withContainer(command, pendingContainer))
      if (command.kind === "type") previousValue = command.value
    }
    pendingContainer = undefined
    referent = undefined
    if (result.verb !== undefined) previousVerb = result.verb
  }
  if (commands.length === 0) return fail(say.nothingToDo(text))
  return read(commands)
}

import type { Command } from "./Command.ts"
import type { Messages } from "./lang/Lexicon.ts"
import type { Token } from "./Tokenizer.ts"
import {
  CHINESE_RANKING,
  CHINESE_REFERENCE,
  CHINESE_WORK,
  CONDITION,
  DESCRIBED_VALUE,
  DESCRIBERS,
  ENGLISH_VERBS,
  INDEFINITES,
  JUDGEMENT,
  KIND_NOUNS,
  LITERAL_NOUNS,
  NO_NAME_WORDS,
  VALUE_NOUNS as NOUNS_BEFORE_VALUE,
  OWNED_VALUE,
  QUANTIFIED_TARGET,
  RANKINGS,
  RELATIVE,
  REPEATED,
  ROLE_NOUNS,
  SEVERAL_WORDS,
  TYPED_RUN_ON,
  VALUE_OWNERS,
  VALUE_PLACES,
  VALUE_WORDS,
} from "./Vocabulary.ts"
import { samePlural } from "./Words.ts"

/**
 * Checks that a parse read the whole instruction: every quoted literal lands in exactly one slot, no
 * description of a value is typed as if it were the value, and nothing that needs arithmetic,
 * counting, comparison or judgement is quietly left out. Each check answers with the reason to refuse,
 * naming what could not be placed, or `undefined` when the reading stands.
 *
 * A value is a literal when it is quoted or plainly written: a number, an e-mail, a date, a URL, or a
 * short value with no description words. Anything else that describes a value ("the sum of the two
 * numbers", "the word shown in bold", "the value of Phone from the table") is a reference to be read
 * from the page, which the rules cannot do.
 */

/** Words that say a value is to be worked out: "the sum of …", "the total of …". */
const ARITHMETIC = /\b(sum|total|difference|product|average|mean|quotient|remainder|count|number)\s+of\b/i

/** Nouns that describe a value ("the word", "the number") when something locates it. */
const VALUE_NOUNS =
  "word|words|text|number|value|date|name|code|phrase|amount|price|figure|string|letters|digits|answer|result|sentence|title|label"

/** "… shown", "… below", "… in bold", "… from the table", "… of Phone": where a value is to be read. */
const LOCATED = new RegExp(
  `\\b(${VALUE_NOUNS})\\b.*\\b(shown|displayed|written|printed|given|listed|mentioned|shows?|displays?|says?|below|above|bold|italic|italics|underlined|highlighted|from|of|on\\s+the\\s+page|in\\s+the\\s+(table|list|text|page|paragraph|heading|image|picture))\\b`,
  "i",
)

/** "the most expensive", "the least popular": a ranking said in two words. */
const MOST = /\bthe\s+(most|least)\s+\w+/i

/** A value that is only a reference word: "the answer", "the result", "the solution". */
const BARE_REFERENCE = /^(the\s+)?(answer|result|solution|total|sum|correct\s+\w+|right\s+\w+)$/i

/**
 * A value that is a quantity of things on the page ("every ingredient", "all the dairy items", "所有食材"):
 * several things to find, never a text to type.
 */
const QUANTIFIED = /^(?:(?:all|every|each|both)\s+\S|(?:所有|全部|每个|每一)\S)/iu

/** The words for a field of text ("field", "box", "input"): no value on their own. */
const FIELD_NOUNS: ReadonlySet<string> = new Set(
  ROLE_NOUNS.filter(([words, role]) => words.length === 1 && role === "textbox").flatMap(([words]) => words),
)

/** Control nouns a quantifier makes several of ("all boxes", "every option", "each of the items"). */
const CONTROL_NOUNS: ReadonlySet<string> = new Set([
  ...ROLE_NOUNS.filter(([words]) => words.length === 1).flatMap(([words]) => words),
  "item",
  "setting",
  "choice",
  "filter",
  "toggle",
  "switch",
])

/** Whether a target is several controls or all but some: an exception word, "everything", "all boxes". */
const quantifiedTarget = (raw: string): boolean => {
  if (QUANTIFIED_TARGET.except.test(raw)) return true
  // "勾选所有在柏林的联系人": a Chinese quantifier leads the words it makes several of.
  if (QUANTIFIED_TARGET.all.some((word) => /\p{Script=Han}/u.test(word) && raw.trim().startsWith(word)))
    return true
  const words = raw.trim().toLowerCase().split(/\s+/)
  if (words.length === 1) return QUANTIFIED_TARGET.everything.includes(words[0]!)
  // "Mark all emails as read": a quantifier in lower case before a kind and more words makes several
  // things of them ("Accept all cookies" names one button; a name written capitalised, "All products
  // on sale", is a name).
  if (words.length > 2 && QUANTIFIED_TARGET.all.includes(words[0]!) && /^\p{Ll}/u.test(raw.trim()))
    return true
  // "Click Details for every pending order": a quantifier after a preposition, with words after it, says
  // the action is done once per item ("Reply to all" ends with it: a control's name).
  if (
    words.some(
      (word, index) =>
        index > 0 &&
        index < words.length - 1 &&
        QUANTIFIED_TARGET.all.includes(word) &&
        /^(?:for|of|on|in|from|to|with|at)$/.test(words[index - 1]!),
    )
  )
    return true
  if (!QUANTIFIED_TARGET.all.includes(words[0]!)) return false
  return words.slice(1).some((word) => [...CONTROL_NOUNS].some((noun) => samePlural(noun, word)))
}

/** Where a selected text is described rather than quoted: "in the second paragraph". */
const PLACE_OF_TEXT =
  /^(in|from|on|at|of|under|inside|within|near|above|below|after|before)\b|\b(paragraph|sentence|line|heading|caption)\b/i

/**
 * Where an unquoted value runs on into another step or a way to do it: "… 并保存", "… via Edit profile",
 * "3 using the plus button", "… and save it", or a
 * count of other things after a comma ("hotels in Porto, 2 rooms": the rooms are a counter of their own).
 */
const STEP_IN_VALUE =
  /(?:\s*(?:并|然后|接着|再)\s*\S.*$)|(?:\s+(?:via|then|using|by\s+(?:clicking|pressing|using|tapping))\s+.+$)|(?:\s+and\s+\S+\s+(?:it|them|her|him|me|us)$)|(?:,\s*(?:\d+|one|two|three|four|five|six|seven|eight|nine|ten)\s+\p{L}+s$)/iu

const normal = (text: string): string => text.toLowerCase().replace(/\s+/g, " ").trim()

/** Every string a command carries (values, names, paths), to see where each literal went. */
const slotsOf = (value: unknown, into: Array<string>): Array<string> => {
  if (typeof value === "string") into.push(normal(value))
  else if (Array.isArray(value)) for (const item of value) slotsOf(item, into)
  else if (typeof value === "object" && value !== null)
    for (const [key, item] of Object.entries(value)) if (key !== "kind") slotsOf(item, into)
  return into
}

/** The values a command types or chooses (not the names of the controls it acts on). */
const valuesOf = (command: Command): ReadonlyArray<string> => {
  switch (command.kind) {
    case "type":
      return [command.value]
    case "search":
      return [command.query]
    case "login":
      return [command.username ?? "", command.password ?? ""]
    case "select":
      return command.options
    case "selectText":
      return [command.text]
    default:
      return []
  }
}

/** The instruction with its quoted literals blanked, so description words inside quotes never count. */
const unquoted = (tokens: ReadonlyArray<Token>): string =>
  tokens
    .map(
      (token, index) =>
        `${index > 0 && token.spaced ? " " : ""}${token.kind === "quoted" ? '""' : token.raw}`,
    )
    .join("")

/**
 * Refuses an instruction whose words need a model before any reading of it: a ranking ("the cheapest
 * flight"), arithmetic ("the sum of"), counting or comparison ("how many", "compare"). Words inside
 * quotes are literals and never count. `unplaced` are words of the instruction the grammar could not
 * place, named in the reason too.
 */
export const needsModel = (
  tokens: ReadonlyArray<Token>,
  unplaced: ReadonlyArray<string>,
  say: Messages,
): string | undefined => {
  const named = rankingsOf(tokens)
  if (named.length > 0) {
    return say.needsModelToRank([...new Set([...named, ...unplaced])], named[0]!)
  }
  const work = workOf(tokens)
  if (work !== undefined) return say.needsModelToWork(work)
  return undefined
}

/** The rankings an instruction says outside quotes: "cheapest", "most expensive", "最便宜". */
const rankingsOf = (tokens: ReadonlyArray<Token>): ReadonlyArray<string> => {
  const text = unquoted(tokens)
  const words = tokens.filter((token) => token.kind === "word").map((token) => token.value)
  const rankings = words.filter((word) => RANKINGS.includes(word))
  const chineseRankings = [...text.matchAll(new RegExp(CHINESE_RANKING.source, "gu"))].map(
    (match) => match[0],
  )
  const most = [...text.matchAll(new RegExp(MOST.source, "gi"))].map((match) =>
    match[0].replace(/^the\s+/i, ""),
  )
  return [...rankings, ...most, ...chineseRankings]
}

/** Arithmetic, counting or comparison an instruction asks for outside quotes ("how many", "之和"). */
const workOf = (tokens: ReadonlyArray<Token>): string | undefined => {
  const text = unquoted(tokens)
  return JUDGEMENT.exec(text)?.[0] ?? CHINESE_WORK.exec(text)?.[0]
}

/**
 * Whether every ranking of the instruction is the quantity of an item of a list the commands pick
 * ("book the cheapest flight": `cheapest` is in the words of the item `the cheapest flight`, read as the
 * least price), and it asks for no other work. A ranking left anywhere else still needs a model.
 */
export const rankingsRead = (tokens: ReadonlyArray<Token>, commands: ReadonlyArray<Command>): boolean => {
  if (workOf(tokens) !== undefined) return false
  const ranked = commands.flatMap((command) =>
    command.kind === "pick" && command.item.rank !== undefined ? [normal(command.item.said)] : [],
  )
  return rankingsOf(tokens).every((ranking) => ranked.some((said) => said.includes(normal(ranking))))
}

/** The reference as the instruction words it: from the value's first word to the end of its phrase. */
const referencePhrase = (text: string, value: string): string => {
  const at = text.toLowerCase().indexOf(value.toLowerCase())
  if (at < 0) return value
  const article = /\b(the|a|an)\s+$/i.exec(text.slice(0, at))?.[0] ?? ""
  const rest = text.slice(at)
  const end = rest.search(/\s+(into|to the|then)\s|[,;，；。]|\s+and\s+(press|click|submit|hit|tap)\b/i)
  return `${article}${end < 0 ? rest : rest.slice(0, end)}`.trim()
}

/** Whether a value is plainly a literal: quoted, a number, an e-mail, a date, a URL, a placeholder. */
const plainlyLiteral = (value: string, quoted: ReadonlyArray<string>): boolean =>
  quoted.includes(normal(value)) ||
  /^[-+]?[\d.,:/ %$€£¥-]+$/.test(value) ||
  /^\S+@\S+\.\S+$/.test(value) ||
  /^(https?:\/\/|www\.)\S+$/i.test(value) ||
  /^(<secret:[^>]+>|\{\{[^}]+\}\})$/.test(value)

const DESCRIBED_BY = new RegExp(`(?<![\\p{L}\\p{N}])(${DESCRIBERS.join("|")})\\s+$`, "iu")

/**
 * The word before a typed or chosen value that makes it a description ("type the address", "enter my
 * email"), as the instruction says it, or undefined. The value is looked for where the instruction says it
 * as whole words outside the field's own name ("fill the name field with my name"); a describer written
 * capitalised inside the sentence starts a name ("The Beatles").
 */
export const describerOf = (text: string, value: string, field?: string): string | undefined => {
  if (value.trim() === "" || /\p{Script=Han}/u.test(value)) return undefined
  const said = new RegExp(
    `(?<![\\p{L}\\p{N}])${escapeRegExp(value.trim()).replace(/\s+/g, "\\s+")}(?![\\p{L}\\p{N}])`,
    "giu",
  )
  const fieldAt = field === undefined ? -1 : text.toLowerCase().indexOf(field.trim().toLowerCase())
  const inField = (index: number) =>
    field !== undefined && fieldAt >= 0 && index >= fieldAt && index < fieldAt + field.trim().length
  const at = [...text.matchAll(said)].find((match) => !inField(match.index))
  if (at === undefined) return undefined
  const before = DESCRIBED_BY.exec(text.slice(0, at.index))
  if (before === null) return undefined
  const word = before[1]!
  return /^\p{Lu}/u.test(word) && text.slice(0, before.index).trim() !== "" ? undefined : word
}

/**
 * Whether a value said after a describer still carries its text: a digit or an "@", a capitalised word
 * other than "I" ("the city Paris"), or a noun that introduces it with a word after that names something
 * ("the word hello", "my phone number 030 …"; not "the address from the card").
 */
const carriesText = (value: string): boolean => {
  const words = value.trim().split(/\s+/)
  const introduces = (word: string) =>
    LITERAL_NOUNS.has(word.toLowerCase()) || NOUNS_BEFORE_VALUE.has(word.toLowerCase())
  return (
    /[\d@]/.test(value) ||
    words.some((word) => /^\p{Lu}/u.test(word) && !/^I(?:'\w+)?$/u.test(word)) ||
    words.some(
      (word, index) =>
        index < words.length - 1 &&
        introduces(word) &&
        !NO_NAME_WORDS.has(words[index + 1]!.toLowerCase()) &&
        !DESCRIBERS.includes(words[index + 1]!.toLowerCase()),
    )
  )
}

/**
 * A value described as whose it is and what kind ("Maria Keller's email address", "the phone of Ana
 * Souza", "the order number of the cancelled order", "李娜的邮箱", "the value of Phone from the table"):
 * a reference the page may answer (the cell in the owner's row under the kind's column, the value
 * beside the kind's word in the owner's list or card). Grounding reads it; the grammar only splits it.
 */
export interface ValueReference {
  /** The reference as the instruction words it, for messages. */
  readonly phrase: string
  /** The value's words as the parse holds them, to find the reference in the instruction. */
  readonly said: string
  /** The words that say whose value it is ("the cancelled order", "李娜"); empty when only the kind is said. */
  readonly owner: string
  /** The kind of value, as said ("email address", "单号", "Phone"). */
  readonly kind: string
}

/** A parse refused as a misreading: the reason, and the reference the page may answer, if it is one. */
export interface Misreading {
  readonly reason: string
  readonly reference?: ValueReference
}

const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")
const anyOf = (words: ReadonlyArray<string>): string =>
  words.map((word) => escapeRegExp(word).replace(/ /g, "\\s+")).join("|")

/** The owner and kind a value speaks of, each without the words that say where it is ("from the table"). */
const withoutPlaces = (text: string): string => {
  let rest = text.trim()
  for (let changed = true; changed; ) {
    changed = false
    for (const place of VALUE_PLACES) {
      const lower = rest.toLowerCase()
      if (lower.endsWith(place) && lower.length > place.length) {
        rest = rest.slice(0, -place.length).trim()
        changed = true
      } else if (lower.startsWith(place) && lower.length > place.length) {
        rest = rest.slice(place.length).trim()
        changed = true
      }
    }
  }
  return rest
}

/** Heads that make "the X of …" a computation, not a value to read: "the sum of", "the number of". */
const COMPUTED_HEAD =
  /^(?:sum|total|difference|product|average|mean|quotient|remainder|count|number|amount)$/i

const POSSESSIVE = new RegExp(`^(?:the\\s+)?(.+?)(?:${anyOf(VALUE_OWNERS.en)})\\s+(.+)$`, "iu")
const OWNED_BY = /^(?:the\s+|a\s+|an\s+)?(.+?)\s+of\s+(.+)$/iu
const CHINESE_OWNED = new RegExp(`^(.*?)\\s*(?:${anyOf(VALUE_OWNERS.zh)})\\s*([^的]+)$`, "u")

/**
 * The reference a described value makes, split into owner and kind, or undefined when it is not one
 * the page can answer: a computation ("the sum of …", "the number of …"), an owner that is more than
 * one row ("the two pending orders", "所有订单"), or a kind the data does not know.
 */
export const valueReference = (value: string, phrase: string): ValueReference | undefined => {
  const said = value.trim()
  const text = withoutPlaces(said)
  const isValueWord = (word: string) => VALUE_WORDS.includes(word.trim().toLowerCase())
  const isKind = (word: string) => KIND_NOUNS.includes(word.trim().toLowerCase())
  let owner: string | undefined
  let kind: string | undefined
  const chinese = CHINESE_OWNED.exec(text)
  const possessive = POSSESSIVE.exec(text)
  const ownedBy = OWNED_BY.exec(text)
  if (chinese !== null && /\p{Script=Han}/u.test(chinese[2]!)) {
    ;[owner, kind] = isValueWord(chinese[2]!) ? ["", chinese[1]!] : [chinese[1]!, chinese[2]!]
  } else if (possessive !== null && isKind(possessive[2]!)) {
    ;[owner, kind] = [possessive[1]!, possessive[2]!]
  } else if (ownedBy !== null && isValueWord(ownedBy[1]!)) {
    ;[owner, kind] = ["", ownedBy[2]!]
  } else if (ownedBy !== null && isKind(ownedBy[1]!) && !COMPUTED_HEAD.test(ownedBy[1]!.trim())) {
    ;[owner, kind] = [ownedBy[2]!, ownedBy[1]!]
  }
  if (owner === undefined || kind === undefined) return undefined
  owner = withoutPlaces(owner)
  kind = withoutPlaces(kind)
  if (kind === "" || (owner === "" && /\s/.test(kind) && !isKind(kind))) return undefined
  const several = new RegExp(
    `(?<![A-Za-z])(?:${anyOf(SEVERAL_WORDS.filter((word) => /[a-z]/i.test(word)))})(?![A-Za-z])|${anyOf(SEVERAL_WORDS.filter((word) => !/[a-z]/i.test(word)))}`,
    "iu",
  )
  if (several.test(owner) || /\d+\s+\w+s\b/.test(owner)) return undefined
  return { phrase, said, owner: owner.trim(), kind: kind.trim() }
}

/**
 * Refuses a parse that misread the instruction: a quoted literal that is in no slot of its own (typed
 * as part of a longer value, or dropped), a value that describes what to type instead of being it, a
 * text to select that says where it is instead of what it is.
 */
export const misreading = (
  text: string,
  tokens: ReadonlyArray<Token>,
  commands: ReadonlyArray<Command>,
  say: Messages,
): Misreading | undefined => {
  const refused = misread(text, tokens, commands, say)
  return typeof refused === "string" ? { reason: refused } : refused
}

/** The first words of the English verbs ("click", "scroll", "type"), to know a verb's -ing form. */
const VERB_WORDS: ReadonlySet<string> = new Set(ENGLISH_VERBS.map(([words]) => words[0]!))

const misread = (
  text: string,
  tokens: ReadonlyArray<Token>,
  commands: ReadonlyArray<Command>,
  say: Messages,
): string | Misreading | undefined => {
  const quoted = tokens.filter((token) => token.kind === "quoted").map((token) => normal(token.value))
  const slots = slotsOf(commands, [])
  const values = slotsOf(commands.map(valuesOf), [])
  for (const literal of quoted) {
    if (literal === "" || slots.includes(literal)) continue
    // A quoted name inside a longer name of a control ('the card "Call supplier"') is still its name;
    // a quoted value inside a longer value is two values run together.
    const inside = values.find((slot) => slot.includes(literal))
    if (inside !== undefined) return say.literalInValue(literal, inside)
    if (!slots.some((slot) => slot.includes(literal))) return say.literalNowhere(literal)
  }
  // "Click Save if the form is valid", "Type hello unless the box is disabled", "如果评价不错就加到心愿单": the
  // rules judge no condition; read without it, the step would be done whatever the page shows.
  const said = unquoted(tokens)
  const condition = CONDITION.exec(said)
  if (condition !== null) {
    const rest = said.slice(condition.index)
    const end = rest.search(/[,;，；。]|\s+then\s/i)
    return say.needsModelToWork((end < 0 ? rest : rest.slice(0, end)).trim())
  }
  for (const command of commands) {
    // "Check every box except Email", "Uncheck all boxes", "Uncheck everything": a target of several
    // controls, or all but some, read as one control's name would act on the one it names least.
    const whole = "target" in command && command.target?.raw ? command.target : undefined
    if (whole !== undefined && !quoted.includes(normal(whole.raw)) && quantifiedTarget(whole.raw))
      return say.needsModelToWork(whole.raw.trim())
    // "Click the product that costs $12", "Tick everyone who works at Nordlicht": a property the rules do
    // not judge, read as a name, would act on whatever shares its words.
    const phrases = [
      ...("target" in command && command.target !== undefined ? [command.target.raw] : []),
      ...(command.kind === "select" ? command.options : []),
    ].filter((phrase) => !quoted.includes(normal(phrase)))
    const relative = phrases.map((phrase) => RELATIVE.exec(phrase)?.[0]).find((words) => words !== undefined)
    if (relative !== undefined)
      return say.needsModelToWork(referencePhrase(text, relative.trim()).replace(/\s+(?:and|or)$/i, ""))
    // "Choose Blue for color and Large for size": an option that holds another list's words is two choices
    // run together; the words from the list marker on are not placed.
    const runOn =
      command.kind === "select"
        ? command.options
            .filter((option) => !quoted.includes(normal(option)))
            .map((option) => /\s(?:for|from|as)\s.*$/i.exec(option)?.[0])
            .find((words) => words !== undefined)
        : undefined
    if (runOn !== undefined) return say.couldNotPlace(runOn.trim().split(/\s+/))
    // "Choose Norway as the country, a quantity of 4, and the colours Red and Blue": a list named by words
    // that run on into other clauses is several choices; the words from the first run-on are not placed.
    const listRun =
      command.kind === "select" && command.list !== undefined && !quoted.includes(normal(command.list.raw))
        ? /\s(?:(?:and|or)\s+(?:the|a|an)|(?:a|an|the)\s+\S+\s+of\s+\d)\s.*$/i.exec(command.list.raw)?.[0]
        : undefined
    if (listRun !== undefined) return say.couldNotPlace(listRun.trim().split(/\s+/))
    // "Fill in the recipient Jane Doe and the city Paris", "… with the subject Quarterly review and the text
    // See you on Monday": a field or a value that runs on into another labelled value is two values.
    const typedRun =
      command.kind === "type" && !quoted.includes(normal(command.value))
        ? [command.field?.raw ?? "", command.value]
            .map((phrase) => TYPED_RUN_ON.exec(phrase)?.[0])
            .find((words) => words !== undefined)
        : undefined
    if (typedRun !== undefined) return say.couldNotPlace(typedRun.trim().split(/\s+/))
    // "Extract the names and prices of the products on page 2": the rules extract the page they are on.
    const onPage =
      command.kind === "extract" ? /\bpage\s+\d+\b|第\s*[\d一二三四五六七八九十]+\s*页/iu.exec(text) : null
    if (onPage !== null) return say.couldNotPlace(onPage[0].split(/\s+/))
    // "… and send the message: The app crashes when I open a note": the text after the colon is what to
    // write, never part of the form's name; a submit would send the form without it.
    const formWord = command.kind === "submit" ? command.form?.raw.trim().split(/\s+/)[0] : undefined
    const written =
      formWord === undefined
        ? null
        : new RegExp(`(?<![\\p{L}\\p{N}])${escapeRegExp(formWord)}\\s*[:：]\\s*(.+)$`, "iu").exec(text)
    if (written?.[1] !== undefined) return say.couldNotPlace(written[1].trim().split(/\s+/))
    // "Extract the names of the products that are out of stock", "… of the red products", "… of all products
    // in the Garden category": the list tools read every item of the list, so words that choose which
    // items are read are not placed. A bare kind of item ("the products", "search results") chooses none.
    const choice = command.kind === "extract" && command.items !== undefined ? itemChoice(command.items) : []
    if (choice.length > 0) return say.choosesItems(choice)
    // "Type hello twice": a count of times the rules read only for a click.
    const counted =
      command.kind === "click" ? undefined : slotsOf(command, []).find((slot) => REPEATED.test(slot))
    if (counted !== undefined && !quoted.includes(counted))
      return say.couldNotPlace(
        REPEATED.exec(counted)!
          .slice(2)
          .filter((word) => word !== undefined),
      )
    // "Check in on the 14th of June": a target named only by a preposition or an article names no control;
    // the verb and that word are a phrase of their own ("check in"), which the rules do not read.
    // (A name written as one, capitalised or quoted — a toggle's "Off" — is a name.)
    const target = "target" in command ? command.target : undefined
    const named = target?.text?.trim().toLowerCase()
    if (
      target !== undefined &&
      named !== undefined &&
      named !== "" &&
      named.split(/\s+/).every((word) => NO_NAME_WORDS.has(word)) &&
      !/^[\p{Lu}"'“‘「]/u.test(target.raw)
    )
      return say.couldNotPlace(referencePhrase(text, target.raw).split(/\s+/))
    // "Check out the new arrivals", "check in for flight BA117": "check in" and "check out" are verbs of
    // their own (visit, pay, register), not a box named "out the new arrivals" ticked. The rules read them
    // only with a day (the check-in and check-out fields); anything else is refused by those words.
    const particle = /^(in|out)\b/.exec(target?.raw ?? "")
    if (
      command.kind === "check" &&
      target !== undefined &&
      particle !== null &&
      new RegExp(`\\bcheck\\s+${particle[1]}\\s`, "i").test(text)
    )
      return say.couldNotPlace(["check", ...target.raw.split(/\s+/)])
    // "keep clicking Next until …": a box named by a verb's -ing form is that verb said repeated.
    const first = command.kind === "check" ? (named?.split(/\s+/)[0] ?? "") : ""
    const stem = first.replace(/ing$/, "")
    if (stem !== first && [stem, `${stem}e`, stem.slice(0, -1)].some((verb) => VERB_WORDS.has(verb)))
      return say.repeatsAction(
        `${command.kind === "check" ? (command.verb ?? "") : ""} ${target?.raw}`.trim(),
      )
    const value =
      command.kind === "type" ? command.value : command.kind === "search" ? command.query : undefined
    if (
      value !== undefined &&
      !plainlyLiteral(value, quoted) &&
      (LOCATED.test(value) ||
        BARE_REFERENCE.test(value) ||
        QUANTIFIED.test(value.trim()) ||
        ARITHMETIC.test(value) ||
        CHINESE_REFERENCE.test(value) ||
        DESCRIBED_VALUE.some((described) => described.test(value.trim())))
    ) {
      // "李娜的邮箱", "Tom Baker's phone number": a value described by its kind is named as it was read.
      const phrase = OWNED_VALUE.some((owned) => owned.test(value.trim()))
        ? value.trim()
        : referencePhrase(text, value)
      const reference = valueReference(value, phrase)
      return reference === undefined
        ? say.needsModelToRead(phrase)
        : { reason: say.needsModelToRead(phrase), reference }
    }
    // "Type the address into the field", "Enter my email", "Put the phone in …": a value said after "the",
    // "my" … describes what to type; typed, its own words would then be checked as done.
    // (A chosen option is no such value: "the last shipping option" or "the checkbox labelled …" name a
    // control or a position, which grounding reads.)
    const described =
      command.kind === "type" && !plainlyLiteral(command.value, quoted) && !carriesText(command.value)
        ? describerOf(text, command.value, command.field?.raw)
        : undefined
    // "Type something nice in the comment box", "Write anything in the notes", "Enter any email": a value
    // not yet chosen.
    const words = command.kind === "type" ? command.value.trim().split(/\s+/) : []
    const lead = words[0] ?? ""
    const typedUnquoted = command.kind === "type" && !quoted.includes(normal(command.value))
    if (
      typedUnquoted &&
      /^\p{Ll}/u.test(lead) &&
      (INDEFINITES.has(lead) ||
        (DESCRIBERS.includes(lead) && words.length > 1 && !carriesText(command.value)))
    )
      return say.needsModelToRead(command.value.trim())
    // "Fill the Name field", "Type field into the box": a value that is the words for a field (with no
    // field of its own, or nothing but them) is the field said with no value.
    const fieldWord = (word: string) => FIELD_NOUNS.has(word.toLowerCase())
    if (
      typedUnquoted &&
      command.kind === "type" &&
      words.length > 0 &&
      (words.every(fieldWord) || (command.field === undefined && fieldWord(words.at(-1)!)))
    )
      return say.needsValue(/^\S+/.exec(text.trim())?.[0]?.toLowerCase() ?? "type")
    if (command.kind === "type" && described !== undefined) {
      const phrase = `${described} ${command.value.trim()}`
      const reference = valueReference(command.value, phrase)
      return reference === undefined
        ? say.needsModelToRead(phrase)
        : { reason: say.needsModelToRead(phrase), reference }
    }
    // "把昵称改成 Bob 并保存", "Change it to Ada99 via Edit profile and save it": a value that runs on into
    // a step of its own would type the step; the words after the value are refused by name.
    const step = value === undefined || quoted.includes(normal(value)) ? undefined : STEP_IN_VALUE.exec(value)
    if (step != null) return say.couldNotPlace(step[0].split(/[\s,，]+/u).filter((word) => word !== ""))
    if (
      command.kind === "selectText" &&
      !quoted.includes(normal(command.text)) &&
      PLACE_OF_TEXT.test(command.text)
    ) {
      const said = referencePhrase(text, command.text)
      const phrase = /^(in|from|on|at|of|under|inside|within|near|above|below|after|before)\b/i.test(said)
        ? `the text ${said}`
        : said
      return say.needsModelToFindText(phrase)
    }
  }
  return undefined
}

/** Words before the kind of item that say only where the list is or how it is shown, which choose no items. */
const NEUTRAL_ITEM_WORDS: ReadonlySet<string> = new Set(["search", "listed", "shown", "visible", "displayed"])
/** Words after the kind of item that say only where the list is: "on this page", "here". */
const WHERE_THE_LIST_IS = /\s+(?:(?:on|in)\s+(?:this|the)\s+(?:page|list|table)|here|listed|shown)$/i

/**
 * The words of an extraction's items phrase that choose which items are read ("that are out of stock",
 * "red", "in Garden category"), or none when the phrase names only the kind of item ("products", "search
 * results", "products on this page"). Han text is not judged: its words are not spaced.
 */
const itemChoice = (items: string): ReadonlyArray<string> => {
  if (/\p{Script=Han}/u.test(items)) return []
  const words = items.replace(WHERE_THE_LIST_IS, "").trim().split(/\s+/)
  if (words.length <= 1) return []
  const before = words.slice(0, -1)
  // "products that are out of stock": the kind first (a plural), then what chooses among them.
  if (/s$/i.test(words[0] ?? "") && !before.every((word) => NEUTRAL_ITEM_WORDS.has(word.toLowerCase())))
    return words.slice(1)
  return before.filter((word) => !NEUTRAL_ITEM_WORDS.has(word.toLowerCase()))
}

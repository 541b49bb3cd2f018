import { isoDay, MONTH_NAMES, type PageElement, readCalendarDay } from "@sextant/core"
import { GLOSSARY, normalizeText } from "./Grounding.ts"
import {
  contentWords,
  FIELD_ROLES,
  FILLER,
  type IntentReading,
  nameOf,
  quoted,
  REFERENCE,
  sameWord,
  wordsOf,
} from "./Intent.ts"
import { STEPPER } from "./Outline.ts"
import {
  COUNTERS,
  ENGLISH_NUMBERS,
  STATEMENT_BEFORE_COUNT,
  STATEMENT_COUNT_JOINS,
  STATEMENT_COUNTED_BY,
  STATEMENT_KINDS,
  STATEMENT_LINKS,
  STATEMENT_NAMING_LINKS,
  STATEMENT_NONE,
  STATEMENT_NOT_VALUE,
  STATEMENT_PART_FIELDS,
} from "./Vocabulary.ts"
import { CLOCK_IN_TEXT, chineseNumber, clockTime, DATE_IN_TEXT, samePlural } from "./Words.ts"

/**
 * Statements a person makes about themselves, to be entered into the page's form, not commands: "I
 * live at 12 Lindenstraße, postcode 10435", "Three adults and one child", "I was born on 4 May 1990",
 * 我住在柏林，邮编 10435. The clause is read as facts (split at commas and "and"), each a value and
 * the words that name its field: a value known by its form (an email address, a web address, a date,
 * a time of day, a phone number), else the words after a link ("is", ":", 是), else one number
 * ("three adults"), else the words after the longest run of words that names a field ("postcode
 * 10435", "live at …"). Every word of a fact that is not its value must name the field, in the
 * page's words or the glossary's ("born" → Date of birth); a value said with no field words goes to
 * the one field its kind names. Each fact becomes `type "…" into "<field>"` (or `select … from …` on
 * a list), so its goal part checks that very field for the value. A fact whose words name no field,
 * or two fields equally, is refused with the words that could not be placed.
 */

type Kind = "email" | "url" | "date" | "time" | "phone"

/** Values whose form says their kind, in the order they are looked for, each as a field holds it. */
const TYPED: ReadonlyArray<{
  readonly kind: Kind
  readonly pattern: RegExp
  readonly as: (said: string) => string | undefined
}> = [
  { kind: "email", pattern: /[\w.+-]+@[\w-]+(?:\.[\w-]+)+/g, as: (said) => said },
  { kind: "url", pattern: /\bhttps?:\/\/[^\s,]+|\bwww\.[^\s,]+/gi, as: (said) => said.replace(/[.。]$/, "") },
  {
    kind: "date",
    pattern: DATE_IN_TEXT,
    as: (said) => {
      const day = readCalendarDay(said)
      return day === undefined ? undefined : isoDay(day)
    },
  },
  { kind: "time", pattern: CLOCK_IN_TEXT, as: clockTime },
  {
    kind: "phone",
    pattern: /\+?\(?\d[\d ()/.-]{5,}\d/g,
    as: (said) => (said.replace(/\D/g, "").length >= 7 ? said.trim() : undefined),
  },
]

/** Where one fact of a statement ends and the next begins. */
const FACT_BREAK = /\s*(?:[,;、]|\band\b|\bplus\b|以及|并且|还有|和)\s*/i

/**
 * "5 guests in 2 rooms", "3 adults with 2 children": two counts joined in one fact, as two facts. Only
 * where a number stands on both sides of the joining word, each before what it counts.
 */
const countsApart = (fact: string): ReadonlyArray<string> => {
  const words = fact.split(/\s+/)
  const at = words.findIndex(
    (word, index) =>
      index >= 2 &&
      STATEMENT_COUNT_JOINS.includes(word.toLowerCase()) &&
      numberOf(words[index - 2]!) !== undefined &&
      numberOf(words[index + 1] ?? "") !== undefined &&
      words.length >= index + 3,
  )
  if (at < 0) return [fact]
  return [words.slice(0, at).join(" "), ...countsApart(words.slice(at + 1).join(" "))]
}

/** A field a statement may fill: its name as a command says it, and every word a person may call it by. */
interface Field {
  readonly element: PageElement
  readonly name: string
  readonly words: ReadonlyArray<string>
  readonly stepper: boolean
}

const fieldsOf = (elements: ReadonlyArray<PageElement>): ReadonlyArray<Field> => {
  const pairs = new Set<string>()
  return elements.flatMap((element): Array<Field> => {
    if (element.disabled === true) return []
    const pair = element.attributes[STEPPER.pair]
    const stepperLabel = element.attributes[STEPPER.label] ?? ""
    const stepper = pair !== undefined && stepperLabel !== ""
    if (stepper) {
      if (pairs.has(pair)) return []
      pairs.add(pair)
    } else if (!FIELD_ROLES.has(element.role) || nameOf(element) === "") return []
    const name = stepper ? stepperLabel : nameOf(element)
    const said = [name, element.attributes.placeholder ?? "", element.guess?.words ?? ""].join(" ")
    return [{ element, name, words: wordsOf(said), stepper }]
  })
}

/** "2 adults · 0 children · 1 room": a count and what it counts, as a collapsed control's name says them. */
const COUNT_IN_NAME = /(?:^|[·•|,;/]\s*)\d+\s+(\p{L}[\p{L}-]*)(?=\s*(?:[·•|,;/]|$))/gu

/**
 * The counters a collapsed control's name says it holds ("2 adults · 0 children · 1 room" on a button
 * that opens a pop-over of counters), each a field named by the word it counts, where no field shown
 * already takes that word. A fact placed on one is a `type` the grounding carries out by opening the
 * control first and stepping the counter it then shows; the field words are the page's own.
 */
const countersBehind = (
  elements: ReadonlyArray<PageElement>,
  shown: ReadonlyArray<Field>,
): ReadonlyArray<Field> =>
  elements.flatMap((element) => {
    if (element.expanded !== false || element.disabled === true) return []
    const counted = [...element.name.matchAll(COUNT_IN_NAME)].map((match) => match[1]!)
    // One count is a label ("3 items"), not a pop-over of counters.
    if (counted.length < 2) return []
    return counted.flatMap(
      (word): Array<Field> =>
        shown.some((field) => field.words.some((own) => samePlural(own.toLowerCase(), word.toLowerCase())))
          ? []
          : [{ element, name: word, words: [word.toLowerCase()], stepper: true }],
    )
  })

/** The concept said in the glossary's other words too: "born" → "date of birth", 邮编 → postcode. */
const variantsOf = (concept: string): ReadonlyArray<string> => {
  const text = ` ${normalizeText(concept)} `
  const variants = [concept]
  for (const [key, names] of GLOSSARY) {
    if (/\p{Script=Han}/u.test(key) || !text.includes(` ${key} `)) continue
    for (const name of names) variants.push(text.replace(` ${key} `, ` ${name} `))
  }
  return variants
}

/**
 * How many of the field's own words the concept leaves unsaid, or undefined when it does not name the
 * field; `strict` asks each word to be the field's word or its plural ("deliver" names no "Delivery notes").
 */
const unsaidBy = (field: Field, concept: string, strict: boolean): number | undefined => {
  const same = strict ? samePlural : sameWord
  let best: number | undefined
  // The concept in the glossary's words ("城市" → city) and as said (城, 市: a page may name the field 城市).
  const said = wordsOf(concept).filter((word) => !FILLER.has(word) && !STATEMENT_LINKS.includes(word))
  for (const words of [
    ...variantsOf(concept).map((variant) =>
      contentWords(variant).filter((word) => !STATEMENT_LINKS.includes(word)),
    ),
    said,
  ]) {
    if (words.length === 0 || !words.every((word) => field.words.some((own) => same(own, word)))) continue
    const unsaid = field.words.filter(
      (own) => !FILLER.has(own) && !words.some((word) => same(own, word)),
    ).length
    best = best === undefined ? unsaid : Math.min(best, unsaid)
  }
  return best
}

/** The fields a concept names most closely (more than one when it names them equally). */
const closest = (
  fields: ReadonlyArray<Field>,
  concepts: ReadonlyArray<string>,
  strict: boolean,
): ReadonlyArray<Field> => {
  const scored = fields.flatMap((field) => {
    const scores = concepts.flatMap((concept) => unsaidBy(field, concept, strict) ?? [])
    return scores.length === 0 ? [] : [{ field, unsaid: Math.min(...scores) }]
  })
  const best = Math.min(...scored.map((one) => one.unsaid))
  return scored.filter((one) => one.unsaid === best).map((one) => one.field)
}

/** A number said as digits, a number word or a Chinese numeral with its counter ("three", 两位). */
const numberOf = (word: string): string | undefined => {
  if (/^\d+$/.test(word)) return word
  const english = ENGLISH_NUMBERS.get(word.toLowerCase())
  if (english !== undefined) return String(english)
  const counted = COUNTERS.find((counter) => word.length > counter.length && word.endsWith(counter))
  const chinese = chineseNumber(counted === undefined ? word : word.slice(0, -counted.length))
  return chinese === undefined ? undefined : String(chinese)
}

const isMonth = (word: string): boolean =>
  word.length >= 3 && MONTH_NAMES.some((month) => month.startsWith(word.toLowerCase().replace(/\.$/, "")))

/** One way to read a fact: the value, the words that must name its field, and the value's kind. */
interface Reading {
  readonly value: string
  readonly concept: string
  readonly kind?: Kind
  /** Cut where the words that name a field end: nothing but those words says where the value is. */
  readonly cut?: true
  /** A count said in words that are no number elsewhere ("no pets"): it goes to a counter only. */
  readonly count?: true
}

/** The places a fact may be cut into its field words and its value: between words, and between Han characters. */
const cuts = (fact: string): ReadonlyArray<number> =>
  [...fact.matchAll(/\s+|(?<=\p{Script=Han})(?=\S)|(?<=\S)(?=\p{Script=Han})/gu)].map((match) => match.index)

const literal = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")
/** "My email is …", "Postcode: …", 邮编是 …: the field's words, a link, the value. */
const LINK = new RegExp(
  `^(.*?)\\s*(${STATEMENT_LINKS.map((link) => (/^\w/.test(link) ? `\\b${literal(link)}\\b` : literal(link))).join("|")})\\s*(.+)$`,
  "iu",
)

/** The readings of a fact, most telling first: a value known by its form, after a link, a number, after field words. */
const readingsOf = (fact: string): ReadonlyArray<Reading> => {
  for (const typed of TYPED) {
    for (const match of fact.matchAll(typed.pattern)) {
      const value = typed.as(match[0].trim())
      if (value !== undefined)
        return [{ value, concept: fact.replace(match[0], " ").trim(), kind: typed.kind }]
    }
  }
  const readings: Array<Reading> = []
  // "No pets": a count of nothing, for a counter only.
  const none = /^(\S+)\s+(\p{L}[\p{L}\s-]*)$/u.exec(fact)
  if (none !== null && STATEMENT_NONE.has(none[1]!.toLowerCase()))
    return [{ concept: none[2]!, value: "0", count: true }]
  const linked = LINK.exec(fact)
  if (linked !== null) {
    // "我叫王磊": a link that names its field stands for the field's words when none come before it.
    const naming = STATEMENT_NAMING_LINKS.get(linked[2]!.toLowerCase())
    const concept = naming !== undefined && contentWords(linked[1]!).length === 0 ? naming : linked[1]!
    readings.push({ concept, value: linked[3]! })
  }
  // "Three adults", "postcode 10435": a number beside the field words, not inside them ("born on 4 May").
  const words = fact.split(/\s+/)
  const numbers = words.flatMap((word, index) => {
    const number = numberOf(word)
    const sides = [words.slice(0, index), words.slice(index + 1)].map((side) => contentWords(side.join(" ")))
    // "4 May", "May 4": a day of a month said without its year is no count.
    const month = [words[index - 1], words[index + 1]].some((beside) => isMonth(beside ?? ""))
    return number === undefined || month || sides.every((side) => side.length > 0) ? [] : [{ word, number }]
  })
  const hanNumber =
    /^([零一二两三四五六七八九十\d]+(?:\p{Script=Han})?)(\p{Script=Han}.*)$|^(\p{Script=Han}+?)([零一二两三四五六七八九十\d]+\p{Script=Han}?)$/u.exec(
      fact,
    )
  // "5晚": a count whose counter names what it counts (晚 → nights) and no other word.
  const counted = /^([零一二两三四五六七八九十\d]+)(\p{Script=Han})$/u.exec(fact)
  const countedBy = counted === null ? undefined : STATEMENT_COUNTED_BY.get(counted[2]!)
  const count = counted === null ? undefined : numberOf(counted[0])
  if (countedBy !== undefined && count !== undefined) {
    readings.push({ concept: countedBy, value: count })
  } else if (numbers.length === 1) {
    readings.push({ concept: fact.replace(numbers[0]!.word, " ").trim(), value: numbers[0]!.number })
  } else if (hanNumber !== null) {
    const said = hanNumber[1] ?? hanNumber[4]!
    const number = numberOf(said)
    if (number !== undefined) readings.push({ concept: hanNumber[2] ?? hanNumber[3]!, value: number })
  }
  const at = cuts(fact).filter((cut) => cut > 0)
  for (const cut of at.toReversed())
    readings.push({ concept: fact.slice(0, cut), value: fact.slice(cut).trim(), cut: true })
  // "a family room": the value before the words that name its field.
  for (const cut of at) {
    const value = fact.slice(0, cut).replace(/^(?:an?|one)\s+/i, "")
    readings.push({ concept: fact.slice(cut).trim(), value, cut: true })
  }
  return readings
}

const notValue = (value: string): boolean =>
  STATEMENT_NOT_VALUE.size > 0 &&
  (value
    .toLowerCase()
    .split(/\s+/)
    .some((word) => STATEMENT_NOT_VALUE.has(word.replace(/[’]/g, "'"))) ||
    [...STATEMENT_NOT_VALUE].some((word) => /\p{Script=Han}/u.test(word) && value.includes(word)))

/** What one fact fills, or why it cannot be placed (`named`: some field or kind of value was recognised). */
type Placed =
  | { readonly field: Field; readonly value: string }
  | { readonly reason: string; readonly named: boolean }

/** Whether the fact says the field's name whole and the reading's value holds a part of it. */
const cutsName = (fact: string, reading: Reading, name: string): boolean => {
  const said = normalizeText(fact).replace(/\s+/g, "")
  const whole = normalizeText(name).replace(/\s+/g, "")
  if (whole === "" || !said.includes(whole)) return false
  return !normalizeText(reading.concept).replace(/\s+/g, "").includes(whole)
}

/** "一共四个大人", "住5晚": a fact without the words before its count that name no field. */
const withoutBeforeCount = (fact: string): string => {
  const before = STATEMENT_BEFORE_COUNT.find((word) => fact.startsWith(word))
  if (before === undefined) return fact
  const rest = fact.slice(before.length).trim()
  return /^[零一二两三四五六七八九十\d]/u.test(rest) ? rest : fact
}

const placeFact = (said: string, fields: ReadonlyArray<Field>): Placed => {
  const fact = withoutBeforeCount(said)
  const readings = readingsOf(fact)
  for (const reading of readings) {
    const value = reading.value.replace(/^["“'‘](.*)["”'’]$/, "$1").trim()
    // "Rooms please": words that name nothing are no value.
    if (contentWords(value).length === 0) continue
    const said = contentWords(reading.concept).length > 0
    // A value said with no field words goes to the field its kind names ("ann@example.com" → Email).
    const concepts = said
      ? [reading.concept]
      : reading.kind === undefined
        ? []
        : STATEMENT_KINDS(reading.kind)
    const fits = closest(fields, concepts, reading.cut === true)
    if (fits.length === 0) continue
    // A cut through the field's own name ("城" | "市是柏林" for 城市) leaves part of the name in the value.
    if (fits.some((fit) => cutsName(fact, reading, fit.name))) continue
    if (fits.length > 1)
      return {
        reason: `"${fact}" fits more than one field equally: ${fits.map((fit) => `"${fit.name}"`).join(", ")}`,
        named: true,
      }
    // "Send me emails once a month" cut as "…emails once a" | "month" for "Send emails to": a field
    // whose name says its kind of value (an e-mail address, a web address, a phone number) takes only
    // a value of that kind.
    const kind = kindOf(fits[0]!)
    if (kind !== undefined && reading.kind !== kind) continue
    if (reading.count === true && !fits[0]!.stepper && fits[0]!.element.role !== "spinbutton")
      return {
        reason: `"${fact}" says a count, and "${fits[0]!.name}" is no counter`,
        named: true,
      }
    // "My street is the one on my card": a description is never typed as the value.
    if (reading.kind === undefined && value === reading.value && REFERENCE.test(value))
      return { reason: `needs a model to work out "${value}"`, named: true }
    // "I'm travelling with 2 kids" (a sentence) and "at Main St 5 in Berlin" (a second fact inside) are no value.
    if (reading.kind === undefined && notValue(value)) continue
    return { field: fits[0]!, value }
  }
  const first = readings[0]
  const words = contentWords(first?.kind === undefined ? fact : first.concept)
  return {
    named: first?.kind !== undefined,
    reason:
      first?.kind !== undefined && words.length === 0
        ? `could not place "${first.value}": no field of the page, or more than one, takes a ${first.kind}`
        : `could not place ${words.map((word) => `"${word}"`).join(", ")} of "${fact}": no field of the page is named by them`,
  }
}

const KIND_WORDS: ReadonlyArray<string> = (["email", "url", "date", "time", "phone"] as const).flatMap(
  (kind) => STATEMENT_KINDS(kind),
)

/**
 * Whether the field's name says `word`: one of its words (`same` as it, by default the very word), or,
 * for a Han word, anywhere in it.
 */
const fieldSays = (
  field: Field,
  word: string,
  same: (own: string, word: string) => boolean = (own, other) => own === other,
): boolean =>
  /\p{Script=Han}/u.test(word)
    ? field.name.includes(word)
    : field.words.some((own) => same(own.toLowerCase(), word))

/** The kind of value a field's name says it takes ("Send emails to": an e-mail address), if one. */
const kindOf = (field: Field): Kind | undefined =>
  (["email", "url", "phone"] as const).find((kind) =>
    STATEMENT_KINDS(kind).some((word) => fieldSays(field, word, samePlural)),
  )

/** Whether a field's name says its kind of value (a date, a phone number): its value is one, not parts. */
const isKindField = (field: Field): boolean => KIND_WORDS.some((word) => fieldSays(field, word))

/** Whether a field's name says it holds one part of a longer value ("House number", 门牌号) and no kind of its own ("Phone number"). */
const isPartField = (field: Field): boolean => {
  // "Street and house number" holds the whole: it is no field for a part.
  const whole = fieldSays(field, "and") || /[&和及]/u.test(field.name)
  return STATEMENT_PART_FIELDS.some((word) => fieldSays(field, word)) && !whole && !isKindField(field)
}

/** Each value kind's pattern matching a whole value, not a value inside a text. */
const WHOLE_TYPED: ReadonlyArray<RegExp> = TYPED.map(
  (typed) => new RegExp(`^(?:${typed.pattern.source})$`, typed.pattern.flags.replace("g", "")),
)

/**
 * A field left empty that may hold part of a filled value: "12 Lindenstraße" (words and a number, said
 * with no kind of its own) for "Street" beside an empty "House number" is two values, not one.
 */
const partFieldBeside = (
  one: { readonly field: Field; readonly value: string },
  filled: ReadonlyArray<{ readonly field: Field }>,
  fields: ReadonlyArray<Field>,
): Field | undefined => {
  if (one.field.stepper || (one.field.element.options ?? []).length > 0 || isKindField(one.field))
    return undefined
  if (
    !/\d/.test(one.value) ||
    !/\p{L}/u.test(one.value) ||
    WHOLE_TYPED.some((whole) => whole.test(one.value.trim()))
  )
    return undefined
  return fields.find(
    (field) =>
      field !== one.field &&
      !field.stepper &&
      !filled.some((other) => other.field === field) &&
      isPartField(field),
  )
}

/** A person's name said of themselves: "I'm Olivia Brandt", "my name is Olivia Brandt" (capitalised words). */
const NAME_SAID =
  /^(?:I'?m|I am|[Mm]y name is|[Mm]y name's|[Tt]his is)\s+(\p{Lu}[\p{L}'’-]*(?:\s+\p{Lu}[\p{L}'’-]*){0,3})$/u

/**
 * "I'm Olivia Brandt": the person's name, as the facts the page's fields take. On a form with a first
 * and a last name and no field for the whole name, a name of two words is those two facts ("first
 * name is Olivia", "last name is Brandt"); a longer name is refused there (which words are the last
 * name is not known). Elsewhere "my name is …", which names the page's name field. Any other fact as
 * said.
 */
const namedFacts = (fact: string, fields: ReadonlyArray<Field>): ReadonlyArray<string> => {
  const name = NAME_SAID.exec(fact)?.[1]
  if (name === undefined) return [fact]
  const says = (field: Field, ...words: ReadonlyArray<string>) =>
    words.some((word) => field.words.some((own) => own.toLowerCase() === word))
  const naming = fields.filter((field) => says(field, "name"))
  const first = naming.filter((field) => says(field, "first", "given"))
  const last = naming.filter((field) => says(field, "last", "family", "surname"))
  const whole = naming.filter((field) => !first.includes(field) && !last.includes(field))
  if (first.length !== 1 || last.length !== 1 || whole.length > 0) return [`my name is ${name}`]
  const words = name.split(/\s+/)
  if (words.length !== 2) return [fact]
  return [`first name is ${words[0]!}`, `last name is ${words[1]!}`]
}

/**
 * Reads a clause with no action word as facts to enter into the page's fields, one command per fact,
 * or why it cannot; undefined when no part of it names a field or holds a value of a known kind.
 *
 * @example
 * ```ts
 * readStatement("postcode 10435, phone 030 1234567", elements)
 * // { command: 'type "10435" into "Postcode", then type "030 1234567" into "Phone"' }
 * ```
 */
export const readStatement = (
  clause: string,
  elements: ReadonlyArray<PageElement>,
): IntentReading | undefined => {
  const shown = fieldsOf(elements)
  const fields = [...shown, ...countersBehind(elements, shown)]
  const facts = clause
    .normalize("NFKC")
    .replace(/[.!。！]+\s*$/u, "")
    .split(FACT_BREAK)
    .flatMap((fact) => countsApart(fact.trim()))
    .filter((fact) => fact !== "")
  if (fields.length === 0 || facts.length === 0) return undefined
  const placed = facts.flatMap((fact) => namedFacts(fact, fields)).map((fact) => placeFact(fact, fields))
  const reasons = placed.flatMap((one) => ("reason" in one ? [one.reason] : []))
  const filled = placed.flatMap((one) => ("field" in one ? [one] : []))
  // Nothing in it is a value of a known kind or names a field: not a statement for this page.
  if (filled.length === 0 && placed.every((one) => "named" in one && !one.named)) return undefined
  if (reasons.length > 0) return { reason: reasons.join("; ") }
  const twice = filled.find((one, index) => filled.findIndex((other) => other.field === one.field) !== index)
  if (twice !== undefined) return { reason: `"${clause}" gives the field "${twice.field.name}" two values` }
  const split = filled.flatMap((one) => {
    const part = partFieldBeside(one, filled, fields)
    return part === undefined ? [] : [{ ...one, part }]
  })[0]
  if (split !== undefined)
    return {
      reason: `"${split.value}" may belong in two fields, "${split.field.name}" and "${split.part.name}": say what goes in each`,
    }
  const commands: Array<string> = []
  for (const { field, value } of filled) {
    const name = quoted(field.name)
    const options = field.element.options ?? []
    const option = options.find(
      (one) =>
        normalizeText(one) === normalizeText(value) || (/^\d+$/.test(value) && Number(one) === Number(value)),
    )
    const text = quoted(option ?? value)
    if (name === undefined || text === undefined)
      return { reason: `"${clause}" has a quote in a field or value` }
    if (field.stepper && !/^\d+$/.test(value))
      return { reason: `"${value}" is no number for the counter "${field.name}"` }
    if (options.length > 0 && option === undefined)
      return { reason: `"${value}" is not one of the options of "${field.name}"` }
    commands.push(option === undefined ? `type ${text} into ${name}` : `select ${text} from ${name}`)
  }
  return { command: commands.join(", then ") }
}

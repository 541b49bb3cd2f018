import { isoDay, type PageElement, readCalendarDay } from "@sextant/core"
import type { Ancestry } from "./Grounding.ts"
import { GLOSSARY, HOLDER_ROLES, normalizeText } from "./Grounding.ts"
import { readStatement } from "./Statement.ts"
import { ITEM_ACTIONS, ITEM_NOUNS, MESSAGE_WORDS, WORK_OBJECTS } from "./Vocabulary.ts"
import { CLOCK_IN_TEXT, clockTime, DATE_IN_TEXT, wordsOf } from "./Words.ts"

/** The glossary's Chinese words, longest first, with the English words pages carry for them. */
const HAN_GLOSSARY = [...GLOSSARY]
  .filter(([word]) => /^\p{Script=Han}+$/u.test(word))
  .sort(([one], [other]) => other.length - one.length)

/**
 * Instructions that name a control or a state instead of an action ("Print the page", "I want
 * overnight shipping", "Travel shouldn't be ticked", "My last name is Hamilton", 拒绝所有 Cookie): the
 * grammar finds no action word in them, so the page decides. The clause's content words are matched
 * against the page's controls — button and link names, radio and option labels with their group, box
 * labels, field labels with a literal value — and the one control whose words cover them all says the
 * action: press it, choose it, tick or untick it, fill it. The reading is written as a command the
 * grammar knows (`click "Print"`, `select "Overnight"`, `uncheck "Travel"`,
 * `type "Hamilton" into "Last name"`), so its goal part carries the same page check as the command
 * said in words. Anything less than one control covering every content word is refused with the
 * words that could not be placed.
 */

/** What one clause was read as on the page, or why it could not be. */
export type IntentReading =
  | { readonly command: string }
  | {
      readonly reason: string
      /** No control of the page is named by the clause: one may be hidden (a closed tab, menu or section). */
      readonly absent?: true
    }

/** Words that say the person wants something, or hold the sentence together: no target in them. */
export const FILLER = new Set(
  (
    "i i'd id i'm im me my we us our you your it its it's they them their this that these those the a an to of for in on at " +
    "by as with via using from into onto and or but so then please just now also is are be been being was " +
    "should would could can will shall must may might want wants wanted like need needs let let's lets " +
    "do does make get go have has had use there here one ones thing page please kindly mine too also " +
    "box field control button link option setting value area widget list dropdown drop-down menu input " +
    "textarea radio checkbox select choose pick set accordingly read see view visit about hear rather anymore show display"
  ).split(" "),
)

/** Words that only say which state a box should end in. */
const TICK_WORDS = new Set(
  "tick ticked check checked select selected on enabled enable turned turn mark marked box".split(" "),
)
const NEGATION =
  /\b(?:not|no|never|un-?tick(?:ed)?|un-?check(?:ed)?|off|disable[d]?|shouldn't|don't|doesn't|isn't|mustn't|won't|without|stop\s+\w+ing)\b|n't\b|不要|不|取消|别/i

/** Words that only negate: they say which state, never which control. */
const NEGATION_WORDS = new Set(["not", "no", "never", "without", "off"])

/** Chinese words the page's English controls carry, and Chinese particles that name nothing. */
const CHINESE: ReadonlyArray<readonly [RegExp, string]> = [
  [/拒绝/g, " reject "],
  [/接受|同意/g, " accept "],
  [/所有|全部/g, " all "],
  [/勾上|勾选|选中|打勾|打钩/g, " tick "],
  [/取消/g, " not "],
  [/发布/g, " publish "],
  [/打印/g, " print "],
  [/保存/g, " save "],
  [/草稿/g, " draft "],
  [/(?:这一个|那一个|这个|那个|请|把|将|我|要|想|的|一下|帮我|给我|吧|了|上|先|再)/g, " "],
]

export { wordsOf }

/** The content words of a clause: what names a control, with fillers and state words left out. */
export const contentWords = (text: string): ReadonlyArray<string> => {
  let english = text
    .replace(/[’]/g, "'")
    // "Stop sending me tips", "no more newsletters": said of what should end, as "not".
    .replace(/\bstop\s+\w+ing\b|\bno\s+more\b/gi, " not ")
    .replace(/\bany\s+more\b/gi, " ")
    // "Once a month", "every week": how often, as pages name it (Monthly digest, Weekly).
    .replace(/\b(?:once\s+an?|every)\s+(day|week|month|year)\b/gi, (_, unit: string) =>
      unit.toLowerCase() === "day" ? " daily " : ` ${unit}ly `,
    )
    // "Don't remember me on this computer": the device the person is on names no control.
    .replace(/\bon\s+this\s+(?:computer|device|browser|machine|phone)\b/gi, " ")
    .replace(/\b(\w+)n't\b/gi, "$1 not")
    .replace(/'(?:d|m|s|re|ll|ve)\b/gi, "")
  for (const [pattern, replacement] of CHINESE) english = english.replace(pattern, replacement)
  // "取车": the English words pages carry for the glossary's Chinese words ("pick-up").
  for (const [chinese, names] of HAN_GLOSSARY) english = english.replaceAll(chinese, ` ${names[0]} `)
  return wordsOf(english).filter((word) => !FILLER.has(word) && !NEGATION_WORDS.has(word) && word !== "t")
}

/** Whether two words are the same word for a person (case, plural, a shared stem of 4+ letters). */
export const sameWord = (one: string, other: string): boolean => {
  if (one === other) return true
  const stem = (word: string) => word.replace(/(?:ies|es|s|ed|ing)$/, "")
  if (stem(one) === stem(other) && stem(one).length >= 3) return true
  const [short, long] = one.length <= other.length ? [one, other] : [other, one]
  return short.length >= 3 && long.startsWith(short) && long.length - short.length <= 4
}

interface Candidate {
  readonly element: PageElement
  /** The words the candidate itself is named by. */
  readonly own: ReadonlyArray<string>
  /** Words of the groups and sections around it, which may be said too. */
  readonly around: ReadonlyArray<string>
  readonly kind: "press" | "box" | "choose" | "option"
  /** For an option of a list: the option's text and the list's name. */
  readonly option?: string
}

const PRESS_ROLES = new Set(["button", "link", "menuitem", "tab", "clickable"])
const BOX_ROLES = new Set(["checkbox", "switch"])
export const FIELD_ROLES = new Set(["textbox", "searchbox", "spinbutton", "combobox", "slider"])

export const nameOf = (element: PageElement): string =>
  element.name !== "" ? element.name : (element.attributes.label ?? element.attributes["aria-label"] ?? "")

/** The words naming a control, without the fillers a clause would drop too ("I agree to the terms"). */
const namingWords = (text: string): ReadonlyArray<string> => {
  const words = wordsOf(text)
  const kept = words.filter((word) => !FILLER.has(word))
  return kept.length === 0 ? words : kept
}

/**
 * The containers around an element, without the headings of the sections it sits in (an ancestry read
 * with `sections`): a press is said within an item or container the grounding finds by its role.
 */
const containersOf = (ancestry: Ancestry | undefined, element: PageElement): Chain =>
  (ancestry?.get(element.ref) ?? []).filter((ancestor) => ancestor.role !== "heading")

const candidatesOf = (
  elements: ReadonlyArray<PageElement>,
  ancestry: Ancestry | undefined,
): ReadonlyArray<Candidate> => {
  const around = (element: PageElement) =>
    (ancestry?.get(element.ref) ?? []).flatMap((container) => wordsOf(container.name))
  return elements.flatMap((element): Array<Candidate> => {
    if (element.disabled === true) return []
    const name = nameOf(element)
    const own = namingWords(name)
    if (PRESS_ROLES.has(element.role) && own.length > 0)
      return [{ element, own, around: around(element), kind: "press" }]
    if (BOX_ROLES.has(element.role) && own.length > 0)
      return [{ element, own, around: around(element), kind: "box" }]
    if ((element.role === "radio" || element.role === "option") && own.length > 0)
      return [{ element, own, around: around(element), kind: "choose" }]
    if (element.options !== undefined && element.options.length > 0)
      return element.options.map((option) => ({
        element,
        own: namingWords(option),
        around: [...own, ...around(element)],
        kind: "option" as const,
        option,
      }))
    return []
  })
}

/** The clause's words that the candidate's own words and its surroundings do not cover. */
const uncovered = (words: ReadonlyArray<string>, candidate: Candidate): ReadonlyArray<string> =>
  words.filter(
    (word) =>
      !candidate.own.some((own) => sameWord(own, word)) &&
      !candidate.around.some((own) => sameWord(own, word)),
  )

/** The candidate's own words the clause does not say. */
const unsaid = (words: ReadonlyArray<string>, candidate: Candidate): ReadonlyArray<string> =>
  candidate.own.filter((own) => !words.some((word) => sameWord(own, word)))

/** Words of controls that commit something: such a control is pressed only when its word is said. */
const COMMIT_WORDS = new Set(
  (
    "submit send buy purchase order pay checkout delete remove erase destroy confirm subscribe unsubscribe " +
    "register publish post book transfer sign apply place cancel"
  ).split(" "),
)

export const quoted = (text: string): string | undefined => (text.includes('"') ? undefined : `"${text}"`)

/** Words that make a value a description of one to look up ("the one on my card", "same as above"). */
export const REFERENCE =
  /\b(?:the|my|your|his|her|their|our|this|that|same|shown|above|below|from|of the|value|whatever)\b|上面|下面|显示的|那个|这个/i

const NUMBER_WORDS: ReadonlyMap<string, number> = new Map(
  "zero one two three four five six seven eight nine ten".split(" ").map((word, index) => [word, index]),
)

/**
 * A literal value in the clause next to a field's words: "My last name is Hamilton" (after "is",
 * "be", "to", "=", ":" or 为/是/填), "Two rooms" (a number word before them), "5 guests". Undefined when
 * the clause holds no such value.
 */
const valueFor = (clause: string, label: string): string | undefined => {
  const escaped = label.replace(/[.*+?^${}()|[\]\\]/g, "\\$&").replace(/\s+/g, "\\s+")
  const after = new RegExp(
    `${escaped}s?\\s*(?:is|should be|must be|=|:|：|为|是|填|填写|改成|改为)\\s*(.+?)\\s*$`,
    "iu",
  ).exec(clause)
  if (after !== null) {
    const said = after[1]!.trim()
    const unquoted = said.replace(/^["“'‘](.*)["”'’]$/, "$1").trim()
    // A value said without quotes that reads as a description ("the one on my card") is no literal.
    return unquoted === said && REFERENCE.test(said) ? `\u0000${said}` : unquoted
  }
  const before = new RegExp(
    `^(?:.*\\s)?(\\d+|${[...NUMBER_WORDS.keys()].join("|")})\\s+${escaped}s?\\b`,
    "iu",
  ).exec(clause)
  if (before !== null) {
    const word = before[1]!.toLowerCase()
    return NUMBER_WORDS.has(word) ? String(NUMBER_WORDS.get(word)) : word
  }
  return undefined
}

const VIA_MENU = /^(.+?)\s+(?:via|through|from|in|under|using)\s+(?:the\s+|my\s+)?(.+?)\s+menu$/i

/**
 * "Sign out via the Account menu", "Export as PNG image via the File menu": an item behind a menu the
 * page shows by name, reached by the menu path `Account > Sign out`. Only when the menu is one control
 * of the page and the item is not already shown (then it is pressed like any control).
 */
const menuPath = (
  clause: string,
  elements: ReadonlyArray<PageElement>,
  ancestry: Ancestry | undefined,
): IntentReading | undefined => {
  const match = VIA_MENU.exec(clause.trim().replace(/[.!。]$/, ""))
  if (match === null) return undefined
  const item = match[1]!.trim()
  const menuWords = contentWords(match[2]!)
  const itemWords = contentWords(item)
  if (menuWords.length === 0 || itemWords.length === 0 || /[">]/.test(item)) return undefined
  const candidates = candidatesOf(elements, ancestry).filter((candidate) => candidate.kind === "press")
  const shown = candidates.some(
    (candidate) => uncovered(itemWords, { ...candidate, around: [] }).length === 0,
  )
  if (shown) return undefined
  const menus = candidates.filter(
    (candidate) =>
      uncovered(menuWords, { ...candidate, around: [] }).length === 0 &&
      candidate.own.every((own) => menuWords.some((word) => sameWord(own, word))),
  )
  if (menus.length !== 1) return undefined
  const menu = nameOf(menus[0]!.element)
    .replace(/\s*[▾▼⌄∨›>]+\s*$/u, "")
    .trim()
  return menu === "" || menu.includes(">") ? undefined : { command: `click ${menu} > ${item}` }
}

/** Values whose kind a field's label names: a time for "Meeting time", a day for "Start date". */
const KINDS: ReadonlyArray<{
  readonly words: RegExp
  /** Where such a value may be said (global); `as` writes it as the field holds it, or refuses it. */
  readonly value: RegExp
  readonly as?: (said: string) => string | undefined
}> = [
  // "at 9:30 am", "下午两点": as a time input holds it (09:30, 14:00).
  { words: /\btime\b|时间/i, value: CLOCK_IN_TEXT, as: clockTime },
  // "on 3 December 2026", "2026年12月5日": as a date input holds it (2026-12-03).
  {
    words: /\bdate\b|\bday\b|日期/i,
    value: DATE_IN_TEXT,
    as: (said) => {
      const day = readCalendarDay(said)
      return day === undefined ? undefined : isoDay(day)
    },
  },
  { words: /\be-?mail\b|邮箱/i, value: /[\w.+-]+@[\w-]+(?:\.[\w-]+)+/g },
]

/**
 * "Meeting at 3:15 pm": a value of the kind the field's label names (a time for "Meeting time"), with
 * the label's other words said. Undefined when the clause holds no such value.
 */
const valueOfKind = (
  clause: string,
  label: string,
): { readonly value: string; readonly said: string } | undefined => {
  for (const kind of KINDS) {
    if (!kind.words.test(label)) continue
    const said = [...clause.matchAll(kind.value)]
      .map((match) => match[0].trim())
      .find((one) => one !== "" && (kind.as === undefined || kind.as(one) !== undefined))
    if (said === undefined) continue
    const others = namingWords(label.replace(kind.words, " "))
    const rest = contentWords(clause.replace(said, " "))
    if (others.length === 0 || !others.every((word) => rest.some((one) => sameWord(one, word)))) continue
    return { value: kind.as?.(said) ?? said, said }
  }
  return undefined
}

/**
 * Reads a clause that has no action word as one action on a control of the page, or refuses.
 *
 * @example
 * ```ts
 * import { readIntent } from "@sextant/planner"
 * readIntent("I want overnight shipping", elements, ancestry) // { command: 'select "Overnight"' }
 * readIntent("Claim the prize", elements, ancestry) // { reason: 'no control on the page is named by "claim", "prize"' }
 * ```
 */
export const readIntent = (
  clause: string,
  elements: ReadonlyArray<PageElement>,
  ancestry?: Ancestry,
): IntentReading => {
  // A statement of facts for the page's form ("postcode 10435, phone 030 1234567"): one fill per fact.
  const statement = readStatement(clause, elements)
  if (statement !== undefined && "command" in statement) return statement
  const whole = readOne(clause, elements, ancestry)
  // Reading the whole clause as one field's value would swallow the facts after the first one.
  if ("command" in whole)
    return statement === undefined || !/[,;、]|\band\b/i.test(clause) ? whole : statement
  // "I'd like music and cooking", "Music, Travel": one control per item, each read on its own, or none.
  const lead = /^(?:i'?d like|i want|i'?ll take|i need|give me|please)\s+/i.exec(clause)?.[0] ?? ""
  const items = clause
    .slice(lead.length)
    .split(/\s*(?:,|、|，|;|\band\b|\bplus\b|和|及|以及)\s*/i)
    .map((item) => item.trim())
    .filter((item) => item !== "")
  if (items.length < 2 || items.length > 6) return statement ?? whole
  // "Travel and Sports shouldn't be ticked": a negated predicate at the end is said of every item;
  // "Music, not Sports" negates only the item it leads.
  const leading = /^(?:but\s+)?(?:not|no|never|stop\s+\w+ing|不要|不|别)\b/i
  const predicate = items.some((item) => NEGATION.test(item) && !leading.test(item))
  const readings = items.map((item) => readOne(item, elements, ancestry, predicate))
  if (!readings.every((reading) => "command" in reading)) return statement ?? whole
  const commands = readings.map((reading) => (reading as { command: string }).command)
  return new Set(commands).size === commands.length
    ? { command: commands.join(", then ") }
    : (statement ?? whole)
}

const readOne = (
  clause: string,
  elements: ReadonlyArray<PageElement>,
  ancestry?: Ancestry,
  negatedAll = false,
): IntentReading => {
  const negated = negatedAll || NEGATION.test(clause)
  const words = contentWords(clause)
  // A field named in the clause with a literal value beside it: fill it (or choose the value in it).
  const fields = elements.filter(
    (element) => FIELD_ROLES.has(element.role) && element.disabled !== true && nameOf(element) !== "",
  )
  const filled = fields.flatMap((field) => {
    const label = nameOf(field)
    const literal = valueFor(clause, label)
    const found = literal === undefined ? valueOfKind(clause, label) : { value: literal, said: literal }
    if (found === undefined || found.value === "") return []
    const value = found.value
    const rest = words.filter(
      (word) =>
        !namingWords(label).some((own) => sameWord(own, word)) &&
        !wordsOf(found.said).some((own) => sameWord(own, word)) &&
        NUMBER_WORDS.get(word) !== Number(value),
    )
    return rest.length === 0 ? [{ field, label, value }] : []
  })
  if (filled.length === 1) {
    const { field, label, value } = filled[0]!
    // "My last name is the one on my card": a description is never typed as the value.
    if (value.startsWith("\u0000")) return { reason: `needs a model to work out "${value.slice(1)}"` }
    const name = quoted(label)
    const text = quoted(value)
    if (name !== undefined && text !== undefined) {
      const options = field.options ?? []
      const option = options.find((one) => normalizeText(one) === normalizeText(value))
      if (option !== undefined) return { command: `select ${quoted(option) ?? text} from ${name}` }
      return { command: `type ${text} into ${name}` }
    }
  }
  if (filled.length > 1)
    return {
      reason: `"${clause}" names more than one field: ${filled.map((one) => `"${one.label}"`).join(", ")}`,
    }
  if (words.length === 0) return { reason: `"${clause}" names nothing on the page` }
  const path = menuPath(clause, elements, ancestry)
  if (path !== undefined) return path
  const stateWords = words.filter((word) => !TICK_WORDS.has(word))
  // "Save my application for later": what the person works on, said as theirs.
  const theirs = new Set(
    [...clause.toLowerCase().matchAll(/\b(?:my|our|this)\s+([a-z]+)/g)]
      .map((match) => match[1]!)
      .filter((word) => WORK_OBJECTS.has(word)),
  )
  const fits = candidatesOf(elements, ancestry).filter((candidate) => {
    const said = candidate.kind === "box" ? stateWords : words
    // Such a word is left aside only for a press whose whole name is said besides it.
    const left =
      candidate.kind === "press" && unsaid(said, candidate).length === 0
        ? uncovered(said, candidate).filter((word) => !theirs.has(word))
        : uncovered(said, candidate)
    if (left.length > 0 || !candidate.own.some((own) => said.some((word) => sameWord(own, word))))
      return false
    // A control that commits something (Submit, Pay, Delete, …) is pressed only when its word is said.
    return !(candidate.kind === "press" && unsaid(said, candidate).some((word) => COMMIT_WORDS.has(word)))
  })
  // The closest fit names the control with the fewest of its own words left unsaid.
  const closeness = (candidate: Candidate) => unsaid(words, candidate).length
  const best = Math.min(...fits.map(closeness))
  const chosen = fits.filter((candidate) => closeness(candidate) === best)
  // An option listed by its list and shown as an option element of it is one choice.
  const distinct = new Map(
    chosen.map((candidate) => [
      candidate.kind === "option" || candidate.kind === "choose"
        ? `choose|${normalizeText(candidate.option ?? nameOf(candidate.element))}`
        : candidate.element.ref,
      candidate,
    ]),
  )
  for (const candidate of chosen) {
    const key = `choose|${normalizeText(candidate.option ?? nameOf(candidate.element))}`
    if (candidate.kind === "option" && distinct.has(key)) distinct.set(key, candidate)
  }
  if (distinct.size === 0) {
    if (!negated) {
      const acted = verbOnItem(clause, elements, ancestry)
      if (acted !== undefined) return acted
    }
    return {
      reason: `no control on the page is named by ${words.map((word) => `"${word}"`).join(", ")}`,
      absent: true,
    }
  }
  if (distinct.size > 1) {
    return {
      reason: `"${clause}" fits more than one control: ${[...distinct.values()]
        .slice(0, 4)
        .map((candidate) => `${candidate.element.role} "${candidate.option ?? nameOf(candidate.element)}"`)
        .join(", ")}`,
    }
  }
  const candidate = [...distinct.values()][0]!
  // "Archive the invoice from Dana": a control named by its own word and the item around it is said
  // as that control within the item, so that the item's control is the one pressed.
  if (
    candidate.kind === "press" &&
    !negated &&
    words.some((word) => !candidate.own.some((own) => sameWord(own, word)))
  ) {
    const acted = verbOnItem(clause, elements, ancestry)
    if (acted !== undefined && "command" in acted) return acted
    const scoped = pressWithin(candidate, words, elements, ancestry)
    if (scoped !== undefined) return scoped
  }
  const name = quoted(candidate.option ?? nameOf(candidate.element))
  if (name === undefined) return { reason: `the control for "${clause}" has a quote in its name` }
  switch (candidate.kind) {
    case "box": {
      // "I don't want to be disturbed" with a switch "Do not disturb": the clause's negation is the
      // switch's own name, so it asks for the switch on. Only words that say "off" besides it
      // ("turn off", "untick", "disable") ask for it off; a second negation beside the name's is
      // ambiguous and refused.
      if (negated && NEGATION.test(nameOf(candidate.element))) {
        const off = /\b(?:off|un-?tick(?:ed)?|un-?check(?:ed)?|disable[d]?)\b|取消|关闭|关掉/i
        const negations = clause.match(new RegExp(NEGATION.source, "gi")) ?? []
        if (off.test(clause) && negations.length <= 2) return { command: `uncheck ${name}` }
        if (negations.length === 1) return { command: `check ${name}` }
        return {
          reason: `"${clause}" negates a control whose own name is negated ("${nameOf(candidate.element)}"); which state it asks for is unclear`,
        }
      }
      return { command: `${negated ? "uncheck" : "check"} ${name}` }
    }
    case "press":
      return negated
        ? { reason: `"${clause}" says what not to press, which needs no action` }
        : { command: `click ${name}` }
    case "choose":
      return negated ? { reason: `"${clause}" says what not to choose` } : { command: `select ${name}` }
    case "option": {
      if (negated) return { reason: `"${clause}" says what not to choose` }
      const list = quoted(nameOf(candidate.element))
      return { command: list === undefined ? `select ${name}` : `select ${name} from ${list}` }
    }
  }
}

/**
 * "Could I get the glass vase in my cart?": a control told from the others of its name ("Add to cart" on
 * every card) by words of the item or section around it is said with that container
 * (`click "Add to cart" in "Glass vase · €29.95"`), so that the grounding presses that one and the part's
 * check holds the press to it: the innermost named container around the control that says some of
 * those words and holds no other control of that name. Undefined when no other control has its name; a
 * reason when no such container tells it apart or its name cannot be said (a quote in it).
 */
const pressWithin = (
  candidate: Candidate,
  words: ReadonlyArray<string>,
  elements: ReadonlyArray<PageElement>,
  ancestry: Ancestry | undefined,
): IntentReading | undefined => {
  const name = normalizeText(nameOf(candidate.element))
  const others = elements.filter(
    (element) =>
      element.ref !== candidate.element.ref &&
      element.disabled !== true &&
      PRESS_ROLES.has(element.role) &&
      normalizeText(nameOf(element)) === name,
  )
  if (others.length === 0) return undefined
  const extra = words.filter((word) => !candidate.own.some((own) => sameWord(own, word)))
  const chain = containersOf(ancestry, candidate.element)
  const container = chain.findLastIndex(
    (ancestor, index) =>
      ancestor.name.trim() !== "" &&
      extra.some((word) => wordsOf(ancestor.name).some((one) => sameWord(one, word))) &&
      !others.some((other) => inside(containersOf(ancestry, other), chain.slice(0, index + 1))),
  )
  if (container < 0)
    return {
      reason: `${others.length + 1} controls are named "${nameOf(candidate.element)}", and no one container around one of them is named by ${extra.map((word) => `"${word}"`).join(", ")}`,
    }
  const control = quoted(nameOf(candidate.element))
  const around = quoted(chain[container]!.name)
  if (control === undefined || around === undefined)
    return {
      reason: `the control "${nameOf(candidate.element)}" or the item around it has a quote in its name`,
    }
  return { command: `click ${control} in ${around}` }
}

/** Chinese verbs said before the thing they act on, as the English names pages give their controls. */
const CHINESE_VERBS: ReadonlyArray<readonly [RegExp, string]> = [
  [/^(?:请|帮我|给我)?(?:把|将)?\s*(?:下载)/u, "download "],
  [/^(?:请|帮我|给我)?(?:把|将)?\s*(?:删掉|删除|删去)/u, "delete "],
  [/^(?:请|帮我|给我)?(?:把|将)?\s*(?:编辑|修改)/u, "edit "],
  [/^(?:请|帮我|给我)?(?:把|将)?\s*(?:归档|存档)/u, "archive "],
  [/^(?:请|帮我|给我)?(?:把|将)?\s*(?:打电话给|致电|呼叫)/u, "call "],
  [/^(?:请|帮我)?给\s*(.+?)\s*打(?:个)?电话\s*$/u, "call $1"],
  [/^(?:请|帮我|给我)?(?:把|将)?\s*(?:打开)/u, "open "],
]

/** Words for what the items of a list are, which a clause may say and an item need not print. */
const KIND_WORDS = new Set([...ITEM_NOUNS, ...MESSAGE_WORDS])

/** What may name an item: the holders, and the cells, links and text-bearing parts inside them. */
const ITEM_ROLES = new Set([...HOLDER_ROLES, "cell", "gridcell", "link", "heading"])

type Chain = ReadonlyArray<{ readonly role: string; readonly name: string }>

interface Item {
  readonly name: string
  /** The item's holder (the row, list item or card it is, or is in) and that holder's ancestors. */
  readonly holder: Chain
}

const chainKey = (chain: Chain): string => chain.map(({ role, name }) => `${role}:${name}`).join("|")

/** Whether a control sits inside the holder: its ancestors start with the holder's chain. */
const inside = (chain: Chain | undefined, holder: Chain): boolean =>
  chain !== undefined &&
  chain.length >= holder.length &&
  holder.every((one, index) => chain[index]!.role === one.role && chain[index]!.name === one.name)

/**
 * "Track order A-10270" where the page has a "Track" button beside one text field ("Order number", under
 * "Track an order"): the value said (quoted, or the one word with a digit or an e-mail) is typed into that
 * field and the button pressed, as a person uses a small form named by its button. The field shares every
 * container and section of the button; every other word of the clause must name the field or its section
 * ("order"), so nothing is dropped. Undefined when the clause does not read so.
 */
const formOfControl = (
  clause: string,
  thing: ReadonlyArray<string>,
  named: ReadonlyArray<Candidate>,
  elements: ReadonlyArray<PageElement>,
  ancestry: Ancestry | undefined,
): IntentReading | undefined => {
  const quotedValue = /"([^"]+)"|“([^”]+)”/u.exec(clause)
  const literals = clause
    .split(/\s+/)
    .map((word) => word.replace(/[.,;:!?。，；！？]+$/u, ""))
    .filter((word) => /\d/.test(word) || /^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(word))
  const value =
    quotedValue !== null
      ? (quotedValue[1] ?? quotedValue[2])
      : literals.length === 1
        ? literals[0]
        : undefined
  if (value === undefined || ancestry === undefined) return undefined
  const sectionOf = (element: PageElement) => ancestry.get(element.ref) ?? []
  const beside = named.flatMap((candidate) => {
    const around = sectionOf(candidate.element)
    if (around.length === 0) return []
    const fields = elements.filter(
      (element) =>
        (element.role === "textbox" || element.role === "searchbox") &&
        element.disabled !== true &&
        element.attributes.type !== "password" &&
        chainKey(sectionOf(element)) === chainKey(around),
    )
    return fields.length === 1 ? [{ control: candidate.element, field: fields[0]!, around }] : []
  })
  if (beside.length !== 1) return undefined
  const { control, field, around } = beside[0]!
  const valueWords = new Set(wordsOf(value))
  const naming = [...wordsOf(nameOf(field)), ...around.flatMap((container) => wordsOf(container.name))]
  const rest = thing.filter((word) => !valueWords.has(word) && !KIND_WORDS.has(word))
  if (!rest.every((word) => naming.some((one) => sameWord(one, word)))) return undefined
  const [typed, into, press] = [quoted(value), quoted(nameOf(field)), quoted(nameOf(control))]
  if (typed === undefined || into === undefined || press === undefined) return undefined
  return { command: `type ${typed} into ${into}, then click ${press}` }
}

/**
 * "Download the lease contract", "Delete beach.jpg", "Call Tom Okafor", 下载 2025 年的发票: the clause's
 * leading words are the whole name of a control the page shows (Download, Delete, Call), and all its
 * other words name one item of a list, table, tree or set of cards. The control inside that item is
 * pressed (`click "Call" in "Tom Okafor"`); when the item holds none, the item is selected (its box
 * ticked, or the item clicked) and the one such control outside every item — a toolbar acting on the
 * selection — is pressed. Undefined when the clause does not read so; a reason when more than one
 * item or control fits.
 */
export const verbOnItem = (
  clause: string,
  elements: ReadonlyArray<PageElement>,
  ancestry: Ancestry | undefined,
): IntentReading | undefined => {
  let glossed = clause.trim()
  for (const [pattern, english] of CHINESE_VERBS) glossed = glossed.replace(pattern, english)
  const readings = [...new Set([clause.trim(), glossed])].map((text) => contentWords(text))
  const presses = candidatesOf(elements, ancestry).filter((candidate) => candidate.kind === "press")
  const chainOf = (element: PageElement): Chain => containersOf(ancestry, element)
  // Every named item of the page: item elements, and the item containers around elements.
  const items = new Map<string, Item>()
  const holderOf = (chain: Chain): Chain => {
    for (let index = chain.length - 1; index >= 0; index -= 1)
      if (HOLDER_ROLES.has(chain[index]!.role)) return chain.slice(0, index + 1)
    return chain
  }
  const addItem = (role: string, name: string, around: Chain) => {
    if (!ITEM_ROLES.has(role) || name.trim() === "") return
    const own = [...around, { role, name }]
    const holder = HOLDER_ROLES.has(role) ? own : holderOf(own)
    items.set(chainKey(own), { name, holder })
  }
  for (const element of elements) {
    const chain = chainOf(element)
    addItem(element.role, nameOf(element), chain)
    for (const [index, container] of chain.entries())
      addItem(container.role, container.name, chain.slice(0, index))
  }
  // "Archive the deploy notification" where Archive shows only in the opened message's pane.
  let opening: IntentReading | undefined
  for (const words of readings) {
    for (let split = 1; split < words.length && split <= 3; split += 1) {
      const verb = words.slice(0, split)
      const thing = words.slice(split)
      // The control's whole name is said: its own words, or the English a Chinese name (删除) stands for.
      const named = presses.filter((candidate) =>
        [candidate.own, ...(GLOSSARY.get(nameOf(candidate.element).trim()) ?? []).map(namingWords)].some(
          (own) =>
            own.every((one) => verb.some((word) => sameWord(one, word))) &&
            verb.every((word) => own.some((one) => sameWord(one, word))),
        ),
      )
      const form = named.length === 0 ? undefined : formOfControl(clause, thing, named, elements, ancestry)
      if (form !== undefined) return form
      // "the message from Ana", "the order 1043": a word for what the items are need not be printed in one.
      const naming = thing.filter((word) => !KIND_WORDS.has(word))
      if (named.length === 0) {
        if (split === 1 && opening === undefined && ITEM_ACTIONS.has(verb[0]!))
          opening = openThenPress(verb[0]!, naming, presses, ancestry)
        continue
      }
      const matching = [...items.values()].filter((item) => {
        const own = wordsOf(item.name)
        return (
          naming.length > 0 &&
          naming.every((word) => own.some((one) => sameWord(one, word))) &&
          !named.some((candidate) => normalizeText(nameOf(candidate.element)) === normalizeText(item.name))
        )
      })
      // The items holding a control the verb names are the ones it acts on ("Call Tom Okafor": his row,
      // not a message from him); with none, every item named (a toolbar acting on the selection).
      const holding = matching.filter((item) =>
        named.some((candidate) => inside(chainOf(candidate.element), item.holder)),
      )
      const fits = holding.length > 0 ? holding : matching
      if (fits.length === 0) continue
      // A row named by its cells and the cell itself are one item: the holder says which.
      const holders = new Map(fits.map((item) => [chainKey(item.holder), item]))
      const said = `"${verb.join(" ")}" on "${thing.join(" ")}"`
      if (holders.size > 1)
        return {
          reason: `${said} fits more than one item: ${[...holders.values()]
            .slice(0, 4)
            .map((item) => `"${item.name}"`)
            .join(", ")}`,
        }
      const item = [...holders.values()][0]!
      // The item said by the shortest name that covers the words: a cell over its whole row.
      const shortest = fits.reduce((one, other) => (other.name.length < one.name.length ? other : one))
      const itemName = quoted(shortest.name)
      const within = named.filter((candidate) => inside(chainOf(candidate.element), item.holder))
      const outside = named.filter(
        (candidate) => !HOLDER_ROLES.has(holderOf(chainOf(candidate.element)).at(-1)?.role ?? ""),
      )
      const control = (within.length > 0 ? within : outside)[0]
      const controlName = control === undefined ? undefined : quoted(nameOf(control.element))
      if (itemName === undefined || (control !== undefined && controlName === undefined))
        return { reason: `the item or control for ${said} has a quote in its name` }
      if (within.length > 1 || (within.length === 0 && outside.length > 1))
        return { reason: `${said} fits more than one control named "${verb.join(" ")}"` }
      if (within.length === 1) return { command: `click ${controlName} in ${itemName}` }
      if (outside.length === 0)
        return { reason: `${said}: no control named "${verb.join(" ")}" acts on "${shortest.name}"` }
      // A toolbar control acts on the selection: select the item (tick its box, or click it) first.
      const boxes = elements.filter(
        (element) =>
          BOX_ROLES.has(element.role) && element.disabled !== true && inside(chainOf(element), item.holder),
      )
      const box = boxes.length === 1 ? quoted(nameOf(boxes[0]!)) : undefined
      const select = box !== undefined && nameOf(boxes[0]!) !== "" ? `check ${box}` : `click ${itemName}`
      return { command: `${select}, then click ${controlName}` }
    }
  }
  return opening
}

/**
 * "Archive the deploy notification" on a list whose Archive shows only once a message is opened: the
 * one pressable item (a message, a row) named by all the other words is opened, then the control the
 * verb names is pressed on the page that opens (`click "Dev team Deploy finished", then click
 * "Archive"`). Only when no control of the page is named by the verb; the press is grounded on the
 * opened page, so a control that does not appear leaves the part not done. Undefined when the words
 * name no one such item; a reason when they name more than one.
 */
const openThenPress = (
  verb: string,
  naming: ReadonlyArray<string>,
  presses: ReadonlyArray<Candidate>,
  ancestry: Ancestry | undefined,
): IntentReading | undefined => {
  if (naming.length === 0) return undefined
  // An item is opened by pressing it: a message or a row that is a control of its own, inside a list.
  const items = presses.filter(
    (candidate) =>
      (candidate.element.role === "clickable" || candidate.element.role === "link") &&
      containersOf(ancestry, candidate.element).some(
        (container) => container.role === "list" || HOLDER_ROLES.has(container.role),
      ) &&
      naming.every((word) => candidate.own.some((own) => sameWord(own, word))),
  )
  if (items.length === 0) return undefined
  if (items.length > 1)
    return {
      reason: `"${verb} ${naming.join(" ")}" fits more than one item: ${items
        .slice(0, 4)
        .map((item) => `"${nameOf(item.element)}"`)
        .join(", ")}`,
    }
  const item = quoted(nameOf(items[0]!.element))
  if (item === undefined)
    return { reason: `the item for "${verb} ${naming.join(" ")}" has a quote in its name` }
  return { command: `click ${item}, then click "${verb[0]!.toUpperCase()}${verb.slice(1)}"` }
}

/** "…, please fill it in", "— select it": a closing clause that only restates the clause before it. */
const RESTATED =
  /^\s*[,，;；—–-]?\s*(?:and\s+|then\s+)?(?:please\s+)?(?:fill|enter|type|select|choose|set|tick|check|do|pick|put)\s+(?:it|that|this)(?:\s+in)?\s*(?:please)?\s*[.!。！]?\s*$/i

/**
 * A goal whose clauses without an action word are read on the page (see {@link readIntent}), as the
 * goal the grammar then reads, with the commands the page decided; or why a clause could not be read;
 * or undefined when the grammar needs no page for it (it reads the goal, or refuses it for another
 * reason).
 *
 * @example
 * ```ts
 * import { readGoalOnPage } from "@sextant/planner"
 * readGoalOnPage("Print the page", elements, ancestry) // { goal: 'click "Print"', commands: ['click "Print"'] }
 * ```
 */
export const readGoalOnPage = (
  goal: string,
  elements: ReadonlyArray<PageElement>,
  ancestry: Ancestry | undefined,
  parse: (
    text: string,
  ) =>
    | { readonly ok: true; readonly verbless?: true }
    | { readonly ok: false; readonly reason: string; readonly noActionIn?: string },
):
  | { readonly goal: string; readonly commands: ReadonlyArray<string> }
  | { readonly reason: string; readonly absent?: true }
  | undefined => {
  let current = goal
  const commands: Array<string> = []
  // One clause per round: each reading lets the grammar go on to the next clause.
  for (let round = 0; round < 8; round += 1) {
    const parsed = parse(current)
    // "Call Tom Okafor" reads as a field and its value only where no control of an item says it.
    const acted =
      round === 0 && parsed.ok && parsed.verbless ? verbOnItem(goal, elements, ancestry) : undefined
    if (acted !== undefined)
      return "command" in acted ? { goal: acted.command, commands: [acted.command] } : acted
    if (parsed.ok) return round === 0 ? undefined : { goal: current, commands }
    const clause = parsed.noActionIn
    if (clause === undefined) return round === 0 ? undefined : { reason: parsed.reason }
    const at = current.indexOf(clause)
    const normalized = at < 0 ? current.normalize("NFKC") : current
    const position = normalized.indexOf(clause)
    if (position < 0) return { reason: parsed.reason }
    const reading = readIntent(clause, elements, ancestry)
    if ("reason" in reading)
      return {
        reason: `${parsed.reason}; read on the page, ${reading.reason}`,
        ...(reading.absent === true && { absent: true as const }),
      }
    commands.push(reading.command)
    const rest = normalized.slice(position + clause.length)
    current = `${normalized.slice(0, position)}${reading.command}${RESTATED.test(rest) ? "" : rest}`
  }
  return { reason: `"${goal}" has too many clauses without an action word to read on the page` }
}

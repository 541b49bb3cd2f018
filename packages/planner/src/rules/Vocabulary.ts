import type { RoleHint } from "./Command.ts"
import { en } from "./lang/en.ts"
import type { Lexicon, Messages, Quantity, Verb } from "./lang/Lexicon.ts"
import { zh } from "./lang/zh.ts"

/**
 * The grammar's word tables, built from the language data (`lang/en.ts`, `lang/zh.ts`). A command may
 * mix both languages, so the grammar reads the union; the messages follow the instruction's language.
 */

export const LANGUAGES: ReadonlyArray<Lexicon> = [en, zh]
const all = <T>(pick: (lexicon: Lexicon) => ReadonlyArray<T>): ReadonlyArray<T> => LANGUAGES.flatMap(pick)
const table = <T>(pick: (lexicon: Lexicon) => Readonly<Record<string, T>>): ReadonlyMap<string, T> =>
  new Map(LANGUAGES.flatMap((lexicon) => Object.entries(pick(lexicon))))
const HAN = /\p{Script=Han}/u

/** English verb phrases as words, longest first so "log in" wins over "log". */
export const ENGLISH_VERBS: ReadonlyArray<readonly [ReadonlyArray<string>, Verb]> = Object.entries(en.verbs)
  .flatMap(([verb, phrases]) => phrases.map((phrase) => [phrase.split(" "), verb as Verb] as const))
  .toSorted((left, right) => right[0].length - left[0].length)
/** Chinese verbs: each one word of the tokenizer's lexicon. */
export const CHINESE_VERBS: ReadonlyMap<string, Verb> = new Map(
  Object.entries(zh.verbs).flatMap(([verb, words]) => words.map((word) => [word, verb as Verb] as const)),
)
/** Verbs that name no control of their own → the control they press ("use" → "apply"). */
export const VERB_CONTROLS: ReadonlyMap<string, string> = table((lexicon) => lexicon.verbControls ?? {})
export const GENERIC_CLICK_VERBS: ReadonlySet<string> = new Set(all((lexicon) => lexicon.genericClickVerbs))
export const ALWAYS_SEPARATES: ReadonlySet<string> = new Set(all((lexicon) => lexicon.separators.always))
export const SEPARATES_BEFORE_VERB: ReadonlySet<string> = new Set(
  all((lexicon) => lexicon.separators.beforeVerb),
)
/** A control's name said as the last step ("and save"): a clause of its own, the press of that control. */
export const CLOSING_PRESSES: ReadonlySet<string> = new Set(all((lexicon) => lexicon.separators.closing))
export const FILLERS: ReadonlySet<string> = new Set(all((lexicon) => lexicon.fillers))
/** Thanks said between sentences, as the tokenizer's values spell them ("thank you", "谢谢"). */
export const COURTESIES: ReadonlySet<string> = new Set(all((lexicon) => lexicon.courtesies))
/** Words right after a verb that only soften it ("一下" in "搜一下台灯"). */
export const SOFTENERS: ReadonlySet<string> = new Set(all((lexicon) => lexicon.softeners))
/** Nouns that say what a value is ("number" in "my phone number 030 …"). */
export const VALUE_NOUNS: ReadonlySet<string> = new Set(all((lexicon) => lexicon.valueNouns))
export const DESCRIBERS: ReadonlyArray<string> = all((lexicon) => lexicon.describers)
export const INDEFINITES: ReadonlySet<string> = new Set(all((lexicon) => lexicon.indefinites))
export const LITERAL_NOUNS: ReadonlySet<string> = new Set(all((lexicon) => lexicon.literalNouns))
/** Words said to the agent at a clause's end, each as its words ("for me" → ["for", "me"]). */
export const ASIDES: ReadonlyArray<ReadonlyArray<string>> = all((lexicon) => lexicon.asides).map((aside) =>
  aside.split(" "),
)
/** Whom a submit verb sends something to ("me" in "send me emails"): then it is no submit. */
export const RECIPIENTS: ReadonlySet<string> = new Set(all((lexicon) => lexicon.recipients))
export const SOFT_FILLERS: ReadonlySet<string> = new Set(all((lexicon) => lexicon.softFillers))
export const ORDINAL_WORDS: ReadonlyMap<string, number> = new Map(Object.entries(en.ordinals))
export const ENGLISH_NUMBERS: ReadonlyMap<string, number> = new Map(Object.entries(en.numbers))
export const CHINESE_NUMERALS: ReadonlyMap<string, number> = new Map(Object.entries(zh.numbers))
/** Role nouns as words, longest first. */
export const ROLE_NOUNS: ReadonlyArray<readonly [ReadonlyArray<string>, RoleHint]> = LANGUAGES.flatMap(
  (lexicon) =>
    Object.entries(lexicon.roles).flatMap(([role, nouns]) =>
      nouns.map((noun) => [noun.split(" "), role as RoleHint] as const),
    ),
).toSorted((left, right) => right[0].length - left[0].length)
export const KEYS: ReadonlyMap<string, string> = table((lexicon) => lexicon.keys)
export const CHORD: ReadonlyMap<string, string> = table((lexicon) => lexicon.chord)
export const ARTICLES: ReadonlySet<string> = new Set(all((lexicon) => lexicon.articles))
export const PAIR_WORDS: ReadonlyArray<string> = all((lexicon) => lexicon.pairWords)
export const NAME_MARKERS: ReadonlyArray<string> = all((lexicon) => lexicon.nameMarkers)
export const CONTAINER_AFTER: ReadonlyArray<string> = all((lexicon) => lexicon.containerWords.after)
export const CONTAINER_BARE: ReadonlyArray<string> = all((lexicon) => lexicon.containerWords.bare)
export const CONTAINER_BEFORE: ReadonlyArray<string> = all((lexicon) => lexicon.containerWords.before)
export const LOCATE_VERBS: ReadonlyArray<string> = all((lexicon) => lexicon.locate.verbs)
export const LOCATE_ASKING: ReadonlySet<string> = new Set(all((lexicon) => lexicon.locate.asking))
export const COUNTERS: ReadonlyArray<string> = all((lexicon) => lexicon.counters)
/** The words that join a field's words to its value in a statement ("My email is …", 邮编是 …). */
export const STATEMENT_LINKS: ReadonlyArray<string> = all((lexicon) => lexicon.statements.links)
/** Words before a count that name no field (一共, 住), longest first. */
export const STATEMENT_BEFORE_COUNT: ReadonlyArray<string> = all(
  (lexicon) => lexicon.statements.beforeCount,
).toSorted((left, right) => right.length - left.length)
/** Counters that name what they count (晚 → nights). */
export const STATEMENT_COUNTED_BY: ReadonlyMap<string, string> = table(
  (lexicon) => lexicon.statements.countedBy,
)
/** Links that name the field they fill when no field's words come before them (叫 → name). */
export const STATEMENT_NAMING_LINKS: ReadonlyMap<string, string> = table(
  (lexicon) => lexicon.statements.namingLinks,
)
/** Words that make the words after a field's words a sentence, not its value. */
export const STATEMENT_NOT_VALUE: ReadonlySet<string> = new Set(all((lexicon) => lexicon.statements.notValue))
/** The field words a value of each kind goes by when a statement names no field (an address: Email). */
/** Words naming a field that holds one part of a longer value (en and zh data, `statements.partFields`). */
export const STATEMENT_PART_FIELDS: ReadonlyArray<string> = all((lexicon) => lexicon.statements.partFields)
/** Words saying a count of nothing ("no pets" → 0), and words joining two counts in one fact ("5 guests in 2 rooms"). */
export const STATEMENT_NONE: ReadonlySet<string> = new Set(all((lexicon) => lexicon.statements.none))
export const STATEMENT_COUNT_JOINS: ReadonlyArray<string> = all((lexicon) => lexicon.statements.countJoins)
export const STATEMENT_KINDS = (kind: keyof Lexicon["statements"]["kinds"]): ReadonlyArray<string> =>
  all((lexicon) => lexicon.statements.kinds[kind])
/** The words of a time of day, of every language (see `Lexicon.clock`). */
export const CLOCK = {
  am: all((lexicon) => lexicon.clock.am),
  pm: all((lexicon) => lexicon.clock.pm),
  hour: all((lexicon) => lexicon.clock.hour),
  minute: all((lexicon) => lexicon.clock.minute),
  half: all((lexicon) => lexicon.clock.half),
} as const
/** Each word of the words of a time of day ("p.m." → "p", "m"; "in the morning" → "morning"). */
export const CLOCK_WORDS: ReadonlySet<string> = new Set(
  Object.values(CLOCK)
    .flatMap((words) => words.flatMap((word) => word.toLowerCase().split(/[^\p{L}\p{N}]+/u)))
    .filter((word) => word !== ""),
)
export const STATE_LINKS: ReadonlyArray<string> = all((lexicon) => lexicon.stateLinks)
export const STATE_NEGATIONS: ReadonlyArray<string> = all((lexicon) => lexicon.stateNegations)
/** Names of parts of a page: English as whole words, Chinese anywhere. */
export const PLACE_WORDS = new RegExp(`\\b(?:${en.placeWords.join("|")})\\b|${zh.placeWords.join("|")}`, "i")
export const DIRECTIONS: ReadonlyMap<string, "right" | "left" | "up" | "down"> = table(
  (lexicon) => lexicon.directions,
)
export const AGAIN: ReadonlyArray<string> = all((lexicon) => lexicon.again)
export const CHINESE_NEGATIONS: ReadonlyArray<string> = zh.negations
export const CHECKED_WORDS: ReadonlyArray<string> = all((lexicon) => lexicon.checked)
export const UNCHECKED_WORDS: ReadonlyArray<string> = all((lexicon) => lexicon.unchecked)
export const SCROLL_WORDS: ReadonlySet<string> = new Set(all((lexicon) => lexicon.scrollWords))
export const SEARCH_SCOPE_WORDS: ReadonlyArray<string> = all((lexicon) => lexicon.searchScope)
export const FUNCTION_WORDS: ReadonlySet<string> = new Set(all((lexicon) => lexicon.functionWords))
/** Words that type a value into the field named just before them, and are no verb elsewhere (写). */
export const FIELD_LINKS: ReadonlySet<string> = new Set(all((lexicon) => lexicon.fieldLinks))
/** The words of the sentences that open a message of a mail list besides its target: never a name. */
export const MESSAGE_WORDS: ReadonlyArray<string> = all((lexicon) => lexicon.messageWords)
/** Verbs of controls that act on an opened item ("archive", "reply"). */
export const ITEM_ACTIONS: ReadonlySet<string> = new Set(all((lexicon) => lexicon.itemActions))
/** Words that name nothing alone: a target of only these is no control's name. */
export const NO_NAME_WORDS: ReadonlySet<string> = new Set(all((lexicon) => lexicon.noNameWords))
export const READ_WORDS: ReadonlySet<string> = new Set(all((lexicon) => lexicon.readWords))
/** What a person is working on, said as theirs ("my application"): no control's word. */
export const WORK_OBJECTS: ReadonlySet<string> = new Set(all((lexicon) => lexicon.workObjects))
export const USER_WORDS: ReadonlyArray<string> = all((lexicon) => lexicon.userWords)
export const PASSWORD_WORDS: ReadonlyArray<string> = all((lexicon) => lexicon.passwordWords)

/** Page words for grounding: the pager, submit, search, close and commit controls. */
export const NEXT_WORDS: ReadonlyArray<string> = all((lexicon) => lexicon.pager.next)
export const PREVIOUS_WORDS: ReadonlyArray<string> = all((lexicon) => lexicon.pager.previous)
export const SUBMIT_WORDS: ReadonlyArray<string> = all((lexicon) => lexicon.submitWords)
export const SEARCH_WORDS: ReadonlyArray<string> = all((lexicon) => lexicon.searchWords)
export const CLOSE_WORDS: ReadonlyArray<string> = all((lexicon) => lexicon.closeWords)
/** The button of a form in steps that goes on to its next step (Next, 下一步). */
export const STEP_ON_WORDS: ReadonlyArray<string> = all((lexicon) => lexicon.stepOnWords)
const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")

/** "twice" → 2, and the words after a number that make it a count of times ("times", "次"). */
export const REPEAT_WORDS: ReadonlyMap<string, number> = new Map(
  LANGUAGES.flatMap((lexicon) => Object.entries(lexicon.repeats.words)),
)
const TIMES = all((lexicon) => lexicon.repeats.times)
/** A target that ends in how many times it is acted on: the target, the count's word or number. */
export const REPEATED = new RegExp(
  `^(.*?\\S)\\s*(?:(?<![\\p{L}\\p{N}])(${[...REPEAT_WORDS.keys()].map(escapeRegExp).join("|")})|(?<![\\p{L}\\p{N}])(\\d+|${[...Object.keys(en.numbers)].join("|")}|[零一二两三四五六七八九十]+)\\s*(?:${TIMES.map(escapeRegExp).join("|")}))$`,
  "iu",
)
/** A relative clause inside a phrase, after at least one word ("product that costs $12"): from its word on. */
export const RELATIVE = new RegExp(
  `(?<=\\S\\s+)(?:${all((lexicon) => lexicon.relatives)
    .map(escapeRegExp)
    .join("|")})(?![\\p{L}\\p{N}])\\s+\\S.*$`,
  "iu",
)
/** A target of several controls, or all but some ("every box except Email", "everything"). */
export const QUANTIFIED_TARGET = {
  all: all((lexicon) => lexicon.quantified.all),
  everything: all((lexicon) => lexicon.quantified.everything),
  except: new RegExp(
    `(?:(?<![\\p{L}\\p{N}])(?:${en.quantified.except.map((word) => escapeRegExp(word).replace(/ /g, "\\s+")).join("|")})(?![\\p{L}\\p{N}])|${zh.quantified.except.map(escapeRegExp).join("|")})`,
    "iu",
  ),
} as const

/** A condition said in an instruction: its first word (English as a whole word), to the end of its clause. */
export const CONDITION = new RegExp(
  `(?:(?<![\\p{L}\\p{N}])(?:${en.conditions.map((word) => escapeRegExp(word).replace(/ /g, "\\s+")).join("|")})(?![\\p{L}\\p{N}])|${zh.conditions.map(escapeRegExp).join("|")})`,
  "iu",
)
const alternatives = (words: ReadonlyArray<string>): string =>
  words.map((word) => escapeRegExp(word).replace(/ /g, "\\s*")).join("|")
/** A control that commits something by its name (Submit, Buy now, Place order, 提交 …). */
export const COMMIT_WORDS = new RegExp(
  `\\b(?:${alternatives(en.commitWords)})\\b|${alternatives(zh.commitWords)}`,
  "iu",
)
export const GLOSSARY: ReadonlyMap<string, ReadonlyArray<string>> = table((lexicon) => lexicon.glossary)

/** Picking an item of a list (`item` slots, grounding's list reading): the data of `items` in every language. */
const longestFirst = (words: Iterable<string>): ReadonlyArray<string> =>
  [...new Set(words)].toSorted((left, right) => right.length - left.length)
export const QUANTITIES: ReadonlyMap<string, Quantity> = table((lexicon) => lexicon.items.quantities)
export const QUANTITY_PHRASES: ReadonlyArray<string> = longestFirst(QUANTITIES.keys())
export const FROM_END: ReadonlyArray<string> = longestFirst(all((lexicon) => lexicon.items.fromEnd))
export const ITEM_NOUNS: ReadonlyArray<string> = longestFirst(all((lexicon) => lexicon.items.nouns))
export const ITEM_TAILS: ReadonlyArray<string> = longestFirst(all((lexicon) => lexicon.items.tails))
export const OF_THE_DAY: ReadonlyArray<string> = longestFirst(all((lexicon) => lexicon.items.ofTheDay))
export const ITEM_CONTROLS: { readonly choose: ReadonlyArray<string>; readonly cart: ReadonlyArray<string> } =
  {
    choose: longestFirst(all((lexicon) => lexicon.items.controls.choose)),
    cart: longestFirst(all((lexicon) => lexicon.items.controls.cart)),
  }
/** Verbs read only with an item of a list ("book", "add"): a clause of them that names none reads as one with no action word. */
export const ITEM_VERBS: ReadonlySet<Verb> = new Set<Verb>(["book", "add"])

/** Rankings and work that need a model (Reading). */
export const RANKINGS: ReadonlyArray<string> = en.rankings
export const CHINESE_RANKING = new RegExp(alternatives(zh.rankings), "u")
export const CHINESE_WORK = new RegExp(`(${alternatives(zh.work)})`, "u")
export const JUDGEMENT = new RegExp(
  `\\b(${en.work.map((word) => escapeRegExp(word).replace(/ /g, "\\s+")).join("|")})\\b`,
  "i",
)
export const CHINESE_REFERENCE = new RegExp(`(${alternatives(zh.references)})`, "u")

const kindNouns = (lexicon: Lexicon): string =>
  lexicon.valueKinds.nouns
    .toSorted((left, right) => right.length - left.length)
    .map((noun) => escapeRegExp(noun).replace(/ /g, "\\s+"))
    .join("|")
/**
 * A value that describes its kind instead of being it (Reading): "Maria Keller's email address",
 * "the customer's ID", "the phone number of Tom", "李娜的邮箱", "那个订单的单号".
 */
export const OWNED_VALUE: ReadonlyArray<RegExp> = [
  new RegExp(`(${alternatives(en.valueKinds.owners)})\\s+(\\S+\\s+)?(${kindNouns(en)})$`, "i"),
  new RegExp(`(${alternatives(zh.valueKinds.owners)})\\s*(${kindNouns(zh)})$`, "u"),
]
/** Every kind noun of the data, lower case ("email address", "单号"). */
export const KIND_NOUNS: ReadonlyArray<string> = all((lexicon) => lexicon.valueKinds.nouns).map((noun) =>
  noun.toLowerCase(),
)
/** "… and the city Paris", "… and the text See you": another labelled value run on into a field or a value. */
export const TYPED_RUN_ON = new RegExp(
  `\\s(?:and|or)\\s+(?:the|a|an|my|your)\\s+(?:${[...LITERAL_NOUNS, ...KIND_NOUNS, "city", "recipient", "street", "country"].map(escapeRegExp).join("|")})\\b.*$`,
  "i",
)
/** The markers that make an owner, per language ("'s", "的"). */
export const VALUE_OWNERS = { en: en.valueKinds.owners, zh: zh.valueKinds.owners } as const
/** Nouns that only say "the value" ("the value of Phone", "Phone 的值"), longest first. */
export const VALUE_WORDS: ReadonlyArray<string> = all((lexicon) => lexicon.valueKinds.values).toSorted(
  (left, right) => right.length - left.length,
)
/** Where a value is, said around it ("from the table", "表格里"), longest first. */
export const VALUE_PLACES: ReadonlyArray<string> = all((lexicon) => lexicon.valueKinds.places).toSorted(
  (left, right) => right.length - left.length,
)
/** Words of an owner that name no row ("the", "contact", "那个"), longest first. */
export const OWNER_FILLERS: ReadonlyArray<string> = all(
  (lexicon) => lexicon.valueKinds.ownerFillers,
).toSorted((left, right) => right.length - left.length)
/** Words that make an owner more than one row ("all", "two", "所有"). */
export const SEVERAL_WORDS: ReadonlyArray<string> = all((lexicon) => lexicon.valueKinds.several)
/** The headers a kind of value goes by, beside the glossary's words ("order number" → Order). */
export const KIND_HEADERS: ReadonlyMap<string, ReadonlyArray<string>> = table(
  (lexicon) => lexicon.valueKinds.headers,
)

export const DESCRIBED_VALUE: ReadonlyArray<RegExp> = [
  ...OWNED_VALUE,
  new RegExp(`^(the\\s+|a\\s+|an\\s+)?(${kindNouns(en)})\\s+of\\s+\\S`, "i"),
]

/**
 * The tokenizer's Chinese lexicon, longest first: every Chinese verb, connective, role noun, state,
 * ordinal and particle of the data. A verb can never be missing from it.
 */
export const CHINESE_LEXICON: ReadonlyArray<string> = [
  ...new Set(
    [
      ...CHINESE_VERBS.keys(),
      ...zh.separators.always,
      ...zh.separators.beforeVerb,
      ...Object.values(zh.roles).flat(),
      ...zh.checked,
      ...zh.unchecked,
      ...zh.particles,
      ...zh.containerWords.before,
      ...zh.courtesies,
      ...zh.fieldLinks,
    ].filter((word) => HAN.test(word)),
  ),
].toSorted((left, right) => right.length - left.length)

/** The messages of the instruction's language: Chinese when it starts with Chinese. */
export const messagesFor = (text: string): Messages => {
  const first = /[\p{L}\p{N}]/u.exec(text.replace(/["“「『'‘][^"”」』'’]*["”」』'’]/gu, " "))?.[0]
  return first !== undefined && HAN.test(first) ? zh.messages : en.messages
}

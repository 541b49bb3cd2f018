import {
  type BrowserDriverShape,
  type DriverError,
  describeGoalCheck,
  type GoalCheck,
  type GoalPart,
  isoDay,
  type PageElement,
  readCalendarDay,
  SignInUnfinished,
  type UnmetPart,
} from "@sextant/core"
import { type GoalFactsRequest, pageCall } from "@sextant/perception"
import {
  canTake,
  elementsFromOutline,
  glossaryReadsWhole,
  ITEM_NOUNS,
  itemsInOutline,
  MESSAGE_WORDS,
  NO_NAME_WORDS,
  optionScore,
  placeInOutline,
  resolvePick,
  STEPPER,
  signsDisagree,
  textScore,
} from "@sextant/planner"
import type { Effect } from "effect"
import { actOutcome } from "./internal/ActOutcome.ts"

/** What the page showed after a part's steps (or at the end of the run), read in one page call. */
export interface PageFacts {
  readonly url: string
  readonly title: string
  /** The first shown `h1` (else `h2`) text. */
  readonly heading: string
  readonly passwordVisible: boolean
  /** Visible error messages: `role=alert`, `aria-live=assertive` and error-named elements with text. */
  readonly errors: ReadonlyArray<string>
  /** The page says there are no results ("No results for …", "nothing found"). */
  readonly noResults: boolean
  /** A usable Next control is on the page. */
  readonly hasNext: boolean
  /** What the page's search fields hold (search inputs, search boxes, fields of a search form). */
  readonly searchValues?: ReadonlyArray<string> | undefined
  /** A dialog is shown: an open `dialog`, a visible `role=dialog` / `alertdialog`, or an `aria-modal` element. */
  readonly dialogShown?: boolean | undefined
  /**
   * What the page shows that says a sign-in is not over (a field for a one-time code, a sentence saying
   * the account is locked), or `""` / `undefined` when nothing does.
   */
  readonly signInUnfinished?: string | undefined
  /** The HTTP status the top document was answered with; 0 or undefined when the browser does not say. */
  readonly responseStatus?: number | undefined
  readonly texts: Readonly<Record<string, boolean>>
  readonly counts: Readonly<Record<string, number>>
}

/** What the checks need to know about the page, besides the fixed facts (perception's `goalFacts` request). */
export type FactsRequest = GoalFactsRequest

/** The texts and selectors the checks of `parts` need read from the page. */
export const factsRequestFor = (parts: ReadonlyArray<GoalPart>): FactsRequest => ({
  texts: parts.flatMap((part) =>
    part.check.type === "textPresent"
      ? [part.check.text]
      : part.check.type === "searched"
        ? [part.check.query]
        : [],
  ),
  selectors: parts.flatMap((part) => (part.check.type === "elementExists" ? [part.check.selector] : [])),
})

/** Reads the page facts in one page call (perception's `goalFacts`). */
export const readFacts = (
  driver: BrowserDriverShape,
  request: FactsRequest,
): Effect.Effect<PageFacts, DriverError> => pageCall(driver, "goalFacts", request)

/** One step as the part checks see it. */
export interface PartStep {
  readonly part: number | undefined
  /** The step's index in the plan, or the turn's in a step-wise run. */
  readonly step?: number | undefined
  readonly tool: string
  readonly ok: boolean
  readonly message?: string | undefined
  readonly data: unknown
  readonly signals: ReadonlyArray<string>
  readonly urlBefore: string
  readonly urlAfter: string
  /** The page after the step, when it was read. */
  readonly facts?: PageFacts | undefined
  /** The page's interactive elements after the step, read when the part checks a control's state or a field's value. */
  readonly elements?: ReadonlyArray<PageElement> | undefined
  /** The element the step acted on (its `target`: a ref from look() or a selector). */
  readonly acted?: string | undefined
  /** The text the step typed or selected (its `value` or `text` argument), when it names one. */
  readonly value?: string | undefined
  /** Why the step failed (its error's reason tag, e.g. `ValueNotTaken`), when it did. */
  readonly failure?: string | undefined
  /** That element as the page showed it when the step chose it. */
  readonly actedElement?: PageElement | undefined
  /** The outline of the page the step was chosen on, kept when the part picks an item of a list. */
  readonly seenOutline?: string | undefined
}

/** Everything the checks look at. */
export interface GoalEvidence {
  readonly steps: ReadonlyArray<PartStep>
  /** The run's extracted records. */
  readonly records: ReadonlyArray<unknown>
  /** The page at the end of the run, or why it could not be read. */
  readonly finalPage: PageFacts | string
  /** The page's interactive elements at the end of the run (or why they could not be read), when a check needs them. */
  readonly finalElements?: ReadonlyArray<PageElement> | string | undefined
}

/** Whether a check reads the state of the page's controls (a look after the step). */
export const checksControls = (check: GoalCheck): boolean =>
  check.type === "controlState" ||
  check.type === "fieldValue" ||
  check.type === "optionsChosen" ||
  check.type === "itemPicked"

const CHOICE_ROLES = new Set(["checkbox", "radio", "switch", "menuitemcheckbox", "menuitemradio", "option"])
/** How well a name must fit, as the rule grounding requires to act on an element. */
const NAME_FIT = 40
/** The text score of a name that holds every word of the text (`textScore`: 60 and up). */
const WHOLE_WORDS = 60

const wordsOf = (text: string): ReadonlyArray<string> =>
  text.split(/[\s,，、]+/).filter((word) => word !== "")

/** How many words of `text` are words of the element's name (a Chinese word also by its English equivalent). */
const wordsNamed = (element: PageElement, text: string): number =>
  wordsOf(text).filter((word) => textScore(element, word) >= WHOLE_WORDS).length

/**
 * Whether every word of `text` is a word of the element's name: `button "Plan Team"` names "Team plan",
 * `button "Plan Pro"` names "Pro 套餐", and the link "Products" does not name "Pro".
 */
const namesEveryWord = (element: PageElement, text: string): boolean =>
  wordsOf(text).length > 0 && wordsNamed(element, text) === wordsOf(text).length

/**
 * Whether `option` is the list's `value` said with words of the list's own name: "the Plus plan" for
 * "Plus" chosen in the list "Plan".
 */
const listNamed = (list: PageElement, value: string, option: string): boolean => {
  const lower = (text: string) => wordsOf(text.toLowerCase())
  const valueWords = lower(value)
  const optionWords = lower(option)
  const listWords = lower(list.name)
  return (
    valueWords.length > 0 &&
    valueWords.every((word) => optionWords.includes(word)) &&
    optionWords.every((word) => valueWords.includes(word) || listWords.includes(word))
  )
}

/** The element a check names: the best fit among the candidates, by the rule grounding's text score. */
const named = (
  elements: ReadonlyArray<PageElement>,
  name: string,
  fits: (element: PageElement) => boolean,
): PageElement | undefined =>
  elements
    .filter(fits)
    .map((element) => ({ element, score: textScore(element, name) }))
    .filter((candidate) => candidate.score >= NAME_FIT)
    .toSorted((left, right) => right.score - left.score)[0]?.element

/** A Chinese compound the glossary does not hold whole: the grounding reads it by its last word only. */
const partlyKnown = (name: string): boolean =>
  /^\p{Script=Han}{3,}$/u.test(name.trim()) && !glossaryReadsWhole(name.trim())

const normalizedValue = (value: string): string => value.trim().replace(/\s+/g, " ").toLowerCase()

/** A date as a date input holds it (`2024-06-03`), from the words a person writes ("June 3, 2024"). */
const asDay = (text: string): string | undefined => {
  const day = readCalendarDay(text)
  return day === undefined ? undefined : isoDay(day)
}

/** A time of day in minutes ("9:05", "09:05", "9:05 pm", "9 pm"), or undefined. */
const asMinutes = (text: string): number | undefined => {
  const match = /^(\d{1,2})(?::(\d{2})(?::\d{2}(?:\.\d+)?)?)?\s*(?:([ap])\.?m\.?)?$/i.exec(text.trim())
  if (match === null || (match[2] === undefined && match[3] === undefined)) return undefined
  const meridiem = match[3]?.toLowerCase()
  const hours =
    meridiem === undefined ? Number(match[1]) : (Number(match[1]) % 12) + (meridiem === "p" ? 12 : 0)
  return hours * 60 + Number(match[2] ?? 0)
}

/**
 * The days a numeric date may mean, as ISO days: `01/09/2015` is January 9 (month first) or
 * September 1 (day first); `13/01/2015` only January 13. Other forms go through `readCalendarDay`.
 */
const daysOf = (text: string): ReadonlyArray<string> => {
  const iso = asDay(text)
  if (iso !== undefined) return [iso]
  const match = /^(\d{1,2})[/.-](\d{1,2})[/.-](\d{4})$/.exec(text.trim())
  if (match === null) return []
  const [first, second, year] = [Number(match[1]), Number(match[2]), Number(match[3])]
  const valid = (month: number, day: number) =>
    month >= 1 && month <= 12 && day >= 1 && day <= new Date(Date.UTC(year, month, 0)).getUTCDate()
  const pad = (value: number) => String(value).padStart(2, "0")
  const readings = [
    ...(valid(first, second) ? [`${year}-${pad(first)}-${pad(second)}`] : []),
    ...(valid(second, first) ? [`${year}-${pad(second)}-${pad(first)}`] : []),
  ]
  return [...new Set(readings)]
}

/** A number as written by a person or shown by a field ("1,250.50", "$40", "40.00"), or undefined. */
const asNumber = (text: string): number | undefined => {
  const match = /^([-+]?)\s*[$€£¥]?\s*(\d{1,3}(?:,\d{3})+|\d+)(\.\d+)?\s*[$€£¥%]?$/.exec(text.trim())
  if (match === null) return undefined
  return Number(`${match[1]}${match[2]!.replaceAll(",", "")}${match[3] ?? ""}`)
}

/**
 * The one option of a list a value names in the page's words rather than its own (按年 → "Yearly", through
 * the glossary), as the step chose it: a near-whole match, and no other option as close. Undefined otherwise.
 */
const optionNamed = (options: ReadonlyArray<string>, wanted: string): string | undefined => {
  const scored = options.map((option) => ({ option, score: optionScore(option, wanted) }))
  const best = Math.max(0, ...scored.map((entry) => entry.score))
  const named = scored.filter((entry) => entry.score === best)
  return best >= OPTION_FIT && named.length === 1 ? named[0]!.option : undefined
}

/** How well a value must name an option in other words (a glossary translation scores 95). */
const OPTION_FIT = 90

/** Whether a list holds the value: as written, or as the one option the value names in the page's words. */
const listHolds = (list: PageElement, actual: string, wanted: string): boolean => {
  if (holdsValue(actual, wanted)) return true
  const option = optionNamed(list.options ?? [], wanted) ?? optionLedBy(list.options ?? [], wanted)
  return option !== undefined && holdsValue(actual, option)
}

/**
 * The one option of a list whose words begin with every word of the value ("Oslo" → "Oslo (OSL)"), or
 * undefined when none or several do.
 */
const optionLedBy = (options: ReadonlyArray<string>, wanted: string): string | undefined => {
  const words = wordsOf(wanted.toLowerCase())
  if (words.length === 0) return undefined
  const led = options.filter((option) => {
    const optionWords = wordsOf(option.toLowerCase())
    return optionWords.length > words.length && words.every((word, index) => optionWords[index] === word)
  })
  return led.length === 1 ? led[0] : undefined
}

/**
 * Whether a field's value is what was typed, both read in normalised form: the same words (case and
 * spacing aside); the same digits for a code; the same number ("1,250.50" and "1250.5"); the same day
 * for a date, whatever its format (`01/09/2015` and `2015-01-09`); the same time of day; a date and time
 * with the ISO "T" or a space between them.
 */
const holdsValue = (actual: string, wanted: string): boolean => {
  // A date-and-time field shows `2024-07-01T09:15` for `2024-07-01 09:15`: the ISO "T" is a space here.
  const isoSpace = (text: string) => text.replace(/(\d{4}-\d{2}-\d{2})t(\d{2}:\d{2})/giu, "$1 $2")
  const have = isoSpace(normalizedValue(actual))
  const want = isoSpace(normalizedValue(wanted))
  if (have === want) return true
  const digits = (text: string) => text.replace(/\D/g, "")
  const haveDays = daysOf(have)
  // A day asked with no year (`--12-31`, "31 December") is held by that day of any year.
  const yearless = /^--(\d{2}-\d{2})$/.exec(want)
  if (yearless !== null) return haveDays.some((day) => day.endsWith(`-${yearless[1]}`))
  const wantDays = daysOf(want)
  if (haveDays.length > 0 || wantDays.length > 0) {
    // Two numeric dates that could each be read both ways are the same only as the same digits.
    if (haveDays.length > 1 && wantDays.length > 1) return digits(have) === digits(want)
    return haveDays.some((day) => wantDays.includes(day))
  }
  const number = asNumber(want)
  if (number !== undefined && asNumber(have) !== undefined) return asNumber(have) === number
  // A code or a phone number the field formatted ("(555) 123-4567" for 5551234567): the same digits
  // and the same letters; "ABCD-1234-WXY" lost a letter of "ABCD-1234-WXYZ" and does not hold it.
  const letters = (text: string) => text.replace(/[^\p{L}]/gu, "")
  if (digits(want).length >= 4 && digits(have) === digits(want) && letters(have) === letters(want))
    return true
  const minutes = asMinutes(have)
  return minutes !== undefined && asMinutes(wanted) === minutes
}

/** A secret field's value as a snapshot shows it: masked, so only "something was typed" can be read. */
const MASKED = "<secret>"

/**
 * Why the named controls are not in the wanted state, or `undefined` when they are. A control the page
 * does not show by that name cannot show the part done, so the part is not done: an action that ran on
 * another element (a field the parser misnamed, a menu's first item) is not evidence of it.
 */
const judgeControls = (
  check: Extract<GoalCheck, { type: "controlState" | "fieldValue" | "optionsChosen" }>,
  elements: ReadonlyArray<PageElement>,
  steps: ReadonlyArray<PartStep>,
  acting: ReadonlyArray<PartStep>,
  where: string,
): string | undefined => {
  const refs = (of: ReadonlyArray<PartStep>) =>
    of.flatMap((step) => (step.ok && step.acted !== undefined ? [step.acted] : []))
  const partActed = refs(steps)
  const runActed = refs(acting)
  // The elements the run acted on, as the page shows them now.
  const actedNow = elements.filter((element) => runActed.includes(element.ref))
  if (check.type === "optionsChosen") return judgeOptions(check.options, elements, actedNow, steps, where)
  if (check.type === "controlState") {
    for (const target of check.targets) {
      const control = named(elements, target, (element) => CHOICE_ROLES.has(element.role))
      // "Colors 里选中 Black": an option of a native list (no element of its own) is checked when the
      // list holds it; a multiple select reads as its chosen options joined with commas.
      const list =
        control === undefined
          ? elements.find(
              (element) =>
                element.value !== undefined &&
                (element.options ?? []).some((option) => holdsValue(option, target)),
            )
          : undefined
      if (list !== undefined) {
        const held = [list.value!, ...list.value!.split(/,\s*/)].some((value) => holdsValue(value, target))
        if (held === check.checked) continue
        return `${list.role} "${list.name}" ${held ? "holds" : "does not hold"} "${target}" on ${where}`
      }
      // A box with no name of its own, found by the words beside it ("Dark mode" above an unnamed
      // switch): the one the part acted on, labelled by every word asked as the step saw it, shows it.
      const besideStep =
        control === undefined
          ? steps.findLast(
              (step) =>
                step.ok &&
                step.actedElement !== undefined &&
                step.actedElement.name === "" &&
                CHOICE_ROLES.has(step.actedElement.role) &&
                namesEveryWord(
                  { ...step.actedElement, name: step.actedElement.attributes.label ?? "" },
                  target,
                ),
            )
          : undefined
      const besideNow =
        besideStep === undefined ? undefined : elements.find((element) => element.ref === besideStep.acted)
      if (besideNow !== undefined) {
        const on = besideNow.checked === true || besideNow.selected === true
        if (on === check.checked) continue
        return `the ${besideNow.role} beside "${besideStep?.actedElement?.attributes.label}" is ${on ? "checked" : "unchecked"} on ${where}`
      }
      if (control === undefined) {
        // No box by that name ("accept all cookies" on a banner whose button is "Accept all"): the
        // part holds only when a control the part clicked was named by those words.
        // Only the words that name something count: "in" is a word of "Sign in", but a part about
        // "in" names no control, and clicking "Sign in" checks nothing. Following a link ticks nothing
        // either ("Tick the second contact" that clicked the header's "Contact" link left the page).
        const naming = wordsOf(target)
          .filter((word) => !NO_NAME_WORDS.has(word.toLowerCase()))
          .join(" ")
        const clicked = steps.find(
          (step) =>
            naming !== "" &&
            step.ok &&
            step.actedElement !== undefined &&
            !CHOICE_ROLES.has(step.actedElement.role) &&
            step.actedElement.role !== "link" &&
            wordsNamed(step.actedElement, naming) * 2 >= wordsOf(naming).length &&
            // A press the page does not show ("print it" that clicked a Print button that does nothing)
            // checks nothing either.
            effectIn(step, acting) === "changed",
        )?.actedElement
        if (clicked !== undefined) continue
        return `no checkbox, radio or option named "${target}" is on ${where}, and no control named by those words was clicked`
      }
      const on = control.checked === true || control.selected === true
      if (on !== check.checked)
        return `${control.role} "${control.name}" is ${on ? "checked" : "unchecked"} on ${where}`
    }
    return undefined
  }
  const typeable = (element: PageElement) => canTake(element, "type")
  // A field found by the words beside it has no name of its own: the one the part typed into is read,
  // unless another field answers to more of the words asked, counting the words beside the field as
  // the step saw them and the heading it sits under: "Track order" typed into the "Order" field under
  // "Refund" is not the tracking field under "Track an order", though the value sits in it.
  const covered = (element: PageElement, label: string | undefined) => {
    const heading = element.key?.split("|")[3] ?? ""
    const words = { ...element, name: [element.name, label ?? "", heading].join(" ").trim() }
    return wordsOf(check.target).filter((word) => textScore(words, word) >= WHOLE_WORDS).length
  }
  const besideNamed = (element: PageElement) => {
    const seen = steps.findLast((step) => step.ok && step.acted === element.ref)?.actedElement
    const own = covered(element, seen?.attributes.label)
    return !elements.some(
      (other) => other.ref !== element.ref && typeable(other) && covered(other, other.attributes.label) > own,
    )
  }
  const byName = named(elements, check.target, typeable)
  // A Chinese name the glossary knows only by its last word ("还车日期": 日期, date) names a field only
  // when no other control answers to that word: beside "Pick-up date" and "Choose a date", which date
  // was meant is not known, so the field holding the value cannot show the part done.
  if (byName !== undefined && partlyKnown(check.target) && !byName.name.includes(check.target.trim())) {
    const rivals = elements.filter(
      (element) => element.ref !== byName.ref && textScore(element, check.target) >= NAME_FIT,
    )
    if (rivals.length > 0)
      return `"${check.target}" is known only by its last word here, and ${byName.role} "${byName.name}" is not the only control that word names on ${where} (also ${rivals.map((rival) => `${rival.role} "${rival.name}"`).join(", ")})`
  }
  const field =
    byName ??
    elements.findLast(
      (element) => partActed.includes(element.ref) && typeable(element) && besideNamed(element),
    )
  if (field === undefined) {
    // "Set the adults to 4" on a stepper (`− 2 +`): the number it shows is the evidence.
    const stepper = named(
      elements.map((element) => ({
        ...element,
        name: `${element.attributes[STEPPER.label] ?? ""} ${element.name}`.trim(),
      })),
      check.target,
      (element) => element.attributes[STEPPER.pair] !== undefined,
    )
    if (stepper !== undefined) {
      const shows = stepper.attributes[STEPPER.shows] ?? ""
      return holdsValue(shows, check.value)
        ? undefined
        : `the stepper "${stepper.attributes[STEPPER.label] || stepper.name}" shows "${shows}", not "${check.value}", on ${where}`
    }
    // "My home airport is Rome (FCO)" on a list (a select, a list box): the list named so holds the value.
    const list = named(elements, check.target, (element) => element.options !== undefined)
    if (list !== undefined && list.value !== undefined) {
      // A multiple select reads as its chosen options joined with commas.
      if ([list.value, ...list.value.split(/,\s*/)].some((value) => listHolds(list, value, check.value)))
        return undefined
      return `${list.role} "${list.name}" holds "${list.value}", not "${check.value}", on ${where}`
    }
    // "Set Size to Large" on a radio group or a custom list: the option chosen is the evidence, or the
    // control the part opened showing the choice as its name (`button "Plan Pro"`).
    const chosen = named(elements, check.value, (element) => CHOICE_ROLES.has(element.role))
    if (chosen !== undefined && (chosen.checked === true || chosen.selected === true)) return undefined
    if (actedNow.some((element) => !CHOICE_ROLES.has(element.role) && namesEveryWord(element, check.value)))
      return undefined
    return chosen === undefined
      ? `no field named "${check.target}" and no option "${check.value}" is on ${where}`
      : `no field named "${check.target}" is on ${where}, and ${chosen.role} "${chosen.name}" is not chosen`
  }
  if (field.value === undefined)
    return `the value of ${field.role} "${field.name}" cannot be read on ${where}`
  if (field.value === MASKED) {
    if (check.value === "") return `${field.role} "${field.name}" is not empty`
    // A masked field shows only that something was typed: whether it is the whole secret the driver
    // read back in the page, and a fill it found short failed with ValueNotTaken.
    const typing = steps.filter(
      (step) => step.value !== undefined && (step.ok || step.failure === "ValueNotTaken"),
    )
    const last = typing.at(-1)
    return last !== undefined && !last.ok
      ? `${field.role} "${field.name}" did not take the secret typed into it: ${last.message ?? "the fill failed"}`
      : undefined
  }
  // A suggestion list left open over the typed words: the widget has not taken the value yet ("set the
  // destination to Lisbon" typed "Lisbon", while the option "Lisbon" that sets it was never chosen).
  const unchosen =
    field.role === "combobox" && field.expanded === true && holdsValue(field.value, check.value)
      ? elements.find((element) => element.role === "option" && holdsValue(element.name, check.value))
      : undefined
  if (unchosen !== undefined)
    return `combobox "${field.name}" shows "${field.value}" as typed, but its suggestion "${unchosen.name}" was not chosen (the list is still open) on ${where}`
  return listHolds(field, field.value, check.value)
    ? undefined
    : `${field.role} "${field.name}" holds "${field.value}", not "${check.value}", on ${where}`
}

const SELECT_ROLES = new Set(["combobox", "listbox"])

/**
 * Why an option is not shown chosen, or `undefined` when every one is: its option, radio or checkbox
 * is selected; a select list holds it (a native list's value is its chosen labels, comma-separated);
 * or a control the part acted on now shows it (a custom dropdown's button names its choice).
 */
const judgeOptions = (
  options: ReadonlyArray<string>,
  elements: ReadonlyArray<PageElement>,
  actedNow: ReadonlyArray<PageElement>,
  steps: ReadonlyArray<PartStep>,
  where: string,
): string | undefined => {
  const lists = elements.filter(
    (element) => (SELECT_ROLES.has(element.role) || element.tag === "select") && element.value !== undefined,
  )
  for (const option of options) {
    const choice = named(elements, option, (element) => CHOICE_ROLES.has(element.role))
    if (
      choice !== undefined &&
      (choice.checked === true || choice.selected === true) &&
      !signsDisagree(choice.name, option)
    )
      continue
    const held = lists.some((list) =>
      (list.value ?? "")
        .split(/,\s*/)
        // An option said in other words (颜色选红色: "Red") is held as the one option it names.
        .some((value) => listHolds(list, value, option) || listNamed(list, value, option)),
    )
    if (held) continue
    const shown = actedNow.some((element) =>
      // "UTC−04:00 Halifax" is not "UTC+04:00", though every word of one is a word of the other.
      signsDisagree(element.name, option)
        ? false
        : CHOICE_ROLES.has(element.role)
          ? // The option clicked is now chosen ("the time zone Kathmandu": "UTC+05:45 Kathmandu").
            (element.checked === true || element.selected === true) &&
            wordsOf(option).some((word) => textScore(element, word) >= WHOLE_WORDS)
          : // The control that opened the list names the choice (`button "Plan Team"` for "the Team plan").
            namesEveryWord(element, option),
    )
    if (shown) continue
    // A menu item is a command, not a choice that stays chosen: "choose Export, then PNG image" in a
    // menu is done by the click on the item.
    const command = steps.some(
      (step) =>
        step.ok &&
        step.actedElement?.role === "menuitem" &&
        textScore(step.actedElement, option) >= WHOLE_WORDS,
    )
    if (command) continue
    return choice === undefined
      ? `"${option}" is not shown chosen on ${where}`
      : `${choice.role} "${choice.name}" is not chosen on ${where}`
  }
  return undefined
}

const quote = (texts: ReadonlyArray<string>) => texts.map((text) => `"${text}"`).join(", ")

const isEmpty = (value: unknown): boolean =>
  value === undefined ||
  value === null ||
  (typeof value === "string" && value.trim() === "") ||
  (Array.isArray(value) && value.length === 0)

/** A record holds at least one value that is not empty (an empty object counts as empty too). */
const recordHoldsValue = (record: object): boolean =>
  Object.values(record).some(
    (value) =>
      !isEmpty(value) &&
      !(
        typeof value === "object" &&
        value !== null &&
        !Array.isArray(value) &&
        Object.keys(value).length === 0
      ),
  )

/** The action reported that it changed the page (`changed` of an act result, or of the one a clickTextMatches reports, and no NoOp signal). */
const reportedChange = (step: PartStep): boolean =>
  step.ok && !step.signals.includes("NoOp") && actOutcome(step.data).changed === true

/** A URL as a person reads it, lower case: `+` and `%20` as spaces; a malformed escape is left as it is. */
const readableUrl = (raw: string): { readonly whole: string; readonly query: string } => {
  const decode = (text: string) => {
    const spaced = text.replaceAll("+", " ")
    try {
      return decodeURIComponent(spaced).toLowerCase()
    } catch {
      return spaced.toLowerCase()
    }
  }
  const parsed = URL.parse(raw)
  return { whole: decode(raw), query: parsed === null ? "" : decode(`${parsed.search}${parsed.hash}`) }
}

/** What a step did to the page: changed it, changed nothing (NoOp), or said nothing about it. */
const effectOf = (step: PartStep, before: PageFacts | undefined): "changed" | "none" | "unknown" => {
  if (step.urlAfter !== step.urlBefore) return "changed"
  if (step.signals.includes("NoOp")) return "none"
  const changed = actOutcome(step.data).changed
  if (changed === true) return "changed"
  if (changed === false) return "none"
  if (before !== undefined && step.facts !== undefined && before.heading !== step.facts.heading)
    return "changed"
  return "unknown"
}

/** {@link effectOf} of a step of the run `all`, against the page facts the last step before it read. */
const effectIn = (step: PartStep, all: ReadonlyArray<PartStep>): "changed" | "none" | "unknown" =>
  effectOf(
    step,
    all.slice(0, Math.max(0, all.indexOf(step))).findLast((earlier) => earlier.facts !== undefined)?.facts,
  )

/**
 * Words that say what kind of thing is opened, not which one ("the Photos folder", "the log-in
 * window", a wizard's "next step"): the item acted on need not carry them in its name.
 */
const KIND_WORDS = new Set([
  "step",
  "folder",
  "file",
  "window",
  "dialog",
  "popup",
  "modal",
  "page",
  "tab",
  "panel",
  "section",
  "menu",
  "link",
  "button",
])

/** Words for what the items of a list are ("order", "message", "row"): an item need not print them. */
const ITEM_KIND_WORDS: ReadonlySet<string> = new Set([...ITEM_NOUNS, ...MESSAGE_WORDS])

/**
 * Why the control a part pressed is not the one in the container or item its words name (`within`), or
 * undefined when it is: read on the outline of the page the control was pressed on, the way the grounding
 * reads containers. A page that shows no container so named says nothing of it (the grounding pressed
 * the control by its own name there); a control pressed by its text alone, or on a page that was not
 * read, cannot show where it sat, so the part is not shown done.
 */
const judgeWithin = (within: string, steps: ReadonlyArray<PartStep>): string | undefined => {
  const last = steps.findLast((step) => step.ok)
  if (last === undefined) return undefined
  if (last.acted === undefined || last.seenOutline === undefined)
    return `${last.tool} pressed a control found ${last.acted === undefined ? "by its text alone" : "on a page that was not read"}: whether it sits in "${within}" is not known`
  if (placeInOutline(last.seenOutline, last.acted, within) !== "elsewhere") return undefined
  const element = last.actedElement
  const item = itemsInOutline(last.seenOutline).get(last.acted)
  return `${last.tool} pressed ${element === undefined ? last.acted : `${element.role} "${element.name}"`}${item === undefined ? "" : ` in ${item.role} "${item.name}"`}, not the one in "${within}"`
}

/**
 * Whether the item a press opened is the one its name says ("details of order 1043"): every word of
 * `words` the pressed control's own name does not hold is held by the item the control sits in on the
 * page it was pressed on (a word for what the items are, "order", may go unprinted there), and no control
 * of the same name in another item holds them too; if not, why. Undefined when the page was not read or
 * the control sits in no item: the caller then reads the control's own name alone.
 */
const judgeOpenedItem = (
  name: string,
  words: ReadonlyArray<string>,
  acted: PageElement,
  ref: string | undefined,
  outline: string | undefined,
): { readonly held: boolean; readonly why?: string } | undefined => {
  if (ref === undefined || outline === undefined) return undefined
  const items = itemsInOutline(outline)
  const item = items.get(ref)
  if (item === undefined) return undefined
  const asElement = (text: string): PageElement => ({ ...acted, name: text, attributes: {} })
  const rest = words.filter(
    (word) =>
      textScore(acted, word) < WHOLE_WORDS &&
      !NO_NAME_WORDS.has(word.toLowerCase()) &&
      !ITEM_KIND_WORDS.has(word.toLowerCase()),
  )
  const holds = (holder: { readonly name: string }) =>
    rest.every((word) => textScore(asElement(holder.name), word) >= WHOLE_WORDS)
  if (rest.length === 0)
    return { held: false, why: `"${name}" names no item beyond the control's own name "${acted.name}"` }
  if (!holds(item))
    return {
      held: false,
      why: `the last item opened was "${acted.name}" of ${item.role} "${item.name}", not "${name}"`,
    }
  const rivals = elementsFromOutline(outline).filter((other) => {
    const its = items.get(other.ref)
    return (
      other.ref !== ref &&
      other.role === acted.role &&
      other.name === acted.name &&
      its !== undefined &&
      its.name !== item.name &&
      holds(its)
    )
  })
  return rivals.length === 0
    ? { held: true }
    : {
        held: false,
        why: `"${name}" names more than one item: ${[item, ...rivals.map((rival) => items.get(rival.ref)!)].map((one) => `"${one.name}"`).join(", ")}`,
      }
}

/** Roles of items a click selects rather than opens: a tree's leaf, a list's option, a grid's cell or row. */
const SELECTABLE_ROLES = new Set(["treeitem", "option", "gridcell", "row", "listitem"])

/** A page as a document: its origin and path, without query or fragment. */
const documentOf = (url: string): string => {
  const parsed = URL.parse(url)
  return parsed === null ? url : `${parsed.origin}${parsed.pathname}`
}

/**
 * Why a part about the page's controls is not about the page it ended on: a step of the part (not its
 * last) took the browser to another document, so the control the part set there is not the one on the
 * page the part began on ("Company: …, the contact email is …" followed a Contact link and typed into
 * that page's Email). `undefined` when the part stayed on its page.
 */
const leftPage = (steps: ReadonlyArray<PartStep>): string | undefined => {
  const done = steps.filter((step) => step.ok)
  const first = done[0]
  const last = done.at(-1)
  if (first === undefined || last === undefined || first === last) return undefined
  const began = documentOf(first.urlBefore)
  const mover = done.slice(0, -1).find((step) => documentOf(step.urlAfter) !== began)
  if (mover === undefined || first.urlBefore === "" || first.urlBefore === "about:blank") return undefined
  return `${mover.tool} left ${first.urlBefore} for ${mover.urlAfter}: the control set there is not the one on the page the part is about`
}

/** Kinds whose page postcondition is the page they leave shown: a navigation, a scroll, going back. */
const SHOWN_KINDS = new Set<GoalPart["kind"]>(["navigate", "scroll", "back"])

/**
 * Why an action part is not done, or `undefined` when the page shows its effect. "Its actions
 * succeeded" is never enough on its own: the action must report what it did to the page (the act
 * result's diff) or the page must have moved; an action the page does not show (a NoOp) leaves the
 * part undone, a plain press included; a menu path `A > B` is done only when B was clicked; a navigation, scroll or back is done
 * when the page it leaves is shown (not `about:blank`).
 */
const judgeEffect = (
  part: GoalPart,
  steps: ReadonlyArray<PartStep>,
  all: ReadonlyArray<PartStep>,
): string | undefined => {
  const done = steps.filter((step) => step.ok)
  const last = done.at(-1)
  if (last === undefined) return "no step of this part succeeded"
  // A menu path as the grammar describes it ("click File > Export"): its last item must be the one clicked.
  const path = /^(?:click|select|choose|open)\s+(.+\s>\s.+)$/i.exec(part.description)?.[1]
  if (path !== undefined) {
    const items = path.split(/\s+>\s+/).map((item) => item.replace(/^"|"$/g, "").trim())
    const end = items.at(-1) ?? ""
    const clicked = done.flatMap((step) => (step.actedElement === undefined ? [] : [step.actedElement]))
    // An item that opens a menu of its own ("Export ▸", with an expanded state) only partly named by
    // the end ("Export as PNG image") leads on to it: the path stopped there.
    const reached = (element: PageElement) =>
      textScore(element, end) >= (element.expanded === undefined ? NAME_FIT : WHOLE_WORDS)
    if (clicked.length > 0 && !clicked.some(reached))
      return `the menu path ${items.join(" > ")} stopped before "${end}": the last item clicked was "${clicked.at(-1)?.name}"`
  }
  // A copy is seen only where its text is put: the run must type the copied words somewhere after it
  // ("copy the invite code and paste it into …"). Selected and left on a clipboard, it shows nothing.
  if (/^copy\s/i.test(part.description)) {
    const copied = done.findLast((step) => step.value !== undefined && step.value.trim() !== "")?.value
    if (copied === undefined) return `${last.tool} named no text to copy`
    const after = all.slice(all.indexOf(last) + 1)
    const put = after.some(
      (step) =>
        step.ok && step.value !== undefined && normalizedValue(step.value).includes(normalizedValue(copied)),
    )
    return put
      ? undefined
      : `the copied text "${copied}" was not put anywhere on the page after it was selected`
  }
  const effects = done.map((step) => effectIn(step, all))
  if (effects.includes("changed")) return undefined
  if (SHOWN_KINDS.has(part.kind))
    return last.urlAfter === "" || last.urlAfter === "about:blank"
      ? `${last.tool} left the browser on ${last.urlAfter === "" ? "no page" : "about:blank"}`
      : undefined
  // Any other action part is done only when the page shows it: a press the page does not show (the act
  // diff's NoOp) cannot be told from a press that did nothing, so it is not done, however plain the
  // press ("click Save draft" on a page that confirms nothing fails, saying so). A focus, a text
  // selection and a drag report their own postcondition (the focus there, the words selected, the box
  // moved) as a change. A tool that says nothing about the page leaves the part undone as well.
  if (effects.includes("none")) return `${last.tool} changed nothing on ${last.urlAfter} (no visible change)`
  return `${last.tool} reported no change on ${last.urlAfter}, and the page did not move`
}

/**
 * Why the item a pick names is not the one chosen, or `undefined` when it is: the part's last action must
 * have pressed the control of exactly that item, as the same words name it again on the page the action
 * was chosen on (the list read afresh, the position counted or the values compared again), and the page
 * must show the press: a radio checked at the end, a button whose press changed the page. An action on
 * any other item, a press that changed nothing, or a list the words no longer name one item of, is not it.
 */
const judgePick = (
  check: Extract<GoalCheck, { type: "itemPicked" }>,
  steps: ReadonlyArray<PartStep>,
  all: ReadonlyArray<PartStep>,
): string | undefined => {
  const last = steps.findLast((step) => step.ok && step.acted !== undefined)
  if (last === undefined) return `no step pressed the control of "${check.pick.said}"`
  if (last.seenOutline === undefined) return `the page "${check.pick.said}" was chosen on was not read`
  const picked = resolvePick(last.seenOutline, check.pick)
  if (!picked.ok) return `"${check.pick.said}" names no one item on ${last.urlBefore}: ${picked.reason}`
  const item = picked.item
  const which = `item ${item.index} of the list ("${item.text.slice(0, 60)}")`
  if (last.acted !== item.ref) {
    const pressed =
      last.actedElement === undefined ? last.acted : `${last.actedElement.role} "${last.actedElement.name}"`
    const other = picked.list.items.find((candidate) => candidate.ref === last.acted)
    return `${last.tool} pressed ${pressed}${other === undefined ? "" : ` of item ${other.index}`}, not the control of ${which}, which "${check.pick.said}" names`
  }
  if (item.role === "radio") {
    const now = last.elements?.find((element) => element.ref === item.ref)
    return now?.checked === true
      ? undefined
      : `radio "${item.name}" of ${which} is not checked on ${last.urlAfter}`
  }
  return effectIn(last, all) === "changed"
    ? undefined
    : `${last.tool} on the control of ${which} changed nothing on ${last.urlAfter} (no visible change)`
}

/** The checks of parts that act on the page: an error page the part's steps led to leaves them undone. */
const ACTING_CHECKS: ReadonlySet<GoalCheck["type"]> = new Set([
  "actionsSucceeded",
  "searched",
  "submitted",
  "pageChanged",
  "itemPicked",
])

/**
 * Why the page a part's steps led to is an error page, or undefined: the document was answered with HTTP
 * 400 or more and one of the part's steps loaded it (navigated, submitted a form, or moved the URL). An
 * error page the part started on and did not leave is the part's own business (a "Go home" on a 404).
 */
const errorPageReached = (steps: ReadonlyArray<PartStep>, page: PageFacts | string): string | undefined => {
  if (typeof page === "string" || page.responseStatus === undefined || page.responseStatus < 400)
    return undefined
  const loaded = steps.some(
    (step) =>
      step.ok &&
      (step.tool === "navigate" ||
        step.urlAfter !== step.urlBefore ||
        step.signals.includes("NavigationOccurred") ||
        step.signals.includes("FormSubmitted")),
  )
  if (!loaded) return undefined
  return `${page.url} was answered with HTTP ${page.responseStatus}${page.heading === "" ? "" : ` (the page shows "${page.heading}")`}`
}

/**
 * Why the part's last action ended on an error the page shows, or undefined: the action made an alert or
 * error message appear (or a field turn invalid, the act diff's `ErrorAppeared`) and the page still shows
 * it. A press answered "Invalid email or password" did not do what was asked, whatever else it changed.
 */
const errorShownAfter = (steps: ReadonlyArray<PartStep>, page: PageFacts | string): string | undefined => {
  const last = steps.findLast((step) => step.ok)
  if (last === undefined || !last.signals.includes("ErrorAppeared")) return undefined
  if (typeof page === "string" || page.errors.length === 0) return undefined
  return `${page.url} shows ${quote(page.errors)} after ${last.tool}`
}

/** Why a check does not hold, or undefined when it holds. */
const judge = (part: GoalPart, index: number, evidence: GoalEvidence): string | undefined => {
  const check = part.check
  // A policy that does not say which part a step works on (a replayed cache, a model policy) is
  // judged on all of its steps.
  const attributed = evidence.steps.some((step) => step.part !== undefined)
  const steps = attributed ? evidence.steps.filter((step) => step.part === index) : evidence.steps
  const last = steps.at(-1)
  const page: PageFacts | string = last?.facts ?? evidence.finalPage
  const failed =
    last !== undefined && !last.ok ? `${last.tool} failed: ${last.message ?? "no reason given"}` : undefined
  const needSteps = (): string | undefined => (last === undefined ? "no step worked on this part" : failed)
  if (ACTING_CHECKS.has(check.type) && last?.ok) {
    const error = errorPageReached(steps, page)
    if (error !== undefined) return error
  }
  switch (check.type) {
    case "actionsSucceeded":
      return (
        needSteps() ??
        errorShownAfter(steps, page) ??
        (check.within === undefined ? undefined : judgeWithin(check.within, steps)) ??
        judgeEffect(part, steps, evidence.steps)
      )
    case "loggedIn": {
      const missing = needSteps()
      if (missing !== undefined) return missing
      if (typeof page === "string") return page
      if (page.passwordVisible)
        return `a password field is still shown on ${page.url}${page.errors.length === 0 ? "" : ` with ${quote(page.errors)}`}`
      if (page.errors.length > 0) return `${page.url} shows ${quote(page.errors)}`
      // A sign-in answered with an error page (a 500, a 403, a 405) has no password form left either.
      if (page.responseStatus !== undefined && page.responseStatus >= 400)
        return `the sign-in was answered with HTTP ${page.responseStatus} on ${page.url}${page.heading === "" ? "" : ` (the page shows "${page.heading}")`}: nobody was signed in`
      // The password form gone is not a sign-in done: the site may ask for a one-time code next, or
      // say in plain text that the account is locked.
      if (page.signInUnfinished !== undefined && page.signInUnfinished !== "")
        return new SignInUnfinished({ asks: page.signInUnfinished, url: page.url }).finding
      return undefined
    }
    case "records": {
      const records = evidence.records.filter((record) => typeof record === "object" && record !== null)
      if (records.length < check.min) {
        // Without a failed step of its own, the failure the run never got past is the cause (the first
        // failed step after the last one that worked), not whatever failed after it.
        const lastOk = evidence.steps.findLastIndex((step) => step.ok)
        const stuck =
          evidence.steps.slice(lastOk + 1).find((step) => !step.ok && step.message !== undefined) ??
          evidence.steps.findLast((step) => !step.ok && step.message !== undefined)
        const why = failed ?? (stuck === undefined ? undefined : `${stuck.tool} failed: ${stuck.message}`)
        return `${records.length === 0 ? "no records were extracted" : `only ${records.length} records were extracted`}${why === undefined ? "" : ` (${why})`}`
      }
      // A record must hold something, whatever `fields` names. `fields: []` stays legal (the rule
      // planner makes it for "extract the products", a model's plan may give no fields), so the
      // schema cannot refuse it; without this, such a part checked nothing and `{}` records passed.
      const blank = records.filter((record) => !recordHoldsValue(record)).length
      if (blank > 0) return `${blank} of ${records.length} records hold no non-empty value`
      for (const field of check.fields) {
        const missing = records.filter((record) => isEmpty((record as Record<string, unknown>)[field])).length
        if (missing > 0) return `'${field}' is missing or empty in ${missing} of ${records.length} records`
      }
      return undefined
    }
    case "lastPage": {
      const walk = evidence.steps.findLast((step) => step.tool === "pagination")
      if (walk === undefined) return "no step went through the pages"
      if (!walk.ok) return `pagination failed: ${walk.message ?? "no reason given"}`
      const data = walk.data as {
        stoppedBecause?: string
        pages?: ReadonlyArray<{ url: string; count?: number }>
      }
      const lastVisited = data.pages?.at(-1)
      if (data.stoppedBecause !== "no-next")
        return `pagination stopped (${data.stoppedBecause ?? "unknown"}) on ${lastVisited?.url ?? walk.urlAfter}, which still has a Next page`
      if (lastVisited?.count === 0)
        return `the last page reached (${lastVisited.url}) shows no items: the pages broke off before the end`
      const after = walk.facts ?? (typeof evidence.finalPage === "string" ? undefined : evidence.finalPage)
      if (after !== undefined && after.errors.length > 0)
        return `the last page reached (${after.url}) shows ${quote(after.errors)}`
      return undefined
    }
    case "pagesRead": {
      const walk = evidence.steps.findLast((step) => step.tool === "pagination")
      if (walk === undefined) return "no step went through the pages"
      if (!walk.ok) return `pagination failed: ${walk.message ?? "no reason given"}`
      const data = walk.data as { stoppedBecause?: string; pages?: ReadonlyArray<{ url: string }> }
      const read = data.pages?.length ?? 0
      if (read >= check.pages) return undefined
      const records = evidence.records.length
      const got = `${records} record${records === 1 ? "" : "s"} from ${read === 1 ? "that page" : `those ${read} pages`} ${records === 1 ? "was" : "were"} extracted`
      return data.stoppedBecause === "no-next"
        ? `asked for ${check.pages} pages, the list has ${read}: page ${read} (${data.pages?.at(-1)?.url ?? walk.urlAfter}) has no Next; ${got}`
        : `asked for ${check.pages} pages, pagination read ${read} and stopped (${data.stoppedBecause ?? "unknown"}) on ${data.pages?.at(-1)?.url ?? walk.urlAfter}; ${got}`
    }
    case "searched": {
      const missing = needSteps()
      if (missing !== undefined) return missing
      const search = steps.findLast((step) => step.tool === "search")
      const answer = search?.data as { resultCount?: number; noResults?: string } | undefined
      if (answer !== undefined && ((answer.resultCount ?? 0) > 0 || answer.noResults !== undefined))
        return undefined
      // A page that merely shows the word (a product called "Brass Sextant") is no search: the term must
      // be in a search field or the URL, and a search must have been sent (a submitted form, results
      // appearing, a "no results" page, or the term in the URL's query). Any page the part went through
      // may show it: a run that searched and then opened a result has left the results page.
      const term = check.query.trim().toLowerCase()
      const sentSignal = (step: PartStep) =>
        step.signals.includes("FormSubmitted") || step.signals.includes("ResultsAppeared")
      const searchedOn = (facts: PageFacts, sent: boolean) => {
        const url = readableUrl(facts.url)
        const inField = (facts.searchValues ?? []).some((value) => value.toLowerCase().includes(term))
        return (inField || url.whole.includes(term)) && (sent || facts.noResults || url.query.includes(term))
      }
      const held =
        steps.some((step) => step.ok && readableUrl(step.urlAfter).query.includes(term)) ||
        steps.some(
          (step) => step.ok && step.facts !== undefined && searchedOn(step.facts, sentSignal(step)),
        ) ||
        (typeof page !== "string" && searchedOn(page, steps.some(sentSignal)))
      if (held) return undefined
      if (typeof page === "string") return page
      const named =
        (page.searchValues ?? []).some((value) => value.toLowerCase().includes(term)) ||
        readableUrl(page.url).whole.includes(term)
      return named
        ? `no search for "${check.query}" was sent: nothing was submitted and no results appeared on ${page.url}`
        : `no search for "${check.query}" happened: no search field on ${page.url} holds it and the URL does not name it`
    }
    case "submitted": {
      const missing = needSteps()
      if (missing !== undefined) return missing
      if (!steps.some((step) => step.signals.includes("FormSubmitted")))
        return `no form was submitted (the page stayed at ${last?.urlAfter ?? "?"})`
      if (typeof page === "string") return page
      if (page.errors.length > 0) return `${page.url} shows ${quote(page.errors)}`
      return undefined
    }
    case "pageChanged": {
      const missing = needSteps()
      if (missing !== undefined || last === undefined) return missing
      const position = evidence.steps.indexOf(last)
      const before = evidence.steps.slice(0, position).findLast((step) => step.facts !== undefined)?.facts
      const after = last.facts
      // "Open" holds when something new is shown: another page, another place on it (#anchor), another
      // heading, or content the action itself reports as changed (a tab panel, a menu, a dialog, a
      // section). An action that changed nothing (NoOp) opened nothing.
      const moved = last.urlAfter !== last.urlBefore
      const retitled = before !== undefined && after !== undefined && before.heading !== after.heading
      const shown = reportedChange(last)
      // "Open the log-in dialog": a dialog must be shown; another page is not the dialog.
      if (/^open\s+(?:#\S+\s+|the last\s+)?(?:"[^"]*"\s+)?dialog(?:\s+in\s|$)/i.test(part.description)) {
        if (after?.dialogShown === true) return undefined
        return `no dialog is shown on ${last.urlAfter}${moved ? ` (the click went to another page from ${last.urlBefore})` : ""}`
      }
      // An item of a tree or a list that opens nothing of its own (no expanded state) is selected by a
      // click: its selection is no view of it. Only another page or another heading shows it opened.
      const item = steps.findLast((step) => step.ok && step.actedElement !== undefined)?.actedElement
      if (
        !moved &&
        !retitled &&
        item !== undefined &&
        SELECTABLE_ROLES.has(item.role) &&
        item.expanded === undefined
      )
        return `${item.role} "${item.name}" was only selected on ${last.urlAfter}: nothing shows it opened (the URL and the heading stayed)`
      if (moved || retitled || shown) {
        // What changed must be what was named: a click on another item ("Contact" for "Contact support",
        // a folder for the file asked for) changes the page without opening it. The last element the
        // part acted on must hold every Latin word of the name.
        const name = /^open\s+"([^"]+)"/i.exec(part.description)?.[1]
        // Its Latin words, apart from any Chinese around them ("About us页面": About, us).
        // Words joined by a hyphen are words of the name apart ("log-in" is "Log in"), and kind
        // words go unless the name is only kind words; a possessive is its owner's name ("Ana Souza's").
        const words = (name?.replace(/['’]s\b/gi, "").match(/[a-z0-9][a-z0-9._-]*/gi) ?? []).flatMap(
          (word) => (/^[a-z]+(?:-[a-z]+)+$/i.test(word) ? word.split("-") : [word]),
        )
        const named = words.filter((word) => !KIND_WORDS.has(word.toLowerCase()))
        const latin = named.length > 0 ? named : words
        const pressed = steps.findLast((step) => step.ok && step.actedElement !== undefined)
        const acted = pressed?.actedElement
        if (
          name === undefined ||
          acted === undefined ||
          latin.every((word) => textScore(acted, word) >= WHOLE_WORDS)
        )
          return undefined
        // "Open the details of order 1043": the words the control's own name does not say must be said
        // by the item it sits in, on the page it was pressed on; pressing "Details" names no order.
        const opened = judgeOpenedItem(name, latin, acted, pressed?.acted, pressed?.seenOutline)
        if (opened?.held === true) return undefined
        return opened?.why ?? `the last item opened was "${acted.name}", not "${name}" (on ${last.urlAfter})`
      }
      return `the page stayed at ${last.urlAfter}${after === undefined ? "" : ` with the heading "${after.heading}"`}`
    }
    case "urlMatches": {
      if (typeof page === "string") return page
      let ok: boolean
      try {
        ok = new RegExp(check.pattern).test(page.url)
      } catch {
        ok = page.url.includes(check.pattern)
      }
      return ok ? undefined : `the URL is ${page.url}`
    }
    case "textPresent":
      if (typeof page === "string") return page
      return page.texts[check.text] === true ? undefined : `${page.url} does not show "${check.text}"`
    case "elementExists":
      if (typeof page === "string") return page
      return (page.counts[check.selector] ?? 0) > 0
        ? undefined
        : `no element of ${page.url} matches ${check.selector}`
    case "itemPicked":
      return needSteps() ?? judgePick(check, steps, evidence.steps)
    case "controlState":
    case "fieldValue":
    case "optionsChosen": {
      // A state the page already shows needs no step ("uncheck Sports" when Sports is not ticked): with
      // no step of its own, the part is judged on the page at the end of the run. A step that failed
      // still fails the part.
      if (failed !== undefined) return failed
      if (last === undefined && evidence.finalElements === undefined) return "no step worked on this part"
      const left = leftPage(steps)
      if (left !== undefined) return left
      // The page the part's own steps left; without one, the page at the end of the run.
      const elements = last?.elements ?? evidence.finalElements
      if (elements === undefined) return "the page's controls were not read"
      if (typeof elements === "string") return elements
      const where = last?.urlAfter ?? (typeof page === "string" ? "the page" : page.url)
      // Any step of the run may have opened the control that now shows the choice ("open the language
      // menu and choose Deutsch": the menu's button, opened by the first part, names the choice).
      return judgeControls(check, elements, steps, evidence.steps, where)
    }
  }
}

/**
 * Checks every goal part against the evidence of a run; answers the parts whose checks do not hold,
 * with the check in words and what was seen instead.
 *
 * @example
 * ```ts
 * import { verifyParts } from "@sextant/executor"
 * const unmet = verifyParts(plan.parts, { steps, records, finalPage })
 * // [{ part: "extract name of the products", check: "at least 1 record with name present and non-empty", evidence: "no records were extracted" }]
 * ```
 */
export const verifyParts = (
  parts: ReadonlyArray<GoalPart>,
  evidence: GoalEvidence,
): ReadonlyArray<UnmetPart> =>
  parts.flatMap((part, index) => {
    const why = judge(part, index, evidence)
    return why === undefined
      ? []
      : [{ part: part.description, check: describeGoalCheck(part.check), evidence: why }]
  })

/**
 * Grounding a parsed command on a page: a `Command` of the grammar and the elements of a `look()` →
 * one action on one of those elements, or a completion. Nothing here reads words of the instruction;
 * the grammar (`../Grammar.ts`) has already done that.
 */
import { findingWords, type PageElement } from "@sextant/core"
import type { ElementAction } from "../../Planner.ts"
import { type Command, describeCommand, describeTarget, type TargetPhrase } from "../Command.ts"
import { parseCommands } from "../Grammar.ts"
import {
  type Ancestry,
  ancestorElement,
  canTake,
  type GroundedElement,
  groundTarget,
  type Intent,
  listedNames,
  normalizeText,
  optionScore,
  textScore,
} from "../Grounding.ts"
import { verbOnItem } from "../Intent.ts"
import { plainOutlineLine, STEPPER } from "../Outline.ts"
import {
  CLOSE_WORDS,
  COMMIT_WORDS,
  GLOSSARY,
  NEXT_WORDS,
  PREVIOUS_WORDS,
  SEARCH_WORDS,
  STEP_ON_WORDS,
  SUBMIT_WORDS,
  USER_WORDS,
} from "../Vocabulary.ts"
import { resolvePick } from "./Items.ts"
import { headingNamed } from "./Locate.ts"

/** Whether a control commits something by its name (Submit, Buy now, Place order, 提交 …): from the language data. */
const isCommit = (element: PageElement): boolean => COMMIT_WORDS.test(element.name.normalize("NFKC"))

/** The locator of page-level actions (navigate, scroll, back, press a key), as in `PageSnapshot.actions`. */
export const PAGE_LOCATOR = "_page"

/** The page as text-to-action sees it: the element list and, when known, the ancestors from the outline. */
export interface PageView {
  readonly elements: ReadonlyArray<PageElement>
  readonly ancestry?: Ancestry | undefined
  /** Refs of sections and tabs already opened while looking for the target. */
  readonly opened?: ReadonlySet<string> | undefined
  /** The ref acted on last, to prefer its neighbours among equal names. */
  readonly near?: string | undefined
  /** The outline the elements come from: its text lines are what "copy the invite code" reads. */
  readonly outline?: string | undefined
}

/**
 * One decision for one command: an action (and whether it finishes the command or is a step on the
 * way, such as opening a section before clicking inside it), or a completion.
 */
export type CommandDecision =
  | {
      readonly type: "action"
      readonly action: ElementAction
      readonly final: boolean
      /** The sub-step this action stands for (`username`, `password`, `query`, `opened-e12`), to remember it. */
      readonly part?: string
    }
  | {
      readonly type: "complete"
      readonly summary: string
      readonly suggestions: ReadonlyArray<string>
      /** The command already holds on this page ("already checked"), as opposed to "cannot be done here". */
      readonly satisfied: boolean
      /**
       * The words of the element the command names when no element on the page fits them: a
       * step-wise caller may wait for them to show up (a button rendered late) before giving up.
       */
      readonly missing?: string
    }

const action = (
  element: PageElement | typeof PAGE_LOCATOR,
  method: string,
  description: string,
  parameters: ReadonlyArray<readonly [string, string | number | boolean]> = [],
  final = true,
  part?: string,
): CommandDecision => ({
  type: "action",
  final,
  ...(part === undefined ? {} : { part }),
  action: {
    locator: typeof element === "string" ? element : element.ref,
    description,
    method,
    arguments: parameters.map(([name, value]) => ({ name, value })),
  },
})

const complete = (
  summary: string,
  suggestions: ReadonlyArray<string> = [],
  satisfied = false,
  missing?: string,
): CommandDecision => ({
  type: "complete",
  summary,
  suggestions,
  satisfied,
  ...(missing === undefined ? {} : { missing }),
})

const alreadyDone = (summary: string): CommandDecision => complete(summary, [], true)

const label = (element: PageElement): string => `${element.role} "${element.name}" [${element.ref}]`

const MINIMUM_TEXT_SCORE = 40

/** The two buttons of a stepper the outline marked (see `STEPPER` in `../Outline.ts`), and the number it shows. */
interface Stepper {
  readonly down: PageElement
  readonly up: PageElement
  readonly shows: string
  readonly caption: string
}

/**
 * The stepper a field phrase names: the pair of buttons around a shown number whose names or caption
 * ("Adults" before `− 2 +`, "More adults") fit the words best, if any fits as well as grounding asks.
 */
const stepperNamed = (field: TargetPhrase, view: PageView): Stepper | undefined => {
  const words = field.text ?? field.raw
  const best = view.elements
    .filter((element) => element.attributes[STEPPER.pair] !== undefined)
    .map((element) => ({
      element,
      score: Math.max(
        textScore(element, words),
        textScore({ ...element, name: element.attributes[STEPPER.label] ?? "" }, words),
      ),
    }))
    .filter((candidate) => candidate.score >= MINIMUM_TEXT_SCORE)
    .toSorted((left, right) => right.score - left.score)[0]?.element
  if (best === undefined) return undefined
  const pair = view.elements.filter(
    (element) => element.attributes[STEPPER.pair] === best.attributes[STEPPER.pair],
  )
  const down = pair.find((element) => element.attributes[STEPPER.step] === "down")
  const up = pair.find((element) => element.attributes[STEPPER.step] === "up")
  if (down === undefined || up === undefined) return undefined
  return {
    down,
    up,
    shows: best.attributes[STEPPER.shows] ?? "",
    caption: best.attributes[STEPPER.label] || best.name,
  }
}

/**
 * One press towards `value` on a stepper, the number read again before each press; done when it shows
 * the value. A value that is no number, a shown number that cannot be read, a disabled button or a
 * press that left the number as it was ends the command unfinished, with why.
 */
const stepTo = (stepper: Stepper, value: string, done: ReadonlySet<string>): CommandDecision => {
  const wanted = /^-?\d+(?:\.\d+)?$/.test(value.trim()) ? Number(value.trim()) : Number.NaN
  const now = /^-?\d+(?:\.\d+)?$/.test(stepper.shows.trim()) ? Number(stepper.shows.trim()) : Number.NaN
  const what = `"${stepper.caption}" (between ${label(stepper.down)} and ${label(stepper.up)})`
  if (Number.isNaN(wanted))
    return complete(`"${value}" is not a number, and ${what} steps a number`, [
      'say the number: "set it to 3"',
    ])
  if (Number.isNaN(now)) return complete(`the number ${what} shows cannot be read ("${stepper.shows}")`)
  if (now === wanted) return alreadyDone(`${what} shows ${now}`)
  const button = wanted > now ? stepper.up : stepper.down
  const part = `stepped-${button.ref}-${now}`
  if (button.disabled === true)
    return complete(`${what} shows ${now}, and ${label(button)} is disabled: ${wanted} cannot be reached`)
  if (done.has(part))
    return complete(
      `${what} still shows ${now} after ${label(button)} was pressed: ${wanted} cannot be reached`,
    )
  return action(
    button,
    "click",
    `press ${label(button)}: ${what} shows ${now}, wanted ${wanted}`,
    [],
    false,
    part,
  )
}

/**
 * Words of controls that commit something (send a form, spend money, delete data). Such a control may
 * also say `expanded=false` (a "Submit ▾" split button, a "Delete" disclosure), but pressing it is
 * never a way of looking for something: it is pressed only when the instruction names it.
 */
/**
 * Elements that open a hidden part of the page: collapsed sections and tabs not selected. A commit
 * control (Submit, Buy, Delete, 提交 …) is never one of them, whatever state it shows: it is pressed
 * only when the instruction names it, which grounding handles, never while looking for something.
 */
const revealers = (
  elements: ReadonlyArray<PageElement>,
  options: { readonly menus?: boolean } = {},
): ReadonlyArray<PageElement> =>
  elements.filter(
    (element) =>
      element.disabled !== true &&
      ((element.expanded === false &&
        (options.menus === true || element.attributes["aria-haspopup"] === undefined)) ||
        (element.role === "tab" && element.selected !== true)) &&
      !isCommit(element),
  )

/**
 * What to open next while looking for a control an instruction names that the page does not show: a
 * collapsed section, a closed menu or a tab not selected (never a commit control), the one whose name
 * relates to the words first, else the first in reading order; none of those in `tried`.
 */
export const nextRevealer = (
  elements: ReadonlyArray<PageElement>,
  words: string,
  tried: ReadonlySet<string>,
): PageElement | undefined => {
  const candidates = revealers(elements, { menus: true }).filter((element) => !tried.has(element.ref))
  if (candidates.length === 0) return undefined
  const related = candidates
    .map((element) => ({ element, score: textScore(element, words) }))
    .toSorted((left, right) => right.score - left.score)
  return related[0]!.score > 0 ? related[0]!.element : candidates[0]
}

/**
 * When nothing fits, open what could hide it: a collapsed section or tab whose name relates to
 * the words first, else the first one not yet tried (a person opens them in order).
 */
const reveal = (target: TargetPhrase, view: PageView, what: string): CommandDecision | undefined => {
  // Each section or tab is opened once per command: a tab switched away from is not tried again.
  const candidates = revealers(view.elements).filter((element) => !view.opened?.has(element.ref))
  if (candidates.length === 0) return stepOn(view, what)
  const words = target.container?.text ?? target.text ?? target.raw
  const related = candidates
    .map((element) => ({ element, score: textScore(element, words) }))
    .toSorted((left, right) => right.score - left.score)
  const pick = related[0]!.score > 0 ? related[0]!.element : candidates[0]!
  return action(pick, "click", `open ${label(pick)} to look for ${what}`, [], false, `opened-${pick.ref}`)
}

/**
 * A form in steps shows one step at a time: what a later step holds is behind its Next button (no commit
 * control), pressed as a person goes on to the step that holds it. The page changing step is the press's
 * effect; a step that refuses to go on (a required field left empty) leaves the page unchanged, and the
 * run stops on that instead of pressing again.
 */
const stepOn = (view: PageView, what: string): CommandDecision | undefined => {
  const next = view.elements.find(
    (element) =>
      element.disabled !== true &&
      (element.role === "button" || element.tag === "button") &&
      STEP_ON_WORDS.includes(normalizeText(element.name) || element.name.trim()) &&
      !isCommit(element) &&
      view.ancestry?.get(element.ref)?.some((ancestor) => ancestor.role === "form") === true,
  )
  return next === undefined
    ? undefined
    : action(next, "click", `go on with ${label(next)} to look for ${what}`, [], false)
}

/**
 * The best candidate whose words are close enough. `visible` in a snapshot means "in the viewport":
 * an element below the fold is still there to act on (the driver scrolls to it).
 */
const best = (target: TargetPhrase, view: PageView, intent: Intent): GroundedElement | undefined => {
  const found = groundTarget(target, view.elements, {
    intent,
    ancestry: view.ancestry,
    near: view.near,
  }).find(
    (candidate) =>
      target.text === undefined ||
      textScore(candidate.element, target.text) >= MINIMUM_TEXT_SCORE ||
      textScore(candidate.element, target.raw) >= 92,
  )
  if (found !== undefined || target.container === undefined) return found
  // A container the page does not show by that name ("the cookie banner") says nothing: drop it. One it
  // shows as a control with nothing in it yet (a closed folder, "Sextant under Projects") is opened first.
  const { container, ...rest } = target
  const anyInside = view.elements.some(
    (element) =>
      groundTarget({ ...rest, raw: "", container }, [element], { intent: "any", ancestry: view.ancestry })
        .length > 0,
  )
  // A menu or tab said by name that is not shown yet is behind a closed control: look there first.
  const closed =
    (container.text !== undefined &&
      view.elements.some(
        (element) => element.expanded === false && textScore(element, container.text!) >= MINIMUM_TEXT_SCORE,
      )) ||
    ((container.role === "menuitem" || container.role === "tab") &&
      revealers(view.elements).some((element) => !view.opened?.has(element.ref)))
  return anyInside || closed ? undefined : best(rest, view, intent)
}

const notFound = (target: TargetPhrase, view: PageView, intent: Intent): CommandDecision => {
  const nearest = groundTarget(
    { raw: target.raw, ...(target.role === undefined ? {} : { role: target.role }) },
    view.elements,
    {
      intent,
    },
  )
    .slice(0, 3)
    .map((candidate) => candidate.element.name)
    .filter((name) => name !== "")
  return complete(
    `no element on this page fits ${describeTarget(target)}`,
    nearest.length > 0
      ? nearest.map((name) => `did you mean "${name}"?`)
      : ["call look() again after the page changes, or name the element differently"],
    false,
    target.text,
  )
}

/** Grounds a target, opening sections or tabs or menus on the way when the target is hidden. */
const locate = (
  target: TargetPhrase,
  view: PageView,
  intent: Intent,
): { readonly element: PageElement } | { readonly decision: CommandDecision } => {
  if (target.path !== undefined && target.path.length > 1) return locatePath(target, view)
  // Words that name no element (no text, kind, position or path left after parsing) are never
  // grounded on whatever element comes first.
  if (
    (target.text === undefined || target.text.trim() === "") &&
    target.role === undefined &&
    target.ordinal === undefined
  )
    return {
      decision: complete(`no element is named in "${target.raw || describeTarget(target)}"`, [
        'name the element, e.g. click "Save" or type "Ada" into Name',
      ]),
    }
  const found = best(target, view, intent)
  if (found !== undefined) return { element: found.element }
  // A container that is itself a control ("My profile from the Account menu"): open it first.
  if (target.container !== undefined && target.container.text !== undefined) {
    const holder = best({ raw: target.container.raw, text: target.container.text }, view, "click")
    if (holder !== undefined && !view.opened?.has(holder.element.ref))
      return {
        decision: action(
          holder.element,
          "click",
          `open ${label(holder.element)} to look for ${describeTarget(target)}`,
          [],
          false,
          `opened-${holder.element.ref}`,
        ),
      }
  }
  // Pages do not list what a closed section or tab hides: open those before giving up.
  const opened = reveal(target, view, describeTarget(target))
  if (opened !== undefined && target.text !== undefined) return { decision: opened }
  return { decision: notFound(target, view, intent) }
}

/** A menu path: act on the deepest segment that shows; hover (or click) the ones before it to open them. */
const locatePath = (
  target: TargetPhrase,
  view: PageView,
): { readonly element: PageElement } | { readonly decision: CommandDecision } => {
  const path = target.path!
  for (let depth = path.length - 1; depth >= 0; depth -= 1) {
    const segment: TargetPhrase = { raw: path[depth]!, text: path[depth]! }
    const found = best(segment, view, "click")
    if (found === undefined) continue
    if (depth === path.length - 1) {
      const rest = pastOwnName(found.element, segment.raw)
      if (rest === undefined) return { element: found.element }
      return nestedItem(found.element, rest, view)
    }
    const element = found.element
    // A collapsed menu button or sub-menu opens on a click (and a click opens hover menus too);
    // an item that shows no state is hovered.
    const method = element.expanded === false || element.role !== "menuitem" ? "click" : "hover"
    return {
      decision: action(
        element,
        method,
        `${method} ${label(element)} to open "${path[depth + 1]}"`,
        [],
        false,
      ),
    }
  }
  // No part shows: the menu is behind a closed menu button ("☰") or section; open it first.
  const opened = reveal({ raw: path[0]!, text: path[0]! }, view, `"${path.join(" > ")}"`)
  if (opened !== undefined) return { decision: opened }
  return {
    decision: complete(`no part of the menu path ${path.join(" > ")} is on this page`, [
      "open the menu's page first",
    ]),
  }
}

/**
 * The words of a menu item said as one name past the name of an item that opens a sub-menu of its own
 * ("Export as PNG image" where the page shows "Export ▸"), or `undefined` when the element is no such
 * item or its name is all the words say.
 */
const pastOwnName = (element: PageElement, words: string): string | undefined => {
  if (element.expanded === undefined) return undefined
  const own = normalizeText(element.name)
    .split(" ")
    .filter((word) => word !== "")
  const said = normalizeText(words).split(" ")
  if (own.length === 0 || !own.every((word) => said.includes(word))) return undefined
  const rest = said.filter((word) => !own.includes(word))
  return rest.length === 0 ? undefined : rest.join(" ")
}

/**
 * A nested menu item said as one name: open the sub-menu its first words name (a step on the way),
 * then click the item of that sub-menu the rest of the words name.
 */
const nestedItem = (
  opener: PageElement,
  rest: string,
  view: PageView,
): { readonly element: PageElement } | { readonly decision: CommandDecision } => {
  if (opener.expanded === false)
    return {
      decision: action(opener, "click", `open ${label(opener)} to look for "${rest}"`, [], false),
    }
  const own = normalizeText(opener.name)
  const others = view.elements.filter((element) => element.ref !== opener.ref)
  const inside = others.filter((element) =>
    (view.ancestry?.get(element.ref) ?? []).some((ancestor) => normalizeText(ancestor.name) === own),
  )
  const item = best(
    { raw: rest, text: rest },
    { ...view, elements: inside.length > 0 ? inside : others },
    "click",
  )
  if (item !== undefined) return { element: item.element }
  return {
    decision: complete(`the sub-menu ${label(opener)} shows no item named "${rest}"`, [
      `open ${opener.name} and name one of its items`,
    ]),
  }
}

/** A native `<select>`: said by its tag, or (from an outline, where tags are unknown) by options that are not option elements. */
const isNativeSelect = (element: PageElement, view: PageView): boolean =>
  element.tag === "select" ||
  (element.tag === "" &&
    element.options !== undefined &&
    element.options.length > 0 &&
    !view.elements.some((other) => other.role === "option" && element.options!.includes(other.name)))

const matchOption = (options: ReadonlyArray<string>, wanted: string): string | undefined => {
  const scored = options
    .map((option) => ({ option, score: optionScore(option, wanted) }))
    .filter((entry) => entry.score >= 50)
    .toSorted((left, right) => right.score - left.score)
  return scored[0]?.option
}

const isSelected = (element: PageElement): boolean => element.selected === true || element.checked === true

/** Roles of the elements that hold the options of one named group. */
const GROUP_ROLES = new Set(["group", "radiogroup", "listbox", "menu"])
/** Roles of the options a group holds. */
const MEMBER_ROLES = new Set(["radio", "option", "checkbox", "menuitemradio", "menuitemcheckbox"])

/**
 * "The last shipping option": the option at that position among the options of the one group whose name
 * holds every word of the target ("Shipping speed"), in document order; `undefined` when no single group
 * is so named or it has no option at that position.
 */
const positionInGroup = (target: TargetPhrase, view: PageView): PageElement | undefined => {
  if (target.text === undefined || target.ordinal === undefined || view.ancestry === undefined)
    return undefined
  const words = target.text
  const groupOf = (element: PageElement) =>
    view
      .ancestry!.get(element.ref)
      ?.findLast(
        (ancestor) => GROUP_ROLES.has(ancestor.role) && textScore(ancestorElement(ancestor), words) >= 60,
      )
  const members = view.elements.filter(
    (element) => MEMBER_ROLES.has(element.role) && groupOf(element) !== undefined,
  )
  if (new Set(members.map((element) => groupOf(element)!.name)).size !== 1) return undefined
  return target.ordinal === -1 ? members.at(-1) : members[target.ordinal - 1]
}

/** "select A, B and C": native selects take all values at once; ARIA lists, radios and checkboxes one click at a time. */
/** Roles of elements that hold a choice of options and are named like it ("Time zone", "Size"). */
const CHOICE_ROLES = new Set(["listbox", "combobox", "radiogroup", "group"])

/**
 * "Choose the time zone Kathmandu": a single option that starts with the name of a list on the page is
 * that list and, after it, the option.
 */
const listNamedInOption = (
  command: Command & { kind: "select" },
  view: PageView,
): (Command & { kind: "select" }) | undefined => {
  if (command.list !== undefined || command.options.length !== 1) return undefined
  const option = normalizeText(command.options[0]!)
  const list = view.elements.find((element) => {
    const name = normalizeText(element.name)
    return CHOICE_ROLES.has(element.role) && name !== "" && option.startsWith(`${name} `)
  })
  if (list === undefined) return undefined
  const rest = command.options[0]!.trim().split(/\s+/).slice(list.name.trim().split(/\s+/).length).join(" ")
  if (rest === "") return undefined
  return {
    ...command,
    options: [rest],
    target: { raw: rest, text: rest },
    list: { raw: list.name, text: list.name },
  }
}

/**
 * A combobox that is a text field which suggests as one types, not a button or a select-only box that
 * opens a list: an `<input>` (or editable content) where the tag is known; from an outline, where it is
 * not, one that shows no value of its own (a select-only box shows its choice or a prompt).
 */
const suggestsAsTyped = (element: PageElement): boolean =>
  element.tag === "input" ||
  element.attributes.contenteditable === "true" ||
  (element.tag === "" && (element.value ?? "") === "")

const decideSelect = (command: Command & { kind: "select" }, view: PageView): CommandDecision => {
  const elements = view.elements
  const split = listNamedInOption(command, view)
  const whole = normalizeText(command.options[0] ?? "")
  if (split !== undefined && !elements.some((element) => normalizeText(element.name) === whole))
    return decideSelect(split, view)
  let list: PageElement | undefined
  if (command.list !== undefined) {
    const located = locate(command.list, view, "select")
    if ("element" in located) list = located.element
  } else if (command.options.length > 0) {
    list = elements.find(
      (element) =>
        isNativeSelect(element, view) &&
        command.options.every((option) => matchOption(element.options ?? [], option) !== undefined),
    )
  }
  if (list !== undefined && isNativeSelect(list, view)) {
    const values = command.options.map((option) => matchOption(list.options ?? [], option))
    const missing = command.options.filter((_, index) => values[index] === undefined)
    if (missing.length > 0)
      return complete(
        `${label(list)} has no option ${missing.map((option) => `"${option}"`).join(", ")}`,
        (list.options ?? []).slice(0, 5).map((option) => `select "${option}"`),
      )
    return action(
      list,
      "select",
      describeCommand(command),
      values.map((value) => ["value", value!] as const),
    )
  }
  // Group members: options of the list, or radios/checkboxes/options anywhere named like the options.
  const inList = (element: PageElement): boolean => {
    if (list === undefined && command.list === undefined) return true
    const ancestors = view.ancestry?.get(element.ref)
    if (ancestors === undefined || command.list === undefined) return true
    return ancestors.some(
      (ancestor) =>
        normalizeText(ancestor.name).includes(normalizeText(command.list!.text ?? command.list!.raw)) ||
        (list !== undefined && ancestor.name === list.name),
    )
  }
  const members = elements.filter(
    (element) =>
      ["option", "radio", "checkbox", "menuitemradio", "menuitemcheckbox", "switch"].includes(element.role) &&
      inList(element),
  )
  if (command.options.length === 0) {
    const chosen = members.find((element) => isSelected(element))
    if (chosen === undefined)
      return alreadyDone(
        `nothing is selected${command.list === undefined ? "" : ` in ${describeTarget(command.list)}`}`,
      )
    return action(
      chosen,
      chosen.role === "option" ? "click" : "uncheck",
      `clear ${label(chosen)} to select nothing`,
      [],
      false,
    )
  }
  if (command.options.length === 1 && command.target.ordinal !== undefined) {
    const grouped = positionInGroup(command.target, view)
    if (grouped !== undefined) {
      if (isSelected(grouped)) return alreadyDone(`${label(grouped)} is already selected`)
      const method = grouped.role === "checkbox" || grouped.role === "radio" ? "check" : "click"
      return action(grouped, method, `select ${label(grouped)}`)
    }
    const located = locate(command.target, view, "click")
    if ("decision" in located) return located.decision
    return action(located.element, "click", `select ${label(located.element)}`)
  }
  for (const [index, option] of command.options.entries()) {
    const phrase: TargetPhrase = { raw: option, text: option }
    const found = best(phrase, { elements: members, ancestry: view.ancestry }, "select")
    const last = index === command.options.length - 1
    if (found !== undefined) {
      if (isSelected(found.element)) continue
      const method = found.element.role === "checkbox" || found.element.role === "radio" ? "check" : "click"
      return action(found.element, method, `select ${label(found.element)}`, [], last)
    }
    // Not a member of a group: an ARIA listbox that is closed, or a plain element named like the option.
    if (list !== undefined && list.expanded === false)
      return action(list, "click", `open ${label(list)} to choose "${option}"`, [], false)
    // An open list without the option: say what it offers instead of clicking elsewhere.
    const offered = members.filter((element) => element.role === "option")
    if (list !== undefined && offered.length > 0) {
      return complete(
        `${label(list)} has no option "${option}"`,
        offered.slice(0, 5).map((element) => `select "${element.name}"`),
      )
    }
    // A custom drop-down named as the list ("Switch my plan to Pro") shows its options only once
    // opened: open it before looking for the option elsewhere on the page, where a weaker name may fit.
    if (list === undefined && command.list !== undefined) {
      const opener = best(command.list, view, "click")?.element
      if (
        opener !== undefined &&
        opener.expanded === false &&
        !isCommit(opener) &&
        !view.opened?.has(opener.ref)
      )
        return action(
          opener,
          "click",
          `open ${label(opener)} to choose "${option}"`,
          [],
          false,
          `opened-${opener.ref}`,
        )
    }
    const anywhere = locate(phrase, view, "click")
    if ("decision" in anywhere) {
      // A custom drop-down shows its options only once opened: open the list named, once.
      if (command.list !== undefined) {
        const opener = list ?? best(command.list, view, "click")?.element
        // A link goes to another page: it opens no list of this one ("contact email" is no "Contact" link).
        if (opener !== undefined && opener.role !== "link" && !view.opened?.has(opener.ref))
          return action(
            opener,
            "click",
            `open ${label(opener)} to choose "${option}"`,
            [],
            false,
            `opened-${opener.ref}`,
          )
      }
      return anywhere.decision
    }
    if (isSelected(anywhere.element)) continue
    return action(anywhere.element, "click", `select ${label(anywhere.element)}`, [], last)
  }
  return alreadyDone(
    `${command.options.map((option) => `"${option}"`).join(", ")} ${command.options.length === 1 ? "is" : "are"} already selected`,
  )
}

/**
 * "Check Black in Colors" where Colors is a native `<select>`: the option is chosen in that list. Only a
 * list that shows no choice yet, or a single choice, is read this way (choosing one option of a multiple
 * list replaces what it holds); otherwise `undefined`.
 */
const optionOfNativeList = (target: TargetPhrase, view: PageView): CommandDecision | undefined => {
  const wanted = target.text ?? target.raw
  if (wanted.trim() === "" || target.ordinal !== undefined) return undefined
  const lists = view.elements.filter(
    (element) =>
      isNativeSelect(element, view) &&
      matchOption(element.options ?? [], wanted) !== undefined &&
      (element.role === "combobox" || (element.value ?? "") === ""),
  )
  const named =
    target.container === undefined
      ? lists
      : lists.filter(
          (element) =>
            textScore(element, target.container!.text ?? target.container!.raw) >= MINIMUM_TEXT_SCORE,
        )
  if (named.length !== 1) return undefined
  return decideSelect(
    {
      kind: "select",
      options: [wanted],
      list: { raw: named[0]!.name, text: named[0]!.name },
      target: { raw: wanted, text: wanted },
    },
    view,
  )
}

/** The page's search box, if it shows one. */
export const findSearchBox = (view: PageView): PageElement | undefined => {
  const editable = view.elements.filter((element) => canTake(element, "type") && element.disabled !== true)
  return (
    editable.find((element) => element.role === "searchbox" || element.attributes.type === "search") ??
    editable.find((element) =>
      [
        element.name,
        element.attributes.placeholder ?? "",
        element.attributes.name ?? "",
        element.attributes.id ?? "",
      ].some((text) =>
        SEARCH_WORDS.some((word) => normalizeText(text).split(" ").includes(word) || text.includes(word)),
      ),
    )
  )
}

/**
 * The submit control: a `type=submit` button, else a button named like one (exactly, then as a word of
 * its name: "Send message"), inside a form first; with several, the one nearest below the field.
 */
const findSubmit = (view: PageView, near?: PageElement): PageElement | undefined => {
  const inForm = (element: PageElement) =>
    view.ancestry
      ?.get(element.ref)
      ?.some((ancestor) => ancestor.role === "form" || ancestor.role === "search") === true
  const words = (element: PageElement) => normalizeText(element.name)
  const scoreOf = (element: PageElement): number => {
    let score = 0
    if (element.attributes.type === "submit") score += 3
    if (SUBMIT_WORDS.includes(words(element))) score += 2
    else if (SUBMIT_WORDS.some((word) => ` ${words(element)} `.includes(` ${word} `))) score += 1.5
    if (score > 0 && inForm(element)) score += 1
    // An open dialog sits over the page: its own button is the one that submits what was typed there.
    if (score > 0 && inDialog(view, element)) score += 2
    return score
  }
  const scored = view.elements
    .filter((element) => element.disabled !== true && (element.role === "button" || element.tag === "button"))
    .map((element) => ({ element, score: scoreOf(element) }))
    .filter((entry) => entry.score > 0)
  const top = Math.max(0, ...scored.map((entry) => entry.score))
  const pool = scored.filter((entry) => entry.score === top).map((entry) => entry.element)
  if (near?.box === undefined || pool.length <= 1) return pool[0]
  return pool.toSorted((left, right) => distance(near, left) - distance(near, right))[0]
}

const inDialog = (view: PageView, element: PageElement): boolean =>
  view.ancestry
    ?.get(element.ref)
    ?.some((ancestor) => ancestor.role === "dialog" || ancestor.role === "alertdialog") === true

const distance = (from: PageElement, to: PageElement): number => {
  if (from.box === undefined || to.box === undefined) return Number.POSITIVE_INFINITY
  const dy = to.box.y - from.box.y
  return Math.abs(to.box.x - from.box.x) + (dy < 0 ? 4 * -dy : dy)
}

const findUserField = (view: PageView): PageElement | undefined => {
  const editable = view.elements.filter(
    (element) => canTake(element, "type") && element.attributes.type !== "password",
  )
  return (
    editable.find(
      (element) => element.attributes.type === "email" || element.attributes.autocomplete === "username",
    ) ??
    editable.find((element) =>
      USER_WORDS.some((word) =>
        normalizeText(
          `${element.name} ${element.attributes.name ?? ""} ${element.attributes.id ?? ""} ${element.attributes.placeholder ?? ""}`,
        ).includes(word),
      ),
    )
  )
}

const findPasswordField = (view: PageView): PageElement | undefined =>
  view.elements.find((element) => element.attributes.type === "password")

const decideLogin = (
  command: Command & { kind: "login" },
  view: PageView,
  done: ReadonlySet<string>,
  loginTool: boolean,
): CommandDecision => {
  const user = findUserField(view)
  const password = findPasswordField(view)
  // A login is done when the form has gone after submitting it, not when the button was clicked:
  // wrong credentials leave the form on the page, and the goal must not go on as if signed in.
  if (done.has("submitted")) {
    return password === undefined
      ? alreadyDone("signed in: the login form is gone")
      : complete("the login form is still shown after submitting it: check the username and password", [
          "log in again with other credentials",
        ])
  }
  if (user === undefined && password === undefined) {
    const link =
      best({ raw: "log in", text: "log in" }, view, "click") ??
      best({ raw: "sign in", text: "sign in" }, view, "click") ??
      best({ raw: "登录", text: "登录" }, view, "click")
    if (link !== undefined)
      return action(link.element, "click", `open ${label(link.element)} to log in`, [], false)
    return complete("there is no login form on this page", ["go to the login page first"])
  }
  // Both credentials and both fields, nothing typed yet: the `login` tool types, submits and reads the
  // page's verdict, so wrong credentials fail the step with the page's own message.
  if (
    loginTool &&
    command.options === undefined &&
    user !== undefined &&
    password !== undefined &&
    command.username !== undefined &&
    command.password !== undefined &&
    done.size === 0 &&
    (user.value ?? "") === "" &&
    (password.value ?? "") === ""
  ) {
    return action(
      PAGE_LOCATOR,
      "login",
      `log in as ${command.username}`,
      [
        ["username", command.username],
        ["password", command.password],
      ],
      false,
      "submitted",
    )
  }
  if (
    user !== undefined &&
    command.username !== undefined &&
    user.value !== command.username &&
    !done.has("username")
  ) {
    return action(
      user,
      "input",
      `type the username into ${label(user)}`,
      [["value", command.username]],
      false,
      "username",
    )
  }
  if (
    password !== undefined &&
    command.password !== undefined &&
    (password.value ?? "") === "" &&
    !done.has("password")
  ) {
    return action(
      password,
      "input",
      `type the password into ${label(password)}`,
      [["value", command.password]],
      false,
      "password",
    )
  }
  for (const [index, option] of (command.options ?? []).entries()) {
    const box = locate(option, view, "check")
    if ("decision" in box) return box.decision
    if (box.element.checked !== true && !done.has(`option-${index}`))
      return action(box.element, "check", `check ${label(box.element)}`, [], false, `option-${index}`)
  }
  const submit = findSubmit(view, password ?? user)
  if (submit === undefined)
    return action(password ?? user!, "press", "press Enter to log in", [["key", "Enter"]], false, "submitted")
  return action(submit, "click", `log in with ${label(submit)}`, [], false, "submitted")
}

/** The pager link or button: `rel`, or a name such as Next / 下一页 / »; one in the viewport first. */
const findPager = (view: PageView, words: ReadonlyArray<string>, rel: string): PageElement | undefined =>
  view.elements
    .filter(
      (element) =>
        element.disabled !== true &&
        element.attributes["aria-disabled"] !== "true" &&
        (element.role === "link" || element.role === "button") &&
        (element.attributes.rel === rel ||
          words.includes(normalizeText(element.name)) ||
          words.includes(element.name.trim().toLowerCase())),
    )
    .toSorted((left, right) => Number(right.visible) - Number(left.visible))[0]

/** "Music and Sports", "A, B and C": the targets of a list, or undefined for one target. */
const listedTargets = (target: TargetPhrase): ReadonlyArray<TargetPhrase> | undefined => {
  const text = target.text
  if (text === undefined || target.path !== undefined) return undefined
  const parts = listedNames(text)
  if (parts === undefined) return undefined
  return parts.map((part) => ({
    raw: part,
    text: part,
    ...(target.container === undefined ? {} : { container: target.container }),
  }))
}

/**
 * A control named by the verb the user said ("Reject cookies" → "Reject all", "Accept all cookies" →
 * "Accept all"), tried when the target's words alone fit nothing: the verb with the words, then the verb.
 */
const byVerb = (verb: string | undefined, target: TargetPhrase, view: PageView): PageElement | undefined => {
  if (verb === undefined) return undefined
  const words = target.text ?? target.raw
  for (const text of [`${verb} ${words}`, verb]) {
    const found = best(
      { raw: text, text, ...(target.container === undefined ? {} : { container: target.container }) },
      view,
      "click",
    )
    if (found !== undefined && textScore(found.element, text) >= 60) return found.element
  }
  return undefined
}

/** What `decide` needs besides the command and the page: sub-steps of the command already done. */
export interface DecideState {
  /** Parts of a multi-action command already done: `username`, `password`, `query`. */
  readonly done?: ReadonlySet<string> | undefined
  /**
   * The `login` tool (of `@sextant/tools`' compound tools) is registered: a login with both credentials
   * is one `login` call, which fails with the page's own message when the credentials are wrong.
   * Otherwise (the default) the fields are typed one by one and the form submitted by a click.
   */
  readonly loginTool?: boolean | undefined
  /** The text a "copy" clause read earlier in the run, which a "paste" clause types. */
  readonly clipboard?: string | undefined
}

/** Most characters one copy takes: a code, a number, a line; not a page. */
const MAX_COPIED = 200

/**
 * The data cell after a header cell of a table row that names one of `phrases` (`- **SKU** | SX-0001`
 * → `SX-0001`), given the row as printed (`raw`) and with its header cells plain (`text`): a cell the
 * two spell differently is a header cell. A row of header cells alone (the column heads) gives none.
 */
const rowValue = (raw: string, text: string, phrases: ReadonlyArray<string>): string | undefined => {
  const printed = raw.split(" | ")
  const cells = text.split(" | ")
  if (cells.length < 2 || cells.length !== printed.length) return undefined
  for (const [index, cell] of cells.entries()) {
    const next = cells[index + 1]?.trim()
    const isHeader = cell !== printed[index]
    if (!isHeader || next === undefined || next === "" || cells[index + 1] !== printed[index + 1]) continue
    const words = cell
      .replace(/[:：]\s*$/u, "")
      .trim()
      .toLowerCase()
    if (phrases.includes(words) && next.length <= MAX_COPIED) return next
  }
  return undefined
}

/**
 * The text the page shows for what a "copy" clause names: the value of an element by that name
 * (a read-only field holding the code), else what follows the words on a line of the outline
 * ("Your invite code: JOIN-4821" → "JOIN-4821", a table row "**SKU** | SX-0001" → "SX-0001"). A Chinese name is tried in its English words too.
 */
export const copiedText = (
  target: TargetPhrase,
  view: PageView,
): { readonly text: string; readonly element?: PageElement } | undefined => {
  const words = target.text ?? target.raw
  const named = best(target, view, "any")?.element
  if (named !== undefined && named.attributes.type !== "password") {
    const value = (named.value ?? "").trim()
    if (value !== "" && value !== "<secret>" && value.length <= MAX_COPIED)
      return { text: value, element: named }
  }
  const phrases = [words, ...(GLOSSARY.get(words) ?? [])].map((phrase) => phrase.toLowerCase())
  for (const line of (view.outline ?? "").split("\n")) {
    if (/\[ref=e\d+\]/.test(line)) continue
    const raw = line.replace(/^\s*-\s*/, "")
    const text = plainOutlineLine(line).replace(/^\s*-\s*/, "")
    const row = rowValue(raw, text, phrases)
    if (row !== undefined) return { text: row }
    for (const phrase of phrases) {
      const at = text.toLowerCase().indexOf(phrase)
      if (at < 0) continue
      const rest = /^\s*"?\s*(?:[:：]|is\b|是)\s*(.+)$/u.exec(text.slice(at + phrase.length))
      const value = rest?.[1]?.trim().replace(/^["“'「](.*)["”'」]$/u, "$1")
      if (value !== undefined && value !== "" && value.length <= MAX_COPIED) return { text: value }
    }
  }
  return undefined
}

/**
 * The page with each unnamed element called by the words guessed for it (`button (id search)` is
 * "search" here): a command finds an icon button by its guess as by a name. Only grounding reads
 * the guess so; the view and the element keep it apart from the name.
 */
const findableByGuess = (page: PageView): PageView =>
  page.elements.some((element) => element.name === "" && element.guess !== undefined)
    ? {
        ...page,
        elements: page.elements.map((element) =>
          element.name === "" && element.guess !== undefined
            ? { ...element, name: findingWords(element) }
            : element,
        ),
      }
    : page

/**
 * Decides the next action for one parsed command on one page.
 *
 * @example
 * ```ts
 * import { decideCommand } from "@sextant/planner"
 * decideCommand({ kind: "click", target: { raw: "Sign In", text: "Sign In" } }, { elements })
 * // { type: "action", final: true, action: { locator: "e3", method: "click", … } }
 * ```
 */
export const decideCommand = (
  command: Command,
  given: PageView,
  state: DecideState = {},
): CommandDecision => {
  const page = findableByGuess(given)
  const done = state.done ?? new Set<string>()
  const opened = new Set([...done].filter((part) => part.startsWith("opened-")).map((part) => part.slice(7)))
  const view: PageView = opened.size === 0 ? page : { ...page, opened }
  const description = describeCommand(command)
  switch (command.kind) {
    case "navigate":
      return action(PAGE_LOCATOR, "navigate", description, [["url", command.url]])
    case "back":
      return action(PAGE_LOCATOR, "back", description)
    case "press":
      return action(PAGE_LOCATOR, "press", description, [["key", command.key]])
    case "extract":
      return action(PAGE_LOCATOR, "extract", description, [
        ["fields", command.fields.join(",")],
        ...(command.items === undefined ? [] : [["items", command.items] as const]),
        ["pages", command.pages],
      ])
    case "scroll": {
      if (command.within !== undefined) {
        const to = command.to === "top" ? "top" : "bottom"
        const found = best(command.within, view, "any")
        if (found !== undefined) return action(found.element, "scroll", description, [["to", to]])
        // A box that scrolls is often no control: name it by its words.
        return action(PAGE_LOCATOR, "scrollInside", description, [
          ["text", command.within.text ?? command.within.raw],
          ["to", to],
        ])
      }
      if (command.target !== undefined) {
        // A heading is no control: it is brought on screen by its words.
        const heading =
          command.target.text === undefined ? undefined : headingNamed(view.outline, command.target.text)
        if (heading !== undefined)
          return action(PAGE_LOCATOR, "scrollToText", `scroll to the heading "${heading}"`, [
            ["text", heading],
          ])
        const located = locate(command.target, view, "any")
        if ("decision" in located) return located.decision
        return action(located.element, "scroll", description)
      }
      if (command.to !== undefined) return action(PAGE_LOCATOR, "scroll", description, [["to", command.to]])
      return action(PAGE_LOCATOR, "scroll", description, [
        ["direction", command.direction ?? "down"],
        ...(command.count === undefined ? [] : [["count", command.count] as const]),
      ])
    }
    case "login":
      return decideLogin(command, view, done, state.loginTool === true)
    case "pick": {
      if (view.outline === undefined)
        return complete(`"${command.item.said}" needs the page's outline to read its list`)
      const picked = resolvePick(view.outline, { ...command.item, action: command.action })
      if (!picked.ok) return complete(picked.reason)
      const element = view.elements.find((candidate) => candidate.ref === picked.item.ref)
      if (element === undefined)
        return complete(`the control of item ${picked.item.index} is not on the page`)
      const which = `item ${picked.item.index} of the list ("${picked.item.text.slice(0, 60)}")`
      if (element.role === "radio") {
        if (element.checked === true) return alreadyDone(`${label(element)}, ${which}, is already chosen`)
        return action(element, "check", `check ${label(element)}, ${which}`)
      }
      return action(element, "click", `click ${label(element)} of ${which}`)
    }
    case "search": {
      const box =
        command.field === undefined
          ? findSearchBox(view)
          : (() => {
              const located = locate(command.field, view, "type")
              return "element" in located ? located.element : undefined
            })()
      if (box === undefined) {
        // No box here: follow the page's own way to search, as a person would ("Search the shop").
        const way = view.elements.find(
          (element) =>
            element.role === "link" &&
            SEARCH_WORDS.some(
              (word) => normalizeText(element.name).split(" ").includes(word) || element.name.includes(word),
            ),
        )
        if (way !== undefined)
          return action(way, "click", `open ${label(way)} to find a search box`, [], false)
        return complete("there is no search box on this page", [
          "go to a page with a search box, e.g. the home or products page",
        ])
      }
      if (box.value !== command.query && !done.has("query")) {
        return action(
          box,
          "input",
          `type "${command.query}" into ${label(box)}`,
          [["value", command.query]],
          false,
          "query",
        )
      }
      const submit = findSubmit(view, box)
      if (
        submit !== undefined &&
        ["search", "go", "搜索", "submit", "find"].some(
          (word) => normalizeText(submit.name).includes(word) || submit.attributes.type === "submit",
        )
      ) {
        return action(submit, "click", `search with ${label(submit)}`)
      }
      return action(box, "press", `press Enter in ${label(box)} to search`, [["key", "Enter"]])
    }
    case "type": {
      let field: PageElement | undefined
      if (command.field === undefined) {
        const editable = view.elements.filter(
          (element) => element.disabled !== true && canTake(element, "type"),
        )
        field =
          editable.find((element) => element.attributes["data-focused"] === "true") ??
          (editable.length === 1 ? editable[0] : editable.find((element) => (element.value ?? "") === ""))
        if (field === undefined)
          return complete(`no field to type "${command.value}" into`, [
            'say which field: type "…" into Email',
          ])
      } else {
        const located = locate(command.field, view, "type")
        // "Set the adults to 4" where the page shows the number between − and + buttons: step to it.
        const stepper = "decision" in located ? stepperNamed(command.field, view) : undefined
        if (stepper !== undefined) return stepTo(stepper, command.value, done)
        if ("decision" in located) {
          // "Set the T-shirt size to Large", "Shipping speed: Overnight": a choice, not a text field.
          const { role: _role, ...list } = command.field
          const chosen = decideSelect(
            {
              kind: "select",
              options: [command.value],
              list,
              target: { raw: command.value, text: command.value },
            },
            view,
          )
          return chosen.type === "action" || chosen.satisfied ? chosen : located.decision
        }
        field = located.element
      }
      // An autocomplete: type, then pick the suggestion that is the value.
      if (field.role === "combobox" && !isNativeSelect(field, view)) {
        if (!done.has(`typed-${field.ref}`))
          return action(
            field,
            "input",
            `type "${command.value}" into ${label(field)}`,
            [["value", command.value]],
            false,
            `typed-${field.ref}`,
          )
        const suggestion = view.elements.find(
          (element) =>
            element.role === "option" && normalizeText(element.name) === normalizeText(command.value),
        )
        if (suggestion !== undefined)
          return action(suggestion, "click", `choose the suggestion ${label(suggestion)}`)
        return alreadyDone(`typed "${command.value}" into ${label(field)}; no suggestion is shown`)
      }
      if (isNativeSelect(field, view) && field.role !== "textbox") {
        const option = matchOption(field.options ?? [], command.value)
        if (option !== undefined)
          return action(field, "select", `select "${option}" in ${label(field)}`, [["value", option]])
      }
      const method = field.role === "slider" || field.role === "spinbutton" ? "set" : "input"
      return action(field, method, `type "${command.value}" into ${label(field)}`, [["value", command.value]])
    }
    case "click":
    case "open": {
      // "打开邮件提醒", "打开 Wi-Fi": opening a setting the page shows as a switch or box turns it on, as
      // closing it turns it off.
      const setting =
        command.kind === "open" && command.target.text !== undefined && command.target.role === undefined
          ? best(command.target, view, "check")
          : undefined
      if (setting !== undefined && (setting.element.role === "switch" || setting.element.role === "checkbox"))
        return decideCommand({ kind: "check", target: command.target }, page, state)
      // "Open the log-in pop-up": a dialog is opened by a button of this page, not by a link away from it.
      const opensDialog =
        command.kind === "open" && command.target.role === "dialog" && command.target.text !== undefined
      const located = locate(
        opensDialog ? { ...command.target, role: "button" } : command.target,
        view,
        "click",
      )
      if ("decision" in located) {
        const verb = command.kind === "click" ? command.verb : undefined
        const named = byVerb(verb, command.target, view)
        if (named !== undefined) return action(named, "click", `${verb} with ${label(named)}`)
        return located.decision
      }
      return action(located.element, "click", `${command.kind} ${label(located.element)}`)
    }
    case "focus": {
      const located = locate(command.target, view, "type")
      const element = "element" in located ? located.element : undefined
      const anyElement =
        element ??
        (() => {
          const other = locate(command.target, view, "click")
          return "element" in other ? other.element : undefined
        })()
      if (anyElement === undefined)
        return "decision" in located ? located.decision : notFound(command.target, view, "type")
      return action(anyElement, "focus", `focus ${label(anyElement)}`)
    }
    case "drag": {
      const source = locate(command.source, view, "any")
      if ("decision" in source) {
        // Cards and boxes that are dragged are often no control: name them by their words.
        const words = (target: TargetPhrase) => target.text ?? target.raw
        const dropOn = command.target === undefined ? undefined : best(command.target, view, "any")?.element
        return action(PAGE_LOCATOR, "drag", description, [
          ["text", words(command.source)],
          ...(command.offset !== undefined
            ? [["x", command.offset.x] as const, ["y", command.offset.y] as const]
            : dropOn !== undefined
              ? [["to", dropOn.ref] as const]
              : [["toText", words(command.target ?? { raw: "" })] as const]),
        ])
      }
      if (command.offset !== undefined) {
        return action(source.element, "drag", description, [
          ["x", command.offset.x],
          ["y", command.offset.y],
        ])
      }
      const target = locate(command.target ?? { raw: "" }, view, "any")
      if ("decision" in target)
        return action(source.element, "drag", description, [
          ["toText", command.target?.text ?? command.target?.raw ?? ""],
        ])
      return action(source.element, "drag", `drag ${label(source.element)} onto ${label(target.element)}`, [
        ["to", target.element.ref],
      ])
    }
    case "selectText":
      return action(PAGE_LOCATOR, "selectText", description, [["text", command.text]])
    // Copy and paste read the text and type it; the system clipboard is left alone (a headed run
    // must not read or overwrite the user's clipboard, and headless Chromium's clipboard needs
    // permissions WebDriver does not grant). A copy selects the words on the page as a person does
    // before copying, so the clause is a real step; the text it read travels in the policy's history.
    case "copy": {
      const copied = copiedText(command.target, view)
      if (copied === undefined) return notFound(command.target, view, "any")
      return copied.element === undefined
        ? action(PAGE_LOCATOR, "selectText", `copy "${copied.text}"`, [["text", copied.text]])
        : action(copied.element, "focus", `copy "${copied.text}" from ${label(copied.element)}`)
    }
    case "paste": {
      if (state.clipboard === undefined)
        return complete("nothing was copied before this paste", [
          "copy something first: copy the invite code",
        ])
      return decideCommand(
        {
          kind: "type",
          value: state.clipboard,
          ...(command.field === undefined ? {} : { field: command.field }),
        },
        view,
        state,
      )
    }
    case "hover": {
      const located = locate(command.target, view, "hover")
      if ("decision" in located) return located.decision
      return action(located.element, "hover", `hover ${label(located.element)}`)
    }
    case "check":
    case "uncheck": {
      const parts = listedTargets(command.target)
      if (parts !== undefined && best(command.target, view, "check") === undefined) {
        // "Check Music and Sports": one box per turn, done when all hold.
        for (const [index, part] of parts.entries()) {
          const found = locate(part, view, "check")
          if ("decision" in found) return found.decision
          const wanted = command.kind === "check"
          if ((found.element.checked === true || found.element.selected === true) === wanted) continue
          return action(
            found.element,
            command.kind,
            `${command.kind} ${label(found.element)}`,
            [],
            index === parts.length - 1,
          )
        }
        return alreadyDone(
          `${parts.map(describeTarget).join(", ")} already ${command.kind === "check" ? "checked" : "unchecked"}`,
        )
      }
      const located = locate(command.target, view, "check")
      if ("decision" in located) {
        const verb = command.kind === "check" ? command.verb : undefined
        const named = byVerb(verb, command.target, view)
        if (named !== undefined && best(command.target, view, "click") === undefined)
          return action(named, "click", `${verb} with ${label(named)}`)
        // "Colors 里选中 Black": an option of a native list box is chosen there, not clicked elsewhere.
        if (command.kind === "check") {
          const chosen = optionOfNativeList(command.target, view)
          if (chosen !== undefined) return chosen
        }
        // A label that is not a checkbox itself ("I agree"): click what carries the words.
        const fallback = locate(command.target, view, "click")
        return "element" in fallback
          ? action(fallback.element, "click", `${command.kind} ${label(fallback.element)}`)
          : located.decision
      }
      const element = located.element
      const wanted = command.kind === "check"
      if ((element.checked === true || element.selected === true) === wanted) {
        return alreadyDone(`${label(element)} is already ${wanted ? "checked" : "unchecked"}`)
      }
      return action(element, command.kind, `${command.kind} ${label(element)}`)
    }
    case "expand":
    case "collapse": {
      const located = locate(command.target, view, "expand")
      if ("decision" in located) return located.decision
      const element = located.element
      const wanted = command.kind === "expand"
      if (element.expanded === wanted)
        return alreadyDone(`${label(element)} is already ${wanted ? "expanded" : "collapsed"}`)
      return action(element, "click", `${command.kind} ${label(element)}`)
    }
    case "close": {
      // "关闭定位服务", "关掉 Wi-Fi": closing a setting the page shows as a switch or box turns it off.
      const setting = command.target.text === undefined ? undefined : best(command.target, view, "check")
      if (setting !== undefined && (setting.element.role === "switch" || setting.element.role === "checkbox"))
        return decideCommand({ kind: "uncheck", target: command.target }, page, state)
      const closeRank = (element: PageElement) =>
        CLOSE_WORDS.indexOf(normalizeText(element.name) || element.name.trim())
      // A close button before a cancel button, whatever their order on the page.
      const buttons = view.elements
        .filter(
          (element) => (element.role === "button" || element.tag === "button") && closeRank(element) >= 0,
        )
        .toSorted((left, right) => closeRank(left) - closeRank(right))
      const ancestors = (element: PageElement) => view.ancestry?.get(element.ref) ?? []
      const inDialog = buttons.find((element) =>
        ancestors(element).some((ancestor) => ancestor.role === "dialog" || ancestor.role === "alertdialog"),
      )
      // "close ticket T-4810": with no dialog to close, an item the words name may hold a control named
      // by "close" and the words before the item's ("Close ticket" in T-4810's row): that one is pressed.
      if (inDialog === undefined && command.target.text !== undefined) {
        // "T-4788 这个工单": Chinese says the item before the noun of its kind, the control says the noun
        // after its verb ("Close ticket"): the noun is read first too.
        const kindLast = /^(.*?\S)\s*(?:这一个|那一个|这个|那个)?\s*(\p{Script=Han}+)$/u.exec(
          command.target.raw,
        )
        const phrases = [command.target.raw, ...(kindLast === null ? [] : [`${kindLast[2]} ${kindLast[1]}`])]
        for (const phrase of phrases) {
          const onItem = verbOnItem(`close ${phrase}`, view.elements, view.ancestry)
          const read = onItem !== undefined && "command" in onItem ? parseCommands(onItem.command) : undefined
          const press = read?.ok === true && read.commands.length === 1 ? read.commands[0] : undefined
          if (press?.kind === "click") return decideCommand(press, page, state)
        }
      }
      const pick = inDialog ?? buttons[0]
      if (pick !== undefined) return action(pick, "click", `close with ${label(pick)}`)
      return action(PAGE_LOCATOR, "press", "press Escape to close", [["key", "Escape"]])
    }
    case "submit": {
      if (command.form !== undefined) {
        const located = locate(command.form, view, "click")
        if ("element" in located)
          return action(located.element, "click", `submit with ${label(located.element)}`)
      }
      const submit = findSubmit(view)
      if (submit === undefined)
        return complete("there is no submit button on this page", ["press Enter in the last field"])
      return action(submit, "click", `submit with ${label(submit)}`)
    }
    case "nextPage":
    case "previousPage": {
      const next = command.kind === "nextPage"
      const pager = findPager(view, next ? NEXT_WORDS : PREVIOUS_WORDS, next ? "next" : "prev")
      if (pager === undefined)
        return complete(`there is no ${next ? "next" : "previous"} page`, [
          next ? "this is the last page" : "this is the first page",
        ])
      return action(pager, "click", `${description} with ${label(pager)}`)
    }
    case "select": {
      // "目的地选择 Prague", "choose Prague in Destination": when the list is an autocomplete text field
      // (an input with the combobox role), choosing a value means typing it and picking the
      // suggestion, as the type command does.
      if (command.list !== undefined && command.options.length === 1) {
        const located = locate(command.list, view, "type")
        if (
          "element" in located &&
          located.element.role === "combobox" &&
          !isNativeSelect(located.element, view) &&
          suggestsAsTyped(located.element)
        )
          return decideCommand({ kind: "type", value: command.options[0]!, field: command.list }, page, state)
      }
      return decideSelect(command, view)
    }
  }
}

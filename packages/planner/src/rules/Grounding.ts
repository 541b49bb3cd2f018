import { findingWords, type PageElement } from "@sextant/core"
import type { RoleHint, TargetPhrase } from "./Command.ts"
import { readLists } from "./grounding/Items.ts"
import { plainOutlineLine, rowParts } from "./Outline.ts"
import { GLOSSARY as LANGUAGE_GLOSSARY, NEXT_WORDS, PREVIOUS_WORDS } from "./Vocabulary.ts"
import { normalizeText, wordsOf } from "./Words.ts"

/**
 * Grounding: which element of a `look()` a phrase means.
 *
 * Score of an element (higher wins; an element with a text mismatch is not a candidate):
 *
 * | part | points |
 * | --- | --- |
 * | text: name equals the words (case, spacing and punctuation ignored) | 100 |
 * | text: name equals them with all spaces removed | 92 |
 * | text: label, placeholder, aria-label, title, value, alt or name attribute equals them | 88 |
 * | text: the words are whole words of the name | 60–90 by how much of the name they cover |
 * | text: the name is a whole-word part of the words ("Sign In button" → "Sign In") | 50–80 |
 * | text: the words are a substring of the name or of an attribute | 40–70 |
 * | text: at least half of the words appear in the name | up to 40 |
 * | role the phrase names ("link", "按钮") fits | +40; does not fit −35 |
 * | role fits the action (type → textbox, click → button/link, check → checkbox …) | +20; cannot take the action: not a candidate |
 * | in the viewport (`visible`) | +10 (an element below the fold is still a candidate) |
 * | the whole phrase is the element's name ("Item 12", "Tab #3") | +50 |
 * | disabled | −50 |
 * | position: nearer the top of the page, then nearer the horizontal centre | up to +4 |
 * | selector strength: id 3, data-testid 2.5, name 2, href 1.5, type 1, path 0 | up to +3 |
 *
 * Tie-break: equal scores go to the element that comes first in the element list (document order).
 * An ordinal ("the second link") counts, in document order, the elements that pass the role and text
 * filters (the text must then score at least 50) — unless an element is named by the whole phrase.
 */

/** What the command wants to do with the element; decides which roles can take it. */
export type Intent = "type" | "click" | "select" | "check" | "expand" | "hover" | "any"

/** An element with its score and the reasons, for explanations and tests. */
export interface GroundedElement {
  readonly element: PageElement
  readonly score: number
  readonly reasons: ReadonlyArray<string>
}

/** Where an element sits in the outline: its ancestors' roles and names, outermost first. */
export type Ancestry = ReadonlyMap<string, ReadonlyArray<{ readonly role: string; readonly name: string }>>

const EDITABLE_ROLES = new Set(["textbox", "searchbox", "combobox", "spinbutton", "slider"])
const EDITABLE_INPUT_TYPES = new Set([
  "",
  "text",
  "email",
  "password",
  "search",
  "number",
  "tel",
  "url",
  "date",
  "time",
  "datetime-local",
  "month",
  "week",
  "color",
  "range",
])
const CLICKABLE_ROLES = new Set([
  // An element with a click handler and no role (a <span> or <div> styled as a link or button).
  "clickable",
  "button",
  "link",
  "menuitem",
  "menuitemcheckbox",
  "menuitemradio",
  "tab",
  "option",
  "checkbox",
  "radio",
  "switch",
  "treeitem",
  "combobox",
  "summary",
  "row",
  "cell",
  "gridcell",
  "img",
  "image",
  "heading",
  "listitem",
  "spinbutton",
])
const CHECKABLE_ROLES = new Set([
  "checkbox",
  "radio",
  "switch",
  "menuitemcheckbox",
  "menuitemradio",
  "option",
])

const ROLE_HINTS: Readonly<Record<RoleHint, ReadonlyArray<string>>> = {
  button: ["button", "summary", "clickable"],
  link: ["link", "clickable"],
  textbox: ["textbox", "searchbox", "combobox", "spinbutton"],
  checkbox: ["checkbox", "switch", "menuitemcheckbox"],
  radio: ["radio", "menuitemradio"],
  combobox: ["combobox", "listbox"],
  listbox: ["listbox", "combobox"],
  option: ["option", "radio", "checkbox", "menuitemradio"],
  tab: ["tab"],
  menuitem: ["menuitem", "menuitemcheckbox", "menuitemradio", "button"],
  dialog: ["dialog", "alertdialog"],
  section: ["button", "summary", "heading", "tab", "region", "group"],
  result: ["link"],
  heading: ["heading"],
  form: ["form"],
  image: ["img", "image"],
  spinbutton: ["spinbutton", "textbox"],
  slider: ["slider"],
  row: ["row"],
  // An inbox's message is a row the page makes clickable, or a link.
  message: ["clickable", "link", "row"],
}

export { normalizeText }

const compact = (text: string): string => text.replace(/\s+/g, "")

const containsWords = (haystack: ReadonlyArray<string>, needle: ReadonlyArray<string>): boolean => {
  if (needle.length === 0 || needle.length > haystack.length) return false
  for (let start = 0; start + needle.length <= haystack.length; start += 1) {
    if (needle.every((word, offset) => haystack[start + offset] === word)) return true
  }
  return false
}

/**
 * Chinese words for the labels pages most often carry in English, so "点击登录按钮" finds "Sign in"
 * and "在密码框中输入" finds "Password". A translated match scores a little below the same match in
 * the page's own words.
 */
export const GLOSSARY: ReadonlyMap<string, ReadonlyArray<string>> = LANGUAGE_GLOSSARY

/** The attributes that carry what a person reads as a field's label. */
const LABEL_ATTRIBUTES = ["label", "aria-label", "placeholder", "title"] as const

const TEXT_ATTRIBUTES = [
  "aria-label",
  "placeholder",
  "title",
  "alt",
  "label",
  "value",
  "name",
  "id",
  "data-testid",
]

/**
 * How well `text` names `element` (0 when it does not), in the page's words or, for Chinese words in
 * the glossary, in their English equivalents (at 95%).
 */
export const textScore = (element: PageElement, text: string): number => {
  if (signsDisagree(findingWords(element), text)) return 0
  const direct = directTextScore(element, text)
  if (direct >= 92) return direct
  const translations = GLOSSARY.get(text.trim()) ?? glossaryHead(text.trim())
  return translations.reduce(
    (best, translation) => Math.max(best, directTextScore(element, translation) * 0.95),
    direct,
  )
}

/**
 * The signed numbers of a text ("UTC+04:00" → +04:00, "−5 °C" → -5), by number: a sign is "+", the
 * minus sign "−" or a dash after the start, a space, a bracket or UTC/GMT ("2026-12-03" and "A-10252"
 * carry none).
 */
const signedNumbers = (text: string): ReadonlyMap<string, string> => {
  const signed = new Map<string, string>()
  for (const match of text.matchAll(
    /(?:^|[\s([]|UTC|GMT)([+\-−–])\s?(\d+(?:[:.]\d+)?)|([+−])(\d+(?:[:.]\d+)?)/giu,
  )) {
    const sign = match[1] ?? match[3] ?? ""
    const number = match[2] ?? match[4] ?? ""
    signed.set(number, sign === "+" ? "+" : "-")
  }
  return signed
}

/**
 * Whether a name carries a number `text` says with a sign with the other sign ("UTC−04:00 Halifax" for
 * "UTC+04:00"): words score such a name as close as the right one, but it is another value.
 */
export const signsDisagree = (name: string, text: string): boolean => {
  const wanted = signedNumbers(text)
  if (wanted.size === 0) return false
  const have = signedNumbers(name)
  return [...wanted].some(([number, sign]) => have.has(number) && have.get(number) !== sign)
}

/** How well an option of a list, by its text alone, is named by `text` (`textScore` of an option element). */
export const optionScore = (option: string, text: string): number =>
  textScore(
    {
      ref: "",
      role: "option",
      name: option,
      tag: "option",
      attributes: {},
      visible: true,
      selectors: [],
      frame: [],
    },
    text,
  )

/**
 * The English words of a Chinese compound the glossary does not hold, by its longest known ending,
 * which names the thing ("常用机场" → 机场 → airport; "账单邮编" → 邮编 → postcode); when the words
 * before that ending are known too, only both together ("还车日期" → 还车 日期 → return date).
 */
/**
 * Whether the glossary reads every part of a Chinese name: the whole of it, or its known ending with
 * the words before it ("还车日期"); a name read by its ending alone may name any control of that kind.
 */
export const glossaryReadsWhole = (text: string): boolean =>
  GLOSSARY.has(text) ||
  Array.from({ length: Math.max(0, text.length - 2) }, (_, index) => index + 1).some(
    (start) => GLOSSARY.has(text.slice(start)) && GLOSSARY.has(text.slice(0, start)),
  )

const glossaryHead = (text: string): ReadonlyArray<string> => {
  // "T恤尺码": a name in Han characters, or led by a letter or two written onto them.
  if (!/^[A-Za-z]{0,2}\p{Script=Han}{2,}$/u.test(text) || text.length < 3) return []
  for (let start = 1; start <= text.length - 2; start += 1) {
    const known = GLOSSARY.get(text.slice(start))
    if (known === undefined) continue
    // Known words before the ending narrow it: "还车日期" is no date but the return one.
    const before = GLOSSARY.get(text.slice(0, start))
    return before === undefined ? known : before.flatMap((one) => known.map((other) => `${one} ${other}`))
  }
  return []
}

const directTextScore = (element: PageElement, text: string): number => {
  const wanted = normalizeText(text)
  if (wanted === "") return 0
  // An unnamed control is found by the words guessed for it (`button (id search)`), as by a name.
  const name = normalizeText(findingWords(element))
  if (name === wanted) return 100
  if (name !== "" && compact(name) === compact(wanted)) return 92
  const attributes = TEXT_ATTRIBUTES.map((key) => element.attributes[key]).filter(
    (value): value is string => value !== undefined && value !== "",
  )
  const attributeTexts = attributes.map(normalizeText)
  if (attributeTexts.some((value) => value === wanted || compact(value) === compact(wanted))) return 88
  const nameWords = wordsOf(findingWords(element))
  const wantedWords = wordsOf(text)
  if (containsWords(nameWords, wantedWords)) return 60 + 30 * (wantedWords.length / nameWords.length)
  if (nameWords.length > 0 && containsWords(wantedWords, nameWords))
    return 50 + 30 * (nameWords.length / wantedWords.length)
  // A field with no name of its own is labelled by what a person reads beside it (the text line
  // above it, a placeholder): "Country should be …", "ZIP code 旁边的输入框" name it by those words.
  if (name === "") {
    for (const key of LABEL_ATTRIBUTES) {
      const labelWords = wordsOf(element.attributes[key] ?? "")
      if (labelWords.length > 0 && containsWords(wantedWords, labelWords))
        return 50 + 30 * (labelWords.length / wantedWords.length)
    }
  }
  const haystacks = [name, ...attributeTexts].filter((value) => value !== "")
  const substring = haystacks.find((value) => value.includes(wanted))
  if (substring !== undefined && wanted.length >= 2) return 40 + 30 * (wanted.length / substring.length)
  if (wantedWords.length > 0) {
    const shared = wantedWords.filter(
      (word) => nameWords.includes(word) || attributeTexts.some((value) => wordsOf(value).includes(word)),
    )
    const ratio = shared.length / wantedWords.length
    if (ratio >= 0.5) return 40 * ratio
  }
  return 0
}

const inputType = (element: PageElement): string => (element.attributes.type ?? "").toLowerCase()

/** Whether the element can take the intent at all. */
export const canTake = (element: PageElement, intent: Intent): boolean => {
  switch (intent) {
    case "type":
      return (
        EDITABLE_ROLES.has(element.role) ||
        element.tag === "textarea" ||
        (element.tag === "input" && EDITABLE_INPUT_TYPES.has(inputType(element))) ||
        element.attributes.contenteditable === "true"
      )
    case "check":
      return (
        CHECKABLE_ROLES.has(element.role) ||
        (element.tag === "input" && ["checkbox", "radio"].includes(inputType(element)))
      )
    case "select":
      return (
        [
          "combobox",
          "listbox",
          "option",
          "radio",
          "checkbox",
          "menuitemradio",
          "menuitemcheckbox",
          "tab",
          "switch",
        ].includes(element.role) || element.tag === "select"
      )
    case "expand":
      return (
        element.expanded !== undefined ||
        element.tag === "summary" ||
        ["button", "tab", "heading", "link", "summary"].includes(element.role)
      )
    case "click":
      return (
        CLICKABLE_ROLES.has(element.role) ||
        element.tag === "button" ||
        element.tag === "a" ||
        element.tag === "summary" ||
        element.attributes.onclick !== undefined
      )
    case "hover":
    case "any":
      return true
  }
}

/** How well the element's role fits the intent (0 to 20). */
const intentFit = (element: PageElement, intent: Intent): number => {
  switch (intent) {
    case "type":
      return ["textbox", "searchbox"].includes(element.role) || element.tag === "textarea" ? 20 : 10
    case "click":
      return ["button", "link", "menuitem", "tab"].includes(element.role) ||
        element.tag === "button" ||
        element.tag === "a"
        ? 20
        : element.role === "clickable"
          ? 15
          : 5
    case "check":
      return ["checkbox", "radio", "switch"].includes(element.role) ? 20 : 10
    case "select":
      return ["combobox", "listbox", "option", "radio"].includes(element.role) ? 20 : 10
    case "expand":
      return element.expanded !== undefined || element.tag === "summary" ? 20 : 0
    default:
      return 0
  }
}

/** Whether a role the phrase named fits the element. */
export const roleFits = (element: PageElement, role: RoleHint): boolean => {
  if (role === "textbox" && canTake(element, "type")) return true
  if (role === "checkbox" && element.tag === "input" && inputType(element) === "checkbox") return true
  if (role === "radio" && element.tag === "input" && inputType(element) === "radio") return true
  if (role === "combobox" && element.tag === "select") return true
  if (role === "section")
    return (
      element.expanded !== undefined ||
      element.tag === "summary" ||
      ["region", "group", "heading"].includes(element.role)
    )
  if (role === "menuitem" && element.role === "button")
    return element.attributes["aria-haspopup"] !== undefined
  return ROLE_HINTS[role].includes(element.role)
}

const SELECTOR_STRENGTH: ReadonlyArray<readonly [RegExp, number]> = [
  [/^#[\w-]+$/, 3],
  [/data-testid/, 2.5],
  [/\[name=/, 2],
  [/\[href/, 1.5],
  [/\[type=/, 1],
]

/** Points for the best selector the element has (0 to 3). */
export const selectorStrength = (element: PageElement): number => {
  const first = element.selectors[0]
  if (first === undefined) return 0
  return SELECTOR_STRENGTH.find(([pattern]) => pattern.test(first))?.[1] ?? 0
}

const positionScore = (element: PageElement): number => {
  if (element.box === undefined) return 0
  const top = Math.max(0, 1 - element.box.y / 4000) * 3
  const centre = Math.max(0, 1 - Math.abs(element.box.x + element.box.width / 2 - 640) / 1280)
  return top + centre
}

/** Options of the scoring. */
export interface GroundOptions {
  readonly intent: Intent
  /** Ancestors per ref, from the outline, to honour "in the dialog". */
  readonly ancestry?: Ancestry | undefined
  /** The ref acted on last: of two equal names, the one in the same form, frame or dialog wins. */
  readonly near?: string | undefined
}

/** Up to +9 for each level of container shared with the element acted on last. */
const nearness = (element: PageElement, options: GroundOptions): number => {
  if (options.near === undefined || options.ancestry === undefined) return 0
  const mine = options.ancestry.get(element.ref)
  const theirs = options.ancestry.get(options.near)
  if (mine === undefined || theirs === undefined) return 0
  let shared = 0
  while (
    shared < mine.length &&
    shared < theirs.length &&
    mine[shared]!.role === theirs[shared]!.role &&
    mine[shared]!.name === theirs[shared]!.name
  )
    shared += 1
  return Math.min(9, 3 * shared)
}

const LANDMARK_WORDS: Readonly<Record<string, ReadonlyArray<string>>> = {
  footer: ["contentinfo", "footer"],
  页脚: ["contentinfo", "footer"],
  header: ["banner", "header"],
  页眉: ["banner", "header"],
  navigation: ["navigation", "nav"],
  sidebar: ["complementary", "aside"],
}

/** "the footer", "页脚": a landmark named by what it is rather than by a label. */
const landmarkNamed = (role: string, text: string): boolean =>
  LANDMARK_WORDS[normalizeText(text)]?.includes(role) === true

/** A container around an element (its role and name), as an element the text and role scores read. */
export const ancestorElement = (ancestor: { readonly role: string; readonly name: string }): PageElement => ({
  ref: "",
  role: ancestor.role,
  name: ancestor.name,
  tag: "",
  attributes: {},
  visible: true,
  selectors: [],
  frame: [],
})

/** Whether one container around an element is the one a phrase names ("the dialog", "Tom Okafor | Bluegate"). */
export const containerNamed = (
  ancestor: { readonly role: string; readonly name: string },
  container: TargetPhrase,
): boolean => {
  const pseudo = ancestorElement(ancestor)
  const roleOk =
    container.role === undefined ||
    roleFits(pseudo, container.role) ||
    (container.role === "section" && ancestor.role !== "generic")
  const textScoreOf = container.text === undefined ? 0 : textScore(pseudo, container.text)
  const textOk =
    container.text === undefined || textScoreOf >= 50 || landmarkNamed(ancestor.role, container.text)
  // A container named well enough needs no role word to match ("the Newsletter form" is an iframe).
  return (
    (roleOk && textOk) ||
    textScoreOf >= 60 ||
    (container.text !== undefined && landmarkNamed(ancestor.role, container.text))
  )
}

const insideContainer = (
  element: PageElement,
  container: TargetPhrase,
  ancestry: Ancestry | undefined,
): boolean | undefined => {
  const ancestors = ancestry?.get(element.ref)
  if (ancestors === undefined) return undefined
  return ancestors.some((ancestor) => containerNamed(ancestor, container))
}

/**
 * Ranks the elements a phrase may mean, best first (ties keep list order). Elements that cannot
 * take the intent, or whose text does not match the phrase's words, are left out.
 *
 * @example
 * ```ts
 * import { groundTarget } from "@sextant/planner"
 * const [best] = groundTarget({ raw: "Sign In", text: "Sign In", role: "button" }, elements, { intent: "click" })
 * best?.element.ref // "e3"
 * ```
 */
export const groundTarget = (
  target: TargetPhrase,
  elements: ReadonlyArray<PageElement>,
  options: GroundOptions,
): ReadonlyArray<GroundedElement> => {
  const scored: Array<GroundedElement & { readonly order: number; readonly text: number }> = []
  elements.forEach((element, order) => {
    // "Click into the Invite code field": a click aimed at a field by its kind puts the caret in it.
    const intoField = options.intent === "click" && target.role === "textbox" && canTake(element, "type")
    if (!canTake(element, options.intent) && !intoField) return
    const reasons: Array<string> = []
    let score = 0
    const fromText = target.text === undefined ? 0 : textScore(element, target.text)
    const fromRaw = target.raw === "" ? 0 : textScore(element, target.raw)
    const text = Math.max(fromText, fromRaw >= 92 ? fromRaw : 0)
    if (target.text !== undefined) {
      if (text === 0) return
      score += text
      reasons.push(`text ${text.toFixed(0)}`)
      // "the details of order 1043": words beyond a control's own name said by the item it is in.
      const item = options.ancestry
        ?.get(element.ref)
        ?.findLast((ancestor) => ancestor.role === "row" || ancestor.role === "listitem")
      const own = wordsOf(findingWords(element))
      const itemWords = item === undefined ? [] : wordsOf(item.name)
      const said = wordsOf(target.text).filter((word) => !own.includes(word) && itemWords.includes(word))
      if (said.length > 0) {
        score += Math.min(9, 3 * said.length)
        reasons.push("named with its item")
      }
    }
    if (target.role !== undefined) {
      if (roleFits(element, target.role)) {
        score += 40
        reasons.push(`role ${target.role}`)
      } else if (text >= 60) {
        // A role word is a preference, not a filter: "the Forgot password? link" may be a span.
        score -= 35
        reasons.push(`not a ${target.role}`)
      } else return
    }
    if (target.outside !== undefined && insideContainer(element, target.outside, options.ancestry) === true)
      return
    if (target.container !== undefined) {
      const inside = insideContainer(element, target.container, options.ancestry)
      if (inside === false) return
      if (inside === true) {
        score += 15
        reasons.push("in container")
      }
    }
    // An open dialog sits over the page: its controls are the ones a person sees and means.
    if (
      options.ancestry
        ?.get(element.ref)
        ?.some((ancestor) => ancestor.role === "dialog" || ancestor.role === "alertdialog")
    ) {
      score += 8
      reasons.push("in a dialog")
    }
    const fit = intentFit(element, options.intent)
    score += fit
    if (element.visible) score += 10
    else reasons.push("off-screen")
    const named =
      target.raw !== "" && (target.text === undefined || target.ordinal !== undefined) && fromRaw >= 92
    if (named) {
      score += 50
      reasons.push("named by the whole phrase")
    }
    if (element.disabled === true) {
      score -= 50
      reasons.push("disabled")
    }
    score += positionScore(element) + selectorStrength(element) + nearness(element, options)
    if (
      (target.role === "result" || target.role === "message") &&
      !looksLikeResult(element, options.ancestry)
    )
      return
    scored.push({ element, score, reasons, order, text })
  })
  const ranked = scored.toSorted((left, right) => right.score - left.score || left.order - right.order)
  if (target.ordinal === undefined || ranked[0]?.reasons.includes("named by the whole phrase")) return ranked
  // An ordinal counts, in document order, the visible elements that match the role and the words.
  const pool = scored
    .filter((candidate) => target.text === undefined || candidate.text >= 50)
    .toSorted((left, right) => left.order - right.order)
  const picked = target.ordinal === -1 ? pool[pool.length - 1] : pool[target.ordinal - 1]
  return picked === undefined ? [] : [picked, ...ranked.filter((candidate) => candidate !== picked)]
}

// Outline labels ("nav", "header", "footer") and ARIA roles alike.
const CHROME_REGIONS = new Set([
  "navigation",
  "nav",
  "banner",
  "header",
  "contentinfo",
  "footer",
  "menubar",
  "menu",
  "tablist",
  "aside",
  "complementary",
])
const PAGINATION = new RegExp(
  `^(next|previous|prev|first|last|more|\\d+|[«»‹›<>←→]+|${[...NEXT_WORDS, ...PREVIOUS_WORDS].filter((word) => /\p{Script=Han}/u.test(word)).join("|")}|首页|末页)(\\s*page)?$`,
  "i",
)

/** A result is a link in the page's content: not in navigation, a header or a footer, and not pagination. */
const looksLikeResult = (element: PageElement, ancestry: Ancestry | undefined): boolean => {
  if (PAGINATION.test(normalizeText(element.name))) return false
  if (element.attributes.rel === "next" || element.attributes.rel === "prev") return false
  // Perception tags each element with the region it sits in.
  const region = (element as PageElement & { readonly region?: string }).region
  if (region !== undefined && CHROME_REGIONS.has(region)) return false
  const ancestors = ancestry?.get(element.ref)
  if (ancestors !== undefined) return !ancestors.some((ancestor) => CHROME_REGIONS.has(ancestor.role))
  return true
}

/** Containers that are one item of a list, a table, a tree or a set of cards (a named group). */
export const HOLDER_ROLES: ReadonlySet<string> = new Set([
  "row",
  "listitem",
  "treeitem",
  "article",
  "option",
  "group",
])

/**
 * Reads the ancestors of each ref from an outline (`- dialog "Confirm"` above `  - button "OK" [ref=e4]`).
 * An item a person reads as one thing is a container of its controls, though the view folds it into the
 * lines around it: a table row (`- Tom Okafor | Bluegate | button "Call" [ref=e13]`, a `row` named by its
 * cells of text, around every control on its line) and an item of a list or a card that carries a control
 * its siblings carry too (`readLists`: a `listitem` named by the text the item prints, around that control,
 * unless the outline prints the item as a container of its own).
 */
export const ancestryFromOutline = (
  outline: string,
  options: {
    /**
     * Also list the headings of the sections a control sits in (`- h2 "Rate this recipe"` above
     * `- radio "5 stars"`), after its containers, each as a `heading` ancestor: a person reads a
     * section by its heading. Only words are read from them; no container is one.
     */
    readonly sections?: boolean
  } = {},
): Ancestry => {
  const result = new Map<string, ReadonlyArray<{ role: string; name: string }>>()
  const stack: Array<{ indent: number; role: string; name: string }> = []
  // The headings in force, each with its indent and level: a heading rules the lines after it at its
  // indent or deeper, until a heading of its level or higher at its indent, or its container ends.
  const headings: Array<{ indent: number; level: number; name: string }> = []
  const sections = new Map<string, ReadonlyArray<{ role: string; name: string }>>()
  for (const line of outline.split("\n")) {
    const match = /^(\s*)-\s+([\w-]+)(?:\s+("(?:[^"\\]|\\.)*"))?/.exec(line)
    if (match === null) continue
    const indent = match[1]!.length
    while (stack.length > 0 && stack[stack.length - 1]!.indent >= indent) stack.pop()
    if (options.sections === true) {
      while (headings.length > 0 && headings[headings.length - 1]!.indent > indent) headings.pop()
      const level = /^h([1-6])$/.exec(match[2]!)?.[1]
      if (level !== undefined && match[3] !== undefined) {
        while (
          headings.length > 0 &&
          headings[headings.length - 1]!.indent === indent &&
          headings[headings.length - 1]!.level >= Number(level)
        )
          headings.pop()
        headings.push({ indent, level: Number(level), name: JSON.parse(match[3]) as string })
      }
      for (const [, ref] of line.matchAll(/\[ref=(e\d+)\]/g))
        sections.set(
          ref!,
          headings.map(({ name }) => ({ role: "heading", name })),
        )
    }
    const ancestors = stack.map(({ role, name }) => ({ role, name }))
    const row = rowParts(plainOutlineLine(line))
    if (row !== undefined) {
      const name = row.filter((part) => !/\[ref=e\d+\]/.test(part)).join(" | ")
      const around = name === "" ? ancestors : [...ancestors, { role: "row", name }]
      for (const [, ref] of line.matchAll(/\[ref=(e\d+)\]/g)) result.set(ref!, around)
    } else {
      const ref = /\[ref=(e\d+)\]/.exec(line)?.[1]
      if (ref !== undefined) result.set(ref, ancestors)
    }
    stack.push({
      indent,
      role: match[2]!,
      name: match[3] === undefined ? "" : (JSON.parse(match[3]) as string),
    })
  }
  // Only a list whose controls sit side by side, in one container and in no item the outline prints.
  const parentOf = (ref: string) => JSON.stringify(result.get(ref) ?? [])
  for (const list of readLists(outline)) {
    const parent = parentOf(list.items[0]?.ref ?? "")
    if (list.kind !== "controls" || list.items.some((item) => parentOf(item.ref) !== parent)) continue
    for (const item of list.items) {
      const ancestors = result.get(item.ref) ?? []
      if (item.text !== "" && !ancestors.some((ancestor) => HOLDER_ROLES.has(ancestor.role)))
        result.set(item.ref, [...ancestors, { role: "listitem", name: item.text }])
    }
  }
  // The headings come last, after the containers: only words are read from them, never a container.
  for (const [ref, headed] of sections)
    if (headed.length > 0) result.set(ref, [...(result.get(ref) ?? []), ...headed])
  return result
}

/**
 * The names a phrase lists ("Music and Sports", "Music、Sports"), or `undefined` when it names one thing.
 *
 * @example
 * ```ts
 * import { listedNames } from "@sextant/planner"
 * listedNames("Music and Sports") // ["Music", "Sports"]
 * ```
 */
export const listedNames = (text: string): ReadonlyArray<string> | undefined => {
  const parts = text
    .split(/\s*(?:,|，|、|\band\b|和|与)\s*/)
    .map((part) => part.trim())
    .filter((part) => part !== "")
  return parts.length < 2 ? undefined : parts
}

import { parentAcrossShadow } from "./frames.ts"
import { collapse } from "./text.ts"
import { rendered, shown } from "./visibility.ts"

/* What a goal's part checks read of the page after its steps: one call, judged outside the page. */

/** The texts and selectors a goal's checks need besides the fixed facts. */
export interface GoalFactsRequest {
  /** Texts to look for, case-insensitively, in the body's text. */
  readonly texts: ReadonlyArray<string>
  /** CSS selectors to count matches of (-1 for a selector the page cannot parse). */
  readonly selectors: ReadonlyArray<string>
}

/** The page as a goal's part checks see it. */
export interface GoalFacts {
  readonly url: string
  readonly title: string
  /** The first shown `h1` (else `h2`) text. */
  readonly heading: string
  readonly passwordVisible: boolean
  /** Shown error messages: `role=alert`, `aria-live=assertive` and error-named elements with text. */
  readonly errors: ReadonlyArray<string>
  /** The page says there are no results ("No results for …", "nothing found"). */
  readonly noResults: boolean
  /** A usable Next control is shown. */
  readonly hasNext: boolean
  /** What the page's search fields hold (search inputs, search boxes, fields of a search form). */
  readonly searchValues: ReadonlyArray<string>
  /** A dialog is shown: an open `dialog`, a `role=dialog` / `alertdialog`, or an `aria-modal` element. */
  readonly dialogShown: boolean
  /**
   * What the page shows that says a sign-in is not over, or `""`: a shown field for a one-time code
   * (`one-time code field "Verification code"`: `autocomplete=one-time-code`, or a text field named
   * like a verification, 2FA, OTP or authenticator code), else a sentence saying the account is locked,
   * disabled or suspended, or that there were too many sign-in attempts.
   */
  readonly signInUnfinished: string
  /**
   * The HTTP status the top document was answered with (the navigation timing's `responseStatus`), or
   * 0 when the browser does not say (a document that was never fetched, such as `about:blank`).
   */
  readonly responseStatus: number
  readonly texts: Readonly<Record<string, boolean>>
  readonly counts: Readonly<Record<string, number>>
}

const clean = (text: string | null | undefined): string => collapse(text ?? "").trim()

// The rendered text of an element, as a reader sees it.
// biome-ignore lint/performance/useDomNodeTextContent: the rendered text is what the checks mean
const renderedText = (element: HTMLElement): string => element.innerText

const NEXT = /^(next|next page|next ›|next »|more results|›|»|下一页|下页)$/i
const SEARCH_WORDS = /search|(^|s)(q|query|s|keywords?|term)(s|$)/
const NO_RESULTS = /\b(no (results|matches|products|items)|nothing (was )?found)\b/i
const NO_RESULTS_ZH = /没有(找到|结果)/

const usableNext = (element: Element): boolean =>
  shown(element) &&
  (element as HTMLButtonElement).disabled !== true &&
  element.getAttribute("aria-disabled") !== "true" &&
  (/(^|\s)next(\s|$)/i.test(element.getAttribute("rel") ?? "") ||
    NEXT.test(clean(renderedText(element as HTMLElement) || element.getAttribute("aria-label"))))

const searchValuesOf = (): Array<string> => {
  const values: Array<string> = []
  for (const field of document.querySelectorAll("input, textarea, [role=searchbox], [role=combobox]")) {
    const own = (field as HTMLInputElement).value
    const value = typeof own === "string" ? own : clean(field.textContent)
    if (value === "" || values.length >= 5) continue
    const words = [
      field.getAttribute("type"),
      field.getAttribute("role"),
      field.getAttribute("name"),
      field.id,
      field.getAttribute("aria-label"),
      field.getAttribute("placeholder"),
    ]
      .join(" ")
      .toLowerCase()
    const form = field.closest("form")
    const inSearchForm =
      form !== null &&
      (form.getAttribute("role") === "search" ||
        /search/i.test(form.getAttribute("action") ?? "") ||
        form.closest("search") !== null)
    if (SEARCH_WORDS.test(words) || inSearchForm || field.closest("search") !== null)
      values.push(value.slice(0, 200))
  }
  return values
}

/** Words that name a field for the code of a second sign-in step. */
const CODE_FIELD =
  /(?<![a-z])(?:otp|totp|one[\s_-]?time(?:[\s_-]?code)?|onetimecode|verification|verify|2fa|two[\s_-]?factor|mfa|passcode|authenticat(?:or|ion)|security[\s_-]?code|sms[\s_-]?code)(?![a-z])/i
/** Input types a typed code goes into. */
const CODE_TYPES = new Set(["text", "tel", "number"])
/**
 * What a sentence says when the account cannot sign in now. Matched sentence by sentence (no sentence
 * longer than {@link LONGEST_SENTENCE}), so a page of any length is read in linear time.
 */
const LOCKED =
  /\b(?:account|user)\b.{0,60}?\b(?:is|has been|was|got)\s+(?:temporarily\s+|permanently\s+)?(?:locked|disabled|suspended|blocked|deactivated)\b|\btoo many\s+(?:failed\s+|unsuccessful\s+|invalid\s+)?(?:sign[\s-]?in\s+|log[\s-]?in\s+|login\s+|password\s+)?attempts\b/i
/** The words without which no sentence says so: a cheap test of the whole page first. */
const LOCKED_WORDS = /locked|disabled|suspended|blocked|deactivated|too many/i
/** What one text node holds of {@link LOCKED_WORDS}: "too many" may be split across two elements. */
const NODE_WORDS = /locked|disabled|suspended|blocked|deactivated|\btoo\b|\bmany\b/i
const LONGEST_SENTENCE = 300
/**
 * How many blocks holding one of {@link LOCKED_WORDS} are read at most: a page that says "blocked" in
 * every row of a long table is not read row by row past this.
 */
const MOST_BLOCKS = 200
/** Where a block's text breaks: a sentence's end, or a line (a `br`, a block inside it). */
const SENTENCE_BREAK = /(?<=[.!?])\s+|\n+/

/** The nearest element holding `node` that lays out as a box of its own (not inline, not `contents`). */
const blockOf = (node: Node): Element | null => {
  for (let element = parentAcrossShadow(node); element !== null; element = parentAcrossShadow(element)) {
    const display = getComputedStyle(element).display
    if (display !== "inline" && display !== "contents") return element
  }
  return null
}

/** The text nodes of `root` and of the open shadow roots inside it, in document order. */
function* textNodes(root: Node): Generator<Text> {
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_ELEMENT | NodeFilter.SHOW_TEXT)
  for (let node = walker.nextNode(); node !== null; node = walker.nextNode()) {
    if (node instanceof Text) yield node
    else if (node instanceof Element && node.shadowRoot !== null) yield* textNodes(node.shadowRoot)
  }
}

/**
 * The first sentence on the page that says the account is locked (see {@link LOCKED}), or `""`. Read
 * from the block that holds the words (a `p`, `div`, `li`), cut at sentence ends and line breaks: the
 * page's text as a whole runs a header's and a menu's words into the sentence after them.
 */
const lockedSentence = (body: string): string => {
  if (document.body === null || !LOCKED_WORDS.test(body)) return ""
  const seen = new Set<Element>()
  let read = 0
  for (const node of textNodes(document.body)) {
    // "Too <b>many</b> attempts": a text node may hold only a part of the words.
    if (!NODE_WORDS.test(node.data)) continue
    const block = blockOf(node)
    if (block === null || seen.has(block)) continue
    seen.add(block)
    if (!LOCKED_WORDS.test(block.textContent ?? "")) continue
    if (read >= MOST_BLOCKS) return ""
    read += 1
    if (!rendered(block)) continue
    const text = block instanceof HTMLElement ? renderedText(block) : (block.textContent ?? "")
    for (const line of text.split(SENTENCE_BREAK)) {
      const sentence = clean(line).trim()
      if (sentence.length <= LONGEST_SENTENCE && LOCKED.test(sentence)) return sentence.slice(0, 200)
    }
  }
  return ""
}

/** The words of a field: its name, id, ARIA label, placeholder and the text of its labels. */
const fieldWords = (field: HTMLInputElement): string =>
  [
    field.name,
    field.id,
    field.getAttribute("aria-label"),
    field.getAttribute("placeholder"),
    ...Array.from(field.labels ?? [], (label) => clean(label.textContent)),
  ]
    .filter((word): word is string => typeof word === "string" && word !== "")
    .join(" ")
    // A camel-cased name is words too: `mfaCode`, `otpInput`.
    .replace(/(\p{Ll})(\p{Lu})/gu, "$1 $2")

/** See {@link GoalFacts.signInUnfinished}. */
const signInUnfinished = (body: string): string => {
  for (const field of document.querySelectorAll<HTMLInputElement>("input")) {
    if (!CODE_TYPES.has(field.type)) continue
    const autocomplete = (field.getAttribute("autocomplete") ?? "").toLowerCase().split(/\s+/)
    const words = fieldWords(field)
    if (!autocomplete.includes("one-time-code") && !CODE_FIELD.test(words)) continue
    if (!shown(field)) continue
    const label = clean(field.labels?.[0]?.textContent) || field.getAttribute("aria-label") || field.name
    return `one-time code field${label ? ` "${label.slice(0, 80)}"` : ""}`
  }
  return lockedSentence(body)
}

/** See {@link GoalFacts.responseStatus}. */
const responseStatus = (): number => {
  const entry = performance.getEntriesByType("navigation")[0] as { responseStatus?: unknown } | undefined
  return typeof entry?.responseStatus === "number" ? entry.responseStatus : 0
}

/** Reads what a goal's part checks need of the top document, in one call. */
export const goalFacts = (request: GoalFactsRequest): GoalFacts => {
  const body = document.body ? clean(renderedText(document.body) || document.body.textContent) : ""
  const lower = body.toLowerCase()
  const heading = [...document.querySelectorAll("h1"), ...document.querySelectorAll("h2")].find(shown)
  const errors: Array<string> = []
  for (const element of document.querySelectorAll(
    '[role=alert], [aria-live=assertive], [class*="error" i], [id*="error" i]',
  )) {
    const text = clean(renderedText(element as HTMLElement))
    if (text !== "" && shown(element) && !errors.includes(text)) errors.push(text.slice(0, 200))
  }
  const texts: Record<string, boolean> = {}
  for (const text of request.texts) texts[text] = lower.includes(String(text).toLowerCase())
  const counts: Record<string, number> = {}
  for (const selector of request.selectors) {
    try {
      counts[selector] = document.querySelectorAll(selector).length
    } catch {
      counts[selector] = -1
    }
  }
  return {
    url: String(location.href),
    title: document.title,
    heading: heading === undefined ? "" : clean(renderedText(heading)).slice(0, 200),
    passwordVisible: [...document.querySelectorAll("input[type=password]")].some(shown),
    errors: errors.slice(0, 5),
    noResults: NO_RESULTS.test(body) || NO_RESULTS_ZH.test(body),
    hasNext: [...document.querySelectorAll("a[href], button, [role=button], [role=link]")].some(usableNext),
    searchValues: searchValuesOf(),
    dialogShown: [
      ...document.querySelectorAll("dialog[open], [role=dialog], [role=alertdialog], [aria-modal=true]"),
    ].some(shown),
    signInUnfinished: signInUnfinished(body),
    responseStatus: responseStatus(),
    texts,
    counts,
  }
}

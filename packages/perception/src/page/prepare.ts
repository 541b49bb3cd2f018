import { brief } from "./describe.ts"
import { hitAt, openRoots, viewportRect } from "./frames.ts"
import { chooseOptions } from "./pick.ts"
import { collapse } from "./text.ts"
import type { Box } from "./types.ts"
import { assignValue, inputFormat, VALUE_FORMATS, YEARLESS_DAY } from "./values.ts"
import { shown, withinViewport } from "./visibility.ts"
import { observe, sleep, watchInput, watchState } from "./watch.ts"

/*
 * Preparing an action: finding the element, scrolling it into view, checking it can take input and
 * answering where to aim. It never fires input events; the driver sends trusted input after.
 */

/** What the actor needs of the perception runtime, installed beside it (or later) on `__sextant`. */
export interface Perception {
  readonly look?: (options?: unknown) => string
  readonly resolve?: (
    ref: string,
    options: { readonly scroll?: boolean },
  ) => {
    readonly ok: boolean
    readonly stale?: boolean
    readonly element?: Element | null
    readonly x?: number
    readonly y?: number
  }
  readonly describe?: (element: Element) => unknown
}

/** The perception runtime when it is installed. */
export const perception = (): Perception | undefined =>
  (globalThis as unknown as { __sextant?: Perception }).__sextant

/** An element named by a ref of the last look, or by a CSS selector. */
export type Target = { readonly ref: string } | { readonly selector: string }

/** Why an element could not be found or acted on, in the words the driver switches on. */
export interface Refusal {
  readonly error: string
  readonly detail?: string
}

/** Depth-first search through open shadow roots and same-origin iframes. */
export const findDeep = (root: Document | ShadowRoot, selector: string): Element | null => {
  for (const inner of openRoots(root, true)) {
    const found = inner.querySelector(selector)
    if (found !== null) return found
  }
  return null
}

/** The target's element, or why there is none (`stale` ref, bad `selector`, `missing`). */
export const locate = (target: Target): { readonly element: Element } | Refusal => {
  if ("ref" in target && target.ref !== undefined) {
    const resolve = perception()?.resolve
    if (typeof resolve !== "function") return { error: "stale" }
    const resolved = resolve(target.ref, { scroll: true })
    if (!resolved || resolved.ok === false || resolved.stale) return { error: "stale" }
    // Elements inside iframes come back as coordinates only: the node at that point is the element.
    const element = resolved.element || hitAt(resolved.x ?? 0, resolved.y ?? 0)
    return element ? { element } : { error: "stale" }
  }
  let element: Element | null = null
  try {
    element = findDeep(document, (target as { readonly selector: string }).selector)
  } catch (error) {
    return { error: "selector", detail: String((error instanceof Error && error.message) || error) }
  }
  return element ? { element } : { error: "missing" }
}

const composedContains = (ancestor: Node, node: Node): boolean => {
  for (
    let current: Node | null = node;
    current;
    current = current.parentNode || (current as ShadowRoot).host || null
  )
    if (current === ancestor) return true
  return false
}

/** Where a pointer lands: the centre of the element's box, in top-level viewport pixels. */
export interface Aim {
  readonly x: number
  readonly y: number
  readonly box: Box
}

/**
 * Where a pointer should land: the element's centre, or its label's when a styled control hides it;
 * scrolled into view first when not entirely in it. With `needsPointer`, refuses a point where
 * something else would take the click.
 */
export const aim = (element: Element, needsPointer: boolean): Aim | Refusal => {
  let aimed = element
  if (!shown(element)) {
    const label = (element as HTMLInputElement).labels?.[0]
    if (label && shown(label)) aimed = label
    else return { error: "hidden" }
  }
  let box = viewportRect(aimed)
  if (!withinViewport(box)) {
    aimed.scrollIntoView({ block: "center", inline: "center", behavior: "instant" })
    box = viewportRect(aimed)
  }
  const x = box.x + box.width / 2
  const y = box.y + box.height / 2
  if (needsPointer) {
    const hit = hitAt(x, y)
    if (hit === null || !takesPointer(element, aimed, hit))
      return { error: "covered", detail: `covered by ${brief(hit)}` }
  }
  return { x, y, box }
}

/** Whether a pointer landing on `hit` reaches the element: it is inside it, inside the aimed label, or a label of it. */
const takesPointer = (element: Element, aimed: Element, hit: Element): boolean => {
  const label = hit.closest("label")
  return (
    composedContains(aimed, hit) ||
    composedContains(element, hit) ||
    (label !== null && (label as HTMLLabelElement).control === element)
  )
}

// The element a click or a check was prepared on, until the settle after it asks where the press landed.
let pressTarget: Element | undefined

/**
 * Where the press sent for the prepared click landed, when it was not on its element: the element
 * moved (a late banner pushed it down, the page scrolled) between aiming and pressing. Undefined when
 * it landed on the element, when no press was seen (a frame out of reach, a check already in its
 * state), or when the element was replaced (a re-render: nothing can tell where its twin is).
 * Asked once per prepared click.
 */
export const missedPress = (): string | undefined => {
  const element = pressTarget
  pressTarget = undefined
  const pressed = watchState.pressedOn as Element | null
  if (element === undefined || pressed === null || typeof pressed.closest !== "function") return undefined
  if (!element.isConnected || takesPointer(element, element, pressed)) return undefined
  return `the click landed on ${brief(pressed)}: ${brief(element)} moved after it was aimed at`
}

/** Focuses the element and selects all its text, so typing replaces it; false when it takes no text. */
const selectAll = (element: HTMLElement): boolean => {
  element.focus({ preventScroll: true })
  if (typeof (element as HTMLInputElement).select === "function") {
    try {
      ;(element as HTMLInputElement).select()
      return true
    } catch {
      // An input that has no text selection (a checkbox): falls through.
    }
  }
  if (element.isContentEditable) {
    const selection = element.ownerDocument.getSelection()
    const range = element.ownerDocument.createRange()
    range.selectNodeContents(element)
    selection?.removeAllRanges()
    selection?.addRange(range)
    return true
  }
  return false
}

// Elements marked for a WebDriver element lookup (upload, element screenshot); unmarked on the next
// action so the page keeps no trace.
let markCounter = 0
const marked: Element[] = []
const mark = (element: Element): string => {
  const value = `m${++markCounter}${watchState.doc}`
  element.setAttribute("data-sextant-mark", value)
  marked.push(element)
  return value
}

/** The element marked with `value` for a WebDriver element lookup, or null. */
export const markedElement = (value: string): Element | null =>
  marked.find((element) => element.getAttribute("data-sextant-mark") === value) ?? null

const pointerOps: ReadonlySet<string> = new Set(["click", "check", "uncheck", "hover", "set", "drag"])
/** The operations whose input is one press on the element, asked afterwards where it landed. */
const pressOps: ReadonlySet<string> = new Set(["click", "check", "uncheck"])

/**
 * The viewport points where a phrase of the element's text starts and ends, for a trusted
 * press-move-release that selects it.
 */
const textSpan = (element: Element, wanted: string) => {
  const owner = element.ownerDocument
  const walker = owner.createTreeWalker(element, NodeFilter.SHOW_TEXT)
  const nodes: Array<{ readonly node: Text; readonly start: number }> = []
  let text = ""
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    nodes.push({ node: node as Text, start: text.length })
    text += (node as Text).data
  }
  let at = text.indexOf(wanted)
  if (at < 0) at = text.toLowerCase().indexOf(wanted.toLowerCase())
  const first = nodes[0]
  if (at < 0 || first === undefined) return undefined
  const position = (index: number) => {
    let found = first
    for (const entry of nodes) if (entry.start <= index) found = entry
    return { node: found.node, offset: index - found.start }
  }
  const charRect = (index: number): DOMRect | undefined => {
    const { node, offset } = position(index)
    const range = owner.createRange()
    range.setStart(node, offset)
    range.setEnd(node, offset + 1)
    return range.getClientRects()[0]
  }
  position(at).node.parentElement?.scrollIntoView({ block: "center", behavior: "instant" })
  const start = charRect(at)
  const end = charRect(at + wanted.length - 1)
  if (!start || !end) return undefined
  return {
    x: start.left + 1,
    y: start.top + start.height / 2,
    toX: end.right - 1,
    toY: end.top + end.height / 2,
  }
}

/**
 * Where text typed into the element goes: its document (a frame's, when the ref landed on a frame)
 * and the action of its form. Answers the first origin not in the allowed list, or nothing.
 */
const originRefused = (element: Element, origins: ReadonlyArray<string>): string | undefined => {
  const originOfUrl = (raw: string, base: string): string => {
    try {
      const url = new URL(raw, base)
      return url.protocol === "http:" || url.protocol === "https:" ? url.origin : url.protocol
    } catch {
      return "null"
    }
  }
  let origin: string
  if (element.localName === "iframe" || element.localName === "frame") {
    const frame = element as HTMLIFrameElement
    try {
      origin = (frame.contentWindow as Window).origin
    } catch {
      origin = originOfUrl(frame.src || "about:blank", document.baseURI)
    }
  } else {
    const view = element.ownerDocument.defaultView
    origin = view ? view.origin : "null"
  }
  if (!origins.includes(origin)) return origin
  const form = (element as HTMLInputElement).form
  if (form) {
    const action = form.getAttribute("action") === null ? form.ownerDocument.location.href : form.action
    const target = originOfUrl(action, form.ownerDocument.baseURI)
    if (!origins.includes(target)) return target
  }
  return undefined
}

/** What the driver asks to prepare: the operation, its element and what it needs. */
export interface PrepareSpec {
  readonly op: string
  readonly target: Target
  readonly to?: Target
  readonly value?: string
  readonly values?: ReadonlyArray<string>
  readonly dx?: number
  readonly dy?: number
  /** How long to wait for the element to be there and take input. */
  readonly waitMs?: number
  /** Look options for the "before" snapshot, taken before anything changes. */
  readonly before?: unknown
  /** Describe the element for the run's recording. */
  readonly describe?: boolean
  /** For `input`: the origins text may go to. */
  readonly origins?: ReadonlyArray<string>
}

const isChecked = (element: Element): boolean =>
  typeof (element as HTMLInputElement).checked === "boolean"
    ? (element as HTMLInputElement).checked
    : element.getAttribute("aria-checked") === "true"

type Prepared = Record<string, unknown> & { error?: string }

const prepareOnce = (spec: PrepareSpec): Prepared => {
  for (const element of marked.splice(0)) element.removeAttribute("data-sextant-mark")
  pressTarget = undefined
  const found = locate(spec.target)
  if ("error" in found) return { ...found }
  const element = found.element as HTMLElement
  const tag = element.localName
  const type = (element.getAttribute("type") || "").toLowerCase()
  // A switch or box drawn with ARIA (a button with role=switch) says its state in aria-checked.
  const result: Prepared = { tag, type, checked: isChecked(element) }
  // Who the target is, for the run's recording, when the driver's last look does not say.
  const describe = perception()?.describe
  if (spec.describe && typeof describe === "function") result.element = describe(element)
  if (
    ((element as HTMLButtonElement).disabled === true || element.getAttribute("aria-disabled") === "true") &&
    spec.op !== "hover"
  )
    return { error: "disabled", detail: `${brief(element)} is disabled` }
  if (spec.origins && spec.op === "input") {
    const refused = originRefused(element, spec.origins)
    if (refused) return { error: "origin", detail: refused }
  }
  if (spec.op === "select") {
    const choice = chooseOptions(element, spec.values ?? [])
    if (choice.ok) return Object.assign(result, { selected: choice.selected })
    if (choice.reason === "notselect")
      return { error: "notselect", detail: `${brief(element)} is not a <select>` }
    if (choice.reason === "toomany")
      return { error: "nooption", detail: `${brief(element)} takes one option, got ${choice.count}` }
    return {
      error: "nooption",
      detail: `${JSON.stringify(choice.wanted)} is not an option of ${brief(element)} (options: ${choice.options.map((label) => JSON.stringify(label)).join(", ")})`,
    }
  }
  if (spec.op === "focus") {
    element.focus({ preventScroll: false })
    return result
  }
  if (spec.op === "upload") {
    if (tag !== "input" || type !== "file")
      return { error: "notfile", detail: `${brief(element)} is not a file input` }
    return Object.assign(result, { mark: mark(element) })
  }
  if (spec.op === "screenshot") {
    const value = mark(element)
    element.scrollIntoView({ block: "center", behavior: "instant" })
    return Object.assign(result, { mark: value, box: viewportRect(element) })
  }
  if (spec.op === "selectText") {
    const wanted = String(spec.value || "").trim()
    const span = wanted === "" ? undefined : textSpan(element, wanted)
    if (!span) return { error: "notext", detail: `no text ${JSON.stringify(wanted)} in ${brief(element)}` }
    return Object.assign(result, span)
  }
  if (spec.op === "scroll") {
    // Scroll inside the element (a list, a text area, a terms box): a trusted wheel over it.
    const aimedBox = aim(element, false)
    if ("error" in aimedBox) return { ...aimedBox }
    const toEnd = spec.value !== "top"
    return Object.assign(result, aimedBox, {
      deltaY: (toEnd ? 1 : -1) * Math.max(element.scrollHeight, 1000),
    })
  }
  const aimed = aim(element, pointerOps.has(spec.op))
  if ("error" in aimed) return { ...aimed }
  if (pressOps.has(spec.op)) {
    pressTarget = element
    watchState.pressedOn = null
  }
  if (spec.op === "drag") {
    Object.assign(result, aimed)
    if (spec.to) {
      const destination = locate(spec.to)
      if ("error" in destination) return { ...destination }
      const box = viewportRect(destination.element)
      return Object.assign(result, { toX: box.x + box.width / 2, toY: box.y + Math.min(box.height / 2, 24) })
    }
    return Object.assign(result, { toX: aimed.x + Number(spec.dx || 0), toY: aimed.y + Number(spec.dy || 0) })
  }
  Object.assign(result, aimed)
  if (
    spec.op === "input" &&
    tag === "input" &&
    Object.hasOwn(VALUE_FORMATS, type) &&
    typeof spec.value === "string"
  ) {
    const assigned = assignValue(element as HTMLInputElement, type, spec.value)
    return "error" in assigned ? { ...assigned } : Object.assign(result, assigned)
  }
  // A day with no year (`--12-31`, "31 December" as the rules read it) takes its year only from a date
  // field; typed into a text field it would be the text `--12-31`.
  if (spec.op === "input" && typeof spec.value === "string" && YEARLESS_DAY.test(spec.value))
    return {
      error: "badvalue",
      detail: `${brief(element)} takes typed text, and ${spec.value} is a day with no year: say the year (for example ${new Date().getFullYear()}${spec.value.slice(1)})`,
    }
  if (spec.op === "input" || spec.op === "clear") {
    if (!selectAll(element)) return { error: "noteditable", detail: `${brief(element)} does not take text` }
    result.watched = watchInput(element)
    result.value = (element as HTMLInputElement).value
  }
  if (spec.op === "click") {
    result.watched = watchInput(element)
    // A click into a field that takes typed text shows as the focus there (the driver asks `gestureShown`).
    result.textField = tag === "textarea" || (tag === "input" && (TEXT_TYPES.has(type) || type === "number"))
  }
  if (spec.op === "press") element.focus({ preventScroll: true })
  if (spec.op === "set") {
    // A native range input, or an ARIA slider / spin button that keeps its value in aria-valuenow.
    const input = element as HTMLInputElement
    const aria = !("value" in element) || input.value === undefined
    result.min = Number((aria ? element.getAttribute("aria-valuemin") : input.min) || 0)
    result.max = Number((aria ? element.getAttribute("aria-valuemax") : input.max) || 100)
    result.step = aria || input.step === "any" ? 1 : Number(input.step || 1)
    result.current = Number(aria ? element.getAttribute("aria-valuenow") : input.value)
  }
  return result
}

/** Errors no wait can cure: answered at once rather than retried until `waitMs`. */
const FINAL = new Set(["stale", "selector", "nooption", "notselect"])

/**
 * Prepares an action, retrying every 25 ms for up to `waitMs` while the element is missing, hidden,
 * covered or disabled, and starts watching for its effects. Answers JSON: where to aim and what the
 * element is, or `{ error, detail }`; with the "before" snapshot, the input count and the document.
 */
export const prepare = async (spec: PrepareSpec): Promise<string> => {
  observe()
  const deadline = performance.now() + (spec.waitMs || 0)
  // The "before" snapshot comes first: select and focus change the page inside prepareOnce.
  const look = perception()?.look
  const before = spec.before && typeof look === "function" ? look(spec.before) : undefined
  let last: Prepared = { error: "missing" }
  for (;;) {
    last = prepareOnce(spec)
    if (!last.error || FINAL.has(last.error) || performance.now() >= deadline) break
    await sleep(25)
  }
  watchState.navigating = false
  watchState.mutations = 0
  watchState.timers.clear()
  watchState.watchingTimers = !last.error
  if (before !== undefined) last.before = before
  last.inputs = watchState.inputs
  last.doc = watchState.doc
  return JSON.stringify(last)
}

/** The target's value (or aria-valuenow) and checked state now, as JSON; or why it is not found. */
export const currentValue = (spec: { readonly target: Target }): string => {
  const found = locate(spec.target)
  if ("error" in found) return JSON.stringify(found)
  const element = found.element as HTMLInputElement
  const value =
    "value" in element && element.value !== undefined ? element.value : element.getAttribute("aria-valuenow")
  return JSON.stringify({ value, checked: isChecked(element) })
}

/** Input types whose value is the text typed, character for character (the others assign a format). */
const TEXT_TYPES: ReadonlySet<string> = new Set(["", "text", "search", "email", "tel", "url", "password"])

/**
 * Text in the loose form a field may keep it in: case, spacing, punctuation and symbols dropped, so an
 * input mask's `(555) 123-4567` is the `5551234567` typed, and an upper-casing field still holds it.
 */
export const looseText = (text: string): string =>
  text
    .normalize("NFKC")
    .toLowerCase()
    .replace(/[\s\p{P}\p{S}\p{Cf}]+/gu, "")

/**
 * Whether two texts name the same day or the same time of day in any format values.ts reads (a picker
 * that shows `14 May 2024` as `2024-05-14`, `2:30 pm` as `14:30`). A day needs a year in both texts, so
 * a lone number is never read as a date.
 */
/** A plain amount as a number: currency signs, spaces and thousands separators dropped; else undefined. */
const amountOf = (text: string): number | undefined => {
  const bare = text.replace(/[\s\u00a0$€£¥]/gu, "").replace(/,(?=\d{3}(?:\D|$))/gu, "")
  return /^[-+]?\d+(?:\.\d+)?$/u.test(bare) ? Number(bare) : undefined
}

/** Whether a field that shows amounts as money holds the amount typed (`$1,250.00` for `1250`). */
const sameAmount = (have: string, wanted: string): boolean => {
  const typed = amountOf(wanted)
  return typed !== undefined && amountOf(have) === typed
}

const sameMoment = (have: string, wanted: string): boolean => {
  const year = /\b\d{4}\b/
  if (year.test(have) && year.test(wanted)) {
    const day = inputFormat("date", wanted)
    if (/^\d{4}-\d{2}-\d{2}$/.test(day) && inputFormat("date", have) === day) return true
  }
  const time = inputFormat("time", wanted)
  return /^\d{2}:\d{2}(:\d{2})?$/.test(time) && inputFormat("time", have) === time
}

/** What {@link checkTyped} is asked: the field, the text typed into it, and whether that text is secret. */
export interface TypedSpec {
  readonly target: Target
  readonly value: string
  readonly secret?: boolean
}

/**
 * Reads a text field (a text-like input, a textarea, a contenteditable element) back after typing and
 * compares it with what was typed: exactly, else in {@link looseText} form, else as the same day or
 * time of day in another format, else as the same amount shown as money (`$1,250.00` holds `1250`). Answers JSON:
 * `{ ok: true }` (also when the element takes no typed text of its own, or is gone), or what it holds:
 * its length, the `maxlength`, and its text only when neither the field (a password) nor the value is
 * secret, so a secret never leaves the page.
 */
export const checkTyped = (spec: TypedSpec): string => {
  const found = locate(spec.target)
  if ("error" in found) return JSON.stringify({ ok: true, unread: true })
  const element = found.element as HTMLElement
  const tag = element.localName
  const type = (element.getAttribute("type") || "").toLowerCase()
  const text =
    (tag === "input" && TEXT_TYPES.has(type)) || tag === "textarea"
      ? (element as HTMLInputElement).value
      : element.isContentEditable
        ? // biome-ignore lint/performance/useDomNodeTextContent: typed line breaks are <br> or <div> here, which only innerText reads as newlines
          (element.innerText ?? element.textContent ?? "").replace(/\n$/, "")
        : undefined
  if (text === undefined) return JSON.stringify({ ok: true, unread: true })
  const wanted = String(spec.value)
  if (
    text === wanted ||
    looseText(text) === looseText(wanted) ||
    sameMoment(text, wanted) ||
    sameAmount(text, wanted)
  )
    return JSON.stringify({ ok: true })
  const secret = spec.secret === true || type === "password"
  const maxLength = (element as HTMLInputElement).maxLength
  return JSON.stringify({
    ok: false,
    secret,
    length: [...text].length,
    wanted: [...wanted].length,
    ...(typeof maxLength === "number" && maxLength >= 0 ? { maxLength } : {}),
    // Whether what it holds is the start of what was typed (keys lost at the end) or cut short by it.
    prefix: wanted.startsWith(text),
    ...(secret ? {} : { value: text }),
  })
}

/** How to scroll the page: a direction and a count of screens, an end, a ratio, a screen, or an element. */
export interface ScrollSpec {
  readonly direction?: "up" | "down"
  readonly count?: number
  readonly to?: "top" | "bottom" | "middle"
  readonly ratio?: number
  readonly screen?: number
  readonly target?: Target
}

/** Scrolls the page and answers where it is as JSON: `{ y, height, viewportHeight, atBottom }`. */
export const scroll = (op: ScrollSpec): string => {
  const root = document.scrollingElement || document.documentElement
  const viewport = innerHeight
  if (op.direction)
    window.scrollBy({
      top: (op.direction === "down" ? 1 : -1) * viewport * 0.85 * (op.count || 1),
      behavior: "instant",
    })
  else if (op.to === "top") window.scrollTo({ top: 0, behavior: "instant" })
  else if (op.to === "bottom") window.scrollTo({ top: root.scrollHeight, behavior: "instant" })
  else if (op.to === "middle")
    window.scrollTo({ top: (root.scrollHeight - viewport) / 2, behavior: "instant" })
  else if (op.ratio !== undefined)
    window.scrollTo({ top: (root.scrollHeight - viewport) * op.ratio, behavior: "instant" })
  else if (op.screen !== undefined) window.scrollTo({ top: viewport * op.screen, behavior: "instant" })
  else if (op.target) {
    const found = locate(op.target)
    if ("error" in found) return JSON.stringify(found)
    found.element.scrollIntoView({ block: "center", behavior: "instant" })
  }
  const y = root.scrollTop
  return JSON.stringify({
    y,
    height: root.scrollHeight,
    viewportHeight: viewport,
    atBottom: y + viewport >= root.scrollHeight - 2,
  })
}

/** What {@link gestureShown} is asked: the element a focus, text selection or drag acted on, and how. */
export interface GestureSpec {
  readonly target: Target
  readonly op: "focus" | "selectText" | "drag"
  /** The words a text selection was to hold. */
  readonly text?: string
  /** Where the dragged element's box was before the drag (viewport pixels). */
  readonly from?: { readonly x: number; readonly y: number }
}

/** The element that holds the keyboard focus, followed into shadow roots and same-origin frames. */
const focusedElement = (): Element | null => {
  let active: Element | null = document.activeElement
  for (let depth = 0; depth < 16 && active !== null; depth++) {
    const inner =
      active.shadowRoot?.activeElement ??
      (active.localName === "iframe" || active.localName === "frame"
        ? ((active as HTMLIFrameElement).contentDocument?.activeElement ?? null)
        : null)
    if (inner === null || inner === active) break
    active = inner
  }
  return active
}

/** The text selected in the element's document (a text field's own selection included). */
const selectedText = (element: Element): string => {
  const owner = element.ownerDocument
  const field = owner.activeElement as HTMLInputElement | null
  if (
    field !== null &&
    (field.localName === "textarea" || field.localName === "input") &&
    typeof field.selectionStart === "number" &&
    typeof field.selectionEnd === "number"
  )
    return field.value.slice(field.selectionStart, field.selectionEnd)
  return owner.getSelection()?.toString() ?? ""
}

/**
 * Whether the page shows what a gesture the page view does not print did: the keyboard focus on the
 * element (or inside it), the selection holding the words, the dragged element's box moved by at least
 * four pixels. These are the postconditions of `focus`, `selectText` and `drag`, whose effect no outline
 * line carries. Answers JSON `{ shown, detail }`; `detail` says what the page holds.
 */
export const gestureShown = (spec: GestureSpec): string => {
  const found = locate(spec.target)
  if ("error" in found) return JSON.stringify({ shown: false, detail: "the element is gone" })
  const element = found.element
  if (spec.op === "focus") {
    const active = focusedElement()
    const onIt = active !== null && (active === element || composedContains(element, active))
    return JSON.stringify({
      shown: onIt,
      detail: onIt ? "the focus is on it" : `the focus is on ${brief(active)}`,
    })
  }
  if (spec.op === "selectText") {
    const held = selectedText(element)
    const holds =
      spec.text !== undefined && looseText(held).includes(looseText(spec.text)) && held.trim() !== ""
    return JSON.stringify({
      shown: holds,
      detail:
        held.trim() === ""
          ? "nothing is selected"
          : `the selection holds ${JSON.stringify(collapse(held).slice(0, 80))}`,
    })
  }
  const box = viewportRect(element)
  const moved = spec.from === undefined ? 0 : Math.abs(box.x - spec.from.x) + Math.abs(box.y - spec.from.y)
  return JSON.stringify({
    shown: moved >= 4,
    detail: moved >= 4 ? `it moved by ${Math.round(moved)} px` : "it did not move",
  })
}

import { frameDocument } from "./frames.ts"
import { resolve } from "./resolve.ts"
import { collapse } from "./text.ts"
import { shown } from "./visibility.ts"

/* The browser tools' page functions (@sextant/tools): picking and reading elements, marking one for an action. */

/** How `pickElement` chooses among the elements that match `selector`. */
export interface PickSpec {
  readonly selector: string
  readonly root?: string | undefined
  readonly text?: string | undefined
  readonly pattern?: string | undefined
  readonly flags?: string | undefined
  readonly attribute?: string | undefined
  /** Which match to mark, 0-based; negative counts from the end. */
  readonly index: number
  readonly mark: string
}

/** What `pickElement` answers. */
export interface Picked {
  /**
   * `frame`: the field being typed into sits in a frame that holds a control of the same text too, which
   * a pick in the top document cannot reach (`detail` names the frame): pressing the top document's
   * would press the wrong one.
   */
  readonly error?: "selector" | "root" | "frame"
  readonly detail?: string
  readonly count: number
  readonly picked?: { readonly text: string; readonly tag: string; readonly href?: string }
}

const squeeze = (text: string): string => collapse(text).trim()

/** What a person reads as an element's label: its rendered text, else its aria-label, value or title. */
const labelOf = (element: Element): string =>
  squeeze(
    // biome-ignore lint/performance/useDomNodeTextContent: the rendered text is what a person reads and matches
    (element as HTMLElement).innerText ||
      element.getAttribute("aria-label") ||
      element.getAttribute("value") ||
      element.getAttribute("title") ||
      "",
  )

/** The form an element belongs to: its own `form` (a control, `form=` included), else the form around it. */
const formOf = (element: Element): HTMLFormElement | null =>
  (element as HTMLButtonElement).form ?? element.closest("form")

/** The form of the focused field (the one a fill just typed into), if any. */
const activeForm = (): HTMLFormElement | null => {
  const active = document.activeElement
  return active === null || active === document.body ? null : formOf(active)
}

/**
 * The frame being typed into (the focused element is a frame whose document this page can read), when
 * it shows an element matching `selector` whose label holds `wanted`: described by its id, name or
 * title. Undefined otherwise.
 */
const frameHolding = (selector: string, wanted: string): string | undefined => {
  const active = document.activeElement
  const inner = active === null ? null : frameDocument(active)
  if (active === null || inner === null) return undefined
  let found: ReadonlyArray<Element> = []
  try {
    found = Array.from(inner.querySelectorAll(selector))
  } catch {
    return undefined
  }
  if (!found.some((element) => shown(element) && labelOf(element).toLowerCase().includes(wanted)))
    return undefined
  const name = active.id || active.getAttribute("name") || active.getAttribute("title") || ""
  return name === "" ? active.localName : `${active.localName} ${JSON.stringify(name)}`
}

/** The open modal dialog (`<dialog>` shown with `showModal()`, or a shown `aria-modal="true"` element), if any. */
const openModal = (): Element | null => {
  const native = document.querySelector("dialog:modal")
  if (native !== null) return native
  return (
    Array.from(document.querySelectorAll('[aria-modal="true"]')).find((element) => shown(element)) ?? null
  )
}

/** How deep the innermost element holding both `element` and `other` sits (0: the document element). */
const sharedDepth = (element: Element, other: Element): number => {
  let shared: Element | null = element
  while (shared !== null && !shared.contains(other)) shared = shared.parentElement
  let depth = 0
  for (let parent = shared?.parentElement ?? null; parent !== null; parent = parent.parentElement) depth++
  return depth
}

/**
 * Finds the shown elements (`shown`) matching the spec, in document order, and marks the one at
 * `index` with `data-sextant-pick` so a trusted click can aim at it by selector.
 */
export const pickElement = (spec: PickSpec): Picked => {
  let root: Element | Document = document
  if (spec.root !== undefined) {
    let found: Element | null = null
    try {
      found = document.querySelector(spec.root)
    } catch (error) {
      return { error: "selector", detail: String(error), count: 0 }
    }
    if (found === null) return { error: "root", count: 0 }
    root = found
  }
  let all: Element[]
  try {
    all = Array.from(root.querySelectorAll(spec.selector))
  } catch (error) {
    return { error: "selector", detail: String(error), count: 0 }
  }
  const regex = spec.pattern === undefined ? undefined : new RegExp(spec.pattern, spec.flags ?? "i")
  const wanted = spec.text === undefined ? undefined : squeeze(spec.text).toLowerCase()
  const matches = all.filter((element) => {
    if (!shown(element)) return false
    if (spec.attribute !== undefined) {
      const value = element.getAttribute(spec.attribute)
      return value !== null && (regex === undefined || regex.test(value))
    }
    const label = labelOf(element)
    if (wanted !== undefined && !label.toLowerCase().includes(wanted)) return false
    return regex === undefined || regex.test(label)
  })
  // An exact label beats a longer one that only contains the text ("Next" over "Next steps"); among
  // equals, one inside an open modal dialog beats the page behind it (which the dialog makes inert),
  // then one in the form of the field just typed into (the form's "Sign in" button over the header's
  // "Sign in" link), then the one sharing the deepest container with that field (a dialog's "Save"
  // beside its field over the page's own "Save").
  if (wanted !== undefined) {
    const form = activeForm()
    const modal = openModal()
    const active = document.activeElement
    const focused = active === null || active === document.body ? null : active
    const rank = (element: Element): ReadonlyArray<number> => [
      Number(labelOf(element).toLowerCase() === wanted),
      Number(modal?.contains(element) === true),
      Number(form !== null && formOf(element) === form),
      focused === null ? 0 : sharedDepth(element, focused),
    ]
    const ranks = new Map(matches.map((element) => [element, rank(element)]))
    matches.sort((a, b) => {
      const left = ranks.get(a) ?? []
      const right = ranks.get(b) ?? []
      for (let index = 0; index < left.length; index++) {
        const order = (right[index] ?? 0) - (left[index] ?? 0)
        if (order !== 0) return order
      }
      return 0
    })
  }
  if (wanted !== undefined) {
    const frame = frameHolding(spec.selector, wanted)
    if (frame !== undefined) return { error: "frame", detail: frame, count: matches.length }
  }
  for (const old of Array.from(document.querySelectorAll("[data-sextant-pick]")))
    old.removeAttribute("data-sextant-pick")
  const chosen = matches[spec.index < 0 ? matches.length + spec.index : spec.index]
  if (chosen === undefined) return { count: matches.length }
  chosen.setAttribute("data-sextant-pick", spec.mark)
  const href = chosen.getAttribute("href")
  return {
    count: matches.length,
    picked: {
      text: labelOf(chosen).slice(0, 200),
      tag: chosen.localName,
      ...(href === null ? {} : { href: (chosen as HTMLAnchorElement).href || href }),
    },
  }
}

/** What `extractValues` reads. */
export interface ExtractSpec {
  readonly selector?: string | undefined
  readonly ref?: string | undefined
  readonly mode: "text" | "attr" | "html"
  readonly attribute?: string | undefined
  readonly all: boolean
  readonly limit: number
}

/** What `extractValues` answers. */
export interface Extracted {
  readonly error?: "selector" | "stale"
  readonly detail?: string
  readonly count: number
  readonly values: ReadonlyArray<string | null>
}

/** Reads the text, an attribute or the HTML of the element(s) a selector or ref names. */
export const extractValues = (spec: ExtractSpec): Extracted => {
  let elements: Element[] = []
  if (spec.ref !== undefined) {
    const resolved = resolve(spec.ref, { scroll: false })
    if (!resolved.ok || !resolved.element) return { error: "stale", count: 0, values: [] }
    elements = [resolved.element]
  } else {
    try {
      elements = Array.from(document.querySelectorAll(spec.selector ?? "body"))
    } catch (error) {
      return { error: "selector", detail: String(error), count: 0, values: [] }
    }
  }
  const read = (element: Element): string | null => {
    if (spec.mode === "html") return element.outerHTML
    if (spec.mode === "attr") {
      const name = spec.attribute ?? "href"
      const value = element.getAttribute(name)
      // Links and sources read as absolute URLs, the way the browser resolved them.
      if (value !== null && (name === "href" || name === "src")) {
        const resolvedUrl = (element as unknown as Record<string, unknown>)[name]
        if (typeof resolvedUrl === "string" && resolvedUrl !== "") return resolvedUrl
      }
      return value
    }
    // biome-ignore lint/performance/useDomNodeTextContent: the text as rendered, without hidden parts, with line breaks between blocks
    const text = (element as HTMLElement).innerText ?? element.textContent ?? ""
    return text
      .replace(/[ \t\r\f\v]+/g, " ")
      .replace(/\s*\n\s*/g, "\n")
      .trim()
  }
  const chosen = spec.all ? elements.slice(0, spec.limit) : elements.slice(0, 1)
  return { count: elements.length, values: chosen.map(read) }
}

/**
 * Marks the element whose own words are `wanted` (its aria-label or rendered text), the smallest best
 * match among the shown ones; with `scrollable`, only elements that scroll on their own. The mark is
 * `data-sextant-text="<mark>"` for one action; answers its selector, or null when nothing fits.
 */
export const markByText = (wanted: string, scrollable: boolean, mark: string): string | null => {
  const normal = (value: string | null | undefined) => squeeze(String(value ?? "")).toLowerCase()
  const goal = normal(wanted)
  let best: Element | undefined
  let bestScore = 0
  let bestArea = Number.POSITIVE_INFINITY
  for (const element of Array.from(document.body.querySelectorAll("*"))) {
    if (!shown(element)) continue
    if (scrollable) {
      const style = getComputedStyle(element)
      if (!/(auto|scroll)/.test(style.overflowY) || element.scrollHeight <= element.clientHeight + 2) continue
    }
    // biome-ignore lint/performance/useDomNodeTextContent: the words a person reads on the element
    const names = [normal(element.getAttribute("aria-label")), normal((element as HTMLElement).innerText)]
    let score = 0
    for (const name of names) {
      if (name === "") continue
      if (name === goal) score = Math.max(score, 3)
      else if (name.length >= 3 && goal.includes(name)) score = Math.max(score, 2 + name.length / 1000)
      else if (scrollable && name.includes(goal)) score = Math.max(score, 1)
    }
    const box = element.getBoundingClientRect()
    const area = box.width * box.height
    if (score > bestScore || (score === bestScore && score > 0 && area < bestArea)) {
      best = element
      bestScore = score
      bestArea = area
    }
  }
  if (best === undefined) return null
  best.setAttribute("data-sextant-text", mark)
  return `[data-sextant-text="${mark}"]`
}

/** The attributes tools mark elements with for one action, which `clearMarks` removes. */
export type MarkAttribute =
  | "data-sextant-text"
  | "data-sextant-date"
  | "data-sextant-next"
  | "data-sextant-pick"

/** Removes a mark a tool left on the page's elements. */
export const clearMarks = (attribute: MarkAttribute): void => {
  for (const element of Array.from(document.querySelectorAll(`[${attribute}]`)))
    element.removeAttribute(attribute)
}

/** Whether an element other than the body has focus (a key pressed with no target goes to it). */
export const hasFocus = (): boolean =>
  document.activeElement !== null && document.activeElement !== document.body

/** Stops the page loading, as the browser's Stop button does. */
export const stopLoading = (): void => window.stop()

/**
 * The error text the page shows: a shown element with `role="alert"` or `aria-live="assertive"`,
 * else the description of a field marked invalid; "" when there is none.
 */
export const errorText = (): string => {
  const alerts = Array.from(document.querySelectorAll("[role=alert], [aria-live=assertive]")).filter(shown)
  const described = Array.from(document.querySelectorAll("[aria-invalid=true][aria-describedby]"))
    .flatMap((field) => (field.getAttribute("aria-describedby") ?? "").split(/\s+/))
    .map((id) => (id === "" ? null : document.getElementById(id)))
    .filter((element): element is HTMLElement => element !== null && shown(element))
  for (const element of [...alerts, ...described]) {
    // biome-ignore lint/performance/useDomNodeTextContent: the message as the page shows it
    const text = (element as HTMLElement).innerText.trim()
    if (text !== "") return text
  }
  return ""
}

/** The line of the page's text that says a search found nothing ("No results for …"), or "". */
export const noResultsText = (): string => {
  // biome-ignore lint/performance/useDomNodeTextContent: the text as the page shows it, line by line
  const match = document.body.innerText.match(/^.*(no results|nothing found|no matches|没有结果|未找到).*$/im)
  return match === null ? "" : match[0].trim()
}

/**
 * Marks the page's "next page" control with `data-sextant-next` and answers whether there is one:
 * a shown link or button with `rel=next`, else one whose text, aria-label, title or value fits
 * `pattern` (a case-insensitive regular expression source). Disabled controls and the current page
 * link do not count.
 */
export const markNext = (pattern: string): boolean => {
  clearMarks("data-sextant-next")
  const label = new RegExp(pattern, "i")
  const usable = (element: Element) =>
    shown(element) &&
    (element as HTMLButtonElement).disabled !== true &&
    element.getAttribute("aria-disabled") !== "true" &&
    element.getAttribute("aria-current") === null
  const controls = Array.from(
    document.querySelectorAll(
      "a[href], button, [role=button], [role=link], input[type=submit], input[type=button]",
    ),
  ).filter(usable)
  const labels = (element: Element) =>
    [
      // biome-ignore lint/performance/useDomNodeTextContent: the words a person reads on the control
      (element as HTMLElement).innerText,
      element.getAttribute("aria-label"),
      element.getAttribute("title"),
      (element as HTMLInputElement).value,
    ]
      .map((text) => squeeze(text ?? ""))
      .filter((text) => text !== "")
  const next =
    controls.find((element) => /(^|\s)next(\s|$)/i.test(element.getAttribute("rel") ?? "")) ??
    controls.find((element) => labels(element).some((text) => label.test(text)))
  if (next === undefined) return false
  next.setAttribute("data-sextant-next", "")
  return true
}

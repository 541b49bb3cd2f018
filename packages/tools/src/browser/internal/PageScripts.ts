/**
 * Functions that run inside the page through `BrowserDriver.evaluate`, sent as their source text.
 * Each is self-contained (no imports, no outer names) and answers one JSON string, which BiDi
 * carries much faster than an object tree.
 */

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
  readonly error?: "selector" | "root"
  readonly detail?: string
  readonly count: number
  readonly picked?: { readonly text: string; readonly tag: string; readonly href?: string }
}

/**
 * Finds the visible elements matching the spec, in document order, and marks the one at `index`
 * with `data-sextant-pick` so a trusted click can aim at it by selector.
 */
export function pickElement(spec: PickSpec): string {
  const squeeze = (text: string) => text.replace(/\s+/g, " ").trim()
  const visible = (element: Element) => {
    const box = element.getBoundingClientRect()
    if (box.width <= 0 || box.height <= 0) return false
    const style = getComputedStyle(element)
    return style.visibility !== "hidden" && style.display !== "none"
  }
  let root: Element | Document = document
  if (spec.root !== undefined) {
    let found: Element | null = null
    try {
      found = document.querySelector(spec.root)
    } catch (error) {
      return JSON.stringify({ error: "selector", detail: String(error), count: 0 })
    }
    if (found === null) return JSON.stringify({ error: "root", count: 0 })
    root = found
  }
  let all: Array<Element>
  try {
    all = Array.from(root.querySelectorAll(spec.selector))
  } catch (error) {
    return JSON.stringify({ error: "selector", detail: String(error), count: 0 })
  }
  const regex = spec.pattern === undefined ? undefined : new RegExp(spec.pattern, spec.flags ?? "i")
  const wanted = spec.text === undefined ? undefined : squeeze(spec.text).toLowerCase()
  const labelOf = (element: Element) =>
    squeeze(
      // biome-ignore lint/performance/useDomNodeTextContent: the rendered text is what a person reads and matches
      (element as HTMLElement).innerText ||
        element.getAttribute("aria-label") ||
        element.getAttribute("value") ||
        element.getAttribute("title") ||
        "",
    )
  const matches = all.filter((element) => {
    if (!visible(element)) return false
    if (spec.attribute !== undefined) {
      const value = element.getAttribute(spec.attribute)
      return value !== null && (regex === undefined || regex.test(value))
    }
    const label = labelOf(element)
    if (wanted !== undefined && !label.toLowerCase().includes(wanted)) return false
    return regex === undefined || regex.test(label)
  })
  // An exact label beats a longer one that only contains the text ("Next" over "Next steps").
  if (wanted !== undefined) {
    matches.sort(
      (a, b) => Number(labelOf(b).toLowerCase() === wanted) - Number(labelOf(a).toLowerCase() === wanted),
    )
  }
  for (const old of Array.from(document.querySelectorAll("[data-sextant-pick]"))) {
    old.removeAttribute("data-sextant-pick")
  }
  const chosen = matches[spec.index < 0 ? matches.length + spec.index : spec.index]
  if (chosen === undefined) return JSON.stringify({ count: matches.length })
  chosen.setAttribute("data-sextant-pick", spec.mark)
  const href = chosen.getAttribute("href")
  return JSON.stringify({
    count: matches.length,
    picked: {
      text: labelOf(chosen).slice(0, 200),
      tag: chosen.tagName.toLowerCase(),
      ...(href === null ? {} : { href: (chosen as HTMLAnchorElement).href || href }),
    },
  })
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
export function extractValues(spec: ExtractSpec): string {
  let elements: Array<Element> = []
  if (spec.ref !== undefined) {
    const runtime = (
      globalThis as unknown as {
        __sextant?: { resolve?: (ref: string, options: object) => { ok: boolean; element?: Element | null } }
      }
    ).__sextant
    // A document holding only the driver's actor has `__sextant` without the runtime's resolve yet.
    const resolved = runtime?.resolve === undefined ? undefined : runtime.resolve(spec.ref, { scroll: false })
    if (resolved === undefined || !resolved.ok || !resolved.element) {
      return JSON.stringify({ error: "stale", count: 0, values: [] })
    }
    elements = [resolved.element]
  } else {
    try {
      elements = Array.from(document.querySelectorAll(spec.selector ?? "body"))
    } catch (error) {
      return JSON.stringify({ error: "selector", detail: String(error), count: 0, values: [] })
    }
  }
  const read = (element: Element): string | null => {
    if (spec.mode === "html") return element.outerHTML
    if (spec.mode === "attr") {
      const name = spec.attribute ?? "href"
      const value = element.getAttribute(name)
      // Links and sources read as absolute URLs, the way the browser resolved them.
      if (value !== null && (name === "href" || name === "src")) {
        const resolved = (element as unknown as Record<string, unknown>)[name]
        if (typeof resolved === "string" && resolved !== "") return resolved
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
  return JSON.stringify({ count: elements.length, values: chosen.map(read) })
}

/** The source of a page function, called with the given arguments, as the body of one `evaluate`. */
export const callScript = (fn: (...args: never[]) => unknown): string =>
  `return (${fn.toString()}).apply(null, arguments)`

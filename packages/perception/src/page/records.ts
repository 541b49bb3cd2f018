/*
 * Reading records out of a DOM, for the compound tools (@sextant/tools). `readRecord` runs in the
 * page and in Node on a linkedom document (exported from @sextant/perception), so the browser and
 * the HTTP path read exactly the same way; it uses the DOM it is given and no page globals.
 */

/** How to read one field: by selector (text or attribute, optionally the first whose text fits a pattern), or inferred from its name. */
export interface FieldPlan {
  readonly name: string
  readonly selector?: string | undefined
  readonly attribute?: string | undefined
  readonly pattern?: string | undefined
}

/**
 * Reads one record from `root`. A field with a selector reads the first match inside `root` (or
 * `root` itself when it matches); without one, the field is inferred from its name: name/title →
 * the first heading (else the first link's text); price → a text like `$12.99`; rating → a lone
 * number such as `4.5`; url/link → the first link; image → the first image; id → a `data-…id`
 * attribute; anything else → the value next to a label with that name (table header, `dt`, or
 * `Label:` text), then `[itemprop]`, `[data-field]` or a class containing the name.
 */
export const readRecord = (
  root: Element,
  fields: ReadonlyArray<FieldPlan>,
  base: string,
): Record<string, string | null> => {
  const squeeze = (text: string | null | undefined) => (text ?? "").replace(/\s+/g, " ").trim()
  const absolute = (value: string | null) => {
    if (value === null) return null
    try {
      return new URL(value, base).href
    } catch {
      return value
    }
  }
  const within = (selector: string): Array<Element> => {
    const found = Array.from(root.querySelectorAll(selector))
    return root.matches(selector) ? [root, ...found] : found
  }
  const firstText = (test: RegExp): string | null => {
    for (const element of within("*")) {
      if (element.children.length > 2) continue
      const text = squeeze(element.textContent)
      if (test.test(text)) return text
    }
    return null
  }
  const words = (name: string) =>
    name
      .replace(/([a-z])([A-Z])/g, "$1 $2")
      .replace(/[_-]+/g, " ")
      .toLowerCase()
      .trim()
  const labelled = (name: string): string | null => {
    const wanted = [words(name), words(name).split(" ")[0] ?? ""].filter((word) => word !== "")
    const fits = (text: string) =>
      wanted.includes(
        squeeze(text)
          .replace(/[:：]$/, "")
          .toLowerCase(),
      )
    for (const label of within("th, dt, label, strong, b, span, td")) {
      if (!fits(label.textContent ?? "")) continue
      const tag = label.tagName.toLowerCase()
      if (tag === "dt") {
        let next = label.nextElementSibling
        while (next !== null && next.tagName.toLowerCase() !== "dd") next = next.nextElementSibling
        if (next !== null) return squeeze(next.textContent)
      }
      const sibling = label.nextElementSibling
      if (sibling !== null) return squeeze(sibling.textContent)
      const parent = label.parentElement
      if (parent !== null) {
        const rest = squeeze(parent.textContent).slice(squeeze(label.textContent).length)
        const value = rest.replace(/^[\s:：]+/, "")
        if (value !== "") return value
      }
    }
    return null
  }
  const infer = (name: string): string | null => {
    const key = words(name)
    if (/^(name|title|heading|product( name)?)$/.test(key)) {
      const heading = within("h1, h2, h3, h4, h5, h6")[0]
      if (heading !== undefined) return squeeze(heading.textContent)
      const link = within("a[href]")[0]
      return link === undefined ? null : squeeze(link.textContent)
    }
    if (/^(price|cost|amount)\b/.test(key)) {
      return firstText(/^(?:[$€£¥]\s?\d[\d,]*(?:\.\d+)?|\d[\d,]*(?:\.\d+)?\s?(?:[$€£¥]|usd|eur|元))$/i)
    }
    if (/^(rating|stars|score)$/.test(key)) return labelled(name) ?? firstText(/^\d(?:\.\d{1,2})?$/)
    if (/^(url|link|href)$/.test(key)) {
      const link = within("a[href]")[0]
      return link === undefined ? null : absolute(link.getAttribute("href"))
    }
    if (/^(image|img|photo|picture|thumbnail)$/.test(key)) {
      const image = within("img[src]")[0]
      return image === undefined ? null : absolute(image.getAttribute("src"))
    }
    if (key === "id") {
      for (const element of within("*")) {
        for (const attribute of Array.from(element.attributes)) {
          if (/^data-(?:[\w-]+-)?id$/.test(attribute.name)) return attribute.value
        }
      }
    }
    const byLabel = labelled(name)
    if (byLabel !== null) return byLabel
    const plain = words(name).replace(/ /g, "-")
    for (const selector of [`[itemprop="${plain}"]`, `[data-field="${plain}"]`, `[class*="${plain}"]`]) {
      const element = within(selector)[0]
      if (element !== undefined) return squeeze(element.textContent)
    }
    return null
  }
  const record: Record<string, string | null> = {}
  for (const field of fields) {
    if (field.selector === undefined) {
      record[field.name] = infer(field.name)
      continue
    }
    const pattern = field.pattern === undefined ? undefined : new RegExp(field.pattern)
    const candidates = within(field.selector)
    const element =
      pattern === undefined
        ? candidates[0]
        : candidates.find((item) => pattern.test(squeeze(item.textContent)))
    if (element === undefined) record[field.name] = null
    else if (field.attribute === undefined) record[field.name] = squeeze(element.textContent)
    else {
      const value = element.getAttribute(field.attribute)
      record[field.name] = field.attribute === "href" || field.attribute === "src" ? absolute(value) : value
    }
  }
  return record
}

/** What `findItems` answers. */
export interface FoundItems {
  readonly selector: string
  readonly items: ReadonlyArray<Element>
}

/**
 * The page's repeated items: the elements `listSelector` matches, or, without one, the largest
 * group of same-tag siblings (at least 3) outside header, navigation and footer that each hold a
 * link, a heading or an image, preferring richer items (cards over plain links). Answers a CSS
 * selector that matches exactly those items.
 */
export const findItems = (listSelector: string | undefined): FoundItems | undefined => {
  if (listSelector !== undefined) {
    const items = Array.from(document.querySelectorAll(listSelector))
    return items.length === 0 ? undefined : { selector: listSelector, items }
  }
  const chrome = "header, nav, footer, [role=banner], [role=navigation], [role=contentinfo], select, datalist"
  let best: { parent: Element; tag: string; items: Array<Element>; score: number } | undefined
  for (const parent of [document.body, ...Array.from(document.body.querySelectorAll("*"))]) {
    if (parent.children.length < 3 || parent.closest(chrome) !== null) continue
    const groups = new Map<string, Array<Element>>()
    for (const child of Array.from(parent.children)) {
      const tag = child.tagName.toLowerCase()
      if (tag === "script" || tag === "style" || tag === "template") continue
      const group = groups.get(tag) ?? []
      group.push(child)
      groups.set(tag, group)
    }
    for (const [tag, group] of groups) {
      const rich = group.filter(
        (child) =>
          (child.textContent ?? "").trim() !== "" &&
          child.querySelector("a[href], h1, h2, h3, h4, h5, h6, img") !== null,
      )
      if (rich.length < 3 || rich.length < group.length * 0.8) continue
      const size = rich.reduce((sum, child) => sum + child.getElementsByTagName("*").length, 0) / rich.length
      const score = rich.length * Math.min(size + 1, 12)
      if (best === undefined || score > best.score) best = { parent, tag, items: rich, score }
    }
  }
  if (best === undefined) return undefined
  const path = (element: Element): string => {
    if (element.id !== "") return `#${CSS.escape(element.id)}`
    if (element === document.body) return "body"
    const parent = element.parentElement
    if (parent === null) return element.tagName.toLowerCase()
    const tag = element.tagName.toLowerCase()
    const sameTag = Array.from(parent.children).filter((child) => child.tagName === element.tagName)
    const position = sameTag.length === 1 ? "" : `:nth-of-type(${sameTag.indexOf(element) + 1})`
    return `${path(parent)} > ${tag}${position}`
  }
  const selector = `${path(best.parent)} > ${best.tag}`
  if (document.querySelectorAll(selector).length === best.items.length) return { selector, items: best.items }
  // Some same-tag siblings were left out: mark the chosen ones so the selector names them exactly.
  for (const item of best.items) item.setAttribute("data-sextant-item", "")
  return { selector: `${selector}[data-sextant-item]`, items: best.items }
}

/** What `listRecords` answers. */
export interface ListedRecords {
  readonly error?: string
  readonly selector?: string
  readonly count: number
  readonly records: ReadonlyArray<Record<string, string | null>>
}

/** Finds the list (`findItems`) and reads one record per item, at most `limit`. */
export const listRecords = (spec: {
  readonly listSelector?: string | undefined
  readonly fields: ReadonlyArray<FieldPlan>
  readonly limit: number
}): ListedRecords => {
  let found: FoundItems | undefined
  try {
    found = findItems(spec.listSelector)
  } catch (error) {
    return { error: String(error), count: 0, records: [] }
  }
  if (found === undefined) return { count: 0, records: [] }
  return {
    selector: found.selector,
    count: found.items.length,
    records: found.items.slice(0, spec.limit).map((item) => readRecord(item, spec.fields, location.href)),
  }
}

/** Reads one record from the page's main content (`main`, `[role=main]`, else the body). */
export const pageRecord = (fields: ReadonlyArray<FieldPlan>): Record<string, string | null> =>
  readRecord(document.querySelector("main, [role=main]") ?? document.body, fields, location.href)

/** How many repeated items the page shows (`findItems` without a selector). */
export const countItems = (): number => findItems(undefined)?.items.length ?? 0

/**
 * The links of the list's items, or of the elements `linksSelector` matches (each one a link or
 * holding one), without their fragment and without repeats. An option object, since an absent
 * argument would arrive in the page as null.
 */
export const itemLinks = ({ linksSelector }: { readonly linksSelector?: string | undefined }): string[] => {
  const holders =
    linksSelector !== undefined
      ? Array.from(document.querySelectorAll(linksSelector))
      : (findItems(undefined)?.items ?? [])
  const links: string[] = []
  for (const holder of holders) {
    const anchor = holder.matches("a[href]") ? holder : holder.querySelector("a[href]")
    if (anchor !== null) links.push((anchor as HTMLAnchorElement).href)
  }
  return [...new Set(links.map((link) => link.split("#")[0] ?? link))]
}

import { cssString } from "./text.ts"

/*
 * Selectors for an element that a script outside the run can use to find it again, each proved
 * unique in its document or shadow root.
 */

export const TEST_ID_ATTRIBUTES = ["data-testid", "data-test-id", "data-test", "data-cy", "data-qa"]
/** The attributes an element's report carries, for the outside to tell elements apart. */
export const KEY_ATTRIBUTES = [
  "id",
  "name",
  "type",
  "href",
  "placeholder",
  "aria-label",
  "title",
  "alt",
  "role",
  "autocomplete",
  "data-testid",
  "action",
  "min",
  "max",
  "step",
]

/** Per root, how often each selector-relevant attribute value occurs, to prove uniqueness cheaply. */
export const countCache = new Map<Document | ShadowRoot, Map<string, number>>()
export const countsOf = (root: Document | ShadowRoot): Map<string, number> => {
  let counts = countCache.get(root)
  if (counts !== undefined) return counts
  counts = new Map()
  const bump = (key: string): void => {
    counts?.set(key, (counts.get(key) ?? 0) + 1)
  }
  for (const element of root.querySelectorAll(
    "[id],[name],[href],[type],[data-testid],[data-test-id],[data-test],[data-cy],[data-qa]",
  )) {
    const tag = element.localName
    const id = element.getAttribute("id")
    if (id) bump(`#${id}`)
    const name = element.getAttribute("name")
    if (name) bump(`${tag}|name|${name}`)
    const href = element.getAttribute("href")
    if (href !== null) bump(`${tag}|href|${href}`)
    const type = element.getAttribute("type")
    if (type) bump(`${tag}|type|${type}`)
    for (const attribute of TEST_ID_ATTRIBUTES) {
      const value = element.getAttribute(attribute)
      if (value) bump(`${attribute}|${value}`)
    }
  }
  countCache.set(root, counts)
  return counts
}

/**
 * During one look, the path of each element met as an ancestor: the elements of a list share their
 * parents' steps, which are worked out once. Undefined outside a look, where the page may have
 * changed since.
 */
let ancestorPaths: Map<Element, string> | undefined

/** Runs one look's `work` with ancestors' paths remembered, forgotten after it. */
export const withPathCache = <A>(work: () => A): A => {
  ancestorPaths = new Map()
  try {
    return work()
  } finally {
    ancestorPaths = undefined
  }
}

/** An element's step in a path: its tag, with `:nth-of-type` when a sibling has its tag. */
const stepOf = (element: Element): string => {
  const tag = element.localName
  let index = 1
  let sameTag = false
  for (let sibling = element.previousElementSibling; sibling; sibling = sibling.previousElementSibling)
    if (sibling.localName === tag) index++
  for (let sibling = element.nextElementSibling; sibling && !sameTag; sibling = sibling.nextElementSibling)
    if (sibling.localName === tag) sameTag = true
  return index > 1 || sameTag ? `${tag}:nth-of-type(${index})` : tag
}

/**
 * The path to `current` from the root or from the nearest ancestor with a unique id (`#menu > ul >
 * li:nth-of-type(2)`); the element the path is for (`target`) is never named by its own id here.
 */
const pathTo = (current: Element, root: Document | ShadowRoot, target: boolean): string => {
  if (current.parentNode === null) return ""
  const known = target ? undefined : ancestorPaths?.get(current)
  if (known !== undefined) return known
  let path: string
  const id = target ? null : current.getAttribute("id")
  if (id && countsOf(root).get(`#${id}`) === 1) path = `#${CSS.escape(id)}`
  else {
    const step = stepOf(current)
    const parent = current.parentElement
    const above =
      current.parentNode === root || current.localName === "html" || parent === null
        ? ""
        : pathTo(parent, root, false)
    path = above === "" ? step : `${above} > ${step}`
  }
  if (!target) ancestorPaths?.set(current, path)
  return path
}

export const pathSelector = (element: Element, root: Document | ShadowRoot): string =>
  pathTo(element, root, true)

export const selectorsOf = (element: Element, root: Document | ShadowRoot): string[] => {
  const counts = countsOf(root)
  const tag = element.localName
  const found: string[] = []
  const id = element.getAttribute("id")
  if (id && counts.get(`#${id}`) === 1) found.push(`#${CSS.escape(id)}`)
  for (const attribute of TEST_ID_ATTRIBUTES) {
    const value = element.getAttribute(attribute)
    if (value && counts.get(`${attribute}|${value}`) === 1) found.push(`[${attribute}=${cssString(value)}]`)
  }
  const name = element.getAttribute("name")
  if (name && counts.get(`${tag}|name|${name}`) === 1) found.push(`${tag}[name=${cssString(name)}]`)
  const href = element.getAttribute("href")
  if (href !== null && !/[\n\r]/.test(href) && counts.get(`${tag}|href|${href}`) === 1)
    found.push(`${tag}[href=${cssString(href)}]`)
  const type = element.getAttribute("type")
  if (type && counts.get(`${tag}|type|${type}`) === 1) found.push(`${tag}[type=${cssString(type)}]`)
  const path = pathSelector(element, root)
  // A path of child steps from <html> or from a unique id is unique by construction; only a path
  // from the top of a shadow root can match deeper elements too, so only that one is queried.
  if (root.nodeType === 9 || path.startsWith("#")) {
    found.push(path)
    return found
  }
  try {
    if (root.querySelectorAll(path).length === 1) found.push(path)
  } catch {
    // A path with an odd tag name cannot be parsed; the other candidates still stand.
  }
  return found
}

export const frameEntry = (element: Element, root: Document | ShadowRoot): string => {
  const selectors = selectorsOf(element, root)
  return selectors[0] ?? element.localName
}

export const attributesOf = (element: Element, secret: boolean): Record<string, string> => {
  const attributes: Record<string, string> = {}
  for (const name of KEY_ATTRIBUTES) {
    const value = element.getAttribute(name)
    if (value !== null && value !== "")
      attributes[name] = value.length > 200 ? `${value.slice(0, 200)}…` : value
  }
  if (secret) delete attributes.value
  return attributes
}

import { createHash } from "node:crypto"
import type { PageElement, PageSnapshot } from "@sextant/core"

/**
 * A page's fingerprint: the screen it is, not the state it is in.
 *
 * The rule, so that a fingerprint survives small changes but not a different screen:
 *
 * - **URL pattern**: the path with origin, fragment and query values dropped; a path segment that is a
 *   number, a UUID or a long hex/mixed id becomes `:id`; the query keeps its sorted parameter names
 *   (`/products/:id`, `/search?q`). A new port, another product or another page number is the same screen.
 * - **Skeleton**: the sorted set of landmark regions the page shows, the sorted set of `region:role` of its
 *   elements (a set, so the number of result cards and their order do not count), and each form as its
 *   name plus the sorted `role:label` of its fields.
 *
 * Left out on purpose: ids, classes, selectors, refs, element order, link and result text, values,
 * headings. So the same screen under another fixture seed (which varies ids, classes and the order of
 * equivalent elements) has the SAME fingerprint, and the same screen after typing into a field does too;
 * a page with another form, another set of controls or another URL pattern does not.
 */
export interface PageFingerprint {
  /** The URL pattern (`/products/:id`, `/search?q`). */
  readonly urlPattern: string
  /** The canonical skeleton text the hash is taken of. */
  readonly skeleton: string
  /** `<urlPattern>#<12 hex of the skeleton hash>`: what the action cache stores and keys on. */
  readonly value: string
}

const ID_SEGMENT =
  /^(?:\d+|[0-9a-f]{8,}|[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|(?=.*\d)[\w-]{16,})$/i

/**
 * The URL pattern of a page address (see `PageFingerprint`).
 *
 * @example
 * ```ts
 * import { urlPattern } from "@sextant/planner"
 * urlPattern("http://127.0.0.1:4100/products/17?page=2&sort=price#top") // "/products/:id?page&sort"
 * ```
 */
export const urlPattern = (url: string): string => {
  let parsed: URL
  try {
    parsed = new URL(url)
  } catch {
    return url.trim()
  }
  const path = parsed.pathname
    .split("/")
    .map((segment) => (segment !== "" && ID_SEGMENT.test(segment) ? ":id" : segment))
    .join("/")
  const names = [...new Set([...parsed.searchParams.keys()])].toSorted()
  return names.length === 0 ? path : `${path}?${names.join("&")}`
}

const label = (text: string): string => text.normalize("NFKC").toLowerCase().replace(/\s+/g, " ").trim()

const sortedSet = (values: Iterable<string>): ReadonlyArray<string> => [...new Set(values)].toSorted()

/**
 * The fingerprint of a `look()` (see `PageFingerprint` for the rule).
 *
 * @example
 * ```ts
 * import { pageFingerprint } from "@sextant/planner"
 * const fingerprint = pageFingerprint(snapshot)
 * fingerprint.value // "/login#3f0c9a1b2d4e"
 * ```
 */
export const pageFingerprint = (
  snapshot: Pick<PageSnapshot, "url" | "elements" | "forms" | "outputs">,
): PageFingerprint => {
  const elements: ReadonlyArray<PageElement> = Object.values(snapshot.elements)
  const regionOf = (element: PageElement): string => element.region ?? "page"
  const regions = sortedSet([
    ...elements.map(regionOf),
    ...(snapshot.outputs ?? []).map((output) => output.region),
  ])
  const controls = sortedSet(elements.map((element) => `${regionOf(element)}:${element.role}`))
  const forms = sortedSet(
    (snapshot.forms ?? []).map((form) => {
      const fields = sortedSet(
        form.fields.flatMap((ref) => {
          const field = snapshot.elements[ref]
          return field === undefined ? [] : [`${field.role}:${label(field.name)}`]
        }),
      )
      return `${label(form.name)}(${fields.join(",")})`
    }),
  )
  const pattern = urlPattern(snapshot.url)
  const skeleton = [
    `regions ${regions.join(" ")}`,
    `controls ${controls.join(" ")}`,
    `forms ${forms.join(" ")}`,
  ].join("\n")
  const hash = createHash("sha256").update(skeleton).digest("hex").slice(0, 12)
  return { urlPattern: pattern, skeleton, value: `${pattern}#${hash}` }
}

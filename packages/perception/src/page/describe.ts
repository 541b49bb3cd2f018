import { controlName } from "./names.ts"
import { explicitRole, implicitRole } from "./roles.ts"
import { countCache, selectorsOf } from "./selectors.ts"
import { collapse } from "./text.ts"

/**
 * An element as a script outside the run finds it again: its role, a short accessible name and its
 * selectors (each unique in its document now). For recording what an action touched.
 */
export const describe = (element: Element) => {
  const tag = element.localName
  const root = element.getRootNode() as Document | ShadowRoot
  countCache.delete(root)
  const name = controlName(element, tag) || collapse(element.textContent ?? "").trim()
  return {
    role: explicitRole(element) || implicitRole(element, tag) || "generic",
    name: name.length > 100 ? name.slice(0, 100) : name,
    selectors: selectorsOf(element, root),
  }
}

/** An element in a few words for a message: its tag, its id and the start of its text (`button#go "Go"`). */
export const brief = (element: Element | null): string => {
  if (element === null) return "nothing"
  const id = element.id ? `#${element.id}` : ""
  const text = collapse((element.textContent || "").trim()).slice(0, 40)
  return element.localName + id + (text ? ` "${text}"` : "")
}

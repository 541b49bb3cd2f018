import type { PageAction, PageElement } from "@sextant/core"

/** The ref of the page itself in `actions`: scrolling and history. */
export const PAGE_REF = "_page"

const CLICKABLE = new Set([
  "button",
  "link",
  "tab",
  "menuitem",
  "menuitemcheckbox",
  "menuitemradio",
  "option",
  "treeitem",
  "clickable",
])

/**
 * The operations an element allows by its role and state: a button or link is clicked, a text
 * field takes input (and `clear` only when it holds text), a checkbox is checked or unchecked
 * depending on its state, a select takes `select`, a slider `set`, a file input `upload`.
 * A disabled element allows nothing.
 *
 * @example
 * ```ts
 * import { operationsOf } from "@sextant/perception"
 * operationsOf({ role: "checkbox", checked: true } as PageElement) // ["uncheck", "click"]
 * ```
 */
export const operationsOf = (element: PageElement): ReadonlyArray<string> => {
  if (element.disabled === true) return []
  const { role, tag } = element
  if (tag === "input" && element.attributes.type === "file") return ["upload"]
  switch (role) {
    case "textbox":
    case "searchbox":
    case "spinbutton":
      return element.value ? ["input", "clear", "focus"] : ["input", "focus"]
    case "checkbox":
    case "switch":
    case "menuitemcheckbox":
      return [element.checked === true ? "uncheck" : "check", "click"]
    case "radio":
      return element.checked === true ? ["click"] : ["check", "click"]
    case "combobox":
      if (tag === "select") return ["select"]
      return element.value ? ["input", "clear", "click", "focus"] : ["input", "click", "focus"]
    case "listbox":
      return ["select"]
    case "slider":
      return ["set"]
    case "img":
      // An image gets a ref only when it shows something on hover (a tooltip, a cursor of its own).
      return ["hover", "click"]
    default:
      return CLICKABLE.has(role) ? ["click"] : ["click", "focus"]
  }
}

/** Page operations that make sense at this scroll position, plus history. */
export const pageOperations = (scroll?: {
  readonly y: number
  readonly height: number
  readonly viewportHeight: number
}): ReadonlyArray<string> => {
  const ops: Array<string> = []
  if (scroll === undefined || scroll.y + scroll.viewportHeight < scroll.height - 2)
    ops.push("scroll down", "scroll bottom")
  if (scroll === undefined || scroll.y > 0) ops.push("scroll up", "scroll top")
  ops.push("back", "refresh")
  return ops
}

/**
 * The actions of a snapshot: one entry per enabled element with its operations, and `_page`.
 *
 * @example
 * ```ts
 * import { actionsOf } from "@sextant/perception"
 * actionsOf(snapshot.elements, "Sign in", snapshot.scroll).map((action) => `${action.ref}: ${action.ops.join("/")}`)
 * ```
 */
export const actionsOf = (
  elements: Readonly<Record<string, PageElement>>,
  title: string,
  scroll?: { readonly y: number; readonly height: number; readonly viewportHeight: number },
): Array<PageAction> => {
  const actions: Array<PageAction> = []
  for (const element of Object.values(elements)) {
    const ops = operationsOf(element)
    if (ops.length > 0)
      actions.push({ ref: element.ref, role: element.role, name: element.name, ops: [...ops] })
  }
  actions.push({ ref: PAGE_REF, role: "page", name: title, ops: [...pageOperations(scroll)] })
  return actions
}

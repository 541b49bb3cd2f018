import {
  BrowserDriver,
  DriverError,
  ElementNotFound,
  InvalidArgument,
  type PageElement,
  type PageSnapshot,
  parseTarget,
  type Target,
} from "@sextant/core"
import { pageCall } from "@sextant/perception"
import { Effect } from "effect"

/** Roles that take typed text. */
export const textRoles: ReadonlySet<string> = new Set(["textbox", "searchbox", "combobox", "spinbutton"])
/** Roles that can be checked. */
export const checkRoles: ReadonlySet<string> = new Set(["checkbox", "radio", "switch", "menuitemcheckbox"])
/** Roles that hold options. */
export const selectRoles: ReadonlySet<string> = new Set(["combobox", "listbox"])

const simplify = (text: string): string =>
  text
    .toLowerCase()
    .replace(/\(optional\)|\*|:$/g, "")
    .replace(/\s+/g, " ")
    .trim()

/**
 * The visible element of one of `roles` whose accessible name best fits `label`: an exact name first,
 * then a name that starts with it, then one that contains it. Undefined when none fits.
 */
export const elementLabelled = (
  snapshot: PageSnapshot,
  label: string,
  roles: ReadonlySet<string>,
): PageElement | undefined => {
  const wanted = simplify(label)
  const candidates = Object.values(snapshot.elements).filter(
    (element) => roles.has(element.role) && element.visible && element.disabled !== true,
  )
  const named = (test: (name: string) => boolean) =>
    candidates.find((element) => test(simplify(element.name)))
  return (
    named((name) => name === wanted) ??
    named((name) => name.startsWith(wanted)) ??
    named((name) => wanted.length >= 3 && name.includes(wanted))
  )
}

/** What a tool that acts on one control takes: a target, or the label of the control. */
export interface TargetOrLabel {
  readonly target?: string | undefined
  readonly label?: string | undefined
}

/**
 * Turns `{ target }` or `{ label }` into a driver target. A label is looked up in a fresh look()
 * among elements of `roles`; no match fails with `ElementNotFound` naming the label.
 */
export const resolveTarget = Effect.fn("tools.resolveTarget")(function* (
  method: string,
  input: TargetOrLabel,
  roles: ReadonlySet<string>,
) {
  if (input.target !== undefined) return parseTarget(input.target)
  if (input.label === undefined) {
    return yield* new DriverError({
      method,
      reason: new InvalidArgument({
        detail: `${method} needs a target (a ref or a CSS selector) or a label`,
      }),
    })
  }
  const driver = yield* BrowserDriver
  const snapshot = yield* driver.look()
  const element = elementLabelled(snapshot, input.label, roles)
  if (element === undefined) {
    return yield* new DriverError({
      method,
      reason: new ElementNotFound({ target: `a ${[...roles].join("/")} labelled "${input.label}"` }),
    })
  }
  return { ref: element.ref } satisfies Target
})

let textMarks = 0

/**
 * A target for an element named by its words when it has no ref (a drag-and-drop card, a box that
 * scrolls): the smallest element whose aria-label or visible text is `text`. Fails with
 * `ElementNotFound` naming the words.
 */
export const targetByText = Effect.fn("BrowserTools.targetByText")(function* (
  method: string,
  text: string,
  options: { readonly scrollable?: boolean } = {},
) {
  const driver = yield* BrowserDriver
  textMarks += 1
  const selector = yield* pageCall(driver, "markByText", text, options.scrollable === true, `t${textMarks}`)
  if (selector === null) {
    return yield* new DriverError({
      method,
      reason: new ElementNotFound({
        target: `${options.scrollable === true ? "a scrolling element" : "an element"} with the text "${text}"`,
      }),
    })
  }
  return { selector } satisfies Target
})

/** Removes the marks `targetByText` left, once the action that used them is done; a page that went away has none. */
export const clearTextMarks = BrowserDriver.use((driver) =>
  pageCall(driver, "clearMarks", "data-sextant-text"),
).pipe(Effect.ignore)

import type { Item, Node } from "./types.ts"

/* Outline nodes: building blocks of the tree a walk produces, and what can be read off them. */

/**
 * Roles whose content is their own: a control around one is named by its other content, as the
 * accessible-name computation does (a menu item "Programm" opening a submenu is not named by the
 * submenu's entries too; a card link is not named by the figure inside it).
 */
export const OWN_CONTENT = new Set([
  "banner",
  "navigation",
  "main",
  "complementary",
  "search",
  "form",
  "dialog",
  "alertdialog",
  "alert",
  "status",
  "log",
  "menu",
  "menubar",
  "listbox",
  "tablist",
  "tabpanel",
  "radiogroup",
  "group",
  "tree",
  "grid",
  "treegrid",
  "toolbar",
  "iframe",
  "figure",
])

/** An item a name read from content leaves out (see {@link itemsText}). */
export const outOfName = (item: Item): boolean =>
  typeof item !== "string" &&
  (item.ariaHidden === true ||
    item.ownContent === true ||
    item.guess !== undefined ||
    OWN_CONTENT.has(item.role))

/** The words (letters and digits) of a text, lower-cased. */
const wordsOf = (text: string): ReadonlyArray<string> => text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []

/** One run of a name read from content, and whether it is an icon's `<title>`. */
type Part = readonly [text: string, icon: boolean]

const collect = (items: ReadonlyArray<Item>, withIcons: boolean, out: Part[], whole: boolean): void => {
  for (const item of items) {
    if (typeof item === "string") {
      if (item) out.push([item, false])
      continue
    }
    if (item.ariaHidden === true) continue
    if (!withIcons && outOfName(item)) {
      // Words that follow it in the same line of prose still belong to the name.
      if (item.tail) out.push([item.tail, false])
      continue
    }
    if (item.name) out.push([whole ? (item.whole ?? item.name) : item.name, item.icon === true])
    else collect(item.kids, withIcons, out, whole)
    // Words that follow a link in the same line of prose are content too ("A rare bird seen in May").
    if (item.tail) out.push([item.tail, false])
  }
}

/**
 * Flattens a node's kids into words, for names taken from content. A name (`withIcons` false)
 * leaves out content of its own (a submenu, a figure) and guessed names, and an icon's `<title>`
 * whose words the words beside it already say ("Open Navigation Menu", not "… Menu Menu"; but
 * "facebook Share" keeps the icon's word). With `whole`, a heading whose name was cut reads with
 * all its words (a name a control reads from a long headline, cut again where the control's own
 * name is cut, the rest under it).
 */
export const itemsText = (items: ReadonlyArray<Item>, withIcons = true, whole = false): string => {
  const parts: Part[] = []
  collect(items, withIcons, parts, whole)
  let kept = parts
  if (!withIcons && parts.some(([, icon]) => icon)) {
    const said = new Set(wordsOf(parts.flatMap(([text, icon]) => (icon ? [] : [text])).join(" ")))
    kept = parts.filter(
      ([text, icon]) => !icon || said.size === 0 || wordsOf(text).some((word) => !said.has(word)),
    )
  }
  return kept
    .map(([text]) => text.trim())
    .filter((text) => text !== "")
    .join(" ")
}

export const hasRef = (items: ReadonlyArray<Item>): boolean => {
  for (const item of items)
    if (typeof item !== "string" && (item.ref !== "" || hasRef(item.kids))) return true
  return false
}

export const leaf = (role: string, label: string, name: string, suffix: string): Node => ({
  role,
  label,
  name,
  ref: "",
  suffix,
  url: "",
  tail: "",
  kids: [],
  container: false,
  heading: false,
})

/** A wrapper whose kids stand in for it. */
export const hoistNode = (kids: Item[]): Node => ({
  role: "",
  label: "",
  name: "",
  ref: "",
  suffix: "",
  url: "",
  tail: "",
  kids,
  container: true,
  heading: false,
})

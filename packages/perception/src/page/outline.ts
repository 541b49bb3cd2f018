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
  (item.ariaHidden === true || item.ownContent === true || item.guessed === true || OWN_CONTENT.has(item.role))

/**
 * Flattens a node's kids into words, for names taken from content. A name (`withIcons` false)
 * leaves out icons beside words, content of its own (a submenu, a figure) and guessed names.
 */
export const itemsText = (items: ReadonlyArray<Item>, withIcons = true): string => {
  let text = ""
  for (const item of items) {
    if (typeof item !== "string" && (item.ariaHidden === true || (!withIcons && item.icon === true))) continue
    if (!withIcons && outOfName(item)) {
      // Words that follow it in the same line of prose still belong to the name.
      const tail = typeof item === "string" ? "" : item.tail
      if (tail) text += text ? ` ${tail}` : tail
      continue
    }
    const own = typeof item === "string" ? item : item.name || itemsText(item.kids, withIcons)
    // Words that follow a link in the same line of prose are content too ("A rare bird seen in May").
    const part = typeof item !== "string" && item.tail ? `${own} ${item.tail}`.trim() : own
    if (part) text += text ? ` ${part}` : part
  }
  return text
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

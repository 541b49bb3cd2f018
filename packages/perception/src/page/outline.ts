import type { Item, Node } from "./types.ts"

/* Outline nodes: building blocks of the tree a walk produces, and what can be read off them. */

/** Flattens a node's kids into words, for names taken from content. */
export const itemsText = (items: ReadonlyArray<Item>, withIcons = true): string => {
  let text = ""
  for (const item of items) {
    if (typeof item !== "string" && (item.ariaHidden === true || (!withIcons && item.icon === true))) continue
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

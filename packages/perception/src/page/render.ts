import { hasRef } from "./outline.ts"
import { quote } from "./text.ts"
import type { Anchor, Item, Node } from "./types.ts"

/*
 * Rendering: the outline as lines of text. The full mode prints one line per meaningful node with
 * two spaces of indentation per level; the interactive mode prints a flat list of actions under the
 * headings that introduce them.
 */

/** Consecutive text runs up to this length share one line, joined by " · ". */
export const SHORT_TEXT = 40
/** A table row whose cells print longer than this is a layout row: its cells print as lines. */
export const LONG_ROW = 400

export const inline = (node: Node): string => {
  let text = node.label
  if (node.name) text += ` ${quote(node.name)}`
  if (node.ref && !node.container) text += ` [ref=${node.ref}]`
  text += node.suffix
  if (node.url) text += ` -> ${node.url}`
  if (!node.tail) return text
  return `${text} ${node.tail}`
}

/** The interactive mode's line: ref first, no quotes, no URL, for the fewest tokens. */
export const compact = (node: Node): string =>
  `${node.ref} ${node.role}${node.name ? ` ${node.name}` : ""}${node.suffix}`

export const compactRow = (items: ReadonlyArray<Item>): string => {
  const parts: string[] = []
  for (const item of items) {
    if (typeof item === "string") parts.push(item)
    else if (item.ref !== "" && !item.container) parts.push(compact(item))
    else {
      const text = compactRow(item.kids)
      if (text) parts.push(text)
    }
  }
  return parts.join(" ")
}

/** An entry of the interactive view before headings that introduce nothing are dropped. */
type Entry = [level: number, text: string, name: string]

/** Interactive mode: actionable elements with the headings that introduce them, one flat list. */
const renderCompact = (items: ReadonlyArray<Item>, out: Entry[], anchors: Anchor[]): void => {
  for (const item of items) {
    if (typeof item === "string") continue
    if (item.heading) {
      const only = item.kids.length === 1 ? item.kids[0] : undefined
      const level = Number(item.label.slice(1)) || 2
      if (only !== undefined && typeof only !== "string" && only.ref !== "" && only.name === item.name) {
        out.push([0, `${"#".repeat(level)} ${compact(only)}`, only.name])
        continue
      }
      out.push([level, `${"#".repeat(level)} ${item.name}`, item.name])
      renderCompact(item.kids, out, anchors)
      continue
    }
    if (item.role === "row") {
      if (hasRef(item.kids)) {
        const cells: string[] = []
        for (const kid of item.kids)
          cells.push(typeof kid === "string" ? kid : compactRow(kid.kids.length > 0 ? kid.kids : [kid]))
        const text = cells.join(" | ").trim()
        // A layout row holding a page's worth of actions lists them one per line.
        if (text.length > LONG_ROW) renderCompact(item.kids, out, anchors)
        else out.push([0, text, ""])
      }
      continue
    }
    if (item.ref !== "" && !item.container) out.push([0, compact(item), item.name])
    const start = out.length
    renderCompact(item.kids, out, anchors)
    if (item.container && item.ref !== "" && out.length > start)
      anchors.push([item.ref, `${item.label}${item.name ? ` ${quote(item.name)}` : ""}`, start, out.length])
  }
}

/**
 * The interactive view's lines from its entries; `entryAnchors` are its containers by entry index,
 * mapped here to line indexes.
 */
const flattenCompact = (
  entries: ReadonlyArray<Entry>,
  entryAnchors: ReadonlyArray<Anchor>,
  lines: string[],
  anchors: Anchor[],
): void => {
  const lineOf: number[] = []
  for (let index = 0; index < entries.length; index++) {
    lineOf.push(lines.length)
    const [level, text] = entries[index]!
    if (level > 0) {
      // A heading earns its line only when an action follows it that does not already repeat it.
      const next = entries[index + 1]
      if (next === undefined || (next[0] > 0 && next[0] <= level)) continue
      if (next[0] === 0 && next[2].includes(entries[index]![2])) continue
    }
    lines.push(text)
  }
  lineOf.push(lines.length)
  for (const [ref, label, start, end] of entryAnchors)
    anchors.push([ref, label, lineOf[start] ?? lines.length, lineOf[end] ?? lines.length])
}

export const cellText = (items: ReadonlyArray<Item>): string => {
  const parts: string[] = []
  for (const item of items) {
    if (typeof item === "string") parts.push(item)
    else if (item.ref !== "" && !item.container) parts.push(inline(item))
    else if (item.heading) {
      const only = item.kids.length === 1 ? item.kids[0] : undefined
      if (only !== undefined && typeof only !== "string" && only.ref !== "" && only.name === item.name)
        parts.push(inline(only))
      else parts.push([item.name, cellText(item.kids)].filter((part) => part !== "").join(" "))
    } else {
      const text = cellText(item.kids)
      if (text) parts.push(text)
    }
  }
  return parts.join(" ")
}

/** The full outline: one line per meaningful node, two spaces of indentation per level. */
const render = (items: ReadonlyArray<Item>, depth: number, lines: string[], anchors: Anchor[]): void => {
  const indent = "  ".repeat(depth)
  let lastText = -1
  /** What the previous item said, so text that only repeats it (a heading, then the same words) prints once. */
  let previous = ""
  const repeats = (text: string): boolean => text !== "" && text.toLowerCase() === previous
  for (let index = 0; index < items.length; index++) {
    const item = items[index]!
    const said = (typeof item === "string" ? item : item.name).trim().toLowerCase()
    if (typeof item === "string" || (item.role === "img" && item.ref === "")) {
      if (repeats(said)) continue
    }
    if (said !== "") previous = said
    if (typeof item === "string") {
      const before = items[index - 1]
      const after = items[index + 1]
      if (
        (typeof after === "object" && after.ref !== "" && after.name === item) ||
        (typeof before === "object" && before.ref !== "" && before.name === item)
      )
        continue
      const previous = lines.length - 1
      if (
        lastText >= 0 &&
        previous === lastText &&
        item.length <= SHORT_TEXT &&
        lines[previous]!.length - indent.length <= SHORT_TEXT + 2
      )
        lines[previous] += ` · ${item}`
      else lines.push(`${indent}- ${item}`)
      lastText = lines.length - 1
      continue
    }
    if (item.role === "") {
      render(item.kids, depth, lines, anchors)
      continue
    }
    if (item.heading) {
      const only = item.kids.length === 1 ? item.kids[0] : undefined
      if (only !== undefined && typeof only !== "string" && only.ref !== "" && only.name === item.name) {
        lines.push(`${indent}- ${item.label} ${inline(only)}`)
        // The rest of a long headline link (its name is cut) prints under it.
        render(only.kids, depth + 1, lines, anchors)
        continue
      }
      lines.push(`${indent}- ${item.label} ${quote(item.name)}`)
      render(item.kids, depth + 1, lines, anchors)
      continue
    }
    if (item.role === "row") {
      const cells: string[] = []
      for (const kid of item.kids)
        cells.push(typeof kid === "string" ? kid : cellText(kid.kids.length > 0 ? kid.kids : [kid]))
      const text = cells.join(" | ").trim()
      if (text.length > LONG_ROW) {
        // A layout row holding a page's worth of content: each cell prints as lines of its own.
        render(item.kids, depth, lines, anchors)
        continue
      }
      if (text && !/^[|\s]*$/.test(text)) lines.push(`${indent}- ${text}`)
      continue
    }
    if (
      item.role === "cell" ||
      item.role === "columnheader" ||
      item.role === "rowheader" ||
      item.role === "gridcell"
    ) {
      if (item.ref !== "") lines.push(`${indent}- ${inline(item)}`)
      render(item.kids, depth, lines, anchors)
      continue
    }
    if (item.container) {
      const single = item.kids.length === 1 ? item.kids[0] : undefined
      if (typeof single === "string") {
        lines.push(`${indent}- ${inline(item)}: ${single}`)
        continue
      }
      const start = lines.length
      lines.push(`${indent}- ${inline(item)}:`)
      render(item.kids, depth + 1, lines, anchors)
      if (item.ref !== "")
        anchors.push([
          item.ref,
          `${item.label}${item.name ? ` ${quote(item.name)}` : ""}`,
          start,
          lines.length,
        ])
      continue
    }
    lines.push(`${indent}- ${inline(item)}`)
    if (item.kids.length > 0) render(item.kids, depth + 1, lines, anchors)
  }
}

/** Lines of an outline, and the span of lines of each container that has a ref. */
export interface Rendered {
  readonly lines: string[]
  readonly anchors: Anchor[]
}

/** The full outline: one line per meaningful node, two spaces of indentation per level. */
export const renderOutline = (items: ReadonlyArray<Item>): Rendered => {
  const rendered: Rendered = { lines: [], anchors: [] }
  render(items, 0, rendered.lines, rendered.anchors)
  return rendered
}

/** The interactive view: actionable elements with the headings that introduce them, one flat list. */
export const renderInteractive = (items: ReadonlyArray<Item>): Rendered => {
  const entries: Entry[] = []
  const entryAnchors: Anchor[] = []
  renderCompact(items, entries, entryAnchors)
  const rendered: Rendered = { lines: [], anchors: [] }
  flattenCompact(entries, entryAnchors, rendered.lines, rendered.anchors)
  return rendered
}

/** A select's or listbox's options after its states: at most `maxOptions`, then how to read the rest. */
export const optionsSuffix = (options: ReadonlyArray<string>, maxOptions: number, ref: string): string => {
  const shown = options.slice(0, maxOptions).join("|")
  const left = options.length - maxOptions
  return ` [options: ${shown}${left > 0 ? `|…+${left} more: look({ within: "${ref}" }) lists all` : ""}]`
}

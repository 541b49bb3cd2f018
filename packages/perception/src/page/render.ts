import { hasRef, itemsText } from "./outline.ts"
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

/**
 * A guess at an unnamed control's purpose as the views print it, after the ref: marked by where it
 * was read, in parentheses, never quoted as a name (`button [ref=e5] (id search)`).
 */
export const guessText = (guess: NonNullable<Node["guess"]>): string => ` (${guess.from} ${guess.words})`

/**
 * A node's line in the full outline. `printed` holds the documents whose links printed their target
 * already: a link to one of them leaves its target out (`elements[ref].attributes.href` keeps it).
 */
export const inline = (node: Node, printed?: Set<string>): string => {
  let text = node.label
  if (node.name) text += ` ${quote(node.name)}`
  if (node.ref && !node.container) text += ` [ref=${node.ref}]`
  const showUrl =
    node.url !== "" && (node.target === undefined || printed === undefined || !printed.has(node.target))
  // A guess read from the link's target says no more than the target printed beside it.
  if (node.guess !== undefined && !(showUrl && node.guess.from === "href")) text += guessText(node.guess)
  text += node.suffix
  if (showUrl) text += ` -> ${node.url}`
  if (node.target !== undefined) printed?.add(node.target)
  if (!node.tail) return text
  return `${text} ${node.tail}`
}

/**
 * The interactive view's names stop at about this many characters (a character outside ASCII, most
 * often a CJK one, counts two): the words that tell a control apart and say what it is about;
 * `elements[ref].name` and the full outline keep the whole name.
 */
export const COMPACT_NAME = 28
/** Where names stop that would read alike when cut at `COMPACT_NAME` (`Visit us on Instagram` and `… on Pinterest`). */
export const DISTINCT_NAME = 40

/** A last word this short is not cut from a name. */
const SHORT_WORD = 6

/** A name cut for the interactive view, at a word when one ends near the limit, with "…". */
export const compactName = (name: string, limit = COMPACT_NAME): string => {
  let width = 0
  let end = 0
  while (end < name.length) {
    width += name.charCodeAt(end) < 128 ? 1 : 2
    if (width > limit) break
    end++
  }
  if (end >= name.length) return name
  const space = name.lastIndexOf(" ", end)
  const at = space > end / 2 ? space : end
  // One short last word costs no more than the "…" that would stand for it: it stays.
  const rest = name.slice(at).trim()
  if (at === space && rest.length <= SHORT_WORD && !/\s/.test(rest)) return name
  return `${name.slice(0, at).replace(/[\s,;:·|/–—-]+$/u, "")}…`
}

/** How the interactive view cuts each name of one look. */
export type NameCut = (name: string) => string

/**
 * The names of one view, cut at `COMPACT_NAME`, but at `DISTINCT_NAME` where two different names
 * would otherwise read alike: the view cuts a name only as far as it still tells it apart.
 */
export const nameCut = (names: Iterable<string>): NameCut => {
  const alike = new Map<string, Set<string>>()
  for (const name of names) {
    const cut = compactName(name)
    const same = alike.get(cut)
    if (same === undefined) alike.set(cut, new Set([name]))
    else same.add(name)
  }
  return (name) => {
    const cut = compactName(name)
    return (alike.get(cut)?.size ?? 0) > 1 ? compactName(name, DISTINCT_NAME) : cut
  }
}

/**
 * The interactive mode's line: ref first, no quotes, no URL, the name cut to what tells it apart.
 * A named link says no role (`e4 Home`): a line of a ref and a name alone is a link, the commonest
 * control of a page. `withRole` makes a link say it (`e4 link Home`), for a link right after a run of
 * other controls printed under their role.
 */
export const compact = (node: Node, cut: NameCut = compactName, withRole = false): string =>
  node.role === "link" && node.name !== "" && !withRole
    ? bare(node, cut)
    : `${node.ref} ${node.role}${node.name ? ` ${cut(node.name)}` : ""}${node.guess === undefined ? "" : guessText(node.guess)}${compactSuffix(node)}`

/** States and value; a listbox whose options the view lists as controls of their own does not list them again. */
const compactSuffix = (node: Node): string =>
  node.role === "listbox" && hasRef(node.kids) ? node.suffix.replace(/ \[options: .*\]$/, "") : node.suffix

export const compactRow = (items: ReadonlyArray<Item>, cut: NameCut = compactName): string => {
  const parts: string[] = []
  for (const item of items) {
    if (typeof item === "string") parts.push(item)
    else if (item.ref !== "" && !item.container) parts.push(compact(item, cut))
    else {
      const text = compactRow(item.kids, cut)
      if (text) parts.push(text)
    }
  }
  return parts.join(" ")
}

/** A heading at least this long is a title (a card's), not a section's word: a link named by it before it makes it redundant. */
export const TITLE = 16

/**
 * An entry of the interactive view before headings that introduce nothing are dropped: its line,
 * and for a control its role and its line without the role (with it, for a link).
 */
type Entry = [level: number, text: string, name: string, role?: string, other?: string]

/**
 * A run of at least this many controls of one role other than link prints the role once, on a line
 * of its own (`button:`), over the `eN name` lines of the run.
 */
export const ROLE_RUN = 3

/** The interactive line of one control without its role: a link's, and a control's in a run of its role. */
const bare = (node: Node, cut: NameCut): string =>
  `${node.ref}${node.name ? ` ${cut(node.name)}` : ""}${node.guess === undefined ? "" : guessText(node.guess)}${compactSuffix(node)}`

const entryOf = (node: Node, cut: NameCut): Entry =>
  node.role === "link"
    ? [0, compact(node, cut), node.name, node.role, compact(node, cut, true)]
    : [0, compact(node, cut), node.name, node.role, bare(node, cut)]

/** A name as links are compared: lower case, words only. */
const words = (name: string): string =>
  name
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, " ")
    .trim()

/** Whether an earlier link to the same document said this link's name already (or it has none). */
const said = (listed: ReadonlyMap<string, string[]>, node: Node): boolean => {
  const names = node.target === undefined ? undefined : listed.get(node.target)
  const name = words(node.name)
  return names?.some((earlier) => earlier.includes(name)) === true
}

const list = (listed: Map<string, string[]>, node: Node): void => {
  if (node.target === undefined) return
  const names = listed.get(node.target)
  if (names === undefined) listed.set(node.target, [words(node.name)])
  else names.push(words(node.name))
}

/**
 * Interactive mode: actionable elements with the headings that introduce them, one flat list. A link
 * to a document an earlier link already leads to (`listed`: the names said for each) is left out
 * when its name adds nothing to theirs: clicking either does the same, and the name is said.
 */
const renderCompact = (
  items: ReadonlyArray<Item>,
  out: Entry[],
  anchors: Anchor[],
  listed: Map<string, string[]>,
  cut: NameCut,
): void => {
  for (const item of items) {
    if (typeof item === "string") continue
    if (item.heading) {
      const only = item.kids.length === 1 ? item.kids[0] : undefined
      const level = Number(item.label.slice(1)) || 2
      if (only !== undefined && typeof only !== "string" && only.ref !== "" && only.name === item.name) {
        if (only.target !== undefined) list(listed, only)
        out.push([0, `${"#".repeat(level)} ${compact(only, cut)}`, only.name])
        continue
      }
      out.push([level, `${"#".repeat(level)} ${cut(item.name)}`, item.name])
      renderCompact(item.kids, out, anchors, listed, cut)
      continue
    }
    if (item.role === "row") {
      // A grid's row a user acts on is a control of its own; the controls in its cells follow.
      if (item.ref !== "") out.push(entryOf(item, cut))
      if (hasRef(item.kids)) {
        const cells: string[] = []
        for (const kid of item.kids)
          cells.push(typeof kid === "string" ? kid : compactRow(kid.kids.length > 0 ? kid.kids : [kid], cut))
        const text = cells.join(" | ").trim()
        // A layout row holding a page's worth of actions lists them one per line.
        if (text.length > LONG_ROW) renderCompact(item.kids, out, anchors, listed, cut)
        else out.push([0, text, ""])
      }
      continue
    }
    if (item.ref !== "" && !item.container) {
      if (item.target === undefined || !said(listed, item)) out.push(entryOf(item, cut))
      if (item.target !== undefined) list(listed, item)
    }
    const start = out.length
    renderCompact(item.kids, out, anchors, listed, cut)
    if (item.container && item.ref !== "" && out.length > start)
      anchors.push([item.ref, `${item.label}${item.name ? ` ${quote(item.name)}` : ""}`, start, out.length])
  }
}

/**
 * The interactive view's lines from its entries; `entryAnchors` are its containers by entry index,
 * mapped here to line indexes. A link prints as `eN name`; a run of `ROLE_RUN` or more controls of
 * one other role prints the role once, as `button:` on a line of its own, and the controls under it
 * as `eN name` (a link right after the run as `eN link name`).
 */
const flattenCompact = (
  entries: ReadonlyArray<Entry>,
  entryAnchors: ReadonlyArray<Anchor>,
  lines: string[],
  anchors: Anchor[],
): void => {
  const keep = entries.map(([level, , name], index) => {
    if (level === 0) return true
    // A heading earns its line only when an action follows it that does not already repeat it,
    // and the action before it does not repeat a title: a card's link, named by the card's title
    // (cut with "…"), or by the title without the words of an icon the heading holds.
    const next = entries[index + 1]
    const before = entries[index - 1]
    if (next === undefined || (next[0] > 0 && next[0] <= level)) return false
    if (next[0] === 0 && next[2].includes(name)) return false
    const title = before !== undefined && before[0] === 0 ? before[2].replace(/…$/, "") : ""
    if (name.length < TITLE || title.length < TITLE) return true
    // Compared by words: a heading the page cut with "..." repeats the title all the same.
    const [heading, card] = [words(name), words(title)]
    return !(card.includes(heading) || heading.includes(card))
  })
  const lineOf: number[] = entries.map(() => -1)
  // Whether the last line printed ends a run under a role line: a link's bare line after it would
  // read as one more control of the run, so that link says its role.
  let afterRun = false
  let index = 0
  while (index < entries.length) {
    if (!keep[index]) {
      index++
      continue
    }
    const role = entries[index]![3]
    const run = [index]
    for (let next = index + 1; role !== undefined && role !== "link" && next < entries.length; next++) {
      if (!keep[next]) continue
      if (entries[next]![3] !== role) break
      run.push(next)
    }
    const isRun = run.length >= ROLE_RUN
    if (isRun) lines.push(`${role}:`)
    for (const member of run) {
      if (lineOf[member] === -1) lineOf[member] = lines.length
      const entry = entries[member]!
      lines.push(isRun || (afterRun && entry[3] === "link") ? entry[4]! : entry[1])
    }
    if (isRun) lineOf[run[0]!] = lines.length - run.length - 1
    afterRun = isRun
    index = run[run.length - 1]! + 1
  }
  // An entry left out (a heading) starts where the next line printed does.
  lineOf.push(lines.length)
  for (let entry = entries.length - 1; entry >= 0; entry--)
    if (lineOf[entry] === -1) lineOf[entry] = lineOf[entry + 1]!
  for (const [ref, label, start, end] of entryAnchors)
    anchors.push([ref, label, lineOf[start] ?? lines.length, lineOf[end] ?? lines.length])
}

export const cellText = (items: ReadonlyArray<Item>, printed?: Set<string>): string => {
  const parts: string[] = []
  for (const item of items) {
    if (typeof item === "string") parts.push(item)
    else if (item.ref !== "" && !item.container) parts.push(inline(item, printed))
    else if (item.heading) {
      const only = item.kids.length === 1 ? item.kids[0] : undefined
      if (only !== undefined && typeof only !== "string" && only.ref !== "" && only.name === item.name)
        parts.push(inline(only, printed))
      else parts.push([item.name, cellText(item.kids, printed)].filter((part) => part !== "").join(" "))
    } else {
      const text = cellText(item.kids, printed)
      if (text) parts.push(text)
    }
  }
  return parts.join(" ")
}

/**
 * What the full outline shows of elements that have no ref: the element, the index of its line, and
 * when the line is not the element's alone (a row's cells), the role and name it shows the element as.
 */
export type Shown = Array<[element: Element, line: number, as?: string]>

/** The roles of a table's cells. */
const CELL_ROLES = new Set(["cell", "gridcell", "columnheader", "rowheader"])
/** Header cells, which a row's line prints in bold. */
const HEADER_ROLES = new Set(["columnheader", "rowheader"])
/** What a data cell is under each kind of table: a grid's and a treegrid's cells are grid cells. */
const CELLS_OF: Record<string, string> = { table: "cell", grid: "gridcell", treegrid: "gridcell" }

/** A row's part as its line prints it: a cell's words; a part with a ref of its own as a control. */
const cellLine = (kid: Item, printed: Set<string>): string => {
  if (typeof kid === "string") return kid
  if (kid.ref !== "" && !kid.container)
    return [inline(kid, printed), cellText(kid.kids, printed)].filter((part) => part !== "").join(" ")
  return cellText(kid.kids.length > 0 ? kid.kids : [kid], printed)
}

/**
 * A row as one line, its cells joined by " | ", a header cell in bold (`**Price**`): a row of
 * header cells alone heads the columns, a header cell beside data cells heads its row. A row with
 * a ref (a grid's row a user acts on) says so first: `row [ref=e5] [expanded]: a | b`. A data cell
 * prints its words alone where it is what the table around it makes (`cells`: a cell in a table, a
 * grid cell in a grid or treegrid), else with its role (`gridcell "x"`). A row whose line would pass
 * `LONG_ROW` is a layout row: its cells print as lines of their own. What each cell prints as is
 * noted in `shown`, and the row as `row` when `isRow`.
 */
const renderRow = (
  row: Node,
  indent: string,
  depth: number,
  lines: string[],
  anchors: Anchor[],
  printed: Set<string>,
  shown: Shown,
  cells: string,
  isRow = true,
): void => {
  // The row's targets count as printed only if the row prints as one line.
  const inRow = new Set(printed)
  const texts = row.kids.map((kid) => {
    const text = cellLine(kid, inRow)
    if (typeof kid === "string" || text.trim() === "") return text
    // A header cell's words print bold; one holding a control prints as it is, so no ref and no
    // control's line sits inside the bold markers.
    if (HEADER_ROLES.has(kid.role)) return hasRef(kid.kids) ? text : `**${text.trim()}**`
    // A data cell the table around it does not make (a grid cell in a table, or in no table at all)
    // says what it is.
    if (CELL_ROLES.has(kid.role) && kid.role !== cells && kid.ref === "")
      return hasRef(kid.kids) ? `${kid.role}: ${text.trim()}` : `${kid.role} ${quote(text.trim())}`
    return text
  })
  const text = texts.join(" | ").trim()
  // A row the page names says it before its cells.
  const named = isRow && row.named === true
  const head = named
    ? inline(row, printed)
    : row.ref === ""
      ? ""
      : `row [ref=${row.ref}]${row.guess === undefined ? "" : guessText(row.guess)}${row.suffix}`
  if (text.length > LONG_ROW) {
    // A layout row holding a page's worth of content: each cell prints as lines of its own.
    if (head !== "") lines.push(`${indent}- ${head}:`)
    const inner = head === "" ? depth : depth + 1
    for (const kid of row.kids) {
      if (typeof kid !== "string" && CELL_ROLES.has(kid.role)) {
        if (kid.ref !== "" && !kid.container) lines.push(`${"  ".repeat(inner)}- ${inline(kid, printed)}`)
        render(kid.kids, inner, lines, anchors, printed, shown, cells)
      } else render([kid], inner, lines, anchors, printed, shown, cells)
    }
    return
  }
  for (const target of inRow) printed.add(target)
  const empty = /^[|\s]*$/.test(text)
  if (head === "" && empty) return
  const line = lines.length
  lines.push(`${indent}- ${head === "" ? text : empty ? head : `${head}: ${text}`}`)
  if (named && row.source !== undefined) shown.push([row.source, line])
  else if (isRow && row.ref === "" && row.source !== undefined) shown.push([row.source, line, "row"])
  const parts = row.kids.filter((kid): kid is Node => typeof kid !== "string" && CELL_ROLES.has(kid.role))
  const headerRow = parts.every((kid) => HEADER_ROLES.has(kid.role))
  row.kids.forEach((kid, index) => {
    if (typeof kid === "string" || !CELL_ROLES.has(kid.role) || kid.ref !== "" || kid.source === undefined)
      return
    if (texts[index]!.trim() === "") return
    const role = HEADER_ROLES.has(kid.role) ? (headerRow ? "columnheader" : "rowheader") : kid.role
    shown.push([kid.source, line, `${role} ${quote(itemsText(kid.kids))}`])
  })
}

/** The full outline: one line per meaningful node, two spaces of indentation per level. */
const render = (
  items: ReadonlyArray<Item>,
  depth: number,
  lines: string[],
  anchors: Anchor[],
  printed: Set<string>,
  shown: Shown,
  cells = "cell",
): void => {
  const indent = "  ".repeat(depth)
  let lastText = -1
  /**
   * What the previous item said, so text that only repeats a heading's or a control's name, and an
   * image whose alternative text repeats what precedes it, print once. Text that repeats a text run
   * prints again: the page shows those words twice.
   */
  let previous = ""
  let previousName = ""
  for (let index = 0; index < items.length; index++) {
    const item = items[index]!
    const said = (typeof item === "string" ? item : item.name).trim().toLowerCase()
    if (said !== "" && typeof item === "string" && said === previousName) continue
    // An image the page labels (aria-label, aria-labelledby) prints all the same: its label is
    // what it says, not a copy of the words beside it.
    if (
      said !== "" &&
      typeof item !== "string" &&
      item.role === "img" &&
      item.ref === "" &&
      item.named !== true &&
      said === previous
    )
      continue
    // An image repeats only words a line just said: a container's name heads the lines of its
    // content, and a name the page gives a separator or a list is no words it shows.
    if (typeof item !== "string" && (item.container || (item.named === true && item.role !== "img")))
      previous = ""
    else if (said !== "") previous = said
    if (typeof item !== "string" && said !== "") previousName = said
    else if (said !== "") previousName = ""
    if (typeof item === "string") {
      // Text beside a control that its name says is the label it was named by, printed once; a
      // control named by its own words prints those, so the same words beside it are the page's
      // again ("Like" beside a "Like" link).
      const before = items[index - 1]
      const after = items[index + 1]
      if (
        (typeof after === "object" && after.ref !== "" && after.ownWords !== true && after.name === item) ||
        (typeof before === "object" && before.ref !== "" && before.ownWords !== true && before.name === item)
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
      render(item.kids, depth, lines, anchors, printed, shown, cells)
      continue
    }
    if (item.heading) {
      const only = item.kids.length === 1 ? item.kids[0] : undefined
      if (item.source !== undefined) shown.push([item.source, lines.length])
      if (only !== undefined && typeof only !== "string" && only.ref !== "" && only.name === item.name) {
        lines.push(`${indent}- ${item.label} ${inline(only, printed)}`)
        // The rest of a long headline link (its name is cut) prints under it.
        render(only.kids, depth + 1, lines, anchors, printed, shown, cells)
        continue
      }
      lines.push(`${indent}- ${item.label} ${quote(item.name)}`)
      render(item.kids, depth + 1, lines, anchors, printed, shown, cells)
      continue
    }
    if (item.role === "row" && item.kids.some((kid) => typeof kid !== "string" && kid.named === true)) {
      // A row holding a cell the page names prints its cells as lines, so each says its name; a row
      // the page names heads them.
      if (item.named !== true) {
        render(item.kids, depth, lines, anchors, printed, shown, cells)
        continue
      }
    } else if (item.role === "row") {
      renderRow(item, indent, depth, lines, anchors, printed, shown, cells)
      continue
    } else if (CELL_ROLES.has(item.role) && item.named !== true) {
      // A cell outside a row prints as a row of its own.
      renderRow(
        { ...item, role: "row", ref: "", suffix: "", kids: [item] },
        indent,
        depth,
        lines,
        anchors,
        printed,
        shown,
        cells,
        false,
      )
      continue
    }
    if (item.container) {
      // A structure the page names has a line but no ref: it can be found from its element.
      if (item.ref === "" && item.source !== undefined) shown.push([item.source, lines.length])
      const single = item.kids.length === 1 ? item.kids[0] : undefined
      if (typeof single === "string") {
        lines.push(`${indent}- ${inline(item, printed)}: ${single}`)
        continue
      }
      if (item.kids.length === 0) {
        // Named by all it shows (a fieldset of its legend alone): the line is the whole of it.
        lines.push(`${indent}- ${inline(item, printed)}`)
        continue
      }
      const start = lines.length
      // An empty container (a tab panel whose content has not come) is a line without a colon.
      lines.push(`${indent}- ${inline(item, printed)}${item.kids.length > 0 ? ":" : ""}`)
      render(item.kids, depth + 1, lines, anchors, printed, shown, CELLS_OF[item.role] ?? cells)
      if (item.ref !== "")
        anchors.push([
          item.ref,
          `${item.label}${item.name ? ` ${quote(item.name)}` : ""}`,
          start,
          lines.length,
        ])
      continue
    }
    if (item.ref === "" && item.source !== undefined) shown.push([item.source, lines.length])
    lines.push(`${indent}- ${inline(item, printed)}`)
    if (item.kids.length > 0) render(item.kids, depth + 1, lines, anchors, printed, shown, cells)
  }
}

/**
 * Lines of an outline, the span of lines of each container that has a ref, and the line each
 * element printed that has a line of its own but no ref (a heading, an image, a meter).
 */
export interface Rendered {
  readonly lines: string[]
  readonly anchors: Anchor[]
  readonly shown: Shown
}

/** The full outline: one line per meaningful node, two spaces of indentation per level. */
export const renderOutline = (items: ReadonlyArray<Item>): Rendered => {
  const rendered: Rendered = { lines: [], anchors: [], shown: [] }
  render(items, 0, rendered.lines, rendered.anchors, new Set(), rendered.shown)
  return rendered
}

/** The names of controls and headings in an outline, for `nameCut`. */
const namesOf = (items: ReadonlyArray<Item>, names: string[] = []): string[] => {
  for (const item of items) {
    if (typeof item === "string") continue
    if (item.name !== "" && (item.heading || (item.ref !== "" && !item.container))) names.push(item.name)
    namesOf(item.kids, names)
  }
  return names
}

/** The interactive view: actionable elements with the headings that introduce them, one flat list. */
export const renderInteractive = (items: ReadonlyArray<Item>): Rendered => {
  const entries: Entry[] = []
  const entryAnchors: Anchor[] = []
  renderCompact(items, entries, entryAnchors, new Map(), nameCut(namesOf(items)))
  const rendered: Rendered = { lines: [], anchors: [], shown: [] }
  flattenCompact(entries, entryAnchors, rendered.lines, rendered.anchors)
  return rendered
}

/** A select's or listbox's options after its states: at most `maxOptions`, then how to read the rest. */
export const optionsSuffix = (options: ReadonlyArray<string>, maxOptions: number, ref: string): string => {
  const shown = options.slice(0, maxOptions).join("|")
  const left = options.length - maxOptions
  return ` [options: ${shown}${left > 0 ? `|…+${left} more: look({ within: "${ref}" }) lists all` : ""}]`
}

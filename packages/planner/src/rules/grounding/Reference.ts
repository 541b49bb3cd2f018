import type { ValueReference } from "../Reading.ts"
import { GLOSSARY, KIND_HEADERS, messagesFor, OWNER_FILLERS } from "../Vocabulary.ts"

/**
 * Reads a value reference on the page ("Maria Keller's email", "李娜的邮箱", "the order number of the
 * cancelled order"): the cell of the table row whose cells carry every word of the owner, under the
 * column whose header the kind goes by; or the value beside the kind's word in the list or card whose
 * heading or lines carry the owner ("Phone: …", "Mobile · …"). It reads the outline of a `look()` (the
 * full view), never the instruction: the grammar split the reference into owner and kind.
 *
 * Exactly one value answers, or the reading is refused: nothing on the page answers it, or more than one
 * value does (two rows carry the owner's words, two tables have the column). An owner word is placed
 * when a cell of the row holds it (the whole cell, or one of its words), when it names a column of the
 * table (the "order" of "the cancelled order", 状态 of "Shipped 状态"), or when it names no row at all
 * (the data's owner fillers: "the", "row", 那个); a word left over means the row is not the owner's.
 */

/** What the page answers for a reference: the one value, or what it shows instead. */
export type ReferenceAnswer =
  | { readonly value: string }
  | { readonly none: true }
  | { readonly several: ReadonlyArray<string> }

/** A table of the outline: its header cells and its rows, each cell as a person reads it. */
interface Table {
  readonly header: ReadonlyArray<string>
  readonly rows: ReadonlyArray<ReadonlyArray<string>>
}

/** A heading and the lines under it (a card, a definition list): its title and its pieces of text. */
interface Block {
  readonly title: string
  readonly pieces: ReadonlyArray<string>
}

const LINE = /^(\s*)-\s?(.*)$/
const TABLE = /^(?:table|grid|treegrid)(?:\s+"[^"]*")?:?$/
const HEADING = /^h[1-6]\s+"(.*)"\s*(?:\[ref=e\d+\])?:?$/
const CONTROL_CELL = /^(\w+)(?:\s+"((?:[^"\\]|\\.)*)")?\s*\[ref=e\d+\]/
const REF = /\[ref=e\d+\]/

/** A header cell, which the outline prints in bold: `**Price**`. */
const BOLD = /^\*\*(.*)\*\*$/s

/**
 * A cell as a person reads it: a link by its words, a control (a box, a button) as nothing; a
 * header cell by its words without the bold.
 */
const cellText = (raw: string): string => {
  const cell = BOLD.exec(raw.trim())?.[1] ?? raw
  const control = CONTROL_CELL.exec(cell)
  if (control === null) return cell.trim()
  return control[1] === "link" ? (control[2] ?? "").trim() : ""
}

const splitRow = (text: string): ReadonlyArray<string> => text.split(/\s*\|\s*/).map(cellText)

interface Line {
  readonly depth: number
  readonly text: string
}

const linesOf = (outline: string): ReadonlyArray<Line> =>
  outline.split("\n").flatMap((raw) => {
    const match = LINE.exec(raw)
    return match === null ? [] : [{ depth: match[1]!.length, text: match[2]!.trim() }]
  })

/** The tables of an outline, and the text blocks under its headings outside them. */
const readOutline = (outline: string): { tables: ReadonlyArray<Table>; blocks: ReadonlyArray<Block> } => {
  const lines = linesOf(outline)
  const tables: Array<Table> = []
  const blocks: Array<{ title: string; pieces: Array<string> }> = [{ title: "", pieces: [] }]
  for (let index = 0; index < lines.length; index += 1) {
    const line = lines[index]!
    if (TABLE.test(line.text)) {
      const rows: Array<ReadonlyArray<string>> = []
      let end = index + 1
      while (end < lines.length && lines[end]!.depth > line.depth) {
        const row = lines[end]!.text
        if (row.includes("|")) rows.push(splitRow(row))
        end += 1
      }
      if (rows.length >= 2) {
        const [header, ...body] = rows
        // Cells only line up with their headers when every row has as many as the header.
        tables.push({ header: header!, rows: body.filter((row) => row.length === header!.length) })
      }
      index = end - 1
      continue
    }
    const heading = HEADING.exec(line.text)
    if (heading !== null) {
      blocks.push({ title: heading[1]!, pieces: [] })
      continue
    }
    if (REF.test(line.text) || line.text.endsWith(":")) continue
    blocks.at(-1)!.pieces.push(...line.text.split(/\s+·\s+/).map((piece) => piece.trim()))
  }
  return { tables, blocks }
}

/** A header, term or label as compared: lower case, without brackets, hyphens and end punctuation. */
const headerKey = (text: string): string =>
  text
    .normalize("NFKC")
    .toLowerCase()
    .replace(/\([^)]*\)/g, " ")
    .replace(/-/g, "")
    .replace(/[:：.\s]+$/u, "")
    .replace(/\s+/g, " ")
    .trim()

/** Every name a kind of value goes by: its words, the data's headers for it and the glossary's words. */
const kindNames = (kind: string): ReadonlySet<string> => {
  const names = new Set<string>()
  const add = (word: string, depth: number) => {
    const key = headerKey(word)
    if (key === "" || names.has(key)) return
    names.add(key)
    if (depth === 0) return
    for (const other of [...(KIND_HEADERS.get(word.toLowerCase()) ?? []), ...(GLOSSARY.get(word) ?? [])])
      add(other, depth - 1)
  }
  add(kind, 2)
  return names
}

const singular = (key: string): string => (key.length > 3 && key.endsWith("s") ? key.slice(0, -1) : key)

const namesKind = (header: string, names: ReadonlySet<string>): boolean => {
  const key = headerKey(header)
  return key !== "" && (names.has(key) || names.has(singular(key)))
}

const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")

/** `text` found in `within` as whole words where it starts or ends in a Latin letter or digit. */
const wordPattern = (text: string, plural = false): RegExp =>
  new RegExp(
    `(?<![A-Za-z0-9])${escapeRegExp(text).replace(/\s+/g, "\\s+")}${plural ? "(?:s|es)?" : ""}(?![A-Za-z0-9])`,
    "giu",
  )

const clean = (text: string): string =>
  text.normalize("NFKC").toLowerCase().replace(/[’‘]/g, "'").replace(/\s+/g, " ").trim()

/** The words of the data and the glossary that name one of `headers` ("订单" → Order, 状态 → Status). */
const headerWords = (headers: ReadonlyArray<string>): ReadonlyArray<string> => {
  const keys = new Set(headers.map(headerKey).filter((key) => key !== ""))
  const words = [...keys]
  for (const [word, names] of [...KIND_HEADERS, ...GLOSSARY])
    if (names.some((name) => keys.has(headerKey(name)))) words.push(word.toLowerCase())
  return words.toSorted((left, right) => right.length - left.length)
}

/**
 * Whether `owner` is said of a row or block whose texts are `cells`: each of its words is placed in
 * a cell, a header word or a filler, and at least one in a cell.
 */
const ownedBy = (owner: string, cells: ReadonlyArray<string>, headers: ReadonlyArray<string>): boolean => {
  let rest = clean(owner)
  let placed = false
  const texts = cells
    .map(clean)
    .filter((cell) => cell.length >= 2)
    .toSorted((left, right) => right.length - left.length)
  for (const cell of texts) {
    const next = rest.replace(wordPattern(cell), " ")
    if (next !== rest) placed = true
    rest = next
  }
  const cellWords = new Set(
    texts.flatMap((cell) => cell.split(/[^\p{L}\p{N}@.+-]+/u)).filter((word) => word.length >= 2),
  )
  rest = rest.replace(/[\p{L}\p{N}][\p{L}\p{N}.@+-]*/gu, (word) => {
    if (!/^[A-Za-z0-9]/.test(word) || !cellWords.has(word)) return word
    placed = true
    return " "
  })
  for (const word of headerWords(headers)) rest = rest.replace(wordPattern(word, true), " ")
  for (const filler of OWNER_FILLERS) rest = rest.replace(wordPattern(filler.toLowerCase()), " ")
  return placed && !/[\p{L}\p{N}]/u.test(rest)
}

/** A value fit to type: shown in full (not cut with "…"), with no quote in it. */
const typeable = (value: string): boolean => value !== "" && !value.endsWith("…") && !value.includes('"')

/**
 * The value the page shows for a reference, read from the outline of a `look()`.
 *
 * @example
 * ```ts
 * import { readReference } from "@sextant/planner"
 * readReference({ owner: "Maria Keller", kind: "email" }, "- table:\n  - Name | Email\n  - Maria Keller | maria@x.de")
 * // { value: "maria@x.de" }
 * ```
 */
export const readReference = (
  reference: Pick<ValueReference, "owner" | "kind">,
  outline: string,
): ReferenceAnswer => {
  const names = kindNames(reference.kind)
  const owner = reference.owner.trim()
  const values: Array<string> = []
  const { tables, blocks } = readOutline(outline)
  for (const table of tables) {
    const columns = table.header.flatMap((header, column) => (namesKind(header, names) ? [column] : []))
    for (const column of columns)
      for (const row of table.rows)
        if (owner === "" || ownedBy(owner, row, table.header)) values.push(row[column]!)
    // A table of two columns whose first says what the second is ("Phone | +47 …"): a list of its own.
    if (table.header.length === 2)
      for (const row of [table.header, ...table.rows])
        if (namesKind(row[0]!, names) && owner === "") values.push(row[1]!)
  }
  for (const block of blocks) {
    const found: Array<string> = []
    for (const [index, piece] of block.pieces.entries()) {
      const labelled = /^(.+?)\s*[:：]\s*(.+)$/u.exec(piece)
      if (labelled !== null && namesKind(labelled[1]!, names)) found.push(labelled[2]!.trim())
      else if (namesKind(piece, names) && index + 1 < block.pieces.length)
        found.push(block.pieces[index + 1]!)
    }
    if (found.length === 0) continue
    const texts = [block.title, ...block.pieces.filter((piece) => !found.includes(piece))]
    if (owner === "" || ownedBy(owner, texts, [])) values.push(...found)
  }
  const distinct = [...new Set(values.map((value) => value.trim()))]
  if (distinct.length === 0) return { none: true }
  if (distinct.length > 1) return { several: distinct }
  return typeable(distinct[0]!) ? { value: distinct[0]! } : { none: true }
}

/** What the grammar answers that this reading needs: a reading, or a refusal with the reference it is about. */
type Parse = (
  text: string,
) =>
  | { readonly ok: true }
  | { readonly ok: false; readonly reason: string; readonly reference?: ValueReference }

/** Where the reference's words are in the goal, with an article before them: "the order number of …". */
const spanOf = (goal: string, said: string): { readonly start: number; readonly end: number } | undefined => {
  const words = clean(said)
    .split(" ")
    .map((word) => escapeRegExp(word))
  const match = new RegExp(`(?:(?<![A-Za-z])(?:the|a|an)\\s+)?${words.join("\\s*")}`, "iu").exec(goal)
  return match === null ? undefined : { start: match.index, end: match.index + match[0].length }
}

/**
 * A goal whose references to values the page shows are read on the page and written as the quoted
 * literals they stand for ("Type Maria Keller's email into To" → `Type "maria@x.de" into To`), so its
 * goal parts check that the literal landed where it was meant to go; or why a reference could not be
 * read (nothing on the page answers it, or more than one value does), naming it; or undefined when the
 * goal holds no reference the page may answer.
 *
 * @example
 * ```ts
 * import { parseCommands, readReferencesOnPage } from "@sextant/planner"
 * readReferencesOnPage("Type Maria Keller's email into To", snapshot.tree, parseCommands)
 * // { goal: 'Type "maria@x.de" into To', commands: ['"Maria Keller\'s email" = "maria@x.de"'] }
 * ```
 */
export const readReferencesOnPage = (
  goal: string,
  outline: string,
  parse: Parse,
):
  | { readonly goal: string; readonly commands: ReadonlyArray<string> }
  | { readonly reason: string }
  | undefined => {
  const say = messagesFor(goal)
  let current = goal.normalize("NFKC").replace(/[’‘]/g, "'")
  const read: Array<string> = []
  // One reference per round: a goal may hold a few ("Ana's email into To and her phone into Subject").
  for (let round = 0; round < 4; round += 1) {
    const parsed = parse(current)
    if (parsed.ok || parsed.reference === undefined)
      return read.length === 0
        ? undefined
        : parsed.ok
          ? { goal: current, commands: read }
          : { reason: parsed.reason }
    const reference = parsed.reference
    const span = spanOf(current, reference.said)
    if (span === undefined) return { reason: parsed.reason }
    const answer = readReference(reference, outline)
    if ("several" in answer) return { reason: say.referenceSeveral(reference.phrase, answer.several) }
    if ("none" in answer)
      return { reason: say.referenceNotShown(reference.phrase, reference.owner, reference.kind) }
    read.push(`"${reference.phrase}" = "${answer.value}"`)
    current = `${current.slice(0, span.start)}"${answer.value}"${current.slice(span.end)}`
  }
  return { reason: `"${goal}" holds too many values to read on the page` }
}

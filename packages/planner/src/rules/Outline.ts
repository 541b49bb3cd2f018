import { GuessSource, type PageElement } from "@sextant/core"

// "- h2 button "Billing address" [ref=e13]": a heading level before the role of the control inside it.
const LINE = /^(\s*)-\s+(?:h[1-6]\s+(?=[\w-]+\s+"))?([\w-]+)(?:\s+("(?:[^"\\]|\\.)*"))?(.*)$/

/** A guess after a ref: ` (id search)`, ` (href order history)` (see `NameGuess` in `@sextant/core`). */
const GUESS = new RegExp(`(?<=\\[ref=e\\d+\\]) \\((${GuessSource.options.join("|")}) ([^)]*)\\)`)

/** A line that shows only a number and has no ref: `- status: 2`, `- 2`, `- text: 12`. */
const SHOWN_NUMBER = /^\s*-\s+(?:[\w-]+(?:\s+"(?:[^"\\]|\\.)*")?:\s*)?(-?\d+(?:\.\d+)?)\s*$/

/**
 * The attributes `elementsFromOutline` puts on the two buttons of a stepper (a number shown between a
 * button before it and one after it, as `− 2 +`): the number shown, the text just before the first
 * button (its caption), the ref of the first button (the pair's id) and which way each button steps.
 */
export const STEPPER = {
  shows: "stepper-shows",
  label: "stepper-label",
  pair: "stepper-pair",
  step: "stepper-step",
} as const

const readName = (quoted: string | undefined): string => {
  if (quoted === undefined) return ""
  try {
    return JSON.parse(quoted) as string
  } catch {
    return quoted.slice(1, -1)
  }
}

/**
 * A line of a `look()` outline with its header cells' words as plain words: the view prints a header
 * cell bold, a whole cell between the row's ` | ` separators (`- **Phone** | textbox [ref=e15]` →
 * `- Phone | textbox [ref=e15]`); a name in quotes is left as it is. Every reader of outline lines
 * that takes words or values out of a table row reads it through this.
 */
export const plainOutlineLine = (line: string): string =>
  line.replace(/(?<=^\s*-\s+|\s\|\s)\*\*([^*"]+)\*\*(?=\s\|\s|\s*$)/g, "$1")

/** Where one control of a row ends and what follows it (a number shown, the next control) begins. */
const CONTROL_BREAK =
  /(?<=\[ref=e\d+\](?:\s\[[a-z-]+\])*)\s+(?=[^\s:(\-[])|\s+(?=[\w-]+\s+(?:"(?:[^"\\]|\\.)*"\s+)?\[ref=e\d+\])/

/**
 * A two-cell row of a caption and its controls, as a form laid out in a table prints
 * (`- Phone | textbox [ref=e15]`, `- Adults | button "Fewer adults" [ref=e14] 2 button "More adults" [ref=e16]`):
 * the caption, then each control and each number shown between them, on lines of their own, as the
 * same form prints without the table. Other lines as they are.
 */
const captionRow = (line: string): ReadonlyArray<string> => {
  const row = /^(\s*)-\s+([^|"[\]]+?)\s+\|\s+((?:[\w-]+\s+(?:"(?:[^"\\]|\\.)*"\s+)?\[ref=e\d+\].*))$/.exec(
    line,
  )
  if (row === null || row[3]!.includes(" | ")) return [line]
  const [, indent, caption, controls] = row
  const parts = controls!.split(CONTROL_BREAK).filter((part) => part.trim() !== "")
  return [`${indent}- ${caption}`, ...parts.map((part) => `${indent}- ${part.trim()}`)]
}

/** The cells of a table row as the view prints it, split at ` | ` outside a quoted name. */
const cellsOf = (row: string): ReadonlyArray<string> =>
  (row.match(/(?:"(?:[^"\\]|\\.)*"|(?! \| )[^|"]|(?<! )\||\|(?! ))+/g) ?? [])
    .map((cell) => cell.trim())
    .filter((cell) => !/^\|*$/.test(cell))

/**
 * The parts of a table row as the view prints it (`- checkbox "Select a.pdf" [ref=e15] | a.pdf | 12 KB |
 * button "Share" [ref=e16] button "Pin" [ref=e17]`, `- Tom Okafor | Bluegate | button "Call" [ref=e13]`):
 * each control and each cell of text, in the row's order; undefined for a line that is no row holding a
 * control. The row is one item: its cells of text name it, its controls act on it.
 */
export const rowParts = (line: string): ReadonlyArray<string> | undefined => {
  const body = /^\s*-\s+(.*)$/.exec(line)?.[1]
  if (body === undefined || !line.includes(" | ") || !/\[ref=e\d+\]/.test(line)) return undefined
  return cellsOf(body).flatMap((cell) =>
    cell.includes("[ref=") ? cell.split(CONTROL_BREAK).filter((part) => part.trim() !== "") : [cell],
  )
}

/**
 * A table row holding a control, each part on a line of its own (see {@link rowParts}), so that every
 * control of the row is read (a line is read as the one element it starts with). Other lines as they are.
 */
const tableRow = (line: string): ReadonlyArray<string> => {
  const indent = /^(\s*)/.exec(line)![1]
  return rowParts(line)?.map((part) => `${indent}- ${part.trim()}`) ?? [line]
}

/**
 * Reads the elements with refs out of a `look()` outline, for a policy that sees only the outline
 * (`- textbox "Email" [ref=e1] [required]: alice@example.com`, `- combobox "Size" [ref=e4]: M [options: S|M|L]`,
 * `- link "Docs" [ref=e7] -> /docs`). Every listed element is visible; the tag is unknown.
 *
 * @example
 * ```ts
 * import { elementsFromOutline } from "@sextant/planner"
 * elementsFromOutline('- button "Save" [ref=e3] [disabled]')[0]?.disabled // true
 * ```
 */
export const elementsFromOutline = (outline: string): ReadonlyArray<PageElement> => {
  const elements: Array<PageElement> = []
  // A plain text line or a heading just before a field with no name is how the page labels it
  // ("Street", or `- h3 "VAT number"`, then the textbox): it becomes the field's label.
  let lastText: string | undefined
  // A number shown with no ref of its own right after a button, before another button: a stepper
  // (`- button "Fewer adults"`, `- status: 2`, `- button "More adults"`), marked on both buttons.
  let caption: string | undefined
  let shown: { readonly number: string; readonly down: PageElement; readonly caption: string } | undefined
  for (const line of outline.split("\n").map(plainOutlineLine).flatMap(captionRow).flatMap(tableRow)) {
    const match = LINE.exec(line)
    if (match === null) continue
    const rest = match[4] ?? ""
    const ref = /\[ref=(e\d+)\]/.exec(rest)?.[1]
    const number = SHOWN_NUMBER.exec(line)?.[1]
    const before = elements.at(-1)
    shown =
      number !== undefined && ref === undefined && before?.role === "button" && shown === undefined
        ? { number, down: before, caption: caption ?? "" }
        : ref === undefined || shown === undefined || match[2] !== "button"
          ? undefined
          : shown
    if (ref === undefined) {
      const heading = /^\s*-\s+h[1-6]\s+("(?:[^"\\]|\\.)*")\s*$/.exec(line)
      const text = heading === null ? line.replace(/^\s*-\s+/, "").trim() : readName(heading[1])
      lastText =
        (heading === null && text.includes('"')) ||
        text.endsWith(":") ||
        text.includes(" | ") ||
        text.length > 60
          ? undefined
          : text
      continue
    }
    const nearby = lastText
    caption = nearby
    lastText = undefined
    const role = match[2]!
    const states = new Set([...rest.matchAll(/\[([a-z-]+)\]/g)].map((state) => state[1]!))
    const options = /\[options: ([^\]]*)\]/.exec(rest)?.[1]
    const url = / -> (\S+)\s*$/.exec(rest)?.[1]
    // A guess printed after the ref (`button [ref=e5] (id search)`): words to find it by, not its name.
    const guess = GUESS.exec(rest)
    const afterStates = rest
      .replace(GUESS, "")
      .replace(/\[ref=e\d+\]/, "")
      .replace(/\[options: [^\]]*\]/, "")
      .replace(/ -> \S+\s*$/, "")
    const value = /^(?:\s*\[[a-z-]+\])*\s*:\s?(.*)$/.exec(afterStates)?.[1]?.trim()
    const name = readName(match[3])
    const attributes: Record<string, string> = {}
    if (url !== undefined) attributes.href = url
    if (name === "" && nearby !== undefined) attributes.label = nearby
    if (/password|密码/i.test(name) && role === "textbox") attributes.type = "password"
    const element: { -readonly [Key in keyof PageElement]: PageElement[Key] } = {
      ref,
      role,
      name,
      tag: role === "link" ? "a" : "",
      attributes,
      visible: true,
      selectors: [],
      frame: [],
    }
    if (guess !== null) element.guess = { from: guess[1] as GuessSource, words: guess[2]! }
    if (value !== undefined && value !== "") element.value = value
    if (states.has("checked")) element.checked = true
    else if (states.has("mixed")) element.checked = "mixed"
    else if (role === "checkbox" || role === "radio" || role === "switch") element.checked = false
    if (states.has("selected")) element.selected = true
    else if (role === "tab" || role === "option") element.selected = false
    if (states.has("expanded")) element.expanded = true
    if (states.has("collapsed")) element.expanded = false
    if (states.has("disabled")) element.disabled = true
    if (states.has("required")) element.required = true
    if (options !== undefined)
      element.options = options.split("|").filter((option) => !option.startsWith("…"))
    if (shown !== undefined) {
      const marks = {
        [STEPPER.shows]: shown.number,
        [STEPPER.label]: shown.caption,
        [STEPPER.pair]: shown.down.ref,
      }
      Object.assign(shown.down.attributes, marks, { [STEPPER.step]: "down" })
      Object.assign(attributes, marks, { [STEPPER.step]: "up" })
      shown = undefined
    }
    elements.push(element)
  }
  return elements
}

/** One node line of an aria-style outline: `- button "Sign in" [ref=e3]`. */
export interface OutlineNode {
  readonly role: string
  readonly name: string
  readonly ref: string | undefined
  /** The outline printed no name: `name` is the node's text (see {@link parseOutline}). */
  readonly fromText?: boolean
  /** The outline printed no name: everything printed beneath the node, named children included. */
  readonly content?: string
  /** The outline printed a name: what the node shows beneath it (see {@link parseOutline}). */
  readonly shown?: string
  /** A field's value, printed after its name. */
  readonly value?: string
}

/** One interactive element, for matching one outline's elements with another's. */
export interface InteractiveElement {
  readonly role: string
  readonly name: string
  /** The outline printed no name and `name` is the node's text, not an accessible name. */
  readonly fromText?: boolean
  /** What the outline prints beneath the element (named children included): for a node printed
   * without a name, the name Playwright left out; for Sextant's, the words it shows besides its name. */
  readonly content?: string
  /** For a node printed with a name, what it shows: its text where a part's label stands in the name. */
  readonly shown?: string
  /** A field's value (textbox, searchbox, combobox, spinbutton, slider). */
  readonly value?: string
}

/** Roles an agent acts on; a line with one of these roles and a ref is an interactive element. */
export const INTERACTIVE_ROLES: ReadonlySet<string> = new Set([
  "button",
  "link",
  "textbox",
  "searchbox",
  "checkbox",
  "radio",
  "combobox",
  "listbox",
  "option",
  "slider",
  "spinbutton",
  "switch",
  "menuitem",
  "menuitemcheckbox",
  "menuitemradio",
  "tab",
  "treeitem",
])

/** Roles whose text is a value the user sets, not a name: a field, a select, a slider. */
const FIELD_ROLES: ReadonlySet<string> = new Set(["textbox", "searchbox", "combobox", "spinbutton", "slider"])

/** One element of a Sextant snapshot, as `look()` reports it in `elements`. */
export interface SnapshotElement {
  readonly ref?: string
  readonly role: string
  readonly name: string
  readonly value?: string | undefined
}

/**
 * The words a Sextant outline prints beneath each line with a ref (its nested lines, without
 * roles, refs and states), by ref: what a reader sees inside the element besides its name.
 */
export const contentByRef = (tree: string): ReadonlyMap<string, string> => {
  const lines = tree.split("\n")
  const content = new Map<string, string>()
  lines.forEach((line, index) => {
    const ref = /\[ref=(e\d+)\]/.exec(line)?.[1]
    if (ref === undefined) return
    const below: Array<string> = []
    for (let next = index + 1; next < lines.length && indentOf(lines[next]!) > indentOf(line); next++)
      below.push(outlineText(lines[next]!))
    if (below.length > 0) content.set(ref, below.join(" "))
  })
  return content
}

/**
 * Sextant's elements read the way {@link parseOutline} reads Playwright's lines: a field printed
 * without a name is read by its value (Playwright prints a nameless field's value as its text, and
 * that text is what its line is matched by), and with `tree`, each element carries the words its
 * outline prints beneath it as its content, so the rule reads both outlines alike.
 *
 * @example
 * ```ts
 * readElements([{ role: "textbox", name: "", value: "https://example.com/a" }])
 * // [{ role: "textbox", name: "https://example.com/a", fromText: true }]
 * ```
 */
export const readElements = (
  elements: ReadonlyArray<SnapshotElement>,
  tree?: string,
): ReadonlyArray<InteractiveElement> => {
  const content = tree === undefined ? new Map<string, string>() : contentByRef(tree)
  return elements.map((element): InteractiveElement => {
    const valued = FIELD_ROLES.has(element.role) && element.value !== undefined && element.value !== ""
    const read: InteractiveElement =
      valued && element.name === ""
        ? { role: element.role, name: element.value!, fromText: true }
        : valued
          ? { role: element.role, name: element.name, value: element.value! }
          : { role: element.role, name: element.name }
    const below = element.ref === undefined ? undefined : content.get(element.ref)
    return below === undefined ? read : { ...read, content: below }
  })
}

// Roles that name the same control in two outlines written by different engines: a search input is
// a textbox to one and a searchbox to the other, a select a combobox or a listbox.
const ROLE_ALIASES: Readonly<Record<string, string>> = {
  searchbox: "textbox",
  listbox: "combobox",
  switch: "checkbox",
  menuitemcheckbox: "menuitem",
  menuitemradio: "menuitem",
}

const LINE = /^\s*- ([a-z]+)(?: "((?:[^"\\]|\\.)*)")?((?: \[[^\]]*\])*)(?::(.*))?$/
const REF = /\[ref=([^\]]+)\]/
/** A node line whose key YAML had to quote (it holds `: ` or starts with a quote): `- 'link "a: b" [ref=e3]':`. */
const QUOTED = /^(\s*)- (?:'((?:[^']|'')*)'|"((?:[^"\\]|\\.)*)")(:.*)?$/
const TEXT_CHILD = /^\s*- text: (.*)$/

const ESCAPES: Readonly<Record<string, string>> = { n: "\n", t: "\t", r: "\r", b: "\b", f: "\f", "0": "\0" }

/**
 * A double-quoted string's text without its escapes: Playwright writes names with `JSON.stringify`
 * (`\"`, `\\`, `\n`, `\u001f`) and YAML values with `\xHH` for control characters (`\x0b`, `\x85`).
 */
const unescapeName = (name: string): string =>
  name.replace(
    /\\(?:x([0-9a-fA-F]{2})|u([0-9a-fA-F]{4})|(.))/g,
    (_, hex?: string, unicode?: string, char?: string) =>
      hex !== undefined || unicode !== undefined
        ? String.fromCharCode(Number.parseInt((hex ?? unicode)!, 16))
        : (ESCAPES[char!] ?? char!),
  )

/** Roles named from their content: their printed name may hold labels where the page shows text. */
const CONTENT_ROLES: ReadonlySet<string> = new Set(
  [...INTERACTIVE_ROLES].filter((role) => !FIELD_ROLES.has(role) && role !== "listbox"),
)

/** A YAML-quoted key back as the line it stands for, so its node counts like any other. */
const unquoteLine = (line: string): string => {
  const quoted = QUOTED.exec(line)
  if (quoted === null) return line
  const key = quoted[2] !== undefined ? quoted[2].replace(/''/g, "'") : unescapeName(quoted[3]!)
  return `${quoted[1]}- ${key}${quoted[4] ?? ""}`
}

const indentOf = (line: string): number => line.length - line.trimStart().length
const unquoteValue = (value: string): string => {
  const trimmed = value.trim()
  if (trimmed.length >= 2 && trimmed.startsWith('"') && trimmed.endsWith('"'))
    return unescapeName(trimmed.slice(1, -1))
  return trimmed.startsWith("'") && trimmed.endsWith("'") ? trimmed.slice(1, -1).replace(/''/g, "'") : trimmed
}

/**
 * What the lines beneath `lines[index]` show a reader: text lines and printed values, a named node
 * that prints no text standing for its name (an image), a named node with text for its text (a
 * heading labelled "Dave Thomas: Keynote by EMPEX Conference 4 years ago" that shows "Dave Thomas:
 * Keynote"). Left out: nodes marked `[aria-hidden]` and text lines that are the text of an
 * aria-hidden box (`hidden`: Playwright prints an inline one as a text line of the node above it),
 * which no name holds, and a named node printed
 * without a ref and without text — Playwright's AI mode gives a ref to every node that has a box and
 * takes pointer events, so that one shows nothing (an empty box whose title is "Not available").
 */
const shownBeneath = (lines: ReadonlyArray<string>, index: number, hidden: ReadonlySet<string>): string => {
  const parts: Array<string> = []
  const depth = indentOf(lines[index]!)
  let next = index + 1
  while (next < lines.length && indentOf(lines[next]!) > depth) {
    const line = lines[next]!
    let end = next + 1
    while (end < lines.length && indentOf(lines[end]!) > indentOf(line)) end++
    const text = TEXT_CHILD.exec(line)
    const child = text === null ? LINE.exec(line) : null
    if (text !== null) {
      const value = unquoteValue(text[1]!)
      if (!hidden.has(normalizeName(value))) parts.push(value)
    } else if (child !== null && !(child[3] ?? "").includes("[aria-hidden]")) {
      const inline = unquoteValue(child[4] ?? "")
      const below = inline !== "" ? inline : shownBeneath(lines, next, hidden)
      if (below !== "") parts.push(below)
      else if (child[2] !== undefined && child[2] !== "" && REF.test(child[3] ?? ""))
        parts.push(unescapeName(child[2]))
    }
    next = end
  }
  return parts.join(" ").trim()
}

/** What the page hides from assistive technology, for reading an outline. */
export interface OutlineOptions {
  /** The text of each aria-hidden subtree of the page (`innerText`). */
  readonly ariaHidden?: ReadonlyArray<string>
}

/**
 * The node lines of an aria-style outline (Playwright's `ariaSnapshot({ mode: "ai" })` or Sextant's
 * `look().tree`), with role, name and ref. Text lines (`- text: …`) and property lines (`- /url: …`)
 * are not nodes and are skipped. A line whose key YAML quoted (`- 'link "a: b" [ref=e3]'`) counts
 * like any other; a node printed without a name takes its text as the name (the value after its
 * colon, or its `- text:` lines). A named field carries the value printed after its name, and a
 * node named from its content what it shows (see {@link shownBeneath}).
 *
 * @example
 * ```ts
 * parseOutline('- button "Sign in" [ref=e3]') // [{ role: "button", name: "Sign in", ref: "e3" }]
 * ```
 */
export const parseOutline = (outline: string, options: OutlineOptions = {}): ReadonlyArray<OutlineNode> => {
  const lines = outline.split("\n").map(unquoteLine)
  const hidden = new Set((options.ariaHidden ?? []).map(normalizeName).filter((text) => text !== ""))
  return lines.flatMap((line, index): Array<OutlineNode> => {
    const match = LINE.exec(line)
    if (match === null || match[1] === "text") return []
    let name = unescapeName(match[2] ?? "")
    const fromText = name === ""
    let content = ""
    if (fromText) {
      // A node printed without a name is read by its text: inline after the colon, or its text lines.
      const inline = unquoteValue(match[4] ?? "")
      const texts: Array<string> = inline === "" ? [] : [inline]
      // And by its content, the name Playwright's AI mode took out because the nodes it came from
      // print beneath it (`removeRedundantNames`: a card link prints as `- link:` over `- img "…"`
      // and `- text: …`): text lines and named nodes below it, a named node standing for its subtree.
      const parts: Array<string> = inline === "" ? [] : [inline]
      let skipBelow = Number.POSITIVE_INFINITY
      for (let next = index + 1; next < lines.length && indentOf(lines[next]!) > indentOf(line); next++) {
        const depth = indentOf(lines[next]!)
        if (depth > skipBelow) continue
        skipBelow = Number.POSITIVE_INFINITY
        const text = TEXT_CHILD.exec(lines[next]!)
        if (text !== null) {
          if (depth === indentOf(line) + 2) texts.push(unquoteValue(text[1]!))
          parts.push(unquoteValue(text[1]!))
          continue
        }
        const child = LINE.exec(lines[next]!)
        if (child === null) continue
        if (child[2] !== undefined && child[2] !== "") {
          parts.push(unescapeName(child[2]))
          skipBelow = depth
        } else if (child[4] !== undefined && child[4].trim() !== "") parts.push(unquoteValue(child[4]))
      }
      name = texts.join(" ")
      content = parts.join(" ")
    }
    const ref = REF.exec(match[3] ?? "")?.[1]
    const node: OutlineNode =
      fromText && name !== "" ? { role: match[1]!, name, ref, fromText } : { role: match[1]!, name, ref }
    if (fromText) return [content !== "" && content !== name ? { ...node, content } : node]
    // A named field prints its value after the colon; a node named from its content is also read
    // by what it shows, where the accessible name took a part's label or title instead of its text.
    const value = FIELD_ROLES.has(match[1]!) ? unquoteValue(match[4] ?? "") : ""
    if (value !== "") return [{ ...node, value }]
    const shown = CONTENT_ROLES.has(match[1]!) ? shownBeneath(lines, index, hidden) : ""
    return [shown !== "" && shown !== name ? { ...node, shown } : node]
  })
}

/** The interactive elements of an outline: node lines with an interactive role and a ref. */
export const interactiveNodes = (
  outline: string,
  options: OutlineOptions = {},
): ReadonlyArray<InteractiveElement> =>
  parseOutline(outline, options).filter((node) => node.ref !== undefined && INTERACTIVE_ROLES.has(node.role))

// A name is compared by its letters and digits: where one engine puts a space between two boxes
// ("Vox Media" + "Vox Media") the other may glue them, and a separator drawn by CSS ("dc comics |")
// or a quote mark is not the page's wording. A trailing ellipsis stays: it marks a cut name.
const normalizeName = (name: string): string => {
  const text = name.normalize("NFKC").toLowerCase()
  const core = (text.match(/[\p{L}\p{N}]+/gu) ?? []).join("")
  return /(…|\.\.\.)\s*$/.test(text) ? `${core}…` : core
}

const roleKey = (role: string): string => ROLE_ALIASES[role] ?? role

/** Roles ARIA allows only inside a container (their required context): tab, option, treeitem, menu items. */
const NEEDS_CONTEXT: ReadonlySet<string> = new Set([
  "tab",
  "option",
  "treeitem",
  "menuitem",
  "menuitemcheckbox",
  "menuitemradio",
])

const isCut = (name: string): boolean => name.endsWith("…") || name.endsWith("...")
const uncut = (name: string): string => name.replace(/(…|\.\.\.)$/, "").trimEnd()

const namesMatch = (expected: string, actual: string, fromText: boolean): boolean => {
  if (expected === actual) return true
  // A label the page prints twice in one control (a visible and a hidden copy) may be read once by
  // one engine and twice by the other: "ParentingParenting" and "Parenting" name the same link.
  if (actual !== "" && (expected === actual + actual || actual === expected + expected)) return true
  // Nothing to compare with: an element the other outline prints without a name or text.
  if (expected === "") return true
  // Text is not a name: Playwright prints none inside an aria-hidden subtree even where the element
  // has an aria-label ("Switch to the Birmingham edition" shows the text "Birmingham"), so the text
  // matches a name that holds it.
  if (fromText && actual.includes(expected)) return true
  // An outline may cut a long name; a cut name matches the full name it starts.
  if (isCut(actual)) return expected.startsWith(uncut(actual))
  if (isCut(expected)) return actual.startsWith(uncut(expected))
  return false
}

/** How many expected elements the actual outline has, out of how many. */
export interface RecallResult {
  readonly expected: number
  readonly matched: number
  /** matched / expected, 1 when nothing was expected. */
  readonly recall: number
  /** The expected elements nobody matched, as `role "name"`, for findings. */
  readonly unmatched: ReadonlyArray<string>
}

/**
 * Interactive recall: the share of `expected` elements (Playwright's) that `actual` (Sextant's) has.
 *
 * Matching rule: two elements match when their roles are equal after aliasing (searchbox = textbox,
 * listbox = combobox, switch = checkbox, menuitemcheckbox/menuitemradio = menuitem) and their names have
 * the same letters and digits after Unicode NFKC and lower-casing (spaces and punctuation left out) —
 * or one name is cut with "…" and the other starts with what is left of it, or one is the other
 * printed twice. An expected element with no name (and no text: see
 * {@link parseOutline}) matches any element of its role that is left once the named ones are matched;
 * one printed without a name but with text matches an element whose name holds that text.
 * An expected element whose role needs a container (tab, option, treeitem, menuitem…) and is left
 * unmatched matches, last, a leftover element with the same name under any role: without its
 * container the standard gives it its tag's role (an orphan `<button role=tab>` is a button).
 * Each actual element matches at most one expected element (a multiset match), so three "Add to cart"
 * buttons need three in `actual`.
 *
 * @example
 * ```ts
 * interactiveRecall([{ role: "searchbox", name: "Search" }], [{ role: "textbox", name: "search" }]).recall // 1
 * ```
 */
export const interactiveRecall = (
  expected: ReadonlyArray<InteractiveElement>,
  actual: ReadonlyArray<InteractiveElement>,
): RecallResult => {
  const available = actual.map((element) => ({
    role: roleKey(element.role),
    name: normalizeName(element.name),
    content: element.content === undefined ? "" : normalizeName(element.content),
    value: element.value === undefined ? "" : normalizeName(element.value),
  }))
  const used = new Array<boolean>(available.length).fill(false)
  const unmatched: Array<string> = []
  let matched = 0
  const exactly = (element: InteractiveElement): number => {
    const role = roleKey(element.role)
    const name = normalizeName(element.name)
    return available.findIndex(
      (candidate, position) => !used[position] && candidate.role === role && candidate.name === name,
    )
  }
  // Printed names that are exact first, so a cut name or a text cannot take the element an exact
  // name needed.
  const pending: Array<InteractiveElement> = []
  for (const element of expected) {
    const index = element.fromText === true || element.name === "" ? -1 : exactly(element)
    if (index === -1) pending.push(element)
    else {
      used[index] = true
      matched += 1
    }
  }
  // Then printed names that match loosely (cut), then texts (an equal name before one that holds
  // the text), and last the nameless elements that take any element of their role, so they cannot
  // take one a named element needed.
  const byName = pending.filter((element) => element.name !== "" && element.fromText !== true)
  const byText = pending.filter((element) => element.fromText === true)
  const nameless = pending.filter((element) => element.name === "")
  const orphans: Array<InteractiveElement> = []
  for (const element of [...byName, ...byText, ...nameless]) {
    const role = roleKey(element.role)
    const name = normalizeName(element.name)
    const content = element.content === undefined ? undefined : normalizeName(element.content)
    const shown = element.shown === undefined ? undefined : normalizeName(element.shown)
    const value = element.value === undefined ? "" : normalizeName(element.value)
    const exact = element.fromText === true ? exactly(element) : -1
    const index =
      exact !== -1
        ? exact
        : available.findIndex(
            (candidate, position) =>
              !used[position] &&
              candidate.role === role &&
              (namesMatch(name, candidate.name, element.fromText === true) ||
                (content !== undefined && namesMatch(content, candidate.name, false)) ||
                // What a named node shows: the name Playwright built from its parts' labels and
                // titles, read as the text the parts show (Sextant names it by that text).
                (shown !== undefined && namesMatch(shown, candidate.name, false)) ||
                // A field named by its value on one side, by its label on the other (accname names a
                // field inside the box its aria-labelledby points at by the field's own value).
                (FIELD_ROLES.has(role) &&
                  ((candidate.value !== "" && namesMatch(name, candidate.value, false)) ||
                    (value !== "" && namesMatch(value, candidate.name, false)))) ||
                // Text against text: a node Playwright prints without a name (inside an aria-hidden dialog
                // it names nothing) shows words that Sextant prints beneath the element it names.
                (element.fromText === true && name !== "" && candidate.content.includes(name))),
          )
    if (index === -1) orphans.push(element)
    else {
      used[index] = true
      matched += 1
    }
  }
  // Last, a role that ARIA allows only inside its container (a tab in a tablist, an option in a
  // listbox…): where the container is missing, the standard (and Chromium's tree) gives the element the
  // role of its tag, so an orphan `<button role=tab>` is a button. Playwright keeps the tab. The control
  // is the same, so it matches a leftover element with the same name under another role.
  for (const element of orphans) {
    const name = normalizeName(element.name)
    const index = NEEDS_CONTEXT.has(element.role)
      ? available.findIndex(
          (candidate, position) => !used[position] && name !== "" && candidate.name === name,
        )
      : -1
    if (index === -1) unmatched.push(`${element.role} "${element.name}"`)
    else {
      used[index] = true
      matched += 1
    }
  }
  return {
    expected: expected.length,
    matched,
    recall: expected.length === 0 ? 1 : matched / expected.length,
    unmatched,
  }
}

/** The words of a text: runs of letters and digits, NFKC-normalized and lower-cased. */
export const words = (text: string): ReadonlyArray<string> =>
  text
    .normalize("NFKC")
    .toLowerCase()
    .match(/[\p{L}\p{N}]+/gu) ?? []

/** How many of the page's visible words an outline keeps. */
export interface TextRecallResult {
  readonly pageWords: number
  readonly keptWords: number
  /** keptWords / pageWords, 1 for a page with no words. */
  readonly recall: number
  /** The page words the outline does not keep, in page order: what a finding names. */
  readonly missed: ReadonlyArray<string>
}

/**
 * The words an outline shows of the page, without its own syntax: a node's role (`- link "…"`,
 * `- h2 "…"`), refs and states in brackets, and property lines (`- /url: …`).
 */
const OUTLINE_TARGET = / -> \S+/g
const OUTLINE_STATE =
  / \[(?:ref=[^\]]*|cursor=[a-z]+|level=\d|checked|mixed|selected|expanded|collapsed|pressed|disabled|required|invalid|current|file|aria-hidden|active)\]/g
const OUTLINE_ROLE =
  /^(\s*- )(?:link|button|textbox|searchbox|checkbox|radio|combobox|listbox|option|slider|spinbutton|switch|menuitem|menuitemcheckbox|menuitemradio|tab|treeitem|img|heading|h[1-6]|header|nav|main|footer|aside|search|form|dialog|region|alert|status|log|menu|menubar|tablist|tabpanel|radiogroup|group|tree|table|grid|toolbar|iframe|figure|row|cell|columnheader|rowheader|gridcell|list|listitem|paragraph|generic|progressbar|meter|separator|tooltip|banner|navigation|contentinfo|complementary|article|text)(?= "| \[|:|$)/
const outlineText = (outline: string): string =>
  outline
    .split("\n")
    .map((line) =>
      line
        .replace(/^\s*- \/[a-z]+:.*$/, "")
        .replace(OUTLINE_STATE, " ")
        .replace(OUTLINE_ROLE, "$1"),
    )
    .join("\n")

/** Longest run of neighbouring outline words read as one glued page word (see {@link visibleTextRecall}). */
const MAX_GLUED = 16

/**
 * Visible-text recall: the share of the words of `visibleText` (`document.body.innerText`) that
 * `outline` also has, counted as a multiset so a word the page shows five times needs five in the
 * outline. `innerText` puts no space between neighbouring boxes that the page sets apart by margin
 * or padding (buttons "Report" "Save" "Follow" read "ReportSaveFollow"); a page word that no outline
 * word equals is kept when neighbouring outline words, glued, spell it, and neighbouring page words
 * are kept when the outline prints them glued as one word — as interactive names are compared
 * without spaces. Each outline word keeps one page word at most; which copy of a spelling keeps a
 * page word is left open until a glued run needs one, so a run is not lost to a word another copy
 * keeps as well. `missed` lists the page words left, in page order.
 *
 * @example
 * ```ts
 * visibleTextRecall("Sign in to continue", '- button "Sign in" [ref=e1]').recall // 0.5
 * visibleTextRecall("ReportSave", '- button "Report" [ref=e1]\n- button "Save" [ref=e2]').recall // 1
 * ```
 */
export const visibleTextRecall = (visibleText: string, outline: string): TextRecallResult => {
  const text = outlineText(outline)
  const outlineWords = words(text)
  // Where the words of link targets (`-> /path`) are: they count as words, but glued page words are
  // spelled by the words beside a target, not through it.
  const inTarget: Array<boolean> = []
  const targets = text.match(OUTLINE_TARGET) ?? []
  for (const [index, part] of text.split(OUTLINE_TARGET).entries()) {
    for (const _ of words(part)) inTarget.push(false)
    for (const _ of words(targets[index] ?? "")) inTarget.push(true)
  }
  const readable = outlineWords.flatMap((_, position) => (inTarget[position] === true ? [] : [position]))
  // How many outline words of each spelling are left to keep a page word. A page word equal to an
  // outline word takes one of that spelling, whichever it is: which position serves is decided
  // only when a glued run needs one (below), so a run is not lost to a single word that any other
  // copy of its spelling serves as well.
  const free = new Map<string, number>()
  for (const word of outlineWords) free.set(word, (free.get(word) ?? 0) + 1)
  const take = (word: string, count = 1): boolean => {
    const left = free.get(word) ?? 0
    if (left < count) return false
    free.set(word, left - count)
    return true
  }
  const pageWords = words(visibleText)
  let keptWords = 0
  const missed: Array<string> = []
  const missedAt: Array<number> = []
  for (const [index, word] of pageWords.entries()) {
    if (take(word)) keptWords += 1
    else {
      missed.push(word)
      missedAt.push(index)
    }
  }
  // The other way round: neighbouring page words the outline prints glued as one word (two inline
  // spans "Elizabeth" "Raupach" that the page spaces by CSS).
  const kept = new Set<number>()
  for (let first = 0; first < missedAt.length; first++) {
    if (kept.has(first)) continue
    let spelled = missed[first]!
    for (let length = 2; length <= MAX_GLUED && first + length <= missedAt.length; length++) {
      const last = first + length - 1
      if (missedAt[last] !== missedAt[first]! + length - 1) break
      spelled += missed[last]!
      if (!take(spelled)) continue
      for (let index = first; index <= last; index++) kept.add(index)
      keptWords += length
      break
    }
  }
  const left = missed.filter((_, index) => !kept.has(index))
  const lost: Array<string> = []
  if (left.length > 0) {
    // Runs of neighbouring outline words (indexes into `readable`), glued, by their spelling. A run
    // takes its positions (each serves one run) and one word of each of its spellings.
    const glued = new Map<string, Array<number>>()
    for (let start = 0; start < readable.length; start++) {
      let spelled = outlineWords[readable[start]!]!
      for (let length = 2; length <= MAX_GLUED && start + length <= readable.length; length++) {
        spelled += outlineWords[readable[start + length - 1]!]!
        const list = glued.get(spelled)
        if (list === undefined) glued.set(spelled, [start * 32 + length])
        else list.push(start * 32 + length)
      }
    }
    const inRun = new Array<boolean>(outlineWords.length).fill(false)
    const positionsOf = (entry: number): Array<number> =>
      readable.slice(Math.floor(entry / 32), Math.floor(entry / 32) + (entry % 32))
    const fits = (run: ReadonlyArray<number>): boolean => {
      if (run.some((position) => inRun[position])) return false
      const needed = new Map<string, number>()
      for (const position of run) {
        const word = outlineWords[position]!
        needed.set(word, (needed.get(word) ?? 0) + 1)
      }
      return [...needed].every(([word, count]) => (free.get(word) ?? 0) >= count)
    }
    for (const word of left) {
      const run = glued.get(word)?.map(positionsOf).find(fits)
      if (run === undefined) {
        lost.push(word)
        continue
      }
      for (const position of run) {
        inRun[position] = true
        take(outlineWords[position]!)
      }
      keptWords += 1
    }
  }
  return {
    pageWords: pageWords.length,
    keptWords,
    recall: pageWords.length === 0 ? 1 : keptWords / pageWords.length,
    missed: lost,
  }
}

import { formName, isSubmit } from "./forms.ts"
import { boxOf, frameDocument } from "./frames.ts"
import {
  controlName,
  type Guess,
  generatedText,
  guessName,
  innerName,
  labelName,
  plainText,
  selectedText,
  unshownLabel,
} from "./names.ts"
import { textNotes } from "./notes.ts"
import { hasRef, hoistNode, itemsText, leaf, OWN_CONTENT, outOfName } from "./outline.ts"
import { optionsSuffix } from "./render.ts"
import {
  CONTAINERS,
  CONTENT_NAMED_CONTROLS,
  explicitRole,
  focusable,
  formRole,
  globalAria,
  gridTarget,
  hoverTarget,
  INLINE,
  INTERACTIVE,
  implicitRole,
  inGrid,
  NAME_FROM_CONTENT,
  NAMED_ONLY,
  outOfContext,
  presentational,
  REGION_OF,
  SKIP,
  WIDGET_GROUPS,
} from "./roles.ts"
import { isSecret } from "./secrets.ts"
import { attributesOf, frameEntry, selectorsOf } from "./selectors.ts"
import { statesOf } from "./states.ts"
import { clip, clipName, collapse, finishTexts, type JoinState, pushText, splitName } from "./text.ts"
import type { Frame, Item, Node, RawElement, RawForm, Text } from "./types.ts"
import { linkTarget } from "./urls.ts"
import { hiddenByStyle, takesNoSpace, visibleBox } from "./visibility.ts"

/*
 * The walk: one pass over the DOM (open shadow roots and same-origin iframes included) that builds
 * the outline tree, and beside it the actionable elements, the forms and the text notes of a look.
 */

/** Words in an id or class that mark a block as an error message. */
export const ERROR_HINT = /(^|[\s_-])(error|errors|invalid|danger|alert|flash|warning)($|[\s_-])/i
/** Words in an id or class that mark a list as search results or products. */
export const RESULTS_HINT = /result|product|listing|items|catalog|search-list/i
/** A card link's first parts join its name until the name is this long (a title, not a fragment). */
export const CARD_TITLE = 20

/** Whether an item holds text runs of its own (not only images' alternative texts). */
const holdsText = (item: Item): boolean =>
  typeof item === "string" ? item.trim() !== "" : item.tail.trim() !== "" || item.kids.some(holdsText)

/** Whether `text` has a word (letters and digits) that `name` does not. */
const wordsBeyond = (text: string, name: string): boolean => {
  const named = new Set(name.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [])
  for (const word of text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []) if (!named.has(word)) return true
  return false
}

/**
 * Roles of structure the view folds into the lines around it (an article, a list, a list item, a
 * quotation, a note, a row group, …): one the page names (`aria-label`, `aria-labelledby`) with
 * words its content does not show prints a line of its own, `- article "Sponsored": …`, its content
 * beneath, as a screen reader announces it. Named by words it shows (an article labelled by its own
 * headline), it folds as before: its content says the name.
 */
export const NAMED_STRUCTURE = new Set([
  "application",
  "article",
  "blockquote",
  "document",
  "feed",
  "list",
  "listitem",
  "marquee",
  "math",
  "note",
  "rowgroup",
  "timer",
])

/** Decoration roles whose content is no part of them (wai-aria: children presentational), named like structure. */
const NAMED_LEAVES = new Set(["separator", "scrollbar"])

/**
 * The name a structure element (see {@link NAMED_STRUCTURE}) prints by: the page's own label in
 * words the page shows nowhere (`aria-label`; `aria-labelledby` only to hidden nodes, see
 * `unshownLabel`), when it says something its text does not; else nothing, and the element folds
 * into the lines around it.
 */
export const structureName = (element: Element): string => {
  const label = unshownLabel(element)
  if (label === "") return ""
  // Its text as the DOM holds it: words of neighbouring blocks run together ("warningWinds"), so a
  // word of the label counts as shown wherever it stands in the text.
  const text = (element.textContent ?? "").toLowerCase()
  for (const word of label.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [])
    if (!text.includes(word)) return label
  return ""
}

/**
 * Whether a named structure's content already says its name: one control named with all its words
 * (a list item around the menu item it labels alike). Its line would say nothing more.
 */
const saidInside = (name: string, kids: ReadonlyArray<Item>): boolean => {
  const only = kids.length === 1 ? kids[0] : undefined
  return typeof only === "object" && only.ref !== "" && !only.container && !wordsBeyond(name, only.name)
}

/** Parts of an svg that are drawn only where something refers to them, never where they stand. */
const SVG_UNDRAWN = "defs,clipPath,mask,symbol,pattern,marker"

/**
 * The words an svg draws as text (a chart's labels and values, a map's place names), one run per
 * `<text>` element: none of a `<defs>`-like part, of an aria-hidden part, or styled away.
 */
const svgTexts = (svg: Element): string[] => {
  const runs: string[] = []
  for (const text of svg.querySelectorAll("text")) {
    const part = text.parentElement?.closest(`${SVG_UNDRAWN},[aria-hidden=true]`)
    if (part != null && svg.contains(part)) continue
    if (text.checkVisibility?.({ visibilityProperty: true }) === false) continue
    const words = collapse(text.textContent ?? "").trim()
    if (words !== "") runs.push(words)
  }
  return runs
}

export interface WalkOptions {
  readonly secretSelectors: ReadonlyArray<string>
  readonly maxText: number
  readonly maxName: number
  readonly maxOptions: number
  /** The page's address, for link targets relative to it. */
  readonly location: Pick<Location, "href" | "origin" | "pathname" | "search">
  /** Gives an element its ref and identity key (see `refAssigner`). */
  readonly assignRef: (element: Element, baseKey: string) => [ref: string, key: string]
}

/**
 * A walk for one look. Walk the body (or one element) into a list of items, pass that list through
 * `finish`, and read `elements`, `forms`, `texts` and `nodes()` after it.
 */
/** Links and buttons, whose names are read from their content. */
const NAMED_BY_CONTENT = "a[href],button,[role=button],[role=link]"

/** Containers a `title` names when nothing else does. */
const TITLED = new Set(["group", "region", "complementary"])

/**
 * Elements whose name speaks for the words inside them: words an aria-hidden part of one shows
 * (an icon's ligature, a visible abbreviation of the name) print as its name, not again as text.
 */
const NAMED_BY_WORDS = `${NAMED_BY_CONTENT},label,summary,h1,h2,h3,h4,h5,h6,[role=heading],[role=tab],[role=menuitem],[role=option],[role=checkbox],[role=radio],[role=switch],[role=treeitem]`

/** Characters of icon fonts (Unicode's private use area): a picture, not words. */
const ICON_GLYPHS = /[\uE000-\uF8FF]/g

export const createWalk = (walkOptions: WalkOptions) => {
  const { secretSelectors, maxText, maxName, maxOptions, location, assignRef } = walkOptions

  const elements: RawElement[] = []
  const forms: RawForm[] = []
  const formByElement = new Map<Element, RawForm>()
  const texts: Text[] = []
  const note = textNotes(texts)
  let nodes = 0
  const join: JoinState = { joinable: false, spaceNext: false, attachTo: null }
  /** Inside a control or heading named by its content, whose parts' CSS-generated words are read. */
  let namingControl = 0
  let region = "main"
  let heading = ""
  const context: string[] = []

  const walkChildren = (parent: globalThis.Node, out: Item[], frame: Frame, pointer: boolean): void => {
    if (parent.nodeType === 1 && (parent as Element).localName === "slot") {
      const assigned = (parent as HTMLSlotElement).assignedNodes({ flatten: true })
      if (assigned.length > 0) {
        for (const node of assigned) walkNode(node, out, frame, pointer)
        return
      }
    }
    for (let child = parent.firstChild; child !== null; child = child.nextSibling)
      walkNode(child, out, frame, pointer)
  }

  /** Walks what an element renders: its open shadow root when it has one, else its children. */
  const walkContent = (element: Element, out: Item[], frame: Frame, pointer: boolean): void => {
    const shadow = element.shadowRoot
    if (shadow === null) {
      walkChildren(element, out, frame, pointer)
      return
    }
    const inner: Frame = {
      x: frame.x,
      y: frame.y,
      path: [...frame.path, `${frameEntry(element, frame.root)}::shadow`],
      root: shadow,
    }
    walkChildren(shadow, out, inner, pointer)
  }

  const walkNode = (node: globalThis.Node, out: Item[], frame: Frame, pointer: boolean): void => {
    if (node.nodeType === 3) {
      const parent = node.parentElement
      if (parent !== null && hiddenText.has(parent)) return
      pushText(join, out, node.nodeValue ?? "")
      return
    }
    if (node.nodeType === 1) walkElement(node as Element, out, frame, pointer)
  }

  /** Words CSS generates before or after a part, as text of its own where they hold any. */
  const pushGenerated = (out: Item[], element: Element, pseudo: "::before" | "::after"): void => {
    const text = generatedText(element, pseudo)
    if (/[\p{L}\p{N}]/u.test(text)) pushText(join, out, text)
  }

  /** Elements styled visibility:hidden whose own text is hidden while their children may show. */
  const hiddenText = new WeakSet<Element>()

  const walkElement = (element: Element, out: Item[], frame: Frame, parentPointer: boolean): void => {
    const tag = element.localName
    // A rule (`<hr>`) is decoration, unless the page names it: then it is a separator with a line.
    if (
      (SKIP.has(tag) && !(tag === "hr" && labelName(element) !== "")) ||
      element.hasAttribute("hidden") ||
      element.hasAttribute("inert")
    )
      return
    // Checked at every depth: an aria-hidden part inside a control of an aria-hidden subtree still
    // stays out of the control's name.
    if (element.getAttribute("aria-hidden") === "true") {
      walkAriaHidden(element, out, frame, parentPointer)
      return
    }
    // An inline tag laid out as a box of its own (a span styled as a block, an inline-block) is
    // read apart from its neighbours: "Sleep" + "My Snoring" is two phrases, not "SleepMy".
    const style = getComputedStyle(element)
    const boxed = INLINE.has(tag) && style.display !== "inline"
    if (boxed) join.spaceNext = true
    walkElementBody(element, out, frame, parentPointer, style)
    if (boxed) join.spaceNext = true
  }

  /**
   * What a reader sees of an aria-hidden subtree (a consent banner a script forgot to unhide, the
   * page behind a modal, a teaser the page labels elsewhere): its controls, kept apart from the name
   * of what holds them, and its words as the page shows them. Inside a control or a heading the
   * words stay out: its name speaks for them (an icon font's ligature, "DE" beside "Deutsch").
   */
  const walkAriaHidden = (element: Element, out: Item[], frame: Frame, parentPointer: boolean): void => {
    const kids: Item[] = []
    const textsBefore = texts.length
    walkElementBody(element, kids, frame, parentPointer)
    texts.length = textsBefore
    const named = element.parentElement?.closest(NAMED_BY_WORDS) != null
    const keep = (items: ReadonlyArray<Item>): void => {
      for (const item of items) {
        if (typeof item === "string") {
          const words = item.replace(ICON_GLYPHS, "")
          if (!named && /[\p{L}\p{N}]/u.test(words)) out.push(words)
          continue
        }
        if (item.ref !== "" && !item.container) {
          if (named) item.tail = ""
          item.ariaHidden = true
          out.push(item)
        } else if (named) keep(item.kids)
        else out.push(item)
      }
    }
    keep(kids)
    join.joinable = false
    join.attachTo = null
  }

  const walkElementBody = (
    element: Element,
    out: Item[],
    frame: Frame,
    parentPointer: boolean,
    style: CSSStyleDeclaration = getComputedStyle(element),
  ): void => {
    const tag = element.localName
    nodes++
    const display = style.display
    if (display === "none") return
    // An element laid out as `display: contents` has no box of its own and reads as what it holds;
    // a control laid out so (a link around a card) is still read as the control.
    const contents = display === "contents"
    if (contents && !INTERACTIVE.has(explicitRole(element) || implicitRole(element, tag))) {
      walkContent(element, out, frame, parentPointer)
      return
    }
    const pointer = style.cursor === "pointer"
    if (hiddenByStyle(style)) {
      hiddenText.add(element)
      walkContent(element, out, frame, pointer)
      return
    }
    if (tag === "svg") {
      const label = labelName(element)
      // A picture the page marks presentational is decoration: its <title> names nothing (ARIA's
      // conflict rule keeps the role of one it labels or makes focusable).
      const decoration = !label && presentational(element, tag)
      const name =
        label || (decoration ? "" : collapse(element.querySelector("title")?.textContent ?? "").trim())
      if (name) {
        if (hoverTarget(element)) {
          const node = buildNode(element, tag, "img", frame, pointer)
          if (node !== undefined) out.push(node)
        } else
          out.push({
            ...leaf("img", "img", name, ""),
            ...(label ? { named: true } : { icon: true }),
            source: element,
          })
      }
      // The words it draws are text a reader sees, beside what names it (a chart's labels).
      // Each run is a label of its own, apart from the words around the svg.
      for (const run of svgTexts(element))
        if (wordsBeyond(run, name)) {
          join.joinable = false
          join.attachTo = null
          pushText(join, out, run)
          join.joinable = false
        }
      return
    }
    if (!contents && takesNoSpace(element, tag, style)) return

    let role = explicitRole(element) || implicitRole(element, tag)
    if (role === "hidden") return
    // A page cannot make a focusable element presentational (ARIA's conflict rule): a link marked
    // role=presentation still takes focus and a click, so it keeps the role its tag gives it.
    // Nor one that carries a global ARIA attribute (a label, a description): it keeps its own role.
    if (role === "presentation" || role === "none")
      role = focusable(element, tag) || globalAria(element) ? implicitRole(element, tag) : ""
    if (role !== "" && outOfContext(element, role, tag)) role = implicitRole(element, tag)
    if (role === "form" && tag !== "form") role = formRole(element, tag)
    // A native control a user acts on (a link, a button, a field) keeps a role with a ref: an ARIA
    // role that would make it text or a box (a heading, an image, a list item, a row) gives way to
    // the role its tag gives it.
    if (role !== "" && !INTERACTIVE.has(role) && role !== "separator" && role !== "scrollbar") {
      const native = implicitRole(element, tag)
      if (INTERACTIVE.has(native) && focusable(element, tag)) role = native
    }
    if (role === "presentation" || role === "none") role = ""
    if (role === "" && (element as HTMLElement).isContentEditable) {
      const parent = element.parentElement
      if (parent === null || !parent.isContentEditable) role = "textbox"
    }
    if (
      role === "" ||
      role === "generic" ||
      role === "paragraph" ||
      role === "article" ||
      role === "blockquote" ||
      role === "math"
    ) {
      const tabindex = element.getAttribute("tabindex")
      if (
        (pointer && !parentPointer && tag !== "label" && tag !== "body" && tag !== "html") ||
        element.hasAttribute("onclick") ||
        (tabindex !== null && Number(tabindex) >= 0 && tag !== "body")
      )
        role = "clickable"
    } else if (
      (role === "listitem" || (role === "row" && !inGrid(element))) &&
      element.hasAttribute("tabindex") &&
      (element as HTMLElement).tabIndex >= 0 &&
      element.getAttribute("aria-disabled") !== "true"
    )
      // A list item or table row the page makes focusable (an inbox's message, `<li tabindex="0">`
      // with a click handler) is one a user reaches with Tab and presses, as a focusable box is.
      role = "clickable"

    const block = !INLINE.has(tag) || role !== ""
    if (block) join.joinable = false
    if (!INLINE.has(tag)) join.attachTo = null

    if (tag === "iframe") {
      walkFrame(element as HTMLIFrameElement, out, frame, style)
      join.joinable = false
      return
    }
    if (tag === "details" && !(element as HTMLDetailsElement).open) {
      const summary = element.querySelector(":scope > summary")
      if (summary !== null) walkElement(summary, out, frame, pointer)
      join.joinable = false
      return
    }
    if ((tag === "caption" || tag === "legend") && !element.parentElement?.hasAttribute("aria-label")) return
    if (tag === "br") {
      join.joinable = false
      join.attachTo = null
      return
    }

    if (
      role === "" ||
      role === "list" ||
      role === "listitem" ||
      role === "rowgroup" ||
      role === "paragraph" ||
      role === "blockquote" ||
      role === "math"
    ) {
      const saveRegion = region
      if (
        role === "list" &&
        region === "main" &&
        (RESULTS_HINT.test(`${element.id} ${element.getAttribute("class") ?? ""}`) ||
          element.children.length >= 3 ||
          context.some((entry) => /result/i.test(entry)))
      )
        enterResults(element)
      else if (ERROR_HINT.test(`${element.id} ${element.getAttribute("class") ?? ""}`)) region = "alert"
      else if (region === "main" && RESULTS_HINT.test(element.id)) region = "results"
      const label = role === "" ? element.getAttribute("aria-label")?.trim() : undefined
      const structure = namingControl === 0 && NAMED_STRUCTURE.has(role) ? structureName(element) : ""
      if (structure !== "") walkNamedStructure(element, role, structure, out, frame, pointer)
      else if (
        label &&
        ((element.textContent ?? "").trim() === "" ||
          element.parentElement?.closest(NAMED_BY_CONTENT) != null) &&
        element.querySelector(
          "a[href],button,input,select,textarea,iframe,[role],[tabindex],[aria-label]",
        ) === null
      ) {
        // An empty box the page labels (a logo, an icon font glyph) reads as its label, as a screen
        // reader reads it, and a control around it is named by it. Inside a link or button the
        // label speaks for whatever the box holds (`Next <span aria-label="page">→</span>` is
        // "Next page"), as the accessible-name computation reads a descendant by its aria-label.
        join.spaceNext = true
        pushText(join, out, label)
        join.spaceNext = true
        // The words the box shows in its label's place (a time labelled with its ISO date shows
        // "21:31") stay readable: they print beneath the control, outside its name.
        const shown = collapse(element.textContent ?? "").trim()
        if (wordsBeyond(shown, label)) {
          out.push({ ...hoistNode([shown]), ownContent: true })
          join.joinable = false
        }
      } else if (tag === "label" && (element as HTMLLabelElement).control)
        walkLabel(element as HTMLLabelElement, out, frame, pointer)
      else if (namingControl > 0) {
        // Inside a control or heading named by its content, the words CSS generates around a part
        // are part of its name (`<a><span class="new">Offers</span></a>`, `.new::before { content: "New: " }`).
        pushGenerated(out, element, "::before")
        walkContent(element, out, frame, pointer)
        pushGenerated(out, element, "::after")
      } else walkContent(element, out, frame, pointer)
      region = saveRegion
      if (block) join.joinable = false
      if (!INLINE.has(tag)) join.attachTo = null
      return
    }

    const saveRegion = region
    const saveHeading = heading
    const contextLength = context.length
    const nextRegion = REGION_OF[role]
    if (nextRegion !== undefined) region = nextRegion
    else if (element.getAttribute("aria-live") === "assertive") region = "alert"
    if ((role === "table" || role === "grid" || role === "treegrid" || role === "feed") && region === "main")
      enterResults(element)
    const node = buildNode(
      element,
      tag,
      role,
      frame,
      pointer,
      gridTarget(element, role, pointer && !parentPointer),
    )
    if (node !== undefined) out.push(node)
    region = saveRegion
    context.length = contextLength
    if (node?.heading !== true) heading = saveHeading
    join.joinable = false
    join.attachTo =
      node !== undefined && INLINE.has(tag) && node.kids.length === 0 && !node.container ? node : null
  }

  /**
   * A list, list item, row group, quotation or formula the page names with words its text does not
   * show (see {@link NAMED_STRUCTURE}): a line of its own, its content beneath.
   */
  const walkNamedStructure = (
    element: Element,
    role: string,
    name: string,
    out: Item[],
    frame: Frame,
    pointer: boolean,
  ): void => {
    const walked: Item[] = []
    walkContent(element, walked, frame, pointer)
    const kids = finish(walked)
    // Nothing shown inside: a name of nothing (an empty list a script fills later) prints no line.
    if (kids.length === 0 || saidInside(name, kids)) {
      out.push(...kids)
      return
    }
    out.push({
      ...leaf(role, role, clipName(name, maxName), ""),
      kids,
      container: true,
      named: true,
      source: element,
    })
    join.joinable = false
    join.attachTo = null
  }

  const enterResults = (element: Element): void => {
    const rows = element.querySelectorAll(
      ":scope > li, :scope > tr, :scope > tbody > tr, :scope > [role=listitem], :scope > [role=row], :scope > [role=article], :scope > article",
    )
    let count = 0
    for (const row of rows) if (row.querySelector("th") === null || row.querySelector("td") !== null) count++
    if (count > 0) {
      region = "results"
      let label = labelName(element)
      for (let index = context.length - 1; index >= 0 && !label; index--)
        label = context[index]!.slice(context[index]!.indexOf(":") + 1)
      texts.push(["results", "count", label || heading, count])
    }
  }

  const walkLabel = (label: HTMLLabelElement, out: Item[], frame: Frame, pointer: boolean): void => {
    const kids: Item[] = []
    walkChildren(label, kids, frame, pointer)
    const control = label.control
    const name = control === null ? "" : controlName(control, control.localName)
    for (const kid of kids) {
      if (typeof kid === "string" && name.includes(kid.trim())) continue
      out.push(kid)
    }
  }

  const walkFrame = (
    iframe: HTMLIFrameElement,
    out: Item[],
    frame: Frame,
    style: CSSStyleDeclaration,
  ): void => {
    const document = frameDocument(iframe)
    const name = labelName(iframe) || collapse(iframe.title || iframe.name || "").trim()
    const node = leaf("iframe", "iframe", name, "")
    if (document?.body == null) {
      // Its content is out of reach; the line says it is there and whose it is, without a ref
      // nothing could use.
      let source = ""
      try {
        source = new URL(iframe.src).host.replace(/^www\./, "")
      } catch {
        source = ""
      }
      node.suffix = source === "" ? " (cross-origin)" : ` (cross-origin: ${source})`
      out.push(node)
      return
    }
    const [ref] = assignRef(iframe, `iframe|${name}|${context.join("/")}`)
    node.ref = ref
    const rect = iframe.getBoundingClientRect()
    const inner: Frame = {
      x: frame.x + rect.x + iframe.clientLeft + Number.parseFloat(style.paddingLeft || "0"),
      y: frame.y + rect.y + iframe.clientTop + Number.parseFloat(style.paddingTop || "0"),
      path: [...frame.path, frameEntry(iframe, frame.root)],
      root: document,
    }
    const contextLength = context.length
    context.push(`iframe:${name}`)
    node.container = true
    walkChildren(document.body, node.kids, inner, false)
    node.kids = finish(node.kids)
    context.length = contextLength
    if (node.kids.length > 0) out.push(node)
  }

  /**
   * One element's node. `gridPart` marks a grid's row or cell a user acts on (see `gridTarget`): it
   * gets a ref as a control does.
   */
  const buildNode = (
    element: Element,
    tag: string,
    role: string,
    frame: Frame,
    pointer: boolean,
    gridPart = false,
  ): Node | undefined => {
    // A separator or scrollbar that takes focus is a widget (a splitter a user drags), not decoration.
    const interactive =
      gridPart ||
      INTERACTIVE.has(role) ||
      (role === "img" && hoverTarget(element)) ||
      ((role === "separator" || role === "scrollbar") && focusable(element, tag))
    const containerLabel = CONTAINERS[role]
    let name = ""
    let suffix = ""
    let kids: Item[] = []
    const secret = interactive && isSecret(element, secretSelectors)

    const isControl = tag === "input" || tag === "select" || tag === "textarea"
    if (isControl) name = controlName(element, tag)
    else name = labelName(element)
    const opaque = isControl || role === "textbox" || role === "slider" || role === "spinbutton"
    let form: RawForm | undefined
    let containerRef = ""
    let contentName = false
    /** Named by a legend or caption: words the page shows, which the walk leaves out of its content. */
    let shownName = false
    /** Printed by the page's own label, on a line of its own (see {@link NAMED_STRUCTURE}). */
    let named = false
    if (!opaque) {
      if (containerLabel !== undefined) {
        if (!name && tag === "fieldset") {
          const legend = element.querySelector(":scope > legend")
          if (legend !== null) name = plainText(legend)
          shownName = name !== ""
        }
        if (!name && role === "table") {
          const caption = element.querySelector(":scope > caption")
          if (caption !== null) name = plainText(caption)
          shownName = name !== ""
        }
        // A group (a `role=group`, a fieldset without a legend), a region or an aside is named by
        // its title last.
        if (!name && TITLED.has(role)) name = collapse(element.getAttribute("title") ?? "").trim()
        if (
          NAMED_ONLY.has(role) &&
          !name &&
          !(role === "group" && element.parentElement?.closest(WIDGET_GROUPS))
        ) {
          const hoisted = hoist(element, frame, pointer)
          if (hoisted !== undefined && OWN_CONTENT.has(role)) hoisted.ownContent = true
          return hoisted
        }
        const [assigned, key] = assignRef(element, `${role}|${name}|${context.join("/")}`)
        containerRef = assigned
        if (role === "form" || tag === "form") {
          form = { key, ref: assigned, name: name || formName(element), fields: [], submit: undefined }
          forms.push(form)
          formByElement.set(element, form)
        }
        context.push(`${role}:${name}`)
      }
      const saveJoinable = join.joinable
      join.joinable = false
      if (role === "img") {
        // The page's label says what the image is: it prints even where the words beside it say the same.
        named = name !== ""
        // An empty alt says nothing, and the tooltip names the image (accname 1.2, 2I).
        if (!name) name = collapse(element.getAttribute("alt") || element.getAttribute("title") || "").trim()
        if (!name && tag === "svg")
          name = collapse(element.querySelector(":scope > title")?.textContent ?? "").trim()
        if (!name) return undefined
      } else {
        const naming = CONTENT_NAMED_CONTROLS.has(role) || role === "heading"
        if (naming) namingControl++
        try {
          walkContent(element, kids, frame, pointer)
        } finally {
          if (naming) namingControl--
        }
      }
      join.joinable = saveJoinable
      kids = role === "row" ? kids : finish(kids, !interactive && role !== "heading")
      if (!name && NAME_FROM_CONTENT.has(role)) {
        // A control is named by all its content, nested links and buttons included, as the
        // accessible-name computation does (a card button or option holding its headline link is
        // named by the headline too, and `aria/` locators find it by that name). A cell, heading,
        // tree item or a block that only listens for clicks is named by its own text; the controls
        // inside it are printed beneath it.
        name =
          (CONTENT_NAMED_CONTROLS.has(role)
            ? itemsText(kids, false, true)
            : itemsText(
                kids.filter((kid) => typeof kid === "string" || !hasRef([kid])),
                false,
                true,
              )
          ).trim() || itemsText(kids, true, true).trim()
        // Text a page prints twice inside one control (a visible label and a hidden copy) names it once.
        name = name.replace(/^(.{2,}?) \1$/su, "$1")
        // Words CSS generates before and after the element are part of what it says.
        const before = generatedText(element, "::before")
        const after = generatedText(element, "::after")
        if (/[\p{L}\p{N}]/u.test(before + after)) name = collapse(`${before}${name}${after}`).trim()
        contentName = true
      }
      // A control whose content is only a pictograph ("⚙", "×") is named by its title, which says
      // in words what the symbol means.
      const title = collapse(element.getAttribute("title") ?? "").trim()
      if (title && (!name || (contentName && !/[\p{L}\p{N}]/u.test(name)))) name = title
    }
    // A grid's row a user acts on is named by the words of its cells, which print on its line.
    if (!name && role === "row" && interactive) name = itemsText(kids, false).trim()
    let guess: Guess | undefined
    if (!name && interactive && !isControl) {
      name = innerName(element)
      if (!name) guess = guessName(element, tag)
    }
    const longName = name.length > maxName
    const fullName = name
    name = clipName(name, maxName)

    const {
      words: states,
      checked,
      selected,
      expanded,
      pressed,
      disabled,
      required,
      invalid,
    } = statesOf(element, tag, role, isControl, interactive)
    let value: string | undefined
    let options: string[] | undefined
    if (role === "heading") {
      const level = /^h([1-6])$/.exec(tag)?.[1] ?? element.getAttribute("aria-level") ?? "2"
      // A long heading is named by its start, cut at a word; the rest of its words follow under it.
      let rest = ""
      if (longName) {
        const space = fullName.lastIndexOf(" ", maxName)
        const cut = space > maxName / 2 ? space : maxName
        name = `${fullName.slice(0, cut).trimEnd()}…`
        rest = clip(fullName.slice(cut).trim(), maxText)
      }
      heading = name
      if (name) note(region, "heading", name)
      return {
        role,
        label: `h${level}`,
        name,
        ref: "",
        suffix: "",
        url: "",
        tail: "",
        kids: [
          ...(rest === "" ? [] : [rest]),
          ...(hasRef(kids) ? kids.filter((kid) => typeof kid !== "string") : []),
        ],
        container: false,
        heading: true,
        ...(longName ? { whole: fullName } : {}),
        source: element,
      }
    }

    if (tag === "input" || tag === "textarea") {
      const input = element as HTMLInputElement
      const type = input.type
      if (type === "file") {
        states.push("file")
        value = Array.from(input.files ?? [], (file) => file.name).join(", ")
      } else if (
        role === "textbox" ||
        role === "searchbox" ||
        role === "combobox" ||
        role === "spinbutton" ||
        role === "slider"
      )
        value = input.value
    } else if (tag === "select") {
      const select = element as HTMLSelectElement
      value = selectedText(select)
      options = Array.from(select.options, (option) => collapse(option.label || option.text).trim())
    } else if (role === "textbox" && (element as HTMLElement).isContentEditable) {
      value = collapse(element.textContent ?? "").trim()
    } else if (role === "slider" || role === "spinbutton" || role === "progressbar" || role === "meter") {
      value = element.getAttribute("aria-valuetext") ?? element.getAttribute("aria-valuenow") ?? undefined
      if (value === undefined && (tag === "progress" || tag === "meter"))
        value = String((element as HTMLProgressElement).value)
    } else if (role === "combobox") {
      if (hasRef(kids)) kids = kids.filter((kid) => typeof kid !== "string")
      else {
        value = itemsText(kids).trim()
        kids = []
      }
    } else if (role === "listbox") {
      options = []
      for (const kid of kids) if (typeof kid !== "string" && kid.role === "option") options.push(kid.name)
    }
    if (secret && value) value = "<secret>"

    const [url, target] =
      (tag === "a" || tag === "area") && (role === "link" || interactive) && element.hasAttribute("href")
        ? linkTarget((element as HTMLAnchorElement).href, location)
        : ["", ""]

    for (const state of states) suffix += ` [${state}]`
    if (value) suffix += `: ${clip(collapse(value), maxText)}`

    let ref = ""
    let container = false
    // A row's cells stay its kids: they print on its line.
    if (interactive && role !== "clickable" && role !== "row") {
      // A card whose parts sit in one block (an <article> inside the link) reads as those parts:
      // named by its title, the rest beneath, not by a run of all its words cut in mid-sentence.
      const only = kids.length === 1 ? kids[0] : undefined
      if (
        contentName &&
        longName &&
        typeof only === "object" &&
        only.role === "" &&
        only.ref === "" &&
        only.ownContent !== true &&
        only.tail === "" &&
        only.kids.length > 1
      )
        kids = only.kids
      if (hasRef(kids) && contentName && longName) {
        // A card holding controls of its own (an ad's close and report buttons): named by its first
        // words, as a card is; the controls and the rest of its words print beneath it.
        const [title, rest] = takeTitle(kids)
        if (title !== "") {
          name = `${clipName(title, maxName).replace(/…$/, "")}…`
          kids = rest
        } else kids = kids.filter((kid) => typeof kid !== "string")
      } else if (hasRef(kids))
        // Words inside are in the name when it was read from them; a listbox or a labelled control
        // keeps the words its name does not hold ("Suggested users" between a listbox's options).
        kids = kids.filter((kid) => typeof kid !== "string" || (!contentName && !name.includes(kid)))
      else if (contentName && longName && kids.length > 1) {
        // A link or button around a whole card: named by its title — its first parts, as many as
        // make a phrase (a fragment like "Welcome to" takes what follows it) — the rest stays readable.
        let taken = 1
        let title = itemsText(kids.slice(0, 1))
        while (taken < kids.length && title.length < CARD_TITLE) {
          const longer = itemsText(kids.slice(0, taken + 1))
          if (longer.length > maxName) break
          title = longer
          taken++
        }
        // The "…" says the name goes on: the rest of the card follows under it. A first part longer
        // than a name (a time glued to a long headline) is cut at a word, its rest printed first.
        const [head, over] =
          title.replace(/…$/, "").length > maxName ? splitName(title, maxName) : [title, ""]
        name = `${head.replace(/…$/, "")}…`
        // A heading taken into the title keeps the words its own name had to leave out.
        const leftOver = kids
          .slice(0, taken)
          .flatMap((kid) => (typeof kid !== "string" && kid.heading ? kid.kids : []))
        kids = [...(over === "" ? [] : [over]), ...leftOver, ...kids.slice(taken)]
      } else if (contentName && longName) {
        // One long run of words (a product title, a headline that goes on): named by its start, cut
        // at a word, the "…" saying it goes on; the rest follows under it so nothing a reader sees is lost.
        const space = fullName.lastIndexOf(" ", maxName)
        const cut = space > maxName / 2 ? space : maxName
        name = `${fullName.slice(0, cut).trimEnd()}…`
        const rest = fullName.slice(cut).trim()
        kids = rest === "" ? [] : [rest]
      } else if (!contentName && name !== "" && wordsBeyond(itemsText(kids), name))
        // A label that stands for more than it says (a link labelled by its headline around a
        // teaser): the words a reader sees print beneath it; those the label repeats do not.
        kids = kids
          .map((kid) =>
            typeof kid === "string" && kid.startsWith(name) ? kid.slice(name.length).trim() : kid,
          )
          .filter((kid) => typeof kid !== "string" || wordsBeyond(kid, name))
      // What the name leaves out stays beneath it when it holds words a reader sees and the name
      // does not say (a figure's caption); a figure of images alone would only repeat the name.
      else
        kids = kids.filter(
          (kid) =>
            typeof kid !== "string" &&
            outOfName(kid) &&
            kid.ariaHidden !== true &&
            holdsText(kid) &&
            wordsBeyond(itemsText([kid]), name),
        )
    }
    if (role === "clickable") {
      // A focusable block that holds a chapter (tabindex for keyboard scrolling) is read, not pressed.
      if (hasRef(kids) || !name || (contentName && longName))
        return kids.length > 0 ? hoistNode(kids) : undefined
      kids = []
    }
    if (interactive) {
      // A guess tells apart unnamed controls of one role, as their names would.
      const [assigned, key] = assignRef(
        element,
        `${role}|${name || (guess?.words ?? "")}|${context.join("/")}|${heading}`,
      )
      ref = assigned
      if (options !== undefined) {
        suffix += optionsSuffix(options, maxOptions, ref)
      }
      const owner = formOf(element, role)
      const raw: RawElement = {
        ref,
        key,
        role,
        name,
        ...(guess === undefined ? {} : { guess }),
        tag,
        attributes: attributesOf(element, secret),
        visible: true,
        box: boxOf(element, frame),
        selectors: selectorsOf(element, frame.root),
        ...(frame.path.length > 0 ? { frame: frame.path } : {}),
        region,
      }
      raw.visible = visibleBox(raw.box)
      if (value !== undefined) raw.value = value
      if (checked !== undefined) raw.checked = checked
      if (selected !== undefined) raw.selected = selected
      if (expanded !== undefined) raw.expanded = expanded
      if (pressed !== undefined) raw.pressed = pressed
      if (disabled) raw.disabled = true
      if (required) raw.required = true
      if (invalid) raw.invalid = true
      if (options !== undefined) raw.options = options
      if (owner !== undefined) {
        raw.form = owner.key
        owner.fields.push(ref)
        if (owner.submit === undefined && isSubmit(element, tag)) owner.submit = ref
      }
      elements.push(raw)
    } else if (containerLabel !== undefined) {
      // An empty tab panel still says where the selected tab's content goes (it is loading, or empty);
      // a fieldset of its legend alone (a table of its caption) still shows those words: its line.
      if (kids.length === 0 && form === undefined && role !== "tabpanel" && !shownName) return undefined
      container = true
      ref = containerRef
    } else if (
      role === "row" ||
      role === "cell" ||
      role === "columnheader" ||
      role === "rowheader" ||
      role === "gridcell"
    ) {
      if (role === "row") kids = kids.filter((kid) => typeof kid !== "string" || kid.trim() !== "")
      container = true
      // A row or cell the page names with words its content does not show says that name.
      const label = namingControl === 0 ? structureName(element) : ""
      if (label !== "" && !saidInside(label, kids)) {
        name = clipName(label, maxName)
        named = true
      }
    } else if (role === "img") {
      // an image is a leaf with its alternative text
    } else if (role === "progressbar" || role === "meter" || role === "status" || role === "tooltip") {
      // value-bearing leaves keep their suffix
    } else {
      // A separator or scrollbar the page names: a line with its name, its content no part of it.
      // An article, a note, a quotation the page names: a line of its own, its content beneath.
      const leaves = NAMED_LEAVES.has(role)
      const label =
        namingControl > 0
          ? ""
          : leaves
            ? unshownLabel(element)
            : NAMED_STRUCTURE.has(role)
              ? structureName(element)
              : ""
      if (label === "" || (!leaves && (kids.length === 0 || saidInside(label, kids)))) {
        if (kids.length === 0) return undefined
        return hoistNode(kids)
      }
      name = clipName(label, maxName)
      named = true
      if (leaves) kids = []
      else container = true
    }
    if (role === "alert" || role === "status") {
      const text = itemsText(kids).trim()
      if (text) note(region, "alert", text)
    }
    const label = containerLabel ?? role
    return {
      role,
      label,
      name,
      ref,
      suffix,
      url: url === name ? "" : url,
      ...(target ? { target } : {}),
      tail: "",
      kids,
      container,
      heading: false,
      ...(guess === undefined ? {} : { guess }),
      ...(contentName && interactive ? { ownWords: true } : {}),
      ...(named ? { named: true } : {}),
      ...(ref === "" ? { source: element } : {}),
    }
  }

  /**
   * A card's title: its first words (text runs, parts and the names of controls, in order, through
   * the wrappers that hold them) until they make a phrase. The words taken leave the card's kids;
   * its controls stay where they are.
   */
  const takeTitle = (kids: ReadonlyArray<Item>): [title: string, rest: Item[]] => {
    let title = ""
    let done = false
    /** Words of a first part too long for the title, which print beneath it (see `splitName`). */
    let over = ""
    /** Adds words to the title unless the title is done or they would make it too long. */
    const add = (words: string): boolean => {
      if (done || words === "") return false
      if (title === "" && words.length > maxName) {
        ;[title, over] = splitName(words, maxName)
        done = true
        return true
      }
      const longer = title === "" ? words : `${title} ${words}`
      if (title !== "" && longer.length > maxName) {
        done = true
        return false
      }
      title = longer
      if (title.length >= CARD_TITLE) done = true
      return true
    }
    const takeOver = (): string => {
      const words = over
      over = ""
      return words
    }
    const take = (items: ReadonlyArray<Item>): Item[] => {
      const rest: Item[] = []
      for (const item of items) {
        if (done) rest.push(item)
        else if (typeof item === "string") {
          if (!add(item.trim())) rest.push(item)
          else if (over !== "") rest.push(takeOver())
        } else if (!hasRef([item])) {
          if (!add(itemsText([item], false).trim())) rest.push(item)
          else if (over !== "") rest.push(takeOver())
        } else if (item.role === "" && item.ref === "") {
          const inner = take(item.kids)
          if (inner.length > 0) rest.push({ ...item, kids: inner })
        } else {
          // A control's name is part of the title (a card button around its headline link) but the
          // control stays beneath it; words that follow it in the line of prose can be the title's too.
          add(itemsText([{ ...item, tail: "" }], false).trim())
          // The control prints beneath with all its name: no words of it are lost.
          over = ""
          const tail = item.tail
          if (tail !== "" && add(tail)) {
            rest.push({ ...item, tail: "" })
            if (over !== "") rest.push(takeOver())
          } else rest.push(item)
        }
      }
      return rest
    }
    const rest = take(kids)
    return [title, rest]
  }

  const hoist = (element: Element, frame: Frame, pointer: boolean): Node | undefined => {
    const kids: Item[] = []
    walkContent(element, kids, frame, pointer)
    const finished = finish(kids)
    return finished.length > 0 ? hoistNode(finished) : undefined
  }

  const formOf = (element: Element, role: string): RawForm | undefined => {
    if (role === "link" || role === "tab" || role === "menuitem") return undefined
    const owner = (element as HTMLInputElement).form ?? element.closest("form,[role=form]")
    return owner ? formByElement.get(owner) : undefined
  }

  /** Trims and clips a finished list's text runs, noting them in the current region. */
  const finish = (items: ReadonlyArray<Item>, record = true): Item[] =>
    finishTexts(items, maxText, (text) => note(region, "text", text), record)

  return { walkChildren, walkElement, finish, elements, forms, texts, nodes: (): number => nodes }
}

/**
 * The in-page half of perception. `installPageRuntime` is serialised with
 * `Function.prototype.toString` and evaluated inside the page, so it must stay self-contained:
 * no imports, no references to anything outside its own body, only syntax that Node's type
 * stripping and tsc both turn into plain JavaScript (no enums, namespaces or parameter properties).
 *
 * It installs `globalThis.__sextant` with `look`, `resolve` and `act`. `look` answers one JSON
 * string (see `RawSnapshot` in `RawSnapshot.ts` for its shape) because WebDriver serialises one
 * string far faster than an object tree.
 */
export function installPageRuntime(version: number): void {
  interface LookOptions {
    readonly mode?: "full" | "interactive"
    readonly within?: string
    readonly secretSelectors?: ReadonlyArray<string>
    readonly maxTextLength?: number
    readonly maxNameLength?: number
    readonly maxOptions?: number
  }
  /** One node of the outline before rendering. Plain text runs are strings. */
  interface Node {
    role: string
    label: string
    name: string
    ref: string
    suffix: string
    url: string
    /** Text that follows an inline node in the same line of prose. */
    tail: string
    kids: Item[]
    container: boolean
    heading: boolean
    /** An svg named only by its `<title>`: an icon, left out of a name read from content beside words. */
    icon?: boolean
    /** A control kept from an aria-hidden subtree: shown, but no part of the name of what holds it. */
    ariaHidden?: boolean
  }
  type Item = string | Node
  interface RawElement {
    ref: string
    key: string
    role: string
    name: string
    tag: string
    attributes: Record<string, string>
    value?: string
    checked?: boolean | "mixed"
    selected?: boolean
    expanded?: boolean
    disabled?: boolean
    required?: boolean
    invalid?: boolean
    visible: boolean
    box: { x: number; y: number; width: number; height: number }
    options?: string[]
    selectors: string[]
    frame?: string[]
    form?: string
    region: string
  }
  interface RawForm {
    key: string
    ref: string
    name: string
    fields: string[]
    submit?: string
  }
  interface RefEntry {
    element: WeakRef<Element>
    key: string
  }
  interface RefState {
    counter: number
    byElement: WeakMap<Element, string>
    byRef: Map<string, RefEntry>
    byKey: Map<string, string>
  }
  interface Frame {
    /** Offset of this document's viewport in the top-level viewport. */
    x: number
    y: number
    path: string[]
    root: Document | ShadowRoot
  }
  type Text = [region: string, kind: string, text: string, count?: number]

  const host = globalThis as unknown as { __sextant?: { version: number } }
  if (host.__sextant !== undefined && host.__sextant.version >= version) return

  const state: RefState = { counter: 0, byElement: new WeakMap(), byRef: new Map(), byKey: new Map() }

  const SKIP = new Set([
    "script",
    "style",
    "noscript",
    "template",
    "head",
    "meta",
    "link",
    "title",
    "base",
    "param",
    "source",
    "track",
    "datalist",
    "hr",
  ])
  const INLINE = new Set([
    "a",
    "abbr",
    "b",
    "bdi",
    "bdo",
    "cite",
    "code",
    "data",
    "del",
    "dfn",
    "em",
    "font",
    "i",
    "ins",
    "kbd",
    "label",
    "mark",
    "q",
    "s",
    "samp",
    "small",
    "span",
    "strong",
    "sub",
    "sup",
    "time",
    "tt",
    "u",
    "var",
  ])
  const INTERACTIVE = new Set([
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
    "tab",
    "menuitem",
    "menuitemcheckbox",
    "menuitemradio",
    "treeitem",
    "clickable",
  ])
  /** Containers that keep a line of their own, with the short label the outline prints. */
  const CONTAINERS: Record<string, string> = {
    banner: "header",
    navigation: "nav",
    main: "main",
    contentinfo: "footer",
    complementary: "aside",
    search: "search",
    form: "form",
    region: "region",
    dialog: "dialog",
    alertdialog: "dialog",
    alert: "alert",
    status: "status",
    log: "log",
    menu: "menu",
    menubar: "menubar",
    tablist: "tablist",
    tabpanel: "tabpanel",
    radiogroup: "radiogroup",
    group: "group",
    tree: "tree",
    table: "table",
    grid: "grid",
    treegrid: "grid",
    toolbar: "toolbar",
    iframe: "iframe",
    figure: "figure",
  }
  /** Containers shown only when they carry a name. */
  const NAMED_ONLY = new Set(["region", "group", "toolbar", "figure"])
  const REGION_OF: Record<string, string> = {
    banner: "header",
    navigation: "nav",
    main: "main",
    contentinfo: "footer",
    dialog: "modal",
    alertdialog: "modal",
    alert: "alert",
  }
  const NAME_FROM_CONTENT = new Set([
    "button",
    "link",
    "heading",
    "cell",
    "columnheader",
    "rowheader",
    "gridcell",
    "option",
    "tab",
    "menuitem",
    "menuitemcheckbox",
    "menuitemradio",
    "treeitem",
    "switch",
    "checkbox",
    "radio",
    "clickable",
    "tooltip",
  ])
  /** Controls named by all their content, the controls inside them included. */
  const CONTENT_NAMED_CONTROLS = new Set([
    "button",
    "link",
    "option",
    "tab",
    "menuitem",
    "menuitemcheckbox",
    "menuitemradio",
    "switch",
    "checkbox",
    "radio",
  ])
  const ROLES = new Set([
    ...INTERACTIVE,
    ...Object.keys(CONTAINERS),
    "heading",
    "img",
    "list",
    "listitem",
    "row",
    "rowgroup",
    "cell",
    "columnheader",
    "rowheader",
    "gridcell",
    "paragraph",
    "article",
    "progressbar",
    "meter",
    "separator",
    "none",
    "presentation",
    "generic",
    "feed",
    "tooltip",
    "note",
    "scrollbar",
    "application",
    "document",
    "term",
    "definition",
    "math",
    "marquee",
    "timer",
  ])
  const ERROR_HINT = /(^|[\s_-])(error|errors|invalid|danger|alert|flash|warning)($|[\s_-])/i
  const RESULTS_HINT = /result|product|listing|items|catalog|search-list/i
  const TEST_ID_ATTRIBUTES = ["data-testid", "data-test-id", "data-test", "data-cy", "data-qa"]
  const KEY_ATTRIBUTES = [
    "id",
    "name",
    "type",
    "href",
    "placeholder",
    "aria-label",
    "title",
    "alt",
    "role",
    "autocomplete",
    "data-testid",
    "action",
    "min",
    "max",
    "step",
  ]

  /** Consecutive text runs up to this length share one line, joined by " · ". */
  const SHORT_TEXT = 40
  /** Text runs per region that look() reports for screen semantics (the outline keeps them all). */
  const MAX_TEXTS_PER_REGION = 60
  /** Separators between inline links carry no words and are left out. */
  const PUNCTUATION = /^[\s|·•/,;:\-–—]*$/
  /** A card link's first parts join its name until the name is this long (a title, not a fragment). */
  const CARD_TITLE = 20
  /** A table row whose cells print longer than this is a layout row: its cells print as lines. */
  const LONG_ROW = 400
  /** Query parameters that only track a click; a link target drops them. */
  const TRACKING =
    /^(utm_\w+|fbclid|gclid|dclid|msclkid|mc_cid|mc_eid|_ga|_gl|ref_src|ref_url|cmpid|ncid|ocid|smid|sr_share|igshid|yclid|spm|trk|trkCampaign|__twitter_impression|_hsenc|_hsmi|mkt_tok)$/i
  /** A path segment or query value this long with a digit in it is an opaque id. */
  const OPAQUE = /^(?=[\w~.=%+-]{16,}$)(?=.*\d)[\w~.=%+-]+$/
  const collapse = (text: string): string => text.replace(/\s+/g, " ")
  const clip = (text: string, max: number): string =>
    text.length <= max
      ? text
      : `${text.slice(0, max).trimEnd()}… (+${text.length - max} chars: raise maxTextLength to read them)`
  const clipName = (text: string, max: number): string =>
    text.length <= max ? text : `${text.slice(0, max).trimEnd()}…`
  // Captured at install: a page script may replace JSON.stringify later (old libraries did).
  const stringify = JSON.stringify
  const quote = (text: string): string => stringify(text)
  const cssString = (value: string): string => `"${value.replace(/\\/g, "\\\\").replace(/"/g, '\\"')}"`

  const explicitRole = (element: Element): string => {
    const attribute = element.getAttribute("role")
    if (attribute === null) return ""
    for (const token of attribute.trim().toLowerCase().split(/\s+/)) if (ROLES.has(token)) return token
    return ""
  }

  const inSectioning = (element: Element): boolean =>
    element.parentElement?.closest("article,aside,main,nav,section,[role=main],[role=article]") != null

  /** Rows and cells of a table marked presentational are layout, not data. */
  const layoutTable = (element: Element): boolean => {
    const role = element.closest("table")?.getAttribute("role")
    return role === "presentation" || role === "none"
  }

  const implicitRole = (element: Element, tag: string): string => {
    switch (tag) {
      case "a":
      case "area":
        return element.hasAttribute("href") ? "link" : ""
      case "button":
        return "button"
      case "summary":
        return "button"
      case "input": {
        const type = ((element as HTMLInputElement).type || "text").toLowerCase()
        switch (type) {
          case "button":
          case "submit":
          case "reset":
          case "image":
          case "file":
            return "button"
          case "checkbox":
            return "checkbox"
          case "radio":
            return "radio"
          case "range":
            return "slider"
          case "number":
            return "spinbutton"
          case "search":
            return element.hasAttribute("list") ? "combobox" : "searchbox"
          case "hidden":
            return "hidden"
          case "color":
          case "date":
          case "datetime-local":
          case "month":
          case "time":
          case "week":
            return "textbox"
          default:
            return element.hasAttribute("list") ? "combobox" : "textbox"
        }
      }
      case "textarea":
        return "textbox"
      case "select": {
        const select = element as HTMLSelectElement
        return select.multiple || select.size > 1 ? "listbox" : "combobox"
      }
      case "h1":
      case "h2":
      case "h3":
      case "h4":
      case "h5":
      case "h6":
        return "heading"
      case "nav":
        return "navigation"
      case "main":
        return "main"
      case "aside":
        return "complementary"
      case "header":
        return inSectioning(element) ? "" : "banner"
      case "footer":
        return inSectioning(element) ? "" : "contentinfo"
      case "form":
        return "form"
      case "search":
        return "search"
      case "section":
        return element.hasAttribute("aria-label") || element.hasAttribute("aria-labelledby") ? "region" : ""
      case "dialog":
        return "dialog"
      case "ul":
      case "ol":
      case "menu":
        return "list"
      case "li":
        return "listitem"
      case "table":
        return "table"
      case "tr":
        return layoutTable(element) ? "" : "row"
      case "thead":
      case "tbody":
      case "tfoot":
        return layoutTable(element) ? "" : "rowgroup"
      case "td":
        return layoutTable(element) ? "" : "cell"
      case "th":
        return layoutTable(element) ? "" : "columnheader"
      case "img":
        return element.getAttribute("alt") === "" ? "presentation" : "img"
      case "fieldset":
        return "group"
      case "figure":
        return "figure"
      case "output":
        return "status"
      case "progress":
        return "progressbar"
      case "meter":
        return "meter"
      case "p":
        return "paragraph"
      case "article":
        return "article"
      case "iframe":
        return "iframe"
      default:
        return ""
    }
  }

  /** Text of an element ignoring visibility, for aria-labelledby and labels. */
  const plainText = (element: Element, skip?: Element): string => {
    let text = ""
    const visit = (node: globalThis.Node): void => {
      if (node === skip) return
      if (node.nodeType === 3) text += node.nodeValue ?? ""
      else if (node.nodeType === 1) {
        const child = node as Element
        const tag = child.localName
        if (SKIP.has(tag) || tag === "select" || tag === "textarea") return
        if (tag === "img") text += ` ${child.getAttribute("alt") ?? ""} `
        else if (tag === "input") {
          const type = (child as HTMLInputElement).type
          if (type === "submit" || type === "button" || type === "reset")
            text += ` ${(child as HTMLInputElement).value} `
        } else for (let c = child.firstChild; c !== null; c = c.nextSibling) visit(c)
        if (!INLINE.has(tag)) text += " "
      }
    }
    visit(element)
    return collapse(text).trim()
  }

  const byIds = (element: Element, ids: string): string => {
    const root = element.getRootNode() as Document | ShadowRoot
    const parts: string[] = []
    for (const id of ids.trim().split(/\s+/)) {
      const target = root.getElementById(id)
      if (target !== null) parts.push(target.getAttribute("aria-label") ?? plainText(target))
    }
    return parts.join(" ").trim()
  }

  const labelName = (element: Element): string => {
    const labelled = element.getAttribute("aria-labelledby")
    if (labelled) {
      const text = byIds(element, labelled)
      if (text) return text
    }
    const aria = element.getAttribute("aria-label")
    if (aria?.trim()) return collapse(aria).trim()
    return ""
  }

  const controlName = (element: Element, tag: string): string => {
    const explicit = labelName(element)
    if (explicit) return explicit
    const labels = (element as HTMLInputElement).labels
    if (labels && labels.length > 0) {
      const text = Array.from(labels, (label) => plainText(label, element))
        .join(" ")
        .trim()
      if (text) return text
    }
    if (tag === "input") {
      const input = element as HTMLInputElement
      const type = input.type
      if (type === "submit") return input.value || "Submit"
      if (type === "reset") return input.value || "Reset"
      if (type === "button") return input.value
      if (type === "image") return input.alt || input.value || "Submit"
    }
    return collapse(element.getAttribute("title") ?? element.getAttribute("placeholder") ?? "").trim()
  }

  const selectedText = (select: HTMLSelectElement): string =>
    Array.from(select.selectedOptions, (option) => collapse(option.label || option.text).trim()).join(", ")

  /** Flattens a node's kids into words, for names taken from content. */
  const itemsText = (items: ReadonlyArray<Item>, withIcons = true): string => {
    let text = ""
    for (const item of items) {
      if (typeof item !== "string" && (item.ariaHidden === true || (!withIcons && item.icon === true)))
        continue
      const own = typeof item === "string" ? item : item.name || itemsText(item.kids, withIcons)
      // Words that follow a link in the same line of prose are content too ("A rare bird seen in May").
      const part = typeof item !== "string" && item.tail ? `${own} ${item.tail}`.trim() : own
      if (part) text += text ? ` ${part}` : part
    }
    return text
  }

  const hasRef = (items: ReadonlyArray<Item>): boolean => {
    for (const item of items)
      if (typeof item !== "string" && (item.ref !== "" || hasRef(item.kids))) return true
    return false
  }

  const shortUrl = (href: string, base: Location): string => {
    if (href.startsWith("javascript:")) return ""
    let url: URL
    try {
      url = new URL(href, base.href)
    } catch {
      return href
    }
    if (
      url.origin === base.origin &&
      url.pathname === base.pathname &&
      url.search === base.search &&
      url.hash
    )
      return url.hash
    const web = url.protocol === "http:" || url.protocol === "https:"
    if (!web) return url.href.length > 80 ? `${url.href.slice(0, 77)}…` : url.href
    const opaque = (part: string): string => (OPAQUE.test(part) ? `${part.slice(0, 8)}…` : part)
    const path = url.pathname.split("/").map(opaque).join("/")
    const query: string[] = []
    for (const [key, value] of url.searchParams)
      if (!TRACKING.test(key)) query.push(value === "" ? key : `${key}=${opaque(value)}`)
    const search = query.length > 0 ? `?${query.join("&")}` : ""
    const text =
      url.origin === base.origin
        ? path + search + (url.hash.length <= 40 ? url.hash : "")
        : url.host.replace(/^www\./, "") + (path === "/" ? "" : path) + search
    return text.length > 80 ? `${text.slice(0, 77)}…` : text
  }

  /** Per root, how often each selector-relevant attribute value occurs, to prove uniqueness cheaply. */
  const countCache = new Map<Document | ShadowRoot, Map<string, number>>()
  const countsOf = (root: Document | ShadowRoot): Map<string, number> => {
    let counts = countCache.get(root)
    if (counts !== undefined) return counts
    counts = new Map()
    const bump = (key: string): void => {
      counts?.set(key, (counts.get(key) ?? 0) + 1)
    }
    for (const element of root.querySelectorAll(
      "[id],[name],[href],[type],[data-testid],[data-test-id],[data-test],[data-cy],[data-qa]",
    )) {
      const tag = element.localName
      const id = element.getAttribute("id")
      if (id) bump(`#${id}`)
      const name = element.getAttribute("name")
      if (name) bump(`${tag}|name|${name}`)
      const href = element.getAttribute("href")
      if (href !== null) bump(`${tag}|href|${href}`)
      const type = element.getAttribute("type")
      if (type) bump(`${tag}|type|${type}`)
      for (const attribute of TEST_ID_ATTRIBUTES) {
        const value = element.getAttribute(attribute)
        if (value) bump(`${attribute}|${value}`)
      }
    }
    countCache.set(root, counts)
    return counts
  }

  const pathSelector = (element: Element, root: Document | ShadowRoot): string => {
    const steps: string[] = []
    let current: Element | null = element
    while (current !== null && current.parentNode !== null) {
      const id = current.getAttribute("id")
      if (id && current !== element && countsOf(root).get(`#${id}`) === 1) {
        steps.unshift(`#${CSS.escape(id)}`)
        break
      }
      const tag = current.localName
      let index = 1
      let sameTag = false
      for (let sibling = current.previousElementSibling; sibling; sibling = sibling.previousElementSibling)
        if (sibling.localName === tag) index++
      for (
        let sibling = current.nextElementSibling;
        sibling && !sameTag;
        sibling = sibling.nextElementSibling
      )
        if (sibling.localName === tag) sameTag = true
      steps.unshift(index > 1 || sameTag ? `${tag}:nth-of-type(${index})` : tag)
      if (current.parentNode === root || tag === "html") break
      current = current.parentElement
    }
    return steps.join(" > ")
  }

  const selectorsOf = (element: Element, root: Document | ShadowRoot): string[] => {
    const counts = countsOf(root)
    const tag = element.localName
    const found: string[] = []
    const id = element.getAttribute("id")
    if (id && counts.get(`#${id}`) === 1) found.push(`#${CSS.escape(id)}`)
    for (const attribute of TEST_ID_ATTRIBUTES) {
      const value = element.getAttribute(attribute)
      if (value && counts.get(`${attribute}|${value}`) === 1) found.push(`[${attribute}=${cssString(value)}]`)
    }
    const name = element.getAttribute("name")
    if (name && counts.get(`${tag}|name|${name}`) === 1) found.push(`${tag}[name=${cssString(name)}]`)
    const href = element.getAttribute("href")
    if (href !== null && !/[\n\r]/.test(href) && counts.get(`${tag}|href|${href}`) === 1)
      found.push(`${tag}[href=${cssString(href)}]`)
    const type = element.getAttribute("type")
    if (type && counts.get(`${tag}|type|${type}`) === 1) found.push(`${tag}[type=${cssString(type)}]`)
    const path = pathSelector(element, root)
    // A path of child steps from <html> or from a unique id is unique by construction; only a path
    // from the top of a shadow root can match deeper elements too, so only that one is queried.
    if (root.nodeType === 9 || path.startsWith("#")) {
      found.push(path)
      return found
    }
    try {
      if (root.querySelectorAll(path).length === 1) found.push(path)
    } catch {
      // A path with an odd tag name cannot be parsed; the other candidates still stand.
    }
    return found
  }

  const frameEntry = (element: Element, root: Document | ShadowRoot): string => {
    const selectors = selectorsOf(element, root)
    return selectors[0] ?? element.localName
  }

  const isSecret = (element: Element, secretSelectors: ReadonlyArray<string>): boolean => {
    if (element.localName === "input") {
      const input = element as HTMLInputElement
      if (input.type === "password") return true
      if (/password/i.test(input.autocomplete)) return true
    }
    for (const selector of secretSelectors) {
      try {
        if (element.matches(selector) || element.closest(selector) !== null) return true
      } catch {
        // An invalid selector marks nothing; the caller validated the ones it cares about.
      }
    }
    return false
  }

  const boxOf = (element: Element, frame: Frame) => {
    const rect = element.getBoundingClientRect()
    return {
      x: Math.round(rect.x + frame.x),
      y: Math.round(rect.y + frame.y),
      width: Math.round(rect.width),
      height: Math.round(rect.height),
    }
  }

  /** Everything one look() collects while it walks. */
  const look = (options: LookOptions = {}): string => {
    const started = performance.now()
    const mode = options.mode === "interactive" ? "interactive" : "full"
    const secretSelectors = options.secretSelectors ?? []
    const maxText = options.maxTextLength ?? 3000
    const maxName = options.maxNameLength ?? 100
    const partial = options.within !== undefined
    // A look within one element is asked for the whole of it: every option of a select.
    const maxOptions = partial ? Number.POSITIVE_INFINITY : (options.maxOptions ?? 12)
    const location = window.location
    countCache.clear()

    const elements: RawElement[] = []
    const forms: RawForm[] = []
    const formByElement = new Map<Element, RawForm>()
    const texts: Text[] = []
    const used = new Set<string>()
    const textsPerRegion = new Map<string, number>()
    /** Records a text run for screen semantics; alerts always, other regions up to a cap. */
    const note = (where: string, kind: string, text: string): void => {
      const count = textsPerRegion.get(where) ?? 0
      if (count >= MAX_TEXTS_PER_REGION && kind !== "alert") return
      textsPerRegion.set(where, count + 1)
      texts.push([where, kind, text])
    }
    const keyCounts = new Map<string, number>()
    const anchors: Array<[ref: string, label: string, start: number, end: number]> = []
    let nodes = 0
    let joinable = false
    /** The last element ended a box of its own (inline-block, block span): the next words start apart. */
    let spaceNext = false
    /** Inside an aria-hidden subtree: only the controls it shows are kept. */
    let ariaHidden = 0
    let attachTo: Node | null = null
    let region = "main"
    let heading = ""
    const context: string[] = []

    const assignRef = (element: Element, baseKey: string): [string, string] => {
      const seen = keyCounts.get(baseKey) ?? 0
      keyCounts.set(baseKey, seen + 1)
      const key = `${baseKey}|${seen}`
      let ref = state.byElement.get(element)
      if (ref === undefined || used.has(ref)) {
        ref = undefined
        const previous = state.byKey.get(key)
        if (previous !== undefined && !used.has(previous)) {
          const old = state.byRef.get(previous)?.element.deref()
          if (old === undefined || !old.isConnected || old === element) ref = previous
        }
        if (ref === undefined) ref = `e${++state.counter}`
      }
      used.add(ref)
      // A look within one subtree misses the context above it, so its keys must not replace the
      // ones a whole-page look recorded.
      const known = state.byRef.get(ref)
      if (partial && known !== undefined && known.element.deref() === element) return [ref, known.key]
      state.byElement.set(element, ref)
      state.byRef.set(ref, { element: new WeakRef(element), key })
      state.byKey.set(key, ref)
      return [ref, key]
    }

    const pushText = (out: Item[], raw: string): void => {
      const text = collapse(raw)
      if (text === "" || text === " ") {
        if (text === " " && joinable && typeof out[out.length - 1] === "string") out[out.length - 1] += " "
        return
      }
      const last = out[out.length - 1]
      const apart = (before: string) => (spaceNext && !/\s$/.test(before) && !text.startsWith(" ") ? " " : "")
      if (attachTo !== null && last === attachTo) {
        attachTo.tail += apart(attachTo.tail) + text
        spaceNext = false
        return
      }
      if (joinable && typeof last === "string") out[out.length - 1] = last + apart(last) + text
      else out.push(text)
      joinable = true
      spaceNext = false
    }

    const finishTexts = (items: Item[], record = true): Item[] => {
      const result: Item[] = []
      for (const item of items) {
        if (typeof item === "string") {
          const text = item.trim()
          if (text) {
            result.push(clip(text, maxText))
            if (record) note(region, "text", text)
          }
        } else {
          if (item.tail) {
            item.tail = PUNCTUATION.test(item.tail) ? "" : clip(item.tail.trim(), maxText)
            if (item.tail) note(region, "text", item.tail)
          }
          result.push(item)
        }
      }
      return result
    }

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
        pushText(out, node.nodeValue ?? "")
        return
      }
      if (node.nodeType === 1) walkElement(node as Element, out, frame, pointer)
    }

    /** Elements styled visibility:hidden whose own text is hidden while their children may show. */
    const hiddenText = new WeakSet<Element>()

    const walkElement = (element: Element, out: Item[], frame: Frame, parentPointer: boolean): void => {
      const tag = element.localName
      if (SKIP.has(tag) || element.hasAttribute("hidden") || element.hasAttribute("inert")) return
      if (element.getAttribute("aria-hidden") === "true" && ariaHidden === 0) {
        walkAriaHidden(element, out, frame, parentPointer)
        return
      }
      // An inline tag laid out as a box of its own (a span styled as a block, an inline-block) is
      // read apart from its neighbours: "Sleep" + "My Snoring" is two phrases, not "SleepMy".
      const boxed = INLINE.has(tag) && getComputedStyle(element).display !== "inline"
      if (boxed) spaceNext = true
      walkElementBody(element, out, frame, parentPointer)
      if (boxed) spaceNext = true
    }

    /**
     * What a reader sees of an aria-hidden subtree: nothing but the controls it shows (menus and
     * overlays hidden from assistive technology yet on screen and usable). Its text stays out.
     */
    const walkAriaHidden = (element: Element, out: Item[], frame: Frame, parentPointer: boolean): void => {
      const kids: Item[] = []
      const textsBefore = texts.length
      ariaHidden++
      try {
        walkElementBody(element, kids, frame, parentPointer)
      } finally {
        ariaHidden--
      }
      texts.length = textsBefore
      const keep = (items: ReadonlyArray<Item>): void => {
        for (const item of items) {
          if (typeof item === "string") continue
          if (item.ref !== "" && !item.container) {
            item.tail = ""
            item.ariaHidden = true
            out.push(item)
          } else keep(item.kids)
        }
      }
      keep(kids)
      joinable = false
      attachTo = null
    }

    const walkElementBody = (element: Element, out: Item[], frame: Frame, parentPointer: boolean): void => {
      const tag = element.localName
      nodes++
      const style = getComputedStyle(element)
      const display = style.display
      if (display === "none") return
      if (display === "contents") {
        walkContent(element, out, frame, parentPointer)
        return
      }
      const pointer = style.cursor === "pointer"
      const selfHidden = style.visibility === "hidden" || style.visibility === "collapse"
      if (selfHidden) {
        hiddenText.add(element)
        walkContent(element, out, frame, pointer)
        return
      }
      if (tag === "svg") {
        const label = labelName(element)
        const name = label || collapse(element.querySelector("title")?.textContent ?? "").trim()
        if (!name) return
        if (hoverTarget(element)) {
          const node = buildNode(element, tag, "img", frame, pointer)
          if (node !== undefined) out.push(node)
        } else out.push({ ...leaf("img", "img", name, ""), ...(label ? {} : { icon: true }) })
        return
      }
      if (
        element.clientWidth === 0 &&
        element.clientHeight === 0 &&
        !INLINE.has(tag) &&
        tag !== "iframe" &&
        tag !== "img"
      ) {
        const rect = element.getBoundingClientRect()
        if (rect.width === 0 && rect.height === 0) {
          if (element.firstElementChild === null) return
          if (style.overflow !== "visible") return
        }
      }

      let role = explicitRole(element) || implicitRole(element, tag)
      if (role === "hidden") return
      if (role === "presentation" || role === "none") role = ""
      if (role === "" && (element as HTMLElement).isContentEditable) {
        const parent = element.parentElement
        if (parent === null || !parent.isContentEditable) role = "textbox"
      }
      if (role === "" || role === "generic" || role === "paragraph" || role === "article") {
        const tabindex = element.getAttribute("tabindex")
        if (
          (pointer && !parentPointer && tag !== "label" && tag !== "body" && tag !== "html") ||
          element.hasAttribute("onclick") ||
          (tabindex !== null && Number(tabindex) >= 0 && tag !== "body")
        )
          role = "clickable"
      }

      const block = !INLINE.has(tag) || role !== ""
      if (block) joinable = false
      if (!INLINE.has(tag)) attachTo = null

      if (tag === "iframe") {
        walkFrame(element as HTMLIFrameElement, out, frame, style)
        joinable = false
        return
      }
      if (tag === "details" && !(element as HTMLDetailsElement).open) {
        const summary = element.querySelector(":scope > summary")
        if (summary !== null) walkElement(summary, out, frame, pointer)
        joinable = false
        return
      }
      if ((tag === "caption" || tag === "legend") && !element.parentElement?.hasAttribute("aria-label"))
        return
      if (tag === "br") {
        joinable = false
        attachTo = null
        return
      }

      if (
        role === "" ||
        role === "list" ||
        role === "listitem" ||
        role === "rowgroup" ||
        role === "paragraph"
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
        if (tag === "label" && (element as HTMLLabelElement).control)
          walkLabel(element as HTMLLabelElement, out, frame, pointer)
        else walkContent(element, out, frame, pointer)
        region = saveRegion
        if (block) joinable = false
        if (!INLINE.has(tag)) attachTo = null
        return
      }

      const saveRegion = region
      const saveHeading = heading
      const contextLength = context.length
      const nextRegion = REGION_OF[role]
      if (nextRegion !== undefined) region = nextRegion
      else if (element.getAttribute("aria-live") === "assertive") region = "alert"
      if ((role === "table" || role === "grid" || role === "feed") && region === "main") enterResults(element)
      const node = buildNode(element, tag, role, frame, pointer)
      if (node !== undefined) out.push(node)
      region = saveRegion
      context.length = contextLength
      if (node?.heading !== true) heading = saveHeading
      joinable = false
      attachTo =
        node !== undefined && INLINE.has(tag) && node.kids.length === 0 && !node.container ? node : null
    }

    const enterResults = (element: Element): void => {
      const rows = element.querySelectorAll(
        ":scope > li, :scope > tr, :scope > tbody > tr, :scope > [role=listitem], :scope > [role=row], :scope > [role=article], :scope > article",
      )
      let count = 0
      for (const row of rows)
        if (row.querySelector("th") === null || row.querySelector("td") !== null) count++
      if (count > 0) {
        region = "results"
        let label = labelName(element)
        for (let index = context.length - 1; index >= 0 && !label; index--)
          label = context[index]!.slice(context[index]!.indexOf(":") + 1)
        texts.push(["results", "count", label || heading, count])
      }
    }

    /** Controls an image inside speaks for: the image is part of their name, not a target of its own. */
    const IMAGE_HOLDERS =
      "a[href],button,label,summary,[role=button],[role=link],[role=menuitem],[role=tab],[role=option],[onclick]"
    /**
     * An image or icon a person points at to learn something: it shows a tooltip (a title, a `<title>`
     * in an svg, aria-describedby, a data-tooltip attribute) or the page gives it a cursor of its own
     * (help, pointer, zoom-in) — hover behaviour a page script cannot read from its listeners. It gets
     * a ref so it can be hovered; an image inside a link or button does not (the control is the target).
     */
    const hoverTarget = (element: Element): boolean => {
      if (element.parentElement?.closest(IMAGE_HOLDERS)) return false
      if (
        element.hasAttribute("title") ||
        element.hasAttribute("aria-describedby") ||
        element.hasAttribute("data-tooltip") ||
        element.hasAttribute("data-tip") ||
        (element.localName === "svg" && element.querySelector(":scope > title") !== null)
      )
        return true
      // A cursor it inherits says something of its parent, not of the image.
      const cursor = getComputedStyle(element).cursor
      const parent = element.parentElement
      if (parent !== null && getComputedStyle(parent).cursor === cursor) return false
      return cursor !== "auto" && cursor !== "default" && cursor !== "text" && cursor !== ""
    }

    const leaf = (role: string, label: string, name: string, suffix: string): Node => ({
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
      let document: Document | null = null
      try {
        document = iframe.contentDocument
      } catch {
        document = null
      }
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
      node.kids = finishTexts(node.kids)
      context.length = contextLength
      if (node.kids.length > 0) out.push(node)
    }

    const buildNode = (
      element: Element,
      tag: string,
      role: string,
      frame: Frame,
      pointer: boolean,
    ): Node | undefined => {
      const interactive = INTERACTIVE.has(role) || (role === "img" && hoverTarget(element))
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
      if (!opaque) {
        if (containerLabel !== undefined) {
          if (!name && tag === "fieldset") {
            const legend = element.querySelector(":scope > legend")
            if (legend !== null) name = plainText(legend)
          }
          if (!name && role === "table") {
            const caption = element.querySelector(":scope > caption")
            if (caption !== null) name = plainText(caption)
          }
          if (NAMED_ONLY.has(role) && !name) return hoist(element, frame, pointer)
          const [assigned, key] = assignRef(element, `${role}|${name}|${context.join("/")}`)
          containerRef = assigned
          if (role === "form" || tag === "form") {
            form = { key, ref: assigned, name: name || formName(element), fields: [], submit: undefined }
            forms.push(form)
            formByElement.set(element, form)
          }
          context.push(`${role}:${name}`)
        }
        const saveJoinable = joinable
        joinable = false
        if (role === "img") {
          if (!name)
            name = collapse(element.getAttribute("alt") ?? element.getAttribute("title") ?? "").trim()
          if (!name && tag === "svg")
            name = collapse(element.querySelector(":scope > title")?.textContent ?? "").trim()
          if (!name) return undefined
        } else walkContent(element, kids, frame, pointer)
        joinable = saveJoinable
        kids = role === "row" ? kids : finishTexts(kids, !interactive && role !== "heading")
        if (!name && NAME_FROM_CONTENT.has(role)) {
          // A control is named by all its content, nested links and buttons included, as the
          // accessible-name computation does (a card button or option holding its headline link is
          // named by the headline too, and `aria/` locators find it by that name). A cell, heading,
          // tree item or a block that only listens for clicks is named by its own text; the controls
          // inside it are printed beneath it.
          name =
            (CONTENT_NAMED_CONTROLS.has(role)
              ? itemsText(kids, false)
              : itemsText(
                  kids.filter((kid) => typeof kid === "string" || !hasRef([kid])),
                  false,
                )
            ).trim() || itemsText(kids).trim()
          // Text a page prints twice inside one control (a visible label and a hidden copy) names it once.
          name = name.replace(/^(.{2,}?) \1$/su, "$1")
          contentName = true
        }
        // A control whose content is only a pictograph ("⚙", "×") is named by its title, which says
        // in words what the symbol means.
        const title = collapse(element.getAttribute("title") ?? "").trim()
        if (title && (!name || (contentName && !/[\p{L}\p{N}]/u.test(name)))) name = title
      }
      if (!name && interactive && !isControl) name = fallbackName(element, tag)
      const longName = name.length > maxName
      const fullName = name
      name = clipName(name, maxName)

      const states: string[] = []
      let value: string | undefined
      let checked: boolean | "mixed" | undefined
      let selected: boolean | undefined
      let expanded: boolean | undefined
      let options: string[] | undefined
      const ariaChecked = element.getAttribute("aria-checked")
      if (tag === "input" && (role === "checkbox" || role === "radio" || role === "switch"))
        checked = (element as HTMLInputElement).indeterminate
          ? "mixed"
          : (element as HTMLInputElement).checked
      else if (ariaChecked !== null) checked = ariaChecked === "mixed" ? "mixed" : ariaChecked === "true"
      if (checked === true) states.push("checked")
      else if (checked === "mixed") states.push("mixed")
      const ariaSelected = element.getAttribute("aria-selected")
      if (ariaSelected !== null) selected = ariaSelected === "true"
      if (selected === true) states.push("selected")
      const ariaExpanded = element.getAttribute("aria-expanded")
      if (ariaExpanded !== null) expanded = ariaExpanded === "true"
      else if (tag === "summary" && element.parentElement?.localName === "details")
        expanded = (element.parentElement as HTMLDetailsElement).open
      if (expanded !== undefined) states.push(expanded ? "expanded" : "collapsed")
      const ariaPressed = element.getAttribute("aria-pressed")
      if (ariaPressed === "true") states.push("pressed")
      const disabled =
        element.getAttribute("aria-disabled") === "true" ||
        (isControl || tag === "button" ? element.matches(":disabled") : false)
      if (disabled) states.push("disabled")
      const required =
        element.getAttribute("aria-required") === "true" ||
        (isControl && (element as HTMLInputElement).required)
      if (required && interactive) states.push("required")
      const invalid =
        element.getAttribute("aria-invalid") === "true" || (isControl && element.matches(":user-invalid"))
      if (invalid) states.push("invalid")
      const current = element.getAttribute("aria-current")
      if (current && current !== "false") states.push("current")
      if (role === "heading") {
        const level = /^h([1-6])$/.exec(tag)?.[1] ?? element.getAttribute("aria-level") ?? "2"
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
          kids: hasRef(kids) ? kids.filter((kid) => typeof kid !== "string") : [],
          container: false,
          heading: true,
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

      let url = ""
      if ((tag === "a" || tag === "area") && (role === "link" || interactive) && element.hasAttribute("href"))
        url = shortUrl((element as HTMLAnchorElement).href, location)

      for (const state of states) suffix += ` [${state}]`
      if (value) suffix += `: ${clip(collapse(value), maxText)}`

      let ref = ""
      let container = false
      if (interactive && role !== "clickable") {
        if (hasRef(kids)) kids = kids.filter((kid) => typeof kid !== "string")
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
          // The "…" says the name goes on: the rest of the card follows under it.
          name = `${clipName(title, maxName).replace(/…$/, "")}…`
          kids = kids.slice(taken)
        } else if (contentName && longName) {
          // One long run of words (a product title, a headline that goes on): named by its start, cut
          // at a word, the "…" saying it goes on; the rest follows under it so nothing a reader sees is lost.
          const space = fullName.lastIndexOf(" ", maxName)
          const cut = space > maxName / 2 ? space : maxName
          name = `${fullName.slice(0, cut).trimEnd()}…`
          const rest = fullName.slice(cut).trim()
          kids = rest === "" ? [] : [rest]
        } else kids = []
      }
      if (role === "clickable") {
        // A focusable block that holds a chapter (tabindex for keyboard scrolling) is read, not pressed.
        if (hasRef(kids) || !name || (contentName && longName))
          return kids.length > 0 ? hoistNode(kids) : undefined
        kids = []
      }
      if (interactive) {
        const [assigned, key] = assignRef(element, `${role}|${name}|${context.join("/")}|${heading}`)
        ref = assigned
        if (options !== undefined) {
          const shown = options.slice(0, maxOptions).join("|")
          const left = options.length - maxOptions
          suffix += ` [options: ${shown}${left > 0 ? `|…+${left} more: look({ within: "${ref}" }) lists all` : ""}]`
        }
        const owner = formOf(element, role)
        const raw: RawElement = {
          ref,
          key,
          role,
          name,
          tag,
          attributes: attributesOf(element, secret),
          visible: true,
          box: boxOf(element, frame),
          selectors: selectorsOf(element, frame.root),
          ...(frame.path.length > 0 ? { frame: frame.path } : {}),
          region,
        }
        raw.visible =
          raw.box.width > 0 &&
          raw.box.height > 0 &&
          raw.box.x < window.innerWidth &&
          raw.box.y < window.innerHeight &&
          raw.box.x + raw.box.width > 0 &&
          raw.box.y + raw.box.height > 0
        if (value !== undefined) raw.value = value
        if (checked !== undefined) raw.checked = checked
        if (selected !== undefined) raw.selected = selected
        if (expanded !== undefined) raw.expanded = expanded
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
        if (kids.length === 0 && form === undefined) return undefined
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
      } else if (role === "img") {
        // an image is a leaf with its alternative text
      } else if (role === "progressbar" || role === "meter" || role === "status" || role === "tooltip") {
        // value-bearing leaves keep their suffix
      } else {
        if (kids.length === 0) return undefined
        return hoistNode(kids)
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
        tail: "",
        kids,
        container,
        heading: false,
      }
    }

    /**
     * A name for a link or button that has none by the accessible-name rules (an icon, an empty
     * anchor): a label or title inside it, the icon's symbol name, then where a link goes or the
     * id a button carries — the words a reader would guess from.
     */
    const fallbackName = (element: Element, tag: string): string => {
      const words = (raw: string): string =>
        collapse(
          raw
            .replace(/^.*[#/]/, "")
            .replace(/\.[a-z0-9]{2,5}$/i, "")
            .replace(/[-_.+]+/g, " ")
            .replace(/\b(icon|ico|svg|glyph|btn|fa|js)\b/gi, " "),
        ).trim()
      const inner = element.querySelector("[aria-label],[title],img[alt]:not([alt=''])")
      const labelled =
        inner?.getAttribute("aria-label") ?? inner?.getAttribute("title") ?? inner?.getAttribute("alt")
      if (labelled?.trim()) return collapse(labelled).trim()
      const symbol = element.querySelector("use")
      const symbolName = words(symbol?.getAttribute("href") ?? symbol?.getAttribute("xlink:href") ?? "")
      if (symbolName) return symbolName
      const picture = words(element.querySelector("img")?.getAttribute("src")?.split("?")[0] ?? "")
      if (picture && /\p{L}/u.test(picture) && !OPAQUE.test(picture)) return picture
      if (tag === "a" || tag === "area") {
        let url: URL | undefined
        try {
          url = new URL((element as HTMLAnchorElement).href)
        } catch {
          url = undefined
        }
        if (url === undefined) return ""
        const segments = url.pathname.split("/").filter((segment) => segment !== "")
        for (let index = segments.length - 1; index >= 0; index--) {
          let segment = segments[index]!
          try {
            segment = decodeURIComponent(segment)
          } catch {
            // A malformed escape reads as it is.
          }
          const named = words(segment)
          if (named && !OPAQUE.test(segment) && /\p{L}/u.test(named)) return named
        }
        return url.host.replace(/^www\./, "")
      }
      for (const attribute of ["data-action", "name", "id"]) {
        const named = words(element.getAttribute(attribute) ?? "")
        if (named && /\p{L}/u.test(named)) return named
      }
      return ""
    }

    /** A wrapper whose kids stand in for it. */
    const hoistNode = (kids: Item[]): Node => ({
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

    const hoist = (element: Element, frame: Frame, pointer: boolean): Node | undefined => {
      const kids: Item[] = []
      walkContent(element, kids, frame, pointer)
      const finished = finishTexts(kids)
      return finished.length > 0 ? hoistNode(finished) : undefined
    }

    const formOf = (element: Element, role: string): RawForm | undefined => {
      if (role === "link" || role === "tab" || role === "menuitem") return undefined
      const owner = (element as HTMLInputElement).form ?? element.closest("form,[role=form]")
      return owner ? formByElement.get(owner) : undefined
    }

    const formName = (element: Element): string => {
      const heading = element.querySelector("h1,h2,h3,h4,h5,h6,legend")
      if (heading !== null) return plainText(heading)
      return (
        element.getAttribute("name") ?? element.getAttribute("id") ?? element.getAttribute("action") ?? ""
      )
    }

    const isSubmit = (element: Element, tag: string): boolean => {
      if (tag === "button") return ((element as HTMLButtonElement).type || "submit") === "submit"
      if (tag === "input")
        return (
          (element as HTMLInputElement).type === "submit" || (element as HTMLInputElement).type === "image"
        )
      return false
    }

    const attributesOf = (element: Element, secret: boolean): Record<string, string> => {
      const attributes: Record<string, string> = {}
      for (const name of KEY_ATTRIBUTES) {
        const value = element.getAttribute(name)
        if (value !== null && value !== "")
          attributes[name] = value.length > 200 ? `${value.slice(0, 200)}…` : value
      }
      if (secret) delete attributes.value
      return attributes
    }

    // Rendering ---------------------------------------------------------------------------------

    const lines: string[] = []

    const inline = (node: Node): string => {
      let text = node.label
      if (node.name) text += ` ${quote(node.name)}`
      if (node.ref && !node.container) text += ` [ref=${node.ref}]`
      text += node.suffix
      if (node.url) text += ` -> ${node.url}`
      if (!node.tail) return text
      return `${text} ${node.tail}`
    }

    /** The interactive mode's line: ref first, no quotes, no URL, for the fewest tokens. */
    const compact = (node: Node): string =>
      `${node.ref} ${node.role}${node.name ? ` ${node.name}` : ""}${node.suffix}`

    const compactRow = (items: ReadonlyArray<Item>): string => {
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

    /** Interactive mode: actionable elements with the headings that introduce them, one flat list. */
    const renderCompact = (
      items: ReadonlyArray<Item>,
      out: Array<[level: number, text: string, name: string]>,
    ): void => {
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
          renderCompact(item.kids, out)
          continue
        }
        if (item.role === "row") {
          if (hasRef(item.kids)) {
            const cells: string[] = []
            for (const kid of item.kids)
              cells.push(typeof kid === "string" ? kid : compactRow(kid.kids.length > 0 ? kid.kids : [kid]))
            const text = cells.join(" | ").trim()
            // A layout row holding a page's worth of actions lists them one per line.
            if (text.length > LONG_ROW) renderCompact(item.kids, out)
            else out.push([0, text, ""])
          }
          continue
        }
        if (item.ref !== "" && !item.container) out.push([0, compact(item), item.name])
        const start = out.length
        renderCompact(item.kids, out)
        if (item.container && item.ref !== "" && out.length > start)
          compactAnchors.push([
            item.ref,
            `${item.label}${item.name ? ` ${quote(item.name)}` : ""}`,
            start,
            out.length,
          ])
      }
    }

    /** Containers of the interactive view, by entry index until `flattenCompact` maps them to lines. */
    const compactAnchors: Array<[ref: string, label: string, start: number, end: number]> = []

    const flattenCompact = (entries: ReadonlyArray<[level: number, text: string, name: string]>): void => {
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
      for (const [ref, label, start, end] of compactAnchors)
        anchors.push([ref, label, lineOf[start] ?? lines.length, lineOf[end] ?? lines.length])
    }

    const cellText = (items: ReadonlyArray<Item>): string => {
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
    const render = (items: ReadonlyArray<Item>, depth: number): void => {
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
          render(item.kids, depth)
          continue
        }
        if (item.heading) {
          const only = item.kids.length === 1 ? item.kids[0] : undefined
          if (only !== undefined && typeof only !== "string" && only.ref !== "" && only.name === item.name) {
            lines.push(`${indent}- ${item.label} ${inline(only)}`)
            continue
          }
          lines.push(`${indent}- ${item.label} ${quote(item.name)}`)
          render(item.kids, depth + 1)
          continue
        }
        if (item.role === "row") {
          const cells: string[] = []
          for (const kid of item.kids)
            cells.push(typeof kid === "string" ? kid : cellText(kid.kids.length > 0 ? kid.kids : [kid]))
          const text = cells.join(" | ").trim()
          if (text.length > LONG_ROW) {
            // A layout row holding a page's worth of content: each cell prints as lines of its own.
            render(item.kids, depth)
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
          render(item.kids, depth)
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
          render(item.kids, depth + 1)
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
        if (item.kids.length > 0) render(item.kids, depth + 1)
      }
    }

    // Walk ---------------------------------------------------------------------------------------

    const top: Frame = { x: 0, y: 0, path: [], root: document }
    const items: Item[] = []
    let stale = ""
    if (options.within !== undefined) {
      const entry = find(options.within)
      if (entry === undefined) stale = options.within
      else walkElement(entry.element, items, entry.frame, false)
    } else if (document.body !== null) walkChildren(document.body, items, top, false)
    const finished = finishTexts(items)
    if (mode === "interactive") {
      const entries: Array<[number, string, string]> = []
      renderCompact(finished, entries)
      flattenCompact(entries)
    } else render(finished, 0)

    const scrolling = document.scrollingElement ?? document.documentElement
    return stringify({
      v: version,
      url: location.href,
      title: document.title,
      mode,
      lines,
      anchors,
      elements,
      forms,
      texts,
      nodes,
      ms: Math.round((performance.now() - started) * 100) / 100,
      scroll: {
        y: Math.round(scrolling.scrollTop),
        height: Math.round(scrolling.scrollHeight),
        viewportHeight: window.innerHeight,
      },
      ...(stale ? { stale } : {}),
    })
  }

  /** Where an element lives: its frame offset and path, from the top document down. */
  const frameOf = (element: Element): Frame => {
    let x = 0
    let y = 0
    const path: string[] = []
    let document = element.ownerDocument
    const chain: HTMLIFrameElement[] = []
    while (document.defaultView !== null && document.defaultView !== window) {
      const frameElement = document.defaultView.frameElement as HTMLIFrameElement | null
      if (frameElement === null) break
      chain.unshift(frameElement)
      document = frameElement.ownerDocument
    }
    for (const frameElement of chain) {
      const rect = frameElement.getBoundingClientRect()
      const style = getComputedStyle(frameElement)
      x += rect.x + frameElement.clientLeft + Number.parseFloat(style.paddingLeft || "0")
      y += rect.y + frameElement.clientTop + Number.parseFloat(style.paddingTop || "0")
      path.push(frameEntry(frameElement, frameElement.getRootNode() as Document | ShadowRoot))
    }
    const hosts: Element[] = []
    let root = element.getRootNode()
    while (root.nodeType === 11 && "host" in root) {
      const shadowHost = (root as ShadowRoot).host
      hosts.unshift(shadowHost)
      root = shadowHost.getRootNode()
    }
    for (const shadowHost of hosts)
      path.push(`${frameEntry(shadowHost, shadowHost.getRootNode() as Document | ShadowRoot)}::shadow`)
    return { x, y, path, root: element.getRootNode() as Document | ShadowRoot }
  }

  const rendered = (element: Element): boolean =>
    element.isConnected && (element as HTMLElement).checkVisibility?.({ visibilityProperty: true }) !== false

  /** The live element of a ref: the same node, or the node that now carries its identity key. */
  const find = (ref: string): { element: Element; frame: Frame } | undefined => {
    let entry = state.byRef.get(ref)
    let element = entry?.element.deref()
    if (entry === undefined) return undefined
    if (element === undefined || !rendered(element)) {
      look({ mode: "interactive" })
      entry = state.byRef.get(ref)
      element = entry?.element.deref()
      if (element === undefined || !rendered(element)) return undefined
    }
    return { element, frame: frameOf(element) }
  }

  const resolve = (ref: string, options: { readonly scroll?: boolean } = {}) => {
    const found = find(ref)
    if (found === undefined)
      return { ok: false, stale: true, ref, message: `ref ${ref} is stale: call look() to refresh` }
    const { element } = found
    if (options.scroll !== false) {
      const rect = element.getBoundingClientRect()
      const view = element.ownerDocument.defaultView ?? window
      if (rect.top < 0 || rect.left < 0 || rect.bottom > view.innerHeight || rect.right > view.innerWidth)
        element.scrollIntoView({ block: "center", inline: "center", behavior: "instant" })
    }
    const frame = frameOf(element)
    const box = boxOf(element, frame)
    return {
      ok: true,
      ref,
      element:
        element.ownerDocument === document && frame.path.every((entry) => entry.endsWith("::shadow"))
          ? element
          : null,
      tag: element.localName,
      box,
      x: Math.round(box.x + box.width / 2),
      y: Math.round(box.y + box.height / 2),
      frame: frame.path,
      inViewport:
        box.x + box.width > 0 &&
        box.y + box.height > 0 &&
        box.x < window.innerWidth &&
        box.y < window.innerHeight,
    }
  }

  const fire = (element: Element, type: string): void => {
    element.dispatchEvent(new Event(type, { bubbles: true }))
  }

  const setNativeValue = (
    element: HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement,
    value: string,
  ): void => {
    const prototype = Object.getPrototypeOf(element) as object
    const setter = Object.getOwnPropertyDescriptor(prototype, "value")?.set
    if (setter !== undefined) setter.call(element, value)
    else element.value = value
  }

  /**
   * In-page actions for what trusted input cannot express well: choosing options, setting a slider,
   * clearing, focusing, checking by state, and page scrolling. Clicks and typing belong to the driver.
   */
  const act = (ref: string, op: string, value?: string | number | ReadonlyArray<string>) => {
    if (ref === "_page") return pageAct(op)
    const found = find(ref)
    if (found === undefined)
      return { ok: false, stale: true, ref, message: `ref ${ref} is stale: call look() to refresh` }
    const element = found.element as HTMLElement
    switch (op) {
      case "focus":
        element.focus()
        return { ok: true }
      case "clear": {
        if (element.isContentEditable) element.textContent = ""
        else setNativeValue(element as HTMLInputElement, "")
        fire(element, "input")
        fire(element, "change")
        return { ok: true }
      }
      case "input": {
        const text = String(value ?? "")
        element.focus()
        if (element.isContentEditable) element.textContent = text
        else setNativeValue(element as HTMLInputElement, text)
        fire(element, "input")
        fire(element, "change")
        return { ok: true }
      }
      case "check":
      case "uncheck": {
        const want = op === "check"
        const current =
          element.localName === "input"
            ? (element as HTMLInputElement).checked
            : element.getAttribute("aria-checked") === "true"
        if (current !== want) element.click()
        return { ok: true }
      }
      case "select": {
        const wanted = (Array.isArray(value) ? value : [String(value ?? "")]).map((entry: string) =>
          entry.trim(),
        )
        if (element.localName === "select") {
          const select = element as HTMLSelectElement
          const matched: string[] = []
          for (const option of select.options) {
            const hit = wanted.some(
              (entry: string) =>
                entry === option.value || entry === collapse(option.label || option.text).trim(),
            )
            if (hit) matched.push(option.value)
          }
          if (matched.length === 0)
            return {
              ok: false,
              message: `no option of ${ref} matches ${wanted.join(", ")}: options are ${Array.from(select.options, (option) => option.label).join(", ")}`,
            }
          if (select.multiple)
            for (const option of select.options) option.selected = matched.includes(option.value)
          else setNativeValue(select, matched[0] ?? "")
          fire(element, "input")
          fire(element, "change")
          return { ok: true }
        }
        return {
          ok: false,
          message: `${ref} is not a native select: click it and then click the option's ref`,
        }
      }
      case "set": {
        if (element.localName === "input") {
          setNativeValue(element as HTMLInputElement, String(value ?? ""))
          fire(element, "input")
          fire(element, "change")
          return { ok: true }
        }
        element.setAttribute("aria-valuenow", String(value ?? ""))
        fire(element, "change")
        return { ok: true }
      }
      case "click":
        element.click()
        return { ok: true }
      default:
        return { ok: false, message: `${op} is not an in-page action: use the driver's input actions` }
    }
  }

  const pageAct = (op: string) => {
    const scrolling = document.scrollingElement ?? document.documentElement
    switch (op) {
      case "scroll down":
        window.scrollBy({ top: window.innerHeight * 0.8, behavior: "instant" })
        break
      case "scroll up":
        window.scrollBy({ top: -window.innerHeight * 0.8, behavior: "instant" })
        break
      case "scroll top":
        window.scrollTo({ top: 0, behavior: "instant" })
        break
      case "scroll bottom":
        window.scrollTo({ top: scrolling.scrollHeight, behavior: "instant" })
        break
      case "back":
        history.back()
        break
      case "refresh":
        location.reload()
        break
      default:
        return {
          ok: false,
          message: `${op} is not a page action: use scroll down, scroll up, scroll top, scroll bottom, back or refresh`,
        }
    }
    return {
      ok: true,
      y: Math.round(scrolling.scrollTop),
      height: Math.round(scrolling.scrollHeight),
      viewportHeight: window.innerHeight,
      atBottom: scrolling.scrollTop + window.innerHeight >= scrolling.scrollHeight - 2,
    }
  }

  const lookString = (options?: LookOptions): string => {
    try {
      return look(options)
    } catch (error) {
      return stringify({ v: version, failure: String((error as Error)?.stack ?? error) })
    }
  }

  /**
   * An element as a script outside the run finds it again: its role, a short accessible name and its
   * selectors (each unique in its document now). For recording what an action touched.
   */
  const describe = (element: Element) => {
    const tag = element.localName
    const root = element.getRootNode() as Document | ShadowRoot
    countCache.delete(root)
    const name = controlName(element, tag) || collapse(element.textContent ?? "").trim()
    return {
      role: explicitRole(element) || implicitRole(element, tag) || "generic",
      name: name.length > 100 ? name.slice(0, 100) : name,
      selectors: selectorsOf(element, root),
    }
  }

  Object.defineProperty(globalThis, "__sextant", {
    value: {
      version,
      look: lookString,
      resolve,
      act,
      describe,
      refOf: (element: Element) => state.byElement.get(element),
    },
    configurable: true,
    writable: true,
    enumerable: false,
  })
}

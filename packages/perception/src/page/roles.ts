/**
 * Roles: which ARIA role an element has (explicit `role` or the one its tag implies), and the role
 * tables the walker and the renderer consult.
 */

/** Elements that show nothing a reader sees. */
export const SKIP = new Set([
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
/** Tags that flow within a line of prose. */
export const INLINE = new Set([
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
export const INTERACTIVE = new Set([
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
export const CONTAINERS: Record<string, string> = {
  banner: "header",
  navigation: "nav",
  main: "main",
  contentinfo: "footer",
  complementary: "aside",
  search: "search",
  form: "form",
  region: "region",
  dialog: "dialog",
  alertdialog: "alertdialog",
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
  treegrid: "treegrid",
  toolbar: "toolbar",
  iframe: "iframe",
  figure: "figure",
}
/** Containers shown only when they carry a name. */
export const NAMED_ONLY = new Set(["region", "group", "toolbar", "figure"])
export const REGION_OF: Record<string, string> = {
  banner: "header",
  navigation: "nav",
  main: "main",
  contentinfo: "footer",
  dialog: "modal",
  alertdialog: "modal",
  alert: "alert",
}
export const NAME_FROM_CONTENT = new Set([
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
export const CONTENT_NAMED_CONTROLS = new Set([
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
export const ROLES = new Set([
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
  "blockquote",
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

/**
 * Roles ARIA spells two ways, to the one the view prints (`image` is wai-aria 1.3's name for `img`;
 * `directory`, deprecated in wai-aria 1.2, is a list).
 */
const SYNONYMS: Record<string, string> = { image: "img", directory: "list" }

/** The first role token the view knows (`role="foo link"` is a link), its synonym resolved. */
export const explicitRole = (element: Element): string => {
  const attribute = element.getAttribute("role")
  if (attribute === null) return ""
  for (const token of attribute.trim().toLowerCase().split(/\s+/)) {
    const role = SYNONYMS[token] ?? token
    if (ROLES.has(role)) return role
  }
  return ""
}

export const inSectioning = (element: Element): boolean =>
  element.parentElement?.closest("article,aside,main,nav,section,[role=main],[role=article]") != null

/** Rows and cells of a table marked presentational are layout, not data. */
export const layoutTable = (element: Element): boolean => {
  const role = element.closest("table")?.getAttribute("role")
  return role === "presentation" || role === "none"
}

/** The elements a table part belongs to: a table, or a grid or treegrid (a table the page made a widget). */
const TABLES = "table,[role=table],[role=grid],[role=treegrid]"

/**
 * A part of a grid or treegrid: the interactive widgets whose rows and cells a user moves among,
 * selects and opens (a calendar, a spreadsheet, a file tree), as against a table that is only read.
 */
export const inGrid = (element: Element): boolean => {
  const table = element.parentElement?.closest(TABLES)
  if (table == null) return false
  const role = explicitRole(table)
  return role === "grid" || role === "treegrid"
}

/** A data cell with words in it: what makes a `<th>` beside it the header of its row. */
const wordyDataCell = (element: Element | null): boolean =>
  element !== null && element.localName === "td" && (element.textContent ?? "").trim() !== ""

/**
 * What a `<th>` heads: its `scope` says, else a header in a `<thead>` heads its column and one beside
 * a data cell with words heads its row; any other heads its column (Chromium's reading of html-aam).
 */
export const headerRole = (element: Element): "columnheader" | "rowheader" => {
  const scope = element.getAttribute("scope")?.trim().toLowerCase()
  if (scope === "row" || scope === "rowgroup") return "rowheader"
  if (scope === "col" || scope === "colgroup") return "columnheader"
  if (element.parentElement?.parentElement?.localName === "thead") return "columnheader"
  return wordyDataCell(element.previousElementSibling) || wordyDataCell(element.nextElementSibling)
    ? "rowheader"
    : "columnheader"
}

/** Controls a grid cell can hold: a cell that holds one is the cell around it, the control the target. */
const CELL_CONTROLS =
  "a[href],button,input,select,textarea,[tabindex],[contenteditable=true],[role=button],[role=link],[role=checkbox],[role=radio],[role=switch],[role=combobox],[role=textbox],[role=menuitem],[role=option],[role=tab],[role=treeitem]"

/**
 * A row of a grid or treegrid, or a grid cell, that a user acts on: the page makes it focusable
 * (the grid's roving tabindex), gives it a click handler or a cursor of its own (`ownPointer`), or
 * says it is selected or expanded. Such a row gets a ref (a treegrid's row opens and closes); such a
 * cell does too unless it holds a control, which is then the target. A row of a data table is read,
 * not operated (a focusable one is a clickable box, see `walk.ts`).
 */
export const gridTarget = (element: Element, role: string, ownPointer: boolean): boolean => {
  if (role !== "gridcell" && (role !== "row" || !inGrid(element))) return false
  const operable =
    element.hasAttribute("tabindex") ||
    element.hasAttribute("onclick") ||
    element.hasAttribute("aria-selected") ||
    element.hasAttribute("aria-expanded") ||
    ownPointer
  return operable && (role === "row" || element.querySelector(CELL_CONTROLS) === null)
}

/** Given a name by an attribute: what makes a section a region and a scoped aside a landmark. */
const named = (element: Element): boolean =>
  element.hasAttribute("aria-label") ||
  element.hasAttribute("aria-labelledby") ||
  element.hasAttribute("aria-labeledby") ||
  element.hasAttribute("title")

export const implicitRole = (element: Element, tag: string): string => {
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
      // Inside an article, aside, nav or section, an aside is a landmark only when named (html-aam).
      return element.parentElement?.closest("article,aside,nav,section") != null && !named(element)
        ? ""
        : "complementary"
    case "header":
      return inSectioning(element) ? "" : "banner"
    case "footer":
      return inSectioning(element) ? "" : "contentinfo"
    case "form":
      return "form"
    case "search":
      return "search"
    case "section":
      return named(element) ? "region" : ""
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
      return layoutTable(element) ? "" : inGrid(element) ? "gridcell" : "cell"
    case "th":
      return layoutTable(element) ? "" : headerRole(element)
    case "img":
      // An empty alt makes an image decoration, unless the page names it another way.
      return element.getAttribute("alt") === "" &&
        !element.hasAttribute("aria-label") &&
        !element.hasAttribute("aria-labelledby") &&
        !element.hasAttribute("title")
        ? "presentation"
        : "img"
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
    case "blockquote":
      return "blockquote"
    case "math":
      return "math"
    case "hr":
      return "separator"
    case "iframe":
      return "iframe"
    default:
      return ""
  }
}

/**
 * The role of an element the page gives `role="form"`: a form landmark needs a name (wai-aria 1.2),
 * so an unnamed one whose tag gives a role of its own keeps that (`<nav role="form">` is a
 * navigation, as the Web Platform Tests expect); any other stays a form, which holds its fields together.
 */
export const formRole = (element: Element, tag: string): string => {
  if (tag === "form" || named(element)) return "form"
  return implicitRole(element, tag) || "form"
}

/**
 * Widgets whose groups are sections of their items, shown even unnamed: a menu's (a set of radio
 * items, one checked), a listbox's, a tree's (the children of a tree item).
 */
export const WIDGET_GROUPS = "[role=menu],[role=menubar],[role=listbox],[role=tree]"

/** Takes focus by itself or by a tabindex, so a presentational role on it is ignored (ARIA 1.2, 9.3). */
export const focusable = (element: Element, tag: string): boolean => {
  if (element.hasAttribute("tabindex") || (element as HTMLElement).isContentEditable) return true
  if ((element as HTMLButtonElement).disabled === true) return false
  switch (tag) {
    case "a":
    case "area":
      return element.hasAttribute("href")
    case "button":
    case "select":
    case "textarea":
    case "summary":
      return true
    case "input":
      return (element as HTMLInputElement).type !== "hidden"
    default:
      return false
  }
}

/** ARIA's global states and properties: one of them on an element makes it more than decoration. */
const GLOBAL_ARIA = [
  "aria-atomic",
  "aria-busy",
  "aria-controls",
  "aria-current",
  "aria-describedby",
  "aria-details",
  "aria-dropeffect",
  "aria-flowto",
  "aria-grabbed",
  "aria-keyshortcuts",
  "aria-label",
  "aria-labelledby",
  "aria-labeledby",
  "aria-live",
  "aria-owns",
  "aria-relevant",
  "aria-roledescription",
]

/** Carries a global ARIA attribute, which a presentational role cannot take away (ARIA 1.2, 9.3). */
export const globalAria = (element: Element): boolean =>
  GLOBAL_ARIA.some((name) => element.hasAttribute(name))

/**
 * Marked `role="presentation"` (or `none`) and held to it: decoration, not a thing of its own. A
 * focusable element keeps its role (ARIA 1.2, 9.3); so does a labelled one, which the caller checks.
 */
export const presentational = (element: Element, tag: string): boolean => {
  const role = explicitRole(element)
  return (role === "presentation" || role === "none") && !focusable(element, tag)
}

/** The containers that give a table part its meaning (wai-aria's required context). */
const TABLE_CONTEXT = "table,[role=table],[role=grid],[role=treegrid],[role=row],[role=rowgroup]"

/** The containers that give a menu item its meaning. */
const MENU_CONTEXT = "[role=menu],[role=menubar]"

/**
 * Roles that mean something only inside a container of theirs (wai-aria 1.2's required context
 * role), with the containers that give it: a table part in a table or grid, an option in a listbox
 * (a select's or datalist's included), a tree item in a tree, a menu item in a menu or menu bar, a
 * tab in a tab list.
 */
const CONTEXT_OF: Record<string, string> = {
  row: TABLE_CONTEXT,
  cell: TABLE_CONTEXT,
  gridcell: TABLE_CONTEXT,
  columnheader: TABLE_CONTEXT,
  rowheader: TABLE_CONTEXT,
  rowgroup: TABLE_CONTEXT,
  option: "[role=listbox],select,datalist",
  treeitem: "[role=tree]",
  menuitem: MENU_CONTEXT,
  menuitemcheckbox: MENU_CONTEXT,
  menuitemradio: MENU_CONTEXT,
  tab: "[role=tablist]",
}

/** Whether an element's parent in the accessibility tree is one of `containers`: its DOM ancestor, or the element that owns it by `aria-owns`. */
const inContext = (element: Element, containers: string): boolean => {
  if (element.parentElement?.closest(containers) != null) return true
  const id = element.id
  if (id === "") return false
  const root = element.getRootNode() as Document | ShadowRoot
  for (const owner of root.querySelectorAll("[aria-owns]"))
    if (owner.getAttribute("aria-owns")!.split(/\s+/).includes(id) && owner.matches(containers)) return true
  return false
}

/** Roles that mean something only in a table or grid: outside one, the tag's role always stands. */
const TABLE_PARTS = new Set(["row", "cell", "gridcell", "columnheader", "rowheader", "rowgroup"])
/**
 * Roles a box with no role of its own keeps outside their context only when the page labels it:
 * Chromium makes any lone `<div role="option">` a generic box (and still names a labelled one by its
 * label); the view keeps a labelled one the control the page made, with its name and its ref.
 */
const KEPT_WHEN_LABELLED = new Set(["option", "treeitem"])

/**
 * A role given outside the container it needs (see `CONTEXT_OF`) has no context. A table part takes
 * the role its tag gives it (a `<button role="gridcell">` alone is a button, as browsers read it),
 * but a box with no role of its own that the page labels keeps it (`<div role="cell" aria-label>`).
 * An option, tree item, menu item or tab takes its tag's role where the tag makes a control or a
 * landmark (`<button role="option">` is a button, `<nav role="menuitem">` a navigation, as the Web
 * Platform Tests expect); on any other element it stays the control the page made, with its ref
 * (a `<div role="tab">`, an `<li role="menuitem">`), except an unlabelled box given an option's or a
 * tree item's role, which is a plain box, as Chromium reads it (`<div role="option">` alone).
 */
export const outOfContext = (element: Element, role: string, tag: string): boolean => {
  const containers = CONTEXT_OF[role]
  if (containers === undefined || inContext(element, containers)) return false
  const native = implicitRole(element, tag)
  // A labelled box keeps a table part's role, as Chromium reads it, and so prints by its label.
  if (TABLE_PARTS.has(role)) return native !== "" || !labelled(element)
  if (INTERACTIVE.has(native) || CONTAINERS[native] !== undefined) return true
  return native === "" && KEPT_WHEN_LABELLED.has(role) && !labelled(element)
}

/** Labelled by the page: `aria-label`, `aria-labelledby` or the misspelling browsers honour. */
const labelled = (element: Element): boolean =>
  element.hasAttribute("aria-label") ||
  element.hasAttribute("aria-labelledby") ||
  element.hasAttribute("aria-labeledby")

/** Controls an image inside speaks for: the image is part of their name, not a target of its own. */
export const IMAGE_HOLDERS =
  "a[href],button,label,summary,[role=button],[role=link],[role=menuitem],[role=tab],[role=option],[onclick]"
/**
 * An image or icon a person points at to learn something: it shows a tooltip (a title, a `<title>`
 * in an svg, aria-describedby, a data-tooltip attribute) or the page gives it a cursor of its own
 * (help, pointer, zoom-in) — hover behaviour a page script cannot read from its listeners. It gets
 * a ref so it can be hovered; an image inside a link or button does not (the control is the target).
 */
export const hoverTarget = (element: Element): boolean => {
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

import type { ItemPick } from "@sextant/core"

/**
 * What the rule grammar makes of one clause of a command: a small, closed vocabulary of actions a
 * person asks of a page, with the element they mean described in words (never a selector).
 */

/** The kinds of element a phrase can name ("the Save button", "第二个链接"). */
export type RoleHint =
  | "button"
  | "link"
  | "textbox"
  | "checkbox"
  | "radio"
  | "combobox"
  | "listbox"
  | "option"
  | "tab"
  | "menuitem"
  | "dialog"
  | "section"
  | "result"
  | "heading"
  | "form"
  | "image"
  | "spinbutton"
  | "slider"
  | "row"
  /** A message of a mail list (an inbox row), said by its sender, subject or place; no role noun of its own. */
  | "message"

/**
 * An element described in words: its text, the kind of element, its position among its kind, the
 * container it sits in, or a menu path.
 *
 * @example
 * ```ts
 * // "the second link"        → { role: "link", ordinal: 2 }
 * // "OK in the dialog"       → { text: "OK", container: { role: "dialog" } }
 * // "Send outside the form"  → { text: "Send", outside: { role: "form" } }
 * // "File > Export > PDF"    → { path: ["File", "Export", "PDF"], text: "PDF" }
 * ```
 */
export interface TargetPhrase {
  /** The words naming the element, as typed (quotes removed). */
  readonly text?: string
  /** The whole phrase as typed, tried as a name too ("Tab #3"). */
  readonly raw: string
  readonly role?: RoleHint
  /** 1-based position among matching elements; -1 is the last. */
  readonly ordinal?: number
  readonly container?: TargetPhrase
  /** A container the element is not in: "Send outside the newsletter form". */
  readonly outside?: TargetPhrase
  /** A menu path, outermost first. */
  readonly path?: ReadonlyArray<string>
}

/**
 * An item of a list said by its position or by a quantity ("the second one", "the cheapest flight",
 * "倒数第二个"): the `ItemPick` of `@sextant/core` without what is done to it.
 */
export type ItemPhrase = Omit<ItemPick, "action">

/** One clause of a command. */
export type Command =
  | { readonly kind: "navigate"; readonly url: string }
  /** `options`: boxes of the log-in form said with it ("and keep me signed in"), ticked before it is sent. */
  | {
      readonly kind: "login"
      readonly username?: string
      readonly password?: string
      readonly options?: ReadonlyArray<TargetPhrase>
    }
  | { readonly kind: "search"; readonly query: string; readonly field?: TargetPhrase }
  | { readonly kind: "type"; readonly value: string; readonly field?: TargetPhrase }
  /** `verb`: the word the user said when it names the control too ("Reject", "Accept"), tried when the target alone fits nothing. */
  | { readonly kind: "click"; readonly target: TargetPhrase; readonly verb?: string }
  /** "open X" where X is no address: a link, a tab, a section or a result. */
  | { readonly kind: "open"; readonly target: TargetPhrase }
  /** Choose options of a list; no options means "select nothing". `target` reads the words as one element. */
  | {
      readonly kind: "select"
      readonly options: ReadonlyArray<string>
      readonly list?: TargetPhrase
      readonly target: TargetPhrase
    }
  /**
   * Choose one item of the page's list ("book the cheapest flight": `choose`) or put it in the cart
   * ("add the third product to the cart": `cart`); grounding finds the list and the item's own control.
   */
  | { readonly kind: "pick"; readonly item: ItemPhrase; readonly action: ItemPick["action"] }
  | { readonly kind: "check"; readonly target: TargetPhrase; readonly verb?: string }
  | { readonly kind: "uncheck"; readonly target: TargetPhrase }
  | { readonly kind: "expand"; readonly target: TargetPhrase }
  | { readonly kind: "collapse"; readonly target: TargetPhrase }
  | { readonly kind: "hover"; readonly target: TargetPhrase }
  /** Give the element the keyboard focus without typing. */
  | { readonly kind: "focus"; readonly target: TargetPhrase }
  /** Drag an element onto another, or by an offset in CSS pixels. */
  | {
      readonly kind: "drag"
      readonly source: TargetPhrase
      readonly target?: TargetPhrase
      readonly offset?: { readonly x: number; readonly y: number }
    }
  /** Select (highlight) a phrase of the page's text. */
  | { readonly kind: "selectText"; readonly text: string }
  /** "copy the invite code": read the text the page shows for the target, to paste it later. */
  | { readonly kind: "copy"; readonly target: TargetPhrase }
  /** "paste it into the Invite code field": type the text copied before into the field. */
  | { readonly kind: "paste"; readonly field?: TargetPhrase }
  | { readonly kind: "close"; readonly target: TargetPhrase }
  | { readonly kind: "submit"; readonly form?: TargetPhrase }
  | { readonly kind: "press"; readonly key: string }
  | {
      readonly kind: "scroll"
      readonly direction?: "up" | "down"
      readonly to?: "top" | "bottom" | "middle"
      readonly target?: TargetPhrase
      readonly count?: number
      /** The element that scrolls on its own ("the terms box", "the Change log"). */
      readonly within?: TargetPhrase
    }
  | { readonly kind: "back" }
  | { readonly kind: "nextPage" }
  | { readonly kind: "previousPage" }
  | {
      readonly kind: "extract"
      readonly fields: ReadonlyArray<string>
      readonly items?: string
      /** How many listing pages to visit (1 when not said). */
      readonly pages: number
      /** "every page", "all pages": the last page must be reached, not just `pages` of them. */
      readonly allPages?: boolean
    }

/** The kind of a command. */
export type CommandKind = Command["kind"]

/** Describes a command in words, for history lines and summaries. */
export const describeCommand = (command: Command): string => {
  switch (command.kind) {
    case "navigate":
      return `go to ${command.url}`
    case "login":
      return `${command.username === undefined ? "log in" : `log in as ${command.username}`}${
        command.options === undefined ? "" : `, checking ${command.options.map(describeTarget).join(", ")}`
      }`
    case "search":
      return `search for "${command.query}"`
    case "type":
      return `type "${command.value}"${command.field === undefined ? "" : ` into ${describeTarget(command.field)}`}`
    case "select":
      return command.options.length === 0
        ? `select nothing${command.list === undefined ? "" : ` in ${describeTarget(command.list)}`}`
        : `select ${command.options.map((option) => `"${option}"`).join(", ")}${command.list === undefined ? "" : ` in ${describeTarget(command.list)}`}`
    case "submit":
      return "submit the form"
    case "press":
      return `press ${command.key}`
    case "scroll":
      if (command.within !== undefined)
        return `scroll inside ${describeTarget(command.within)} to the ${command.to ?? "bottom"}`
      if (command.target !== undefined) return `scroll to ${describeTarget(command.target)}`
      return command.to === undefined
        ? `scroll ${command.direction ?? "down"}`
        : `scroll to the ${command.to}`
    case "back":
      return "go back"
    case "nextPage":
      return "go to the next page"
    case "previousPage":
      return "go to the previous page"
    case "extract":
      return `extract ${command.fields.join(", ")}${command.items === undefined ? "" : ` of ${command.items}`}${command.allPages === true ? " on every page" : command.pages > 1 ? ` on ${command.pages} pages` : ""}`
    case "drag":
      return `drag ${describeTarget(command.source)}${command.target === undefined ? "" : ` onto ${describeTarget(command.target)}`}${command.offset === undefined ? "" : ` by ${command.offset.x},${command.offset.y} px`}`
    case "selectText":
      return `select the text "${command.text}"`
    case "pick":
      return command.action === "cart"
        ? `add "${command.item.said}" to the cart`
        : `choose "${command.item.said}"`
    case "paste":
      return `paste${command.field === undefined ? "" : ` into ${describeTarget(command.field)}`}`
    default:
      return `${command.kind} ${describeTarget(command.target)}`
  }
}

/** Describes a target phrase in words. */
export const describeTarget = (target: TargetPhrase): string => {
  if (target.path !== undefined) return target.path.join(" > ")
  const parts: Array<string> = []
  if (target.ordinal !== undefined) parts.push(target.ordinal === -1 ? "the last" : `#${target.ordinal}`)
  if (target.text !== undefined) parts.push(`"${target.text}"`)
  if (target.role !== undefined) parts.push(target.role)
  const head = parts.length === 0 ? `"${target.raw}"` : parts.join(" ")
  return target.container === undefined ? head : `${head} in ${describeTarget(target.container)}`
}

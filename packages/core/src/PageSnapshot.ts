import { z } from "zod"

/** An element's box in CSS pixels, relative to the top-level viewport. */
export const Box = z.object({ x: z.number(), y: z.number(), width: z.number(), height: z.number() })
export type Box = z.output<typeof Box>

/** The operations a ref accepts, by role and state. */
export const ActionOp = z.enum([
  "click",
  "input",
  "clear",
  "focus",
  "check",
  "uncheck",
  "select",
  "set",
  "upload",
  "hover",
  "press",
  "drag",
  "selectText",
  "scroll",
])
export type ActionOp = z.output<typeof ActionOp>

/** The part of a screen an element or an output belongs to. */
export const PageRegion = z.enum(["header", "nav", "main", "results", "footer", "modal", "alert"])
export type PageRegion = z.output<typeof PageRegion>

/**
 * Where a guess at an unnamed element's purpose was read: its `id`, `name` or `data-action`
 * attribute, the link's target (`href`), its picture's file name (`src`), or its icon's symbol or
 * `<title>` (`icon`).
 */
export const GuessSource = z.enum(["id", "name", "data-action", "href", "src", "icon"])
export type GuessSource = z.output<typeof GuessSource>

/**
 * Words guessed for an element the accessible-name rules give no name (an icon button, an empty
 * link), from the page's code rather than from anything a reader is told: never the element's name.
 * The outline prints it after the ref as `(from words)`: `button [ref=e5] (id search)`.
 */
export const NameGuess = z.object({ from: GuessSource, words: z.string() })
export type NameGuess = z.output<typeof NameGuess>

/**
 * One interactive or meaningful element of a snapshot, found again by its `ref`.
 */
export const PageElement = z.object({
  ref: z.string(),
  role: z.string(),
  /** The accessible name, as the accessible-name rules compute it; empty when they give none. */
  name: z.string(),
  /** For an element with no name, what its code suggests it is for (see {@link NameGuess}). */
  guess: NameGuess.optional(),
  tag: z.string(),
  attributes: z.record(z.string(), z.string()).default({}),
  value: z.string().optional(),
  checked: z.union([z.boolean(), z.literal("mixed")]).optional(),
  selected: z.boolean().optional(),
  expanded: z.boolean().optional(),
  /** A toggle button's pressed state (`aria-pressed`); absent on a plain button. */
  pressed: z.union([z.boolean(), z.literal("mixed")]).optional(),
  disabled: z.boolean().optional(),
  required: z.boolean().optional(),
  invalid: z.boolean().optional(),
  /**
   * Whether the element's box intersects the viewport now (scrolling may be needed when false).
   * Elements hidden by CSS, ARIA, `inert` or the `hidden` attribute are not in a snapshot at all.
   */
  visible: z.boolean(),
  box: Box.optional(),
  /** Options of a select/listbox/combobox, as shown. */
  options: z.array(z.string()).optional(),
  /** Ranked selector candidates, each verified unique in its document: id > data-testid > name > href > type > path. */
  selectors: z.array(z.string()).default([]),
  /**
   * Same-origin iframe / open shadow root path from the top document, empty at the top: one selector
   * per boundary, unique in its own document; a shadow host's entry ends with `::shadow`.
   */
  frame: z.array(z.string()).default([]),
  /**
   * Semantic identity: role, name, stable context (landmark, form, heading) and position among
   * equals. A re-rendered element with the same key keeps its ref.
   */
  key: z.string().optional(),
  /** The region of the screen the element sits in. */
  region: PageRegion.optional(),
  /** The `key` of the form the element belongs to, if any. */
  form: z.string().optional(),
})
export type PageElement = z.output<typeof PageElement>

/**
 * The words to find an element by: its accessible name, or for an element with none the words
 * guessed for it (an icon button `(id search)` is found by "search"). Prompts and messages say the
 * name; this is for matching only.
 *
 * @example
 * ```ts
 * findingWords({ name: "", guess: { from: "id", words: "search" } }) // "search"
 * ```
 */
export const findingWords = (element: Pick<PageElement, "name" | "guess">): string =>
  element.name !== "" ? element.name : (element.guess?.words ?? "")

/** The operations one ref allows; `_page` carries the page-level ones (scroll, back, refresh). */
export const PageAction = z.object({
  ref: z.string(),
  role: z.string(),
  name: z.string(),
  ops: z.array(z.string()),
})
export type PageAction = z.output<typeof PageAction>

/** A form with its fields and submit control, keyed by a stable identity. */
export const PageForm = z.object({
  key: z.string(),
  ref: z.string().optional(),
  name: z.string(),
  fields: z.array(z.string()),
  submit: z.string().optional(),
})
export type PageForm = z.output<typeof PageForm>

/** Text the page shows as output, by region; a results list carries its item count. */
export const PageOutput = z.object({
  key: z.string(),
  region: PageRegion,
  text: z.string(),
  ref: z.string().optional(),
  count: z.number().int().nonnegative().optional(),
})
export type PageOutput = z.output<typeof PageOutput>

/** Size and cost of a snapshot. */
export const SnapshotStats = z.object({
  nodes: z.number().int().nonnegative(),
  elements: z.number().int().nonnegative(),
  lines: z.number().int().nonnegative(),
  chars: z.number().int().nonnegative(),
  tokens: z.number().int().nonnegative().optional(),
  truncated: z.boolean().default(false),
  durationMs: z.number().nonnegative().optional(),
})
export type SnapshotStats = z.output<typeof SnapshotStats>

/**
 * What `BrowserDriver.look()` returns: a token-cheap accessibility outline with refs, and the
 * structured data behind it.
 *
 * `tree` has one line per meaningful node, interactive nodes tagged with refs:
 * `- textbox "Email" [ref=e1]`, `- button "Sign In" [ref=e3]`.
 */
export const PageSnapshot = z.object({
  url: z.string(),
  title: z.string(),
  tree: z.string(),
  elements: z.record(z.string(), PageElement),
  actions: z.array(PageAction),
  forms: z.array(PageForm).default([]),
  outputs: z.array(PageOutput).default([]),
  stats: SnapshotStats,
  /** Which view `tree` is: the full outline, the interactive one, or the changes since an earlier look. */
  view: z.enum(["full", "interactive", "changes"]).optional(),
  /**
   * The whole outline behind `tree` when `tree` shows only part of it (a cut or the changes view),
   * so a later `look({ since })` compares against what the page really showed.
   */
  outline: z.string().optional(),
  /** The top document's scroll position when the snapshot was taken, in CSS pixels. */
  scroll: z
    .object({
      y: z.number(),
      height: z.number(),
      viewportHeight: z.number(),
    })
    .optional(),
})
export type PageSnapshot = z.output<typeof PageSnapshot>

/** Options of `look()`. */
export interface LookOptions {
  /** Keep the outline within this many tokens (o200k); the rest is named with how to see it. */
  readonly maxTokens?: number
  /** `full` (default) or `interactive`: only actionable elements with their labels and headings. */
  readonly mode?: "full" | "interactive"
  /**
   * A view for a model within about this many tokens (o200k) that keeps every element with a ref:
   * text is left out first, by priority (the page's header, navigation and footer before its main
   * content, long paragraphs before short lines, headings and alerts last), each part left out named
   * by a line with the look that shows it (`look({ within: "e11" })`, `look({ from: 120 })`); then
   * controls print compactly (`e4 Home`, `e9 button Search`). The controls alone are never cut: on a
   * page where they take more than the budget, the view lists them all and says so.
   */
  readonly budget?: number
  /** Only the subtree of this ref. */
  readonly within?: string
  /**
   * Start at this line of the view (0-based): the next part of a view that `maxTokens` cut, or of a
   * long region, as the cut's hint names it (`look({ within: "e11", from: 40 })`).
   */
  readonly from?: number
  /** Only what changed since this earlier snapshot. */
  readonly since?: PageSnapshot
  /** Selectors of extra fields whose values must never be shown (passwords are always hidden). */
  readonly secretSelectors?: ReadonlyArray<string>
  /** Cut text runs and values longer than this many characters, with a marker saying how much is left (default 3000). */
  readonly maxTextLength?: number
}

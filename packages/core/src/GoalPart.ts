import { z } from "zod"

/**
 * A kind of value the items of a list print, by which a quantity picks one of them: a price (`€74`,
 * `$12.50`), a time of day (`06:10`; of a range `06:10 – 10:45`, its start), a duration (`3h 40m`), a
 * calendar day (`2026-11-24`) or a rating (`★ 4.5`, `4.5/5`).
 */
export const ItemMeasure = z.enum(["price", "time", "duration", "date", "rating"])
export type ItemMeasure = z.output<typeof ItemMeasure>

/**
 * One item of a list the page shows, as an instruction names it: by its position (`2` the second, `-1`
 * the last, `-2` the second to last), by its own words (`name`: the one item whose text holds them) or by the least or greatest value of one kind its text prints
 * (`the cheapest`: the least price; `measures` are tried in order and the first one every item prints
 * is used, and only when every item prints exactly one such value and one item alone has the extreme),
 * and what is done to it: chosen (its Select / Book control, its radio) or put in the cart (its Add to
 * cart control).
 *
 * @example
 * ```ts
 * import { ItemPick } from "@sextant/core"
 * ItemPick.parse({ said: "the cheapest flight", rank: { measures: ["price"], order: "least" }, action: "choose" })
 * ```
 */
export const ItemPick = z
  .object({
    /** The words that name the item, as said. */
    said: z.string().min(1),
    ordinal: z
      .number()
      .int()
      .refine((value) => value !== 0, "an ordinal counts from 1, or from -1 at the end")
      .optional(),
    rank: z.object({ measures: z.array(ItemMeasure).min(1), order: z.enum(["least", "most"]) }).optional(),
    /** The words of the item's own name (`scented candle`): the one item whose text holds every one of them. */
    name: z.string().min(1).optional(),
    action: z.enum(["choose", "cart"]),
  })
  .refine((pick) => [pick.ordinal, pick.rank, pick.name].filter((said) => said !== undefined).length === 1, {
    message: "an item is named by its position, by a rank or by its name, exactly one of them",
  })
export type ItemPick = z.output<typeof ItemPick>

/**
 * The postcondition of one part of a goal, checked by the executor after the run against the page,
 * the observations and the outputs — never against "the step returned ok" alone.
 *
 * - `loggedIn`: no password field is visible and no error message is shown after the part's steps,
 *   and the page does not ask for a one-time code or say that the account is locked.
 * - `records`: at least `min` records were extracted, each holds at least one non-empty value, and
 *   every field in `fields` is present and non-empty in each of them. `fields` may be empty (a goal
 *   that names no fields, "extract the products"): the records must still hold something.
 * - `lastPage`: pagination stopped because it reached a page with no Next control, on a page that
 *   still showed the list.
 * - `pagesRead`: pagination read `pages` pages; a list with fewer pages leaves it unmet, saying how
 *   many there are.
 * - `searched`: the page shows results for `query`, or says plainly that there are none.
 * - `submitted`: a form was submitted (the `FormSubmitted` signal) and no validation error is visible.
 * - `pageChanged`: the part's action took the page somewhere else (URL or main heading changed).
 * - `actionsSucceeded`: the part's steps ran and each reported its own effect (the field holds the
 *   value, the option is selected, the element was clicked). With `within` (the words naming a container
 *   or an item: "Tom Okafor | Bluegate Logistics", a row, a card, a dialog), the control the part pressed
 *   must sit inside what those words name on the page it was pressed on, when that page shows it.
 * - `urlMatches`, `textPresent`, `elementExists`: the page after the part matches.
 *
 * @example
 * ```ts
 * import { GoalCheck } from "@sextant/core"
 * GoalCheck.parse({ type: "records", fields: ["name", "price"] }) // min defaults to 1
 * ```
 */
export const GoalCheck = z.discriminatedUnion("type", [
  z.object({ type: z.literal("loggedIn") }),
  z.object({
    type: z.literal("records"),
    fields: z.array(z.string().min(1)).default([]),
    min: z.number().int().positive().default(1),
  }),
  z.object({ type: z.literal("lastPage") }),
  /**
   * Pagination read `pages` pages. A list with fewer pages does not satisfy it: the shortfall is the
   * unmet part ("asked for 8 pages, the list has 5"), never a silent success.
   */
  z.object({ type: z.literal("pagesRead"), pages: z.number().int().positive() }),
  z.object({ type: z.literal("searched"), query: z.string().min(1) }),
  z.object({ type: z.literal("submitted") }),
  z.object({ type: z.literal("pageChanged") }),
  z.object({ type: z.literal("actionsSucceeded"), within: z.string().min(1).optional() }),
  z.object({ type: z.literal("urlMatches"), pattern: z.string().min(1) }),
  z.object({ type: z.literal("textPresent"), text: z.string().min(1) }),
  z.object({ type: z.literal("elementExists"), selector: z.string().min(1) }),
  /** Each named checkbox, radio or switch is checked (or, with `checked: false`, unchecked) on the page at the end. */
  z.object({
    type: z.literal("controlState"),
    targets: z.array(z.string().min(1)).min(1),
    checked: z.boolean(),
  }),
  /** The named field holds the value on the page at the end. */
  z.object({ type: z.literal("fieldValue"), target: z.string().min(1), value: z.string() }),
  /**
   * Each option is shown chosen on the page at the end: its option, radio or checkbox selected, a
   * select list holding it, or the control that opened the list showing it.
   */
  z.object({
    type: z.literal("optionsChosen"),
    options: z.array(z.string().min(1)).min(1),
    list: z.string().min(1).optional(),
  }),
  /**
   * The item of the page's list that `pick` names was chosen: the part's last action pressed that item's
   * own control (its Select or Add to cart button, its radio) on the page it was chosen on, where the
   * same words name the same item again, and the page showed the press (a radio ends checked).
   */
  z.object({ type: z.literal("itemPicked"), pick: ItemPick }),
])
export type GoalCheck = z.output<typeof GoalCheck>
export type GoalCheckInput = z.input<typeof GoalCheck>

/** What a part of a goal does, as the planners name it. */
export const GoalPartKind = z.enum([
  "navigate",
  "login",
  "search",
  "fill",
  "submit",
  "click",
  "open",
  "select",
  "check",
  "extract",
  "paginate",
  "scroll",
  "press",
  "back",
  "other",
])
export type GoalPartKind = z.output<typeof GoalPartKind>

/**
 * One part of a goal ("log in", "extract name, price of the products") and the check that says it
 * was done. A planner states the parts; each step of a plan may name the part it works on (`Step.part`).
 *
 * @example
 * ```ts
 * import { GoalPart } from "@sextant/core"
 * GoalPart.parse({ kind: "login", description: "log in", check: { type: "loggedIn" } })
 * ```
 */
export const GoalPart = z.object({
  kind: GoalPartKind,
  description: z.string().min(1),
  check: GoalCheck,
})
export type GoalPart = z.output<typeof GoalPart>
export type GoalPartInput = z.input<typeof GoalPart>

/**
 * A part whose check did not hold: the part, the check in words, and what was seen instead.
 *
 * @example
 * ```ts
 * const unmet: UnmetPart = { part: "extract name of the products", check: "at least 1 record with name", evidence: "no records were extracted" }
 * ```
 */
export const UnmetPart = z.object({
  part: z.string(),
  check: z.string(),
  evidence: z.string(),
})
export type UnmetPart = z.output<typeof UnmetPart>

/** A check in words, for summaries and the CLI. */
export const describeGoalCheck = (check: GoalCheck): string => {
  switch (check.type) {
    case "loggedIn":
      return "the login form is gone and no error message is shown"
    case "records":
      return `at least ${check.min} record${check.min === 1 ? "" : "s"}, each holding a non-empty value${check.fields.length === 0 ? "" : `, with ${check.fields.join(", ")} present and non-empty`}`
    case "lastPage":
      return "pagination reached a page with no Next"
    case "pagesRead":
      return `pagination read ${check.pages} pages`
    case "searched":
      return `results (or an explicit "no results") for "${check.query}" appeared`
    case "submitted":
      return "a form was submitted and no validation error is shown"
    case "pageChanged":
      return "the URL or the main heading changed to the opened page"
    case "actionsSucceeded":
      return check.within === undefined
        ? "the part's actions took effect"
        : `the part's actions took effect, on a control inside "${check.within}"`
    case "urlMatches":
      return `the URL matches /${check.pattern}/`
    case "textPresent":
      return `the page shows "${check.text}"`
    case "elementExists":
      return `an element matches ${check.selector}`
    case "controlState":
      return `${check.targets.map((target) => `"${target}"`).join(", ")} ${check.checked ? "checked" : "unchecked"} on the page`
    case "fieldValue":
      return `the field "${check.target}" holds "${check.value}"`
    case "optionsChosen":
      return `${check.options.map((option) => `"${option}"`).join(", ")} chosen${check.list === undefined ? "" : ` in "${check.list}"`} on the page`
    case "itemPicked":
      return `"${check.pick.said}" of the page's list ${check.pick.action === "cart" ? "put in the cart" : "chosen"}, and no other item`
  }
}

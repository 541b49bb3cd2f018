import { z } from "zod"

/**
 * The postcondition of one part of a goal, checked by the executor after the run against the page,
 * the observations and the outputs — never against "the step returned ok" alone.
 *
 * - `loggedIn`: no password field is visible and no error message is shown after the part's steps.
 * - `records`: at least `min` records were extracted and every field in `fields` is present and
 *   non-empty in each of them.
 * - `lastPage`: pagination stopped because it reached a page with no Next control, on a page that
 *   still showed the list.
 * - `pagesRead`: pagination read `pages` pages; a list with fewer pages leaves it unmet, saying how
 *   many there are.
 * - `searched`: the page shows results for `query`, or says plainly that there are none.
 * - `submitted`: a form was submitted (the `FormSubmitted` signal) and no validation error is visible.
 * - `pageChanged`: the part's action took the page somewhere else (URL or main heading changed).
 * - `actionsSucceeded`: the part's steps ran and each reported its own effect (the field holds the
 *   value, the option is selected, the element was clicked).
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
  z.object({ type: z.literal("actionsSucceeded") }),
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
      return `at least ${check.min} record${check.min === 1 ? "" : "s"}${check.fields.length === 0 ? "" : ` with ${check.fields.join(", ")} present and non-empty`}`
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
      return "the part's actions took effect"
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
  }
}

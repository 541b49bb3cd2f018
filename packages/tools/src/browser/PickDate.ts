import {
  type ActResult,
  BrowserDriver,
  DriverError,
  defineTool,
  ElementNotFound,
  InvalidArgument,
  isoDay,
  MONTH_NAMES,
  NotInteractable,
  readCalendarDay,
  type Target,
} from "@sextant/core"
import { type CalendarState, pageCall } from "@sextant/perception"
import { Effect } from "effect"
import { z } from "zod"
import { resolveTarget, textRoles } from "./internal/Locate.ts"
import { ActionOutput, TargetText } from "./Outputs.ts"

/** How long a picker may take to open, or to show another month after a click. */
const SETTLE_MS = 1_500
const POLL_MS = 100

/**
 * The day a text names as `2024-05-14` (see `readCalendarDay` for the forms read), or undefined for
 * anything else or a day no calendar has.
 */
export const dayOfText = (text: string): string | undefined => {
  const day = readCalendarDay(text)
  return day === undefined ? undefined : isoDay(day)
}

/** Whether a field's value is the day: the same day in words or numbers, or the same three numbers. */
const holdsDay = (value: string, day: string): boolean => {
  if (dayOfText(value) === day) return true
  const numbers = (text: string) =>
    (text.match(/\d+/g) ?? [])
      .map(Number)
      .sort((a, b) => a - b)
      .join(",")
  return /^[\d\s./-]+$/.test(value.trim()) && numbers(value) === numbers(day)
}

const monthIndex = (month: string) => Number(month.slice(0, 4)) * 12 + Number(month.slice(5, 7)) - 1

/**
 * Chooses a day in a calendar date picker as a person does: opens the picker (a click on the field,
 * else on the calendar button beside it), reads the month it shows, clicks Next or Previous month
 * until it shows the wanted one, and clicks the day. A native date input takes the value directly.
 * Fails with `ElementNotFound` when no picker opens and `NotInteractable` when the picker cannot be
 * moved to the month or the field does not show the day afterwards.
 *
 * @example
 * ```ts
 * import { pickDate } from "@sextant/tools"
 * const result = pickDate({ target: "e12", date: "2024-06-14" })
 * ```
 */
export const pickDate = Effect.fn("BrowserTools.pickDate")(
  function* (input: {
    readonly target?: string | undefined
    readonly label?: string | undefined
    readonly date: string
    readonly maxMonths?: number | undefined
  }) {
    const driver = yield* BrowserDriver
    const fail = (reason: ElementNotFound | NotInteractable | InvalidArgument) =>
      new DriverError({ method: "pickDate", reason })
    const day = dayOfText(input.date)
    if (day === undefined)
      return yield* fail(
        new InvalidArgument({
          detail: `pickDate needs a date such as 2024-05-14 or June 14, 2024, got "${input.date}"`,
        }),
      )
    const target: Target = yield* resolveTarget("pickDate", input, textRoles)
    const named = "ref" in target ? target.ref : "selector" in target ? target.selector : "the field"
    // The page script needs a selector: a ref's is taken from a look (refs stay the same across looks).
    let fieldSelector = "selector" in target ? target.selector : undefined
    if (fieldSelector === undefined && "ref" in target) {
      const snapshot = yield* driver.look()
      fieldSelector = snapshot.elements[target.ref]?.selectors[0]
    }
    if (fieldSelector === undefined)
      return yield* fail(new ElementNotFound({ target: `${named}: call look() to refresh` }))
    const read = pageCall(driver, "readCalendar", fieldSelector, day, MONTH_NAMES)
    const settle = (until: (state: CalendarState) => boolean) =>
      Effect.gen(function* () {
        let state = yield* read
        for (let waited = 0; !until(state) && waited < SETTLE_MS; waited += POLL_MS) {
          yield* Effect.sleep(POLL_MS)
          state = yield* read
        }
        return state
      })

    let state = yield* read
    if (!state.field) return yield* fail(new ElementNotFound({ target: named }))
    if (state.fieldType === "date") return yield* driver.act(target, "input", day)
    if (!state.open) {
      yield* driver.act(target, "click")
      state = yield* settle((next) => next.open)
    }
    if (!state.open && state.opener !== null) {
      yield* driver.act({ selector: state.opener }, "click")
      state = yield* settle((next) => next.open)
    }
    if (!state.open)
      return yield* fail(
        new ElementNotFound({
          target: `a calendar for ${named}: clicking it${state.opener === null ? "" : " and the calendar button beside it"} showed no grid of days`,
        }),
      )
    const maxMonths = input.maxMonths ?? 24
    for (let moves = 0; state.day === null; moves += 1) {
      const shown = state.shown
      if (shown === null)
        return yield* fail(
          new NotInteractable({ target: named, detail: "the calendar does not say which month it shows" }),
        )
      const forward = monthIndex(day) > monthIndex(shown)
      const button = forward ? state.next : state.previous
      if (monthIndex(day) === monthIndex(shown) || button === null || moves >= maxMonths)
        return yield* fail(
          new NotInteractable({
            target: named,
            detail:
              monthIndex(day) === monthIndex(shown)
                ? `the calendar shows ${shown} but no enabled cell for ${day}`
                : button === null
                  ? `the calendar shows ${shown} and has no ${forward ? "next" : "previous"} month button`
                  : `the calendar still shows ${shown} after ${maxMonths} moves towards ${day}`,
          }),
        )
      yield* driver.act({ selector: button }, "click")
      state = yield* settle((next) => next.shown !== shown)
    }
    const clicked: ActResult = yield* driver.act({ selector: state.day }, "click")
    state = yield* settle((next) => holdsDay(next.value, day))
    if (!holdsDay(state.value, day))
      return yield* fail(
        new NotInteractable({
          target: named,
          detail: `the field shows ${state.value === "" ? "nothing" : `"${state.value}"`} after choosing ${day} in its calendar`,
        }),
      )
    return {
      ...clicked,
      hint: `picked ${day} in the calendar; the field shows "${state.value}". ${clicked.hint}`,
    }
  },
  Effect.ensuring(
    BrowserDriver.use((driver) => pageCall(driver, "clearMarks", "data-sextant-date")).pipe(Effect.ignore),
  ),
)

/**
 * The `pickDate` tool: choose a day in a date field that opens a calendar (a read-only field, or one
 * that ignores typing), by navigating the calendar's months and clicking the day.
 *
 * @example
 * ```ts
 * import { pickDateTool } from "@sextant/tools"
 * const result = pickDateTool.run({ label: "Check-in", date: "2024-05-14" })
 * ```
 */
export const pickDateTool = defineTool({
  name: "pickDate",
  group: "forms",
  description:
    "Choose a day in a date field that opens a calendar picker (typing does not take): opens the calendar, moves it to the month with its Next/Previous month buttons and clicks the day. Name the field by target (ref or CSS selector) or label; date like 2024-05-14.",
  input: z
    .object({
      target: TargetText.optional(),
      label: z.string().trim().min(1).optional().describe("The field's visible label, when no target"),
      date: z.string().trim().min(1).describe("The day, e.g. 2024-05-14 or June 14, 2024"),
      maxMonths: z
        .number()
        .int()
        .positive()
        .max(240)
        .optional()
        .describe("At most this many Next/Previous month clicks (default 24)"),
    })
    .refine((input) => input.target !== undefined || input.label !== undefined, {
      message: "give a target (a ref such as e12 or a CSS selector) or the field's label",
      path: ["target"],
    }),
  output: ActionOutput,
  effects: { clicks: true, idempotent: true },
  run: (input) => pickDate(input),
})

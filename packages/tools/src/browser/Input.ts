import {
  type ActionOp,
  type ActValue,
  BrowserDriver,
  defineTool,
  parseTarget,
  type Target,
} from "@sextant/core"
import { pageCall } from "@sextant/perception"
import { Effect } from "effect"
import { z } from "zod"
import {
  checkRoles,
  clearTextMarks,
  resolveTarget,
  selectRoles,
  targetByText,
  textRoles,
} from "./internal/Locate.ts"
import { ActionOutput, TargetText } from "./Outputs.ts"

const label = z
  .string()
  .trim()
  .min(1)
  .describe("The visible label of the control, used when no target is given (found with look())")

const TargetOrLabel = z.object({ target: TargetText.optional(), label: label.optional() })

// A control is named by a target or by its label; the check names both so a model can fix the call.
const needsTargetOrLabel = <
  T extends { readonly target?: string | undefined; readonly label?: string | undefined },
>(
  schema: z.ZodType<T>,
) =>
  schema.refine((input) => input.target !== undefined || input.label !== undefined, {
    message: "give a target (a ref such as e12 or a CSS selector) or the control's label",
    path: ["target"],
  })

const act = (target: Target, op: ActionOp, value?: ActValue) =>
  BrowserDriver.use((driver) => driver.act(target, op, value))

/**
 * The `click` tool: click an element with a trusted pointer click.
 *
 * @example
 * ```ts
 * import { clickTool } from "@sextant/tools"
 * const result = clickTool.run({ target: "e15" })
 * ```
 */
export const clickTool = defineTool({
  name: "click",
  group: "core",
  description:
    "Click an element (link, button, checkbox, any clickable element) given as a ref from look() such as e12 or a CSS selector. Returns whether the page changed, the signals (NavigationOccurred, ErrorAppeared, ResultsAppeared…) and a hint.",
  input: z.object({ target: TargetText }),
  output: ActionOutput,
  effects: { clicks: true },
  run: ({ target }) => act(parseTarget(target), "click"),
})

/**
 * The `fill` tool: replace the text of a field.
 *
 * @example
 * ```ts
 * import { fillTool } from "@sextant/tools"
 * const result = fillTool.run({ label: "Email", value: "alice@example.com" })
 * ```
 */
export const fillTool = defineTool({
  name: "fill",
  group: "forms",
  description:
    "Replace the text of a text field (textbox, search box, combobox, number field) with value, typing it like a user. Name the field by target (ref or CSS selector) or by its visible label. An empty value clears the field.",
  input: needsTargetOrLabel(
    TargetOrLabel.extend({ value: z.string().describe("The text the field should hold") }),
  ),
  output: ActionOutput,
  effects: { clicks: true },
  run: (input) =>
    Effect.flatMap(resolveTarget("fill", input, textRoles), (target) => act(target, "input", input.value)),
})

/**
 * The `press` tool: press a key or a chord, on an element or on whatever has focus.
 *
 * @example
 * ```ts
 * import { pressTool } from "@sextant/tools"
 * const result = pressTool.run({ key: "Enter" })
 * ```
 */
export const pressTool = defineTool({
  name: "press",
  group: "core",
  description:
    "Press a key or chord (Enter, Tab, Escape, ArrowDown, Control+a…) on the target, or on the element that has focus when no target is given (Enter in a field usually submits its form).",
  input: z.object({
    key: z.string().trim().min(1).default("Enter").describe("Key or chord, e.g. Enter, Escape, Control+a"),
    target: TargetText.optional(),
  }),
  output: ActionOutput,
  effects: { clicks: true },
  run: ({ key, target }) =>
    Effect.gen(function* () {
      if (target !== undefined) return yield* act(parseTarget(target), "press", key)
      const driver = yield* BrowserDriver
      const focused = yield* pageCall(driver, "hasFocus")
      return yield* act({ selector: focused ? ":focus" : "body" }, "press", key)
    }),
})

const makeCheckTool = <const Name extends "check" | "uncheck">(name: Name) =>
  defineTool({
    name,
    group: "forms",
    description:
      name === "check"
        ? "Check a checkbox, switch or radio button given by target (ref or CSS selector) or by its label. Does nothing when it is already checked."
        : "Uncheck a checkbox or switch given by target (ref or CSS selector) or by its label. Does nothing when it is already unchecked.",
    input: needsTargetOrLabel(TargetOrLabel),
    output: ActionOutput,
    effects: { clicks: true, idempotent: true },
    run: (input) => Effect.flatMap(resolveTarget(name, input, checkRoles), (target) => act(target, name)),
  })

/**
 * The `check` tool: make a checkbox, switch or radio button checked.
 *
 * @example
 * ```ts
 * import { checkTool } from "@sextant/tools"
 * const result = checkTool.run({ label: "Subscribe to the newsletter" })
 * ```
 */
export const checkTool = makeCheckTool("check")

/**
 * The `uncheck` tool: make a checkbox or switch unchecked.
 *
 * @example
 * ```ts
 * import { uncheckTool } from "@sextant/tools"
 * const result = uncheckTool.run({ target: "#subscribe" })
 * ```
 */
export const uncheckTool = makeCheckTool("uncheck")

/**
 * The `select` tool: choose options of a select, listbox or combobox.
 *
 * @example
 * ```ts
 * import { selectTool } from "@sextant/tools"
 * const result = selectTool.run({ label: "Topic", values: ["Support"] })
 * ```
 */
export const selectTool = defineTool({
  name: "select",
  group: "forms",
  description:
    "Choose option(s) of a drop-down or list box by their visible text (or value), given by target (ref or CSS selector) or by its label. Several values select several options of a multiple select; an empty list clears it.",
  input: needsTargetOrLabel(
    TargetOrLabel.extend({
      values: z
        .union([z.string(), z.array(z.string())])
        .transform((value) => (typeof value === "string" ? [value] : value))
        .describe("Option text(s) to choose, e.g. ['Support']"),
    }),
  ),
  output: ActionOutput,
  effects: { clicks: true, idempotent: true },
  run: (input) =>
    Effect.flatMap(resolveTarget("select", input, selectRoles), (target) =>
      act(target, "select", input.values),
    ),
})

/**
 * The `upload` tool: set the file of a file input.
 *
 * @example
 * ```ts
 * import { uploadTool } from "@sextant/tools"
 * const result = uploadTool.run({ label: "Attachment", path: "/tmp/report.pdf" })
 * ```
 */
export const uploadTool = defineTool({
  name: "upload",
  group: "files",
  description:
    "Put a local file into a file input, given by target (ref or CSS selector) or by its label. path is an absolute path on the machine that runs the agent.",
  input: needsTargetOrLabel(
    TargetOrLabel.extend({ path: z.string().trim().min(1).describe("Absolute path of the file to upload") }),
  ),
  output: ActionOutput,
  effects: { clicks: true, idempotent: true },
  run: (input) =>
    Effect.flatMap(resolveTarget("upload", input, new Set(["button", "textbox"])), (target) =>
      act(target, "upload", input.path),
    ),
})

/**
 * The `hover` tool: move the mouse over an element with a trusted pointer move, to open hover menus
 * and tooltips.
 *
 * @example
 * ```ts
 * import { hoverTool } from "@sextant/tools"
 * const result = hoverTool.run({ target: "e7" })
 * ```
 */
export const hoverTool = defineTool({
  name: "hover",
  group: "gestures",
  description:
    "Move the mouse over an element (ref from look() or CSS selector) without clicking, e.g. to open a menu that opens on hover or show a tooltip.",
  input: z.object({ target: TargetText }),
  output: ActionOutput,
  // Not a click, but it acts on the page like one: menus open, so it counts where clicks count.
  effects: { clicks: true, idempotent: true },
  run: ({ target }) => act(parseTarget(target), "hover"),
})

/**
 * The `focus` tool: give an element the keyboard focus, as a click or Tab would, without typing.
 *
 * @example
 * ```ts
 * import { focusTool } from "@sextant/tools"
 * const result = focusTool.run({ label: "Notes" })
 * ```
 */
export const focusTool = defineTool({
  name: "focus",
  group: "forms",
  description:
    "Give an element (ref, CSS selector, or the visible label of a field) the keyboard focus without typing, e.g. before pressing a key.",
  input: needsTargetOrLabel(TargetOrLabel),
  output: ActionOutput,
  effects: { clicks: true, idempotent: true },
  run: (input) =>
    Effect.flatMap(
      input.target !== undefined
        ? Effect.succeed(parseTarget(input.target))
        : resolveTarget("focus", input, textRoles),
      (target) => act(target, "focus"),
    ),
})

/**
 * The `setValue` tool: set a slider, a spin button or a date/time/number field to a value. Native
 * inputs take the value in their own format; an ARIA slider or spin button (a value in
 * `aria-valuenow`) is moved with a trusted click and arrow keys until it holds the number.
 *
 * @example
 * ```ts
 * import { setValueTool } from "@sextant/tools"
 * const result = setValueTool.run({ target: "e12", value: "80" })
 * ```
 */
export const setValueTool = defineTool({
  name: "setValue",
  group: "forms",
  description:
    "Set a slider, spin button, number, date or time field (ref or CSS selector) to a value: a number for sliders and spin buttons, 2024-05-01 for dates, 14:30 for times.",
  input: z.object({
    target: TargetText,
    value: z.union([z.string(), z.number()]).transform(String).describe("The value, e.g. 80 or 2024-05-01"),
  }),
  output: ActionOutput,
  effects: { clicks: true, idempotent: true },
  run: ({ target, value }) =>
    act(parseTarget(target), "input", String(value)).pipe(
      // An element that takes no text (an ARIA slider or spin button) is moved by pointer and keys.
      Effect.catchIf(
        (error) => error.reason._tag === "NotEditable",
        () => act(parseTarget(target), "set", String(value)),
      ),
    ),
})

/**
 * The `drag` tool: press on an element, move, and release over another element or at an offset, with
 * trusted pointer events (the way drag-and-drop boards, sortable lists and sliders listen).
 *
 * @example
 * ```ts
 * import { dragTool } from "@sextant/tools"
 * const onto = dragTool.run({ target: "e7", to: "e12" })
 * const by = dragTool.run({ target: "e9", x: 100, y: 0 })
 * ```
 */
export const dragTool = defineTool({
  name: "drag",
  group: "gestures",
  description:
    "Drag an element (ref or CSS selector) and drop it onto another element (to: ref or CSS selector), or move it by x/y CSS pixels, with a real mouse press, move and release.",
  input: z
    .object({
      target: TargetText.optional(),
      text: z.string().trim().min(1).optional().describe("The dragged element's words, when it has no ref"),
      to: TargetText.optional().describe("Where to drop it: a ref or CSS selector"),
      toText: z.string().trim().min(1).optional().describe("Where to drop it, by its words"),
      x: z.number().optional().describe("Horizontal offset in CSS pixels when there is no `to`"),
      y: z.number().optional().describe("Vertical offset in CSS pixels when there is no `to`"),
    })
    .refine((input) => input.target !== undefined || input.text !== undefined, {
      message: "give what to drag: target (a ref or CSS selector) or text (its words)",
      path: ["target"],
    })
    .refine(
      (input) =>
        input.to !== undefined ||
        input.toText !== undefined ||
        input.x !== undefined ||
        input.y !== undefined,
      {
        message: "give where to drop it: to (a ref or CSS selector), toText, or an offset x/y in pixels",
        path: ["to"],
      },
    ),
  output: ActionOutput,
  effects: { clicks: true },
  run: ({ target, text, to, toText, x, y }) =>
    Effect.gen(function* () {
      const source = target !== undefined ? parseTarget(target) : yield* targetByText("drag", text ?? "")
      if (to === undefined && toText !== undefined) {
        const destination = yield* targetByText("drag", toText)
        return yield* act(source, "drag", ["to", (destination as { selector: string }).selector])
      }
      return yield* act(
        source,
        "drag",
        to !== undefined ? ["to", to] : ["by", String(x ?? 0), String(y ?? 0)],
      )
    }).pipe(Effect.ensuring(clearTextMarks)),
})

/**
 * The `selectText` tool: highlight a phrase of the page's text with a trusted press, move and release,
 * as a person selects it with the mouse.
 *
 * @example
 * ```ts
 * import { selectTextTool } from "@sextant/tools"
 * const result = selectTextTool.run({ text: "quick brown fox" })
 * ```
 */
export const selectTextTool = defineTool({
  name: "selectText",
  group: "gestures",
  description:
    "Select (highlight) a phrase of the page's text with the mouse, e.g. before copying it. target narrows where to look (ref or CSS selector); the whole page by default.",
  input: z.object({
    text: z.string().trim().min(1).describe("The exact words to select"),
    target: TargetText.optional(),
  }),
  output: ActionOutput,
  effects: { clicks: true, idempotent: true },
  run: ({ text, target }) =>
    act(target === undefined ? { selector: "body" } : parseTarget(target), "selectText", text),
})

/**
 * The `scrollInside` tool: scroll an element that scrolls on its own (a list box, a text area, a terms
 * box) to its end or its start with a trusted mouse wheel over it.
 *
 * @example
 * ```ts
 * import { scrollInsideTool } from "@sextant/tools"
 * const result = scrollInsideTool.run({ target: "e5", to: "bottom" })
 * ```
 */
export const scrollInsideTool = defineTool({
  name: "scrollInside",
  group: "gestures",
  description:
    "Scroll inside an element that has its own scroll bar (ref or CSS selector) to its bottom or top with the mouse wheel, e.g. a terms box or a long list.",
  input: z
    .object({
      target: TargetText.optional(),
      text: z.string().trim().min(1).optional().describe("The scrolling element's words, when it has no ref"),
      to: z.enum(["bottom", "top"]).default("bottom"),
    })
    .refine((input) => input.target !== undefined || input.text !== undefined, {
      message: "give what to scroll: target (a ref or CSS selector) or text (its label or words)",
      path: ["target"],
    }),
  output: ActionOutput,
  effects: { idempotent: true },
  run: ({ target, text, to }) =>
    Effect.flatMap(
      target !== undefined
        ? Effect.succeed(parseTarget(target))
        : targetByText("scrollInside", text ?? "", { scrollable: true }),
      (element) => act(element, "scroll", to),
    ).pipe(Effect.ensuring(clearTextMarks)),
})

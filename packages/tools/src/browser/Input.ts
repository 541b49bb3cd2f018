import {
  type ActionOp,
  type ActValue,
  BrowserDriver,
  defineTool,
  parseTarget,
  type Target,
} from "@sextant/core"
import { Effect } from "effect"
import { z } from "zod"
import { checkRoles, resolveTarget, selectRoles, textRoles } from "./internal/Locate.ts"
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
      const focused = yield* driver.evaluate(
        "return document.activeElement !== null && document.activeElement !== document.body",
      )
      return yield* act({ selector: focused === true ? ":focus" : "body" }, "press", key)
    }),
})

const makeCheckTool = <const Name extends "check" | "uncheck">(name: Name) =>
  defineTool({
    name,
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

import {
  BrowserDriver,
  DriverError,
  defineTool,
  ElementNotFound,
  type PageElement,
  type PageSnapshot,
} from "@sextant/core"
import { Effect } from "effect"
import { z } from "zod"
import { checkTool, clickTool, fillTool, selectTool, uncheckTool, uploadTool } from "../browser/Input.ts"
import { elementLabelled } from "../browser/internal/Locate.ts"
import { ActionOutput } from "../browser/Outputs.ts"
import { CompoundError, ControlNotFound } from "./CompoundError.ts"
import { usable } from "./internal/Page.ts"

const fieldRoles = new Set([
  "textbox",
  "searchbox",
  "combobox",
  "spinbutton",
  "listbox",
  "checkbox",
  "switch",
  "slider",
])
const choiceRoles = new Set(["radio", "button"])

const truthy = (value: string | boolean | ReadonlyArray<string>): boolean =>
  value === true || (typeof value === "string" && /^(true|yes|on|1|checked)$/i.test(value.trim()))

/**
 * The control for a label: a field first; for a radio group (whose label names no field) the
 * radio whose label is the value; else a radio or a button (a file input shows as a button).
 */
const controlFor = (
  snapshot: PageSnapshot,
  label: string,
  value: string | boolean | ReadonlyArray<string>,
): PageElement | undefined =>
  elementLabelled(snapshot, label, fieldRoles) ??
  (typeof value === "string" ? elementLabelled(snapshot, value, new Set(["radio"])) : undefined) ??
  elementLabelled(snapshot, label, choiceRoles)

/**
 * The `fillForm` tool: fill several fields of a form by their labels, optionally submitting it.
 *
 * @example
 * ```ts
 * import { fillFormTool } from "@sextant/tools"
 * const filled = fillFormTool.run({ values: { Name: "Ada", Email: "ada@example.com", Topic: "Support", Subscribe: true }, submit: true })
 * ```
 */
export const fillFormTool = defineTool({
  name: "fillForm",
  group: "forms",
  description: [
    "Fill form fields by their visible labels: text fields get the text, drop-downs select the option, checkboxes take true/false, a radio group takes the label of the choice (by the group's or the choice's label), a file input takes a file path.",
    "With submit true, press the form's submit button afterwards.",
  ].join(" "),
  input: z.object({
    values: z
      .record(z.string().min(1), z.union([z.string(), z.boolean(), z.array(z.string())]))
      .refine((values) => Object.keys(values).length > 0, "give at least one label and value")
      .describe('Label → value, e.g. { "Email": "ada@example.com", "Subscribe": true, "Topic": "Support" }'),
    submit: z.boolean().default(false).describe("Submit the form after filling it"),
  }),
  output: z.object({
    filled: z.array(z.object({ label: z.string(), ref: z.string(), op: z.string() })),
    submitted: z.boolean(),
    result: ActionOutput.optional(),
  }),
  effects: { clicks: true, submits: true },
  run: ({ values, submit }) =>
    Effect.gen(function* () {
      const driver = yield* BrowserDriver
      const filled: Array<{ label: string; ref: string; op: string }> = []
      let snapshot = yield* driver.look()
      let formKey: string | undefined
      for (const [label, value] of Object.entries(values)) {
        const control = controlFor(snapshot, label, value)
        if (control === undefined) {
          return yield* new DriverError({
            method: "fillForm",
            reason: new ElementNotFound({ target: `a form field labelled "${label}"` }),
          })
        }
        formKey ??= control.form
        const target = control.ref
        let op: string
        if (control.role === "checkbox" || control.role === "switch") {
          op = truthy(value) ? "check" : "uncheck"
          yield* (truthy(value) ? checkTool : uncheckTool).run({ target })
        } else if (control.role === "radio") {
          op = "check"
          yield* checkTool.run({ target })
        } else if (control.attributes.type === "file") {
          op = "upload"
          yield* uploadTool.run({ target, path: String(value) })
        } else if (control.tag === "select" || control.role === "listbox") {
          op = "select"
          yield* selectTool.run({
            target,
            values:
              typeof value === "string"
                ? [value]
                : value === true
                  ? ["true"]
                  : [...(value as ReadonlyArray<string>)],
          })
        } else {
          op = "input"
          yield* fillTool.run({ target, value: Array.isArray(value) ? value.join(", ") : String(value) })
        }
        filled.push({ label, ref: target, op })
        // Filling may reveal or re-render fields; later labels are looked up on the page as it is now.
        snapshot = yield* driver.look()
      }
      if (!submit) return { filled, submitted: false }
      const form = snapshot.forms.find((item) => item.key === formKey) ?? snapshot.forms[0]
      const button =
        form?.submit ??
        usable(snapshot).find(
          (element) => element.role === "button" && /submit|send|save|sign|提交|发送/i.test(element.name),
        )?.ref
      if (button === undefined) {
        return yield* new CompoundError({
          tool: "fillForm",
          reason: new ControlNotFound({
            control: "submit button",
            url: snapshot.url,
            hint: "submit with click or press Enter",
          }),
        })
      }
      const result = yield* clickTool.run({ target: button })
      return { filled, submitted: true, result }
    }),
})

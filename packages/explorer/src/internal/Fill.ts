import { BrowserDriver, type DriverError } from "@sextant/core"
import { Effect } from "effect"
import type { FormField } from "../PageModel.ts"

/** Whether a field is filled when a form is filled with its suggested values. */
export const fillsField = (field: FormField): boolean =>
  field.fieldType !== "file" &&
  // Date inputs take typed text differently per locale; they are filled only when required.
  (field.fieldType !== "date" || field.required) &&
  (field.fieldType !== "checkbox" || field.required)

/** Puts one value into a field through the driver, by the field's type. */
export const fillField = (
  selector: string,
  fieldType: FormField["fieldType"],
  value: string,
): Effect.Effect<void, DriverError, BrowserDriver> =>
  Effect.gen(function* () {
    const driver = yield* BrowserDriver
    const target = { selector }
    switch (fieldType) {
      case "select":
        yield* driver.act(target, "select", value)
        return
      case "radio":
        yield* driver.act(target, "click")
        return
      case "checkbox":
        yield* driver.act(target, value === "false" ? "uncheck" : "check")
        return
      case "file":
        yield* driver.act(target, "upload", value)
        return
      default:
        yield* driver.act(target, "input", value)
    }
  })

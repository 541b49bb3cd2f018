import { causeMessage } from "@sextant/core"
import { parse as parseYaml, stringify as stringifyYaml } from "yaml"
import { z } from "zod"
import { ENV_NAME } from "./internal/Literal.ts"
import { FieldType, Locator } from "./PageModel.ts"

/** A check on the page after the steps before it. Texts match as substrings. */
export const Assertion = z.discriminatedUnion("type", [
  z.object({ type: z.literal("UrlContains"), text: z.string().min(1) }),
  z.object({ type: z.literal("UrlEquals"), url: z.string().min(1) }),
  z.object({ type: z.literal("TitleContains"), text: z.string().min(1) }),
  z.object({ type: z.literal("TextPresent"), text: z.string().min(1) }),
  z.object({ type: z.literal("TextAbsent"), text: z.string().min(1) }),
  z.object({ type: z.literal("ElementText"), target: Locator, text: z.string() }),
  z.object({ type: z.literal("ElementVisible"), target: Locator }),
  z.object({
    type: z.literal("ElementCount"),
    selector: z.string().min(1),
    count: z.number().int().nonnegative(),
  }),
  /**
   * The field holds `value` at this point, read as a `FillForm` field writes it: a checkbox or radio is
   * checked (`"true"`) or not (`"false"`), a select list shows the option `value`, any other field's
   * value is `value`.
   */
  z.object({ type: z.literal("FieldHolds"), target: Locator, fieldType: FieldType, value: z.string() }),
])
export type Assertion = z.output<typeof Assertion>

/** An environment variable name: letters, digits and `_`, not starting with a digit. */
const VariableName = z
  .string()
  .regex(ENV_NAME, "name an environment variable (letters, digits and _), e.g. SHOP_PASSWORD")

/**
 * A value for one field: either `value`, text typed exactly as written (`${env.HOME}` in it is those
 * characters, never an environment read), or `variable`, the name of an environment variable the
 * value is read from when the test runs (a password, a token). Only a field marked with `variable`
 * reads the environment.
 */
export const FieldValue = z
  .object({
    target: Locator,
    fieldType: FieldType,
    value: z.string().optional(),
    variable: VariableName.optional(),
  })
  .refine((field) => (field.value === undefined) !== (field.variable === undefined), {
    message:
      "give a field either value (the text to type) or variable (the environment variable to read it from), not both",
  })
export type FieldValue = z.output<typeof FieldValue>

/** One step of a test. URLs may be paths, resolved against the suite's base URL. */
export const TestStep = z.discriminatedUnion("type", [
  z.object({ type: z.literal("Navigate"), url: z.string().min(1) }),
  z.object({ type: z.literal("Click"), target: Locator }),
  /** Hovers the pointer over an element (a menu that opens on hover). */
  z.object({ type: z.literal("Hover"), target: Locator }),
  /** Presses a key or chord (`Enter`, `Control+a`) on an element, or on whatever has focus. */
  z.object({ type: z.literal("Press"), key: z.string().min(1), target: Locator.optional() }),
  z.object({ type: z.literal("FillForm"), fields: z.array(FieldValue).min(1) }),
  z.object({ type: z.literal("FillAndSubmit"), fields: z.array(FieldValue), submit: Locator }),
  z.object({
    type: z.literal("Wait"),
    ms: z.number().int().positive().max(60_000).optional(),
    text: z.string().min(1).optional(),
    /** A CSS selector to wait on: until an element matching it is visible (or `state`). */
    selector: z.string().min(1).optional(),
    /** What to wait for with `selector`: `visible` (default), `present` in the page, or `hidden` (or gone). */
    state: z.enum(["visible", "present", "hidden"]).optional(),
  }),
  z.object({ type: z.literal("Assert"), assertion: Assertion }),
])
export type TestStep = z.output<typeof TestStep>

/** One test: where it starts and what it does. */
export const TestSpec = z.object({
  name: z.string().min(1),
  startUrl: z.string().min(1),
  steps: z.array(TestStep).min(1),
})
export type TestSpec = z.output<typeof TestSpec>

/** A file of tests: their base URL (paths in the tests resolve against it) and the tests. */
export const TestSuite = z.object({
  version: z.literal(1).default(1),
  name: z.string().min(1),
  baseUrl: z.url({ protocol: /^https?$/ }).optional(),
  tests: z.array(TestSpec).min(1),
})
export type TestSuite = z.output<typeof TestSuite>

/** A test file that could not be read, with the field that is wrong. */
export class TestSpecError extends Error {
  override readonly name = "TestSpecError"
}

/** The format of a test file, from its name: `.json` is JSON, anything else YAML. */
export const formatOfPath = (path: string): "json" | "yaml" =>
  path.toLowerCase().endsWith(".json") ? "json" : "yaml"

/**
 * Reads a test suite from YAML or JSON. A document that does not parse, or a field that does not fit,
 * throws a `TestSpecError` naming the line or the field (`tests.0.steps.2.assertion.type: …`).
 *
 * @example
 * ```ts
 * import { readFileSync } from "node:fs"
 * import { parseTestSuite } from "@sextant/explorer"
 * const suite = parseTestSuite(readFileSync("shop.tests.yaml", "utf8"), "yaml")
 * ```
 */
export const parseTestSuite = (text: string, format: "yaml" | "json"): TestSuite => {
  let document: unknown
  try {
    document = format === "json" ? JSON.parse(text) : parseYaml(text)
  } catch (error) {
    throw new TestSpecError(`the test file is not valid ${format.toUpperCase()}: ${causeMessage(error)}`)
  }
  const result = TestSuite.safeParse(document)
  if (!result.success) {
    const lines = result.error.issues
      .slice(0, 3)
      .map((issue) => `${issue.path.join(".") || "(root)"}: ${issue.message}`)
    throw new TestSpecError(`the test file does not fit the TestSuite schema: ${lines.join("; ")}`)
  }
  return result.data
}

/**
 * Writes a test suite as YAML or JSON.
 *
 * @example
 * ```ts
 * import { writeFileSync } from "node:fs"
 * import { formatTestSuite } from "@sextant/explorer"
 * writeFileSync("shop.tests.yaml", formatTestSuite(suite, "yaml"))
 * ```
 */
export const formatTestSuite = (suite: TestSuite, format: "yaml" | "json"): string =>
  format === "json" ? `${JSON.stringify(suite, null, 2)}\n` : stringifyYaml(suite, { lineWidth: 0 })

/** One line describing a step, for reports. */
export const describeStep = (step: TestStep): string => {
  switch (step.type) {
    case "Navigate":
      return `Navigate ${step.url}`
    case "Click":
      return `Click ${step.target.role} "${step.target.name}"`
    case "Hover":
      return `Hover ${step.target.role} "${step.target.name}"`
    case "Press":
      return step.target === undefined
        ? `Press ${step.key}`
        : `Press ${step.key} on ${step.target.role} "${step.target.name}"`
    case "FillForm":
      return `FillForm ${step.fields.map((field) => `"${field.target.name}"`).join(", ")}`
    case "FillAndSubmit":
      return `FillAndSubmit ${step.fields.map((field) => `"${field.target.name}"`).join(", ")} then "${step.submit.name}"`
    case "Wait":
      return step.text !== undefined
        ? `Wait for "${step.text}"`
        : step.selector !== undefined
          ? `Wait for ${step.selector} ${step.state ?? "visible"}`
          : `Wait ${step.ms ?? 0} ms`
    case "Assert":
      return `Assert ${describeAssertion(step.assertion)}`
  }
}

/** One line describing an assertion, for reports. */
export const describeAssertion = (assertion: Assertion): string => {
  switch (assertion.type) {
    case "UrlContains":
    case "TitleContains":
    case "TextPresent":
    case "TextAbsent":
      return `${assertion.type} "${assertion.text}"`
    case "UrlEquals":
      return `UrlEquals "${assertion.url}"`
    case "ElementText":
      return `ElementText ${assertion.target.role} "${assertion.target.name}" contains "${assertion.text}"`
    case "ElementVisible":
      return `ElementVisible ${assertion.target.role} "${assertion.target.name}"`
    case "ElementCount":
      return `ElementCount ${assertion.selector} = ${assertion.count}`
    case "FieldHolds":
      return `FieldHolds ${assertion.target.role} "${assertion.target.name}" = "${assertion.value}"`
  }
}

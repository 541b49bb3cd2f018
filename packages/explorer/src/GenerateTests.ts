import type { AppMap, AppPage, FormOutcome } from "./AppMap.ts"
import { fillsField } from "./internal/Fill.ts"
import type { FormModel } from "./PageModel.ts"
import type { Assertion, FieldValue, TestSpec, TestStep, TestSuite } from "./TestSpec.ts"

/** Options of {@link generateTests}. */
export interface GenerateOptions {
  /** The suite's name. Default: the start URL's host. */
  readonly name?: string | undefined
  /**
   * Fields whose value comes from an environment variable when the test runs, by label:
   * `{ Password: "SHOP_PASSWORD" }` (written as `variable: SHOP_PASSWORD` on the field). Every other
   * value is the text the explorer typed, written as it is; a field it filled with a secret
   * (`<secret:NAME>`) reads `SEXTANT_SECRET_<NAME>`: a secret is never written into a test file, and a
   * field's label on the page never picks the variable.
   */
  readonly secrets?: Readonly<Record<string, string>> | undefined
  /** Also write smoke tests of pages classified `Error` (their content is rarely stable). Default false. */
  readonly includeErrorPages?: boolean | undefined
}

const pathOf = (url: string): string => {
  const parsed = new URL(url)
  return parsed.pathname + parsed.search
}

const pageTitle = (title: string): string => title.split(/\s+[·|–—-]\s+/)[0]?.trim() ?? title

/** How a test reaches a page only a form leads to (a page behind a sign-in): that form's page and its valid submission. */
interface Approach {
  readonly from: AppPage
  readonly steps: ReadonlyArray<TestStep>
}

const smokeTest = (page: AppPage, approach: Approach | undefined): TestSpec => {
  const assertions: Array<Assertion> = page.model.suggestedAssertions.map((assertion) =>
    assertion.type === "ElementVisible"
      ? { type: "ElementVisible", target: assertion.locator }
      : { type: assertion.type, text: assertion.text },
  )
  return {
    name: `${page.model.category} page ${pathOf(page.url)} shows "${pageTitle(page.model.title)}"`,
    startUrl: pathOf((approach?.from ?? page).url),
    steps: [
      ...(approach?.steps ?? []),
      { type: "Assert", assertion: { type: "UrlContains", text: new URL(page.url).pathname } },
      ...assertions.map((assertion): TestStep => ({ type: "Assert", assertion })),
    ],
  }
}

const fieldValues = (
  form: FormModel,
  empty: string | undefined,
  secrets: Readonly<Record<string, string>>,
): Array<FieldValue> =>
  form.fields
    .filter((field) => field.label !== empty && fillsField(field))
    .map((field) => {
      const secret = Object.entries(secrets).find(
        ([label]) => label.toLowerCase() === field.label.toLowerCase(),
      )?.[1]
      // Only a field named in `secrets` reads a variable (`secretVariables(map)` names every field the
      // explorer filled with one of the user's secrets). Any other field, a password field too, gets the
      // value the explorer typed, as text: the page's words (a label, a suggested value) never choose
      // which of the user's secrets a test types — a field labelled "Password" on a form that posts
      // elsewhere would be given it.
      const variable = secret
      // The suggested value comes from the page (an option, a placeholder): it is only ever text.
      return variable === undefined
        ? { target: field.locator, fieldType: field.fieldType, value: field.suggestedValue }
        : { target: field.locator, fieldType: field.fieldType, variable }
    })

const formTest = (
  page: AppPage,
  form: FormModel,
  outcome: FormOutcome,
  secrets: Readonly<Record<string, string>>,
): TestSpec | undefined => {
  if (form.submit === undefined) return undefined
  const steps: Array<TestStep> = [
    { type: "FillAndSubmit", fields: fieldValues(form, outcome.emptyField, secrets), submit: form.submit },
    { type: "Assert", assertion: { type: "UrlContains", text: new URL(outcome.url).pathname } },
  ]
  const shown = outcome.appeared[0]
  if (shown !== undefined) steps.push({ type: "Assert", assertion: { type: "TextPresent", text: shown } })
  // A form the browser refused to send (a required field empty) is still there to fill.
  if (outcome.variant === "missing-required")
    steps.push({ type: "Assert", assertion: { type: "ElementVisible", target: form.submit } })
  // The name says what the test asserts, as the explorer saw it: the suggested values are not known to
  // be valid (a sign-in with them shows its error), so the name never calls them so.
  const filled =
    outcome.variant === "valid"
      ? "filled with the suggested values"
      : `with the required field "${outcome.emptyField ?? ""}" left empty`
  const landed = new URL(outcome.url).pathname
  const where = landed === new URL(page.url).pathname ? `stays on ${landed}` : `goes to ${landed}`
  const asserted = [
    where,
    ...(shown === undefined ? [] : [`shows "${shown}"`]),
    ...(outcome.variant === "missing-required" ? ["keeps the form to fill"] : []),
  ]
  const said = asserted.length > 1 ? `${asserted.slice(0, -1).join(", ")} and ${asserted.at(-1)}` : where
  return {
    name: `${form.purpose} form "${form.name}" on ${pathOf(page.url)} ${filled} ${said}`,
    startUrl: pathOf(page.url),
    steps,
  }
}

/**
 * Test specs from an app map: a smoke test per page (URL, title, main heading, each form's submit
 * control visible) and, for each form the explorer submitted (`submitForms`), a test with the suggested
 * values and one with a required field left empty, asserting what the explorer saw happen; each test's
 * name says what it asserts (`login form "Sign in" on /login filled with the suggested values stays on
 * /login and shows "Invalid email or password"`). Paths are
 * relative to the suite's `baseUrl`, so the suite runs against another host or port.
 *
 * @example
 * ```ts
 * import { generateTests, formatTestSuite } from "@sextant/explorer"
 * const suite = generateTests(map, { secrets: { Password: "SHOP_PASSWORD" } })
 * writeFileSync("shop.tests.yaml", formatTestSuite(suite, "yaml"))
 * ```
 */
export const generateTests = (map: AppMap, options: GenerateOptions = {}): TestSuite => {
  const secrets = options.secrets ?? {}
  const tests: Array<TestSpec> = []
  const linked = new Set(
    map.transitions.filter((transition) => transition.kind === "link").map((transition) => transition.to),
  )
  const approachOf = (page: AppPage): Approach | undefined => {
    if (linked.has(page.id) || page.depth === 0) return undefined
    const transition = map.transitions.find(
      (candidate) => candidate.kind === "form" && candidate.to === page.id,
    )
    const from = map.pages.find((candidate) => candidate.id === transition?.from)
    const form = from?.model.forms.find((candidate) => candidate.name === transition?.label)
    if (from === undefined || form?.submit === undefined) return undefined
    return {
      from,
      steps: [{ type: "FillAndSubmit", fields: fieldValues(form, undefined, secrets), submit: form.submit }],
    }
  }
  for (const page of map.pages) {
    if (page.model.category === "Error" && options.includeErrorPages !== true) continue
    tests.push(smokeTest(page, approachOf(page)))
    for (const form of page.model.forms) {
      for (const outcome of page.formOutcomes[form.name] ?? []) {
        const test = formTest(page, form, outcome, secrets)
        if (test !== undefined) tests.push(test)
      }
    }
  }
  const base = new URL(map.startUrl)
  return { version: 1, name: options.name ?? base.host, baseUrl: base.origin, tests }
}

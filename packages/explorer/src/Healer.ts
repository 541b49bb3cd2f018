import { writeFile } from "node:fs/promises"
import { type BrowserDriver, causeMessage, type PageElement } from "@sextant/core"
import { Effect } from "effect"
import { findByRoleAndName } from "./internal/Fallback.ts"
import type { Locator } from "./PageModel.ts"
import { type RunTestOptions, runTestSeeing, type TestFailure, type TestResult } from "./Runner.ts"
import { formatTestSuite, type TestSpec, type TestStep, type TestSuite } from "./TestSpec.ts"

/** One re-grounded locator: the element with the same role and name, found under a new selector. */
export interface LocatorPatch {
  readonly test: string
  readonly role: string
  readonly name: string
  readonly from: string
  readonly to: string
}

/**
 * What healing one test came to:
 * - `passed`: it passed as written;
 * - `healed`: locators that matched nothing were re-grounded by role and name, and the patched test passes;
 * - `regression`: an assertion's expected value no longer holds — never healed, the page changed;
 * - `broken`: a locator matches nothing and no single element has its role and name, or the browser failed.
 */
export type HealOutcome =
  | { readonly status: "passed"; readonly test: TestSpec; readonly result: TestResult }
  | {
      readonly status: "healed"
      readonly test: TestSpec
      readonly result: TestResult
      readonly patches: ReadonlyArray<LocatorPatch>
    }
  | {
      readonly status: "regression" | "broken"
      readonly test: TestSpec
      readonly result: TestResult
      readonly failure: TestFailure
      readonly patches: ReadonlyArray<LocatorPatch>
    }

/** Options of {@link healTest} and {@link healSuite}. */
export interface HealOptions extends RunTestOptions {
  /** Re-ground at most this many locators per test. Default 10. */
  readonly maxPatches?: number | undefined
}

const replaceLocator = (locator: Locator, from: string, to: string): Locator =>
  locator.selector === from ? { ...locator, selector: to } : locator

const patchStep = (step: TestStep, from: string, to: string): TestStep => {
  switch (step.type) {
    case "Click":
    case "Hover":
      return { ...step, target: replaceLocator(step.target, from, to) }
    case "Press":
      return step.target === undefined ? step : { ...step, target: replaceLocator(step.target, from, to) }
    case "FillForm":
      return {
        ...step,
        fields: step.fields.map((field) => ({ ...field, target: replaceLocator(field.target, from, to) })),
      }
    case "FillAndSubmit":
      return {
        ...step,
        fields: step.fields.map((field) => ({ ...field, target: replaceLocator(field.target, from, to) })),
        submit: replaceLocator(step.submit, from, to),
      }
    case "Assert":
      if (
        step.assertion.type === "ElementText" ||
        step.assertion.type === "ElementVisible" ||
        step.assertion.type === "FieldHolds"
      )
        return {
          ...step,
          assertion: { ...step.assertion, target: replaceLocator(step.assertion.target, from, to) },
        }
      return step
    default:
      return step
  }
}

/** The one element on the page now with the locator's role and name; several or none is no match. */
const regroundOn = (elements: ReadonlyArray<PageElement>, locator: Locator): Locator | undefined => {
  const match = findByRoleAndName(elements, locator)
  return match._tag === "Found" ? match.locator : undefined
}

/**
 * Runs a test and, when it fails because a locator matches nothing while the page still has exactly one
 * element with that locator's role and name (its semantic identity: an id or class was renamed),
 * re-grounds the locator on that element, patches every step that used it, and runs the test again.
 * A failed assertion is a regression and is never healed; a locator whose role and name are gone is
 * reported as broken.
 *
 * @example
 * ```ts
 * import { healTest } from "@sextant/explorer"
 * const outcome = yield* healTest(test, { baseUrl: "http://127.0.0.1:4000" })
 * if (outcome.status === "healed") console.log(outcome.patches)
 * ```
 */
export const healTest = Effect.fn("Explorer.healTest")(function* (
  spec: TestSpec,
  options: HealOptions = {},
): Effect.fn.Return<HealOutcome, never, BrowserDriver> {
  const maxPatches = options.maxPatches ?? 10
  const patches: Array<LocatorPatch> = []
  let test = spec
  for (;;) {
    // The runner's own fallback would pass the test without a patch: heal finds the patch instead.
    const { result, seen } = yield* runTestSeeing(test, { ...options, fallback: false }, true)
    if (result.passed)
      return patches.length === 0
        ? { status: "passed", test, result }
        : { status: "healed", test, result, patches }
    const failure = result.error as TestFailure
    if (failure.kind === "assertion") return { status: "regression", test, result, failure, patches }
    const broken = { status: "broken", test, result, failure, patches } as const
    const locator = failure.locator
    if (failure.kind !== "locator" || locator === undefined || patches.length >= maxPatches) return broken
    // The runner read the page where the locator failed (before a request guard took the tab off it):
    // look there for the same identity.
    const snapshot = seen
    if (snapshot === undefined) return broken
    const found = regroundOn(Object.values(snapshot.elements), locator)
    if (found === undefined || found.selector === locator.selector) return broken
    patches.push({
      test: spec.name,
      role: locator.role,
      name: locator.name,
      from: locator.selector,
      to: found.selector,
    })
    test = { ...test, steps: test.steps.map((step) => patchStep(step, locator.selector, found.selector)) }
  }
})

/** The healing of a suite: each test's outcome and the suite with every healed test patched. */
export interface SuiteHealing {
  readonly outcomes: ReadonlyArray<HealOutcome>
  readonly healed: TestSuite
  readonly patches: ReadonlyArray<LocatorPatch>
  readonly regressions: ReadonlyArray<HealOutcome>
}

/**
 * Heals every test of a suite ({@link healTest}); only tests that pass after healing are patched in
 * the returned suite, the others stay as written.
 *
 * @example
 * ```ts
 * import { healSuite } from "@sextant/explorer"
 * const healing = yield* healSuite(suite)
 * healing.regressions.length // tests whose expected values changed
 * ```
 */
export const healSuite = Effect.fn("Explorer.healSuite")(function* (
  suite: TestSuite,
  options: HealOptions = {},
): Effect.fn.Return<SuiteHealing, never, BrowserDriver> {
  const baseUrl = options.baseUrl ?? suite.baseUrl
  const outcomes: Array<HealOutcome> = []
  for (const test of suite.tests) outcomes.push(yield* healTest(test, { ...options, baseUrl }))
  return {
    outcomes,
    healed: {
      ...suite,
      tests: outcomes.map((outcome, index) =>
        outcome.status === "healed" ? outcome.test : (suite.tests[index] as TestSpec),
      ),
    },
    patches: outcomes.flatMap((outcome) => (outcome.status === "passed" ? [] : outcome.patches)),
    regressions: outcomes.filter((outcome) => outcome.status === "regression"),
  }
})

/** A readable account of a healing: each patch, each regression and each broken test. */
export const formatHealReport = (healing: SuiteHealing): string => {
  const lines: Array<string> = []
  for (const outcome of healing.outcomes) {
    switch (outcome.status) {
      case "passed":
        lines.push(`✓ ${outcome.test.name}: passes as written`)
        break
      case "healed":
        lines.push(`~ ${outcome.test.name}: healed`)
        for (const patch of outcome.patches)
          lines.push(`    ${patch.role} "${patch.name}": ${patch.from} → ${patch.to}`)
        break
      case "regression":
        lines.push(`✗ ${outcome.test.name}: REGRESSION, not healed`, `    ${outcome.failure.message}`)
        break
      case "broken":
        lines.push(`✗ ${outcome.test.name}: broken, could not heal`, `    ${outcome.failure.message}`)
        break
    }
  }
  return `${lines.join("\n")}\n`
}

/**
 * Writes the healing beside the spec for review: `<spec>.healed.<ext>` (the patched suite, same
 * format) and `<spec>.heal.txt` (the report). The spec itself is left as it is.
 *
 * @example
 * ```ts
 * import { writeHealPatch } from "@sextant/explorer"
 * const written = yield* writeHealPatch("shop.tests.yaml", healing) // ["shop.tests.healed.yaml", "shop.tests.heal.txt"]
 * ```
 */
export const writeHealPatch = (specPath: string, healing: SuiteHealing) =>
  Effect.tryPromise({
    try: async () => {
      const extension = /\.(ya?ml|json)$/i.exec(specPath)?.[0] ?? ".yaml"
      const base = specPath.slice(
        0,
        specPath.length - (specPath.toLowerCase().endsWith(extension.toLowerCase()) ? extension.length : 0),
      )
      const healedPath = `${base}.healed${extension}`
      const reportPath = `${base}.heal.txt`
      await writeFile(
        healedPath,
        formatTestSuite(healing.healed, extension.toLowerCase() === ".json" ? "json" : "yaml"),
      )
      await writeFile(reportPath, formatHealReport(healing))
      return [healedPath, reportPath] as const
    },
    catch: (error) => new Error(`could not write the heal patch beside ${specPath}: ${causeMessage(error)}`),
  })

import { BrowserDriver, type DriverError, type PageSnapshot, type SecretRequestGuard } from "@sextant/core"
import { blockedRequestMessage, guardSecretRequests, makeRedactor } from "@sextant/executor"
import { pageCall } from "@sextant/perception"
import { Clock, Effect, type Scope } from "effect"
import { findByRoleAndName } from "./internal/Fallback.ts"
import { fillField } from "./internal/Fill.ts"
import type { Locator } from "./PageModel.ts"
import {
  type Assertion,
  describeAssertion,
  describeStep,
  type FieldValue,
  type TestSpec,
  type TestStep,
  type TestSuite,
} from "./TestSpec.ts"

/** One assertion's verdict. */
export interface AssertionResult {
  readonly step: number
  readonly assertion: string
  readonly passed: boolean
  readonly expected: string
  readonly actual: string
  readonly message: string
}

/** One step's verdict. */
export interface StepResult {
  readonly index: number
  readonly step: string
  readonly passed: boolean
  readonly durationMs: number
  readonly message?: string | undefined
}

/**
 * Why a test stopped: `locator` (a step's selector matched nothing on the page), `assertion`
 * (the page did not show what was expected), `input` (a value needs an environment variable that is
 * not set, or would be typed off the test's site), `secret` (the page sent a secret read from the
 * environment toward another origin and the browser blocked it, or the browser cannot guard its
 * requests), `driver` (the browser failed).
 */
export interface TestFailure {
  readonly kind: "locator" | "assertion" | "input" | "secret" | "driver"
  readonly step: number
  readonly message: string
  /** The locator that matched nothing, for `locator`. */
  readonly locator?: Locator | undefined
}

/**
 * A locator whose selector matched nothing, so the runner found its element by role and accessible
 * name instead (as the exported WebdriverIO script does): `from` is the spec's selector, `to` the one
 * the element has now. `sextant heal` writes such changes into the spec.
 */
export interface LocatorFallback {
  readonly step: number
  readonly role: string
  readonly name: string
  readonly from: string
  readonly to: string
}

/** The verdict of one test. */
export interface TestResult {
  readonly name: string
  readonly passed: boolean
  readonly durationMs: number
  readonly steps: ReadonlyArray<StepResult>
  readonly assertions: ReadonlyArray<AssertionResult>
  /** Each locator found by role and name because its selector matched nothing. */
  readonly fallbacks: ReadonlyArray<LocatorFallback>
  readonly error?: TestFailure | undefined
}

/** The verdicts of a suite. */
export interface SuiteResult {
  readonly name: string
  readonly passed: number
  readonly failed: number
  readonly durationMs: number
  readonly tests: ReadonlyArray<TestResult>
}

/** Options of {@link runTest} and {@link runSuite}. */
export interface RunTestOptions {
  /** Paths in the tests resolve against this; default the suite's `baseUrl`. */
  readonly baseUrl?: string | undefined
  /** Where the values of fields marked `variable` come from. Default `process.env`. */
  readonly env?: Readonly<Record<string, string | undefined>> | undefined
  /** How long an assertion keeps checking before it fails, in milliseconds. Default 3000. */
  readonly assertTimeoutMs?: number | undefined
  /**
   * When a selector matches nothing, find the element by its role and accessible name (its label, or
   * its text for a button or a link) as the exported WebdriverIO script does, and note it in the
   * result's `fallbacks`. Default true; `false` fails the step at once (the healer runs so).
   */
  readonly fallback?: boolean | undefined
  /** Called after each test. */
  readonly onTest?: ((result: TestResult) => void) | undefined
  /**
   * Type values read from the environment even where the browser's request guard cannot be armed (a
   * driver without `guardSecrets`, a BiDi session, a browser whose DevTools port is not on this
   * machine). Default false: there a field marked `variable` is not typed and the test fails saying
   * why. With the guard armed, a request that carries such a value to another origin than the test's
   * start URL (a submit button's `formaction`, a script's post, a redirect) is blocked before it
   * leaves the browser, and the test fails naming where it was going.
   */
  readonly allowUnguardedSecrets?: boolean | undefined
}

class StepFailed {
  readonly _tag = "StepFailed"
  readonly failure: Omit<TestFailure, "step">
  constructor(failure: Omit<TestFailure, "step">) {
    this.failure = failure
  }
}

const clip = (text: string, length = 160): string => {
  const flat = text.replace(/\s+/g, " ").trim()
  return flat.length > length ? `${flat.slice(0, length - 1)}…` : flat
}

const resolveUrl = (url: string, baseUrl: string | undefined): string => {
  try {
    return new URL(url, baseUrl).href
  } catch {
    throw new StepFailed({
      kind: "input",
      message: `"${url}" is not a URL and no baseUrl is set to resolve it: give an absolute URL or a suite baseUrl`,
    })
  }
}

/**
 * Runs one test through the `BrowserDriver` and returns its verdict: never fails; a selector that
 * matches nothing, an assertion that does not hold, a missing environment variable or a browser error
 * ends the test with a failure that says which step, what was expected and what the page showed. A
 * value read from the environment (a field marked `variable`) shows as `<secret:VARIABLE>` in the verdict.
 *
 * @example
 * ```ts
 * import { runTest } from "@sextant/explorer"
 * const result = yield* runTest(suite.tests[0], { baseUrl: "http://127.0.0.1:4000" })
 * result.passed // true
 * ```
 */
export const runTest = Effect.fn("Explorer.runTest")(function* (
  spec: TestSpec,
  options: RunTestOptions = {},
): Effect.fn.Return<TestResult, never, BrowserDriver> {
  return (yield* runTestSeeing(spec, options, false)).result
})

/**
 * {@link runTest}, and, when `look` is set and a locator matched nothing, the page the test stopped on,
 * read before the test's request guard takes the tab off it (the healer looks there for the element).
 */
export const runTestSeeing = Effect.fnUntraced(function* (
  spec: TestSpec,
  options: RunTestOptions,
  look: boolean,
): Effect.fn.Return<
  { readonly result: TestResult; readonly seen?: PageSnapshot | undefined },
  never,
  BrowserDriver
> {
  const driver = yield* BrowserDriver
  const env = options.env ?? process.env
  const timeoutMs = options.assertTimeoutMs ?? 3000
  const started = yield* Clock.currentTimeMillis
  const steps: Array<StepResult> = []
  const assertions: Array<AssertionResult> = []
  const fallbacks: Array<LocatorFallback> = []
  /** The values read from the environment (a password, a token), by variable: the result never holds them. */
  const secrets = new Map<string, string>()
  let stepIndex = 0
  /**
   * The browser's request guard over the values read from the environment (their variables in the
   * guard's order), or why it could not be armed; undefined while the test reads none.
   */
  let guard:
    | { readonly variables: ReadonlyArray<string>; readonly guard: SecretRequestGuard }
    | { readonly missing: string }
    | undefined

  /** The origin of the test's start URL, resolved against the suite's `baseUrl`; undefined when it has none. */
  const siteOrigin = (): string | undefined => {
    try {
      const origin = new URL(resolveUrl(spec.startUrl, options.baseUrl)).origin
      return origin === "null" ? undefined : origin
    } catch {
      return undefined
    }
  }

  const driverFailure = (what: string) => (error: DriverError) =>
    Effect.fail(new StepFailed({ kind: "driver", message: `${what}: ${error.message}` }))

  // A page function of perception's (`spec`), its failure the step's.
  const inPage = <A>(call: Effect.Effect<A, DriverError>, what: string) =>
    call.pipe(Effect.catch(driverFailure(what)))

  // Only a field the spec marked with `variable` reads the environment; a value is typed as written.
  const expand = (field: FieldValue, what: string): Effect.Effect<string, StepFailed> => {
    if (field.variable === undefined) return Effect.succeed(field.value ?? "")
    const value = env[field.variable]
    if (value === undefined)
      return Effect.fail(
        new StepFailed({
          kind: "input",
          message: `${what} needs the environment variable ${field.variable}, which is not set: set it before running the test`,
        }),
      )
    if (value !== "") secrets.set(field.variable, value)
    return Effect.succeed(value)
  }

  /** The selector that finds the target now: its own, or else the one of the element with its role and name. */
  const requireTarget = Effect.fnUntraced(function* (target: Locator, what: string) {
    const count = yield* inPage(pageCall(driver, "countMatches", target.selector), what)
    if (count > 0) return target.selector
    const url = yield* driver.currentUrl.pipe(Effect.orElseSucceed(() => "the page"))
    const missing = `${what}: the selector ${target.selector} of ${target.role} "${target.name}" matches nothing on ${url}`
    if (options.fallback === false)
      return yield* Effect.fail(new StepFailed({ kind: "locator", locator: target, message: missing }))
    const snapshot = yield* driver
      .look()
      .pipe(Effect.catch(driverFailure(`${what}: looking for ${target.role} "${target.name}"`)))
    const match = findByRoleAndName(Object.values(snapshot.elements), target)
    if (match._tag !== "Found")
      return yield* Effect.fail(
        new StepFailed({
          kind: "locator",
          locator: target,
          message:
            match._tag === "None"
              ? `${missing}, and no element there has that role and name`
              : `${missing}, and ${match.count} elements there have that role and name: give the step a selector that picks one`,
        }),
      )
    // An assertion re-checks until it holds: one note per locator and step is enough.
    if (!fallbacks.some((noted) => noted.step === stepIndex && noted.from === target.selector))
      fallbacks.push({
        step: stepIndex,
        role: target.role,
        name: target.name,
        from: target.selector,
        to: match.locator.selector,
      })
    return match.locator.selector
  })

  /** Checks an assertion until it holds or the time runs out; returns the last verdict. */
  const check = Effect.fnUntraced(function* (assertion: Assertion, index: number) {
    const deadline = (yield* Clock.currentTimeMillis) + timeoutMs
    for (;;) {
      const verdict = yield* checkOnce(assertion, index)
      const now = yield* Clock.currentTimeMillis
      if (verdict.passed || now >= deadline) return verdict
      yield* Effect.sleep(100)
    }
  })

  const checkOnce = Effect.fnUntraced(function* (assertion: Assertion, index: number) {
    const what = `step ${index + 1} (${describeAssertion(assertion)})`
    const verdict = (
      passed: boolean,
      expected: string,
      actual: string,
      message: string,
    ): AssertionResult => ({
      step: index,
      assertion: describeAssertion(assertion),
      passed,
      expected,
      actual,
      message: passed ? "ok" : message,
    })
    switch (assertion.type) {
      case "UrlContains":
      case "UrlEquals": {
        const url = yield* driver.currentUrl.pipe(Effect.catch(driverFailure(what)))
        const expected =
          assertion.type === "UrlEquals" ? resolveUrl(assertion.url, options.baseUrl) : assertion.text
        const passed = assertion.type === "UrlEquals" ? url === expected : url.includes(expected)
        return verdict(
          passed,
          expected,
          url,
          `expected the URL to ${assertion.type === "UrlEquals" ? "be" : "contain"} "${expected}", but it is "${url}"`,
        )
      }
      case "TitleContains": {
        const title = yield* driver.title.pipe(Effect.catch(driverFailure(what)))
        return verdict(
          title.includes(assertion.text),
          assertion.text,
          title,
          `expected the title to contain "${assertion.text}", but it is "${title}"`,
        )
      }
      case "TextPresent":
      case "TextAbsent": {
        const body = yield* inPage(pageCall(driver, "bodyText"), what)
        const present = body.replace(/\s+/g, " ").includes(assertion.text.replace(/\s+/g, " "))
        const shown = clip(yield* inPage(pageCall(driver, "mainText"), what))
        return assertion.type === "TextPresent"
          ? verdict(
              present,
              assertion.text,
              shown,
              `expected the page to show "${assertion.text}"; it shows: "${shown}"`,
            )
          : verdict(
              !present,
              `no "${assertion.text}"`,
              shown,
              `expected the page not to show "${assertion.text}", but it does`,
            )
      }
      case "ElementText":
      case "ElementVisible": {
        const selector = yield* requireTarget(assertion.target, what)
        const state = yield* inPage(pageCall(driver, "elementState", selector), what)
        const label = `${assertion.target.role} "${assertion.target.name}"`
        if (assertion.type === "ElementVisible")
          return verdict(
            state?.visible === true,
            "visible",
            state?.visible === true ? "visible" : "hidden",
            `expected ${label} to be visible, but it is hidden`,
          )
        const text = clip(`${state?.text ?? ""} ${state?.value ?? ""}`)
        return verdict(
          text.includes(assertion.text),
          assertion.text,
          text,
          `expected ${label} to contain "${assertion.text}", but it shows "${text}"`,
        )
      }
      case "FieldHolds": {
        const selector = yield* requireTarget(assertion.target, what)
        const state = yield* inPage(pageCall(driver, "elementState", selector), what)
        const label = `${assertion.target.role} "${assertion.target.name}"`
        if (assertion.fieldType === "checkbox" || assertion.fieldType === "radio") {
          const wanted = assertion.value !== "false"
          const checked = state?.checked === true
          return verdict(
            checked === wanted,
            wanted ? "checked" : "unchecked",
            checked ? "checked" : "unchecked",
            `expected ${label} to be ${wanted ? "checked" : "unchecked"}, but it is ${checked ? "checked" : "unchecked"}`,
          )
        }
        const held = (assertion.fieldType === "select" ? state?.chosen : state?.value) ?? ""
        return verdict(
          held === assertion.value,
          assertion.value,
          held,
          `expected ${label} to hold "${assertion.value}", but it holds "${clip(held)}"`,
        )
      }
      case "ElementCount": {
        const count = yield* inPage(pageCall(driver, "countMatches", assertion.selector), what)
        return verdict(
          count === assertion.count,
          String(assertion.count),
          String(count),
          `expected ${assertion.count} elements to match ${assertion.selector}, found ${count}`,
        )
      }
    }
  })

  /**
   * A secret read from the environment is typed only on the site the test starts on, into a form that sends
   * it there: a page of the site whose form posts to another origin, or a test edited to aim at another
   * site, gets nothing. (The origin of the start URL, resolved against the suite's `baseUrl`.)
   */
  const secretStaysOnSite = Effect.fnUntraced(function* (selector: string, variable: string, what: string) {
    const originOf = (url: string | null | undefined): string => {
      try {
        return new URL(url ?? "").origin
      } catch {
        return String(url)
      }
    }
    const site = originOf(
      yield* Effect.try({
        try: () => resolveUrl(spec.startUrl, options.baseUrl),
        catch: (error) => error as StepFailed,
      }),
    )
    const page = originOf(yield* driver.currentUrl.pipe(Effect.catch(driverFailure(what))))
    const sent = yield* inPage(pageCall(driver, "submissionTarget", selector), what)
    const elsewhere = [page, originOf(sent ?? undefined)].find(
      (origin) => origin !== site && origin !== "null",
    )
    if (elsewhere !== undefined)
      return yield* Effect.fail(
        new StepFailed({
          kind: "input",
          message: `${what}: ${variable} is typed only on ${site}, the site the test starts on, and this field is on or sends its form to ${elsewhere}: nothing was typed`,
        }),
      )
  })

  const fill = Effect.fnUntraced(function* (
    fields: Extract<TestStep, { type: "FillForm" }>["fields"],
    what: string,
  ) {
    for (const field of fields) {
      const label = `${what} field "${field.target.name}"`
      const selector = yield* requireTarget(field.target, label)
      if (field.variable !== undefined) {
        if (guard !== undefined && "missing" in guard && options.allowUnguardedSecrets !== true)
          return yield* Effect.fail(
            new StepFailed({
              kind: "secret",
              message: `${label}: ${field.variable} is typed only where the browser's requests are guarded, and they cannot be here (${guard.missing}): nothing was typed; run the test in a Chromium Sextant launches without BiDi, or pass allowUnguardedSecrets: true to accept that the page may send it elsewhere`,
            }),
          )
        yield* secretStaysOnSite(selector, field.variable, label)
      }
      const value = yield* expand(field, label)
      yield* fillField(selector, field.fieldType, value).pipe(Effect.catch(driverFailure(label)))
    }
  })

  const focusedSelector = pageCall(driver, "hasFocus").pipe(
    Effect.map((focused) => (focused ? ":focus" : "body")),
    Effect.orElseSucceed(() => "body"),
  )

  const runStep = Effect.fnUntraced(function* (step: TestStep, index: number) {
    const what = `step ${index + 1} (${step.type})`
    switch (step.type) {
      case "Navigate": {
        const url = yield* Effect.try({
          try: () => resolveUrl(step.url, options.baseUrl),
          catch: (error) => error as StepFailed,
        })
        yield* driver.navigate(url).pipe(Effect.catch(driverFailure(what)))
        return
      }
      case "Click": {
        const selector = yield* requireTarget(step.target, what)
        yield* driver.act({ selector }, "click").pipe(Effect.catch(driverFailure(what)))
        return
      }
      case "Hover": {
        const selector = yield* requireTarget(step.target, what)
        yield* driver.act({ selector }, "hover").pipe(Effect.catch(driverFailure(what)))
        return
      }
      case "Press": {
        // Without a target the key goes to whatever has focus, as a user's key press does.
        const selector =
          step.target !== undefined ? yield* requireTarget(step.target, what) : yield* focusedSelector
        yield* driver.act({ selector }, "press", step.key).pipe(Effect.catch(driverFailure(what)))
        return
      }
      case "FillForm":
        return yield* fill(step.fields, what)
      case "FillAndSubmit": {
        yield* fill(step.fields, what)
        const selector = yield* requireTarget(step.submit, what)
        yield* driver.act({ selector }, "click").pipe(Effect.catch(driverFailure(what)))
        return
      }
      case "Wait":
        if (step.ms !== undefined) yield* Effect.sleep(step.ms)
        if (step.text !== undefined)
          yield* driver
            .waitFor({ text: step.text }, { timeoutMs: timeoutMs })
            .pipe(Effect.catch(driverFailure(`${what} for "${step.text}"`)))
        if (step.selector !== undefined)
          yield* driver
            .waitFor({ selector: step.selector, state: step.state ?? "visible" }, { timeoutMs: timeoutMs })
            .pipe(Effect.catch(driverFailure(`${what} for ${step.selector}`)))
        return
      case "Assert": {
        const result = yield* check(step.assertion, index)
        assertions.push(result)
        if (!result.passed)
          return yield* Effect.fail(
            new StepFailed({ kind: "assertion", message: `${what}: ${result.message}` }),
          )
        return
      }
    }
  })

  const all: Array<TestStep> = [{ type: "Navigate", url: spec.startUrl }, ...spec.steps]
  const runSteps: Effect.Effect<TestFailure | undefined, never, BrowserDriver | Scope.Scope> = Effect.gen(
    function* () {
      // The values the test reads from the environment are bound to its start URL's origin: the browser's
      // request guard fails, before it leaves the browser, any request that carries one elsewhere.
      const variables = [
        ...new Set(
          spec.steps.flatMap((step) =>
            step.type === "FillForm" || step.type === "FillAndSubmit"
              ? step.fields.flatMap((field) =>
                  field.variable !== undefined && (env[field.variable] ?? "") !== "" ? [field.variable] : [],
                )
              : [],
          ),
        ),
      ]
      if (variables.length > 0) {
        const site = siteOrigin()
        guard =
          site === undefined
            ? { missing: `"${spec.startUrl}" has no origin to bind the secrets to` }
            : yield* guardSecretRequests(driver, {
                values: variables.map((variable) => env[variable]!),
                origins: [site],
              }).pipe(Effect.map((armed) => ("guard" in armed ? { variables, guard: armed.guard } : armed)))
      }
      for (const [index, step] of all.entries()) {
        stepIndex = index
        const stepStarted = yield* Clock.currentTimeMillis
        const failed = yield* runStep(step, index).pipe(
          Effect.map(() => undefined),
          Effect.catch((failure: StepFailed) => Effect.succeed(failure.failure)),
        )
        // A request the guard blocked is why the step went wrong, whatever else failed after it.
        const blocked = guard !== undefined && "guard" in guard ? yield* guard.guard.blocked : []
        const outcome: Omit<TestFailure, "step"> | undefined =
          blocked[0] !== undefined && guard !== undefined && "guard" in guard
            ? {
                kind: "secret",
                message: `step ${index + 1} (${step.type}): ${blockedRequestMessage(blocked[0], `<secret:${guard.variables[blocked[0].secret]}>`).replace(/, and the run types no secret again$/, "")}; the test stops here`,
              }
            : failed
        const durationMs = (yield* Clock.currentTimeMillis) - stepStarted
        steps.push({
          index,
          step: describeStep(step),
          passed: outcome === undefined,
          durationMs,
          ...(outcome === undefined ? {} : { message: outcome.message }),
        })
        if (outcome !== undefined) {
          if (look && outcome.kind === "locator")
            seen = yield* driver.look().pipe(Effect.orElseSucceed(() => undefined))
          return { ...outcome, step: index }
        }
      }
      return undefined
    },
  )
  let seen: PageSnapshot | undefined
  const error = yield* Effect.scoped(runSteps)
  const result: TestResult = {
    name: spec.name,
    passed: error === undefined,
    durationMs: (yield* Clock.currentTimeMillis) - started,
    steps,
    assertions,
    fallbacks,
    ...(error === undefined ? {} : { error }),
  }
  // What the page showed may echo a typed secret (a greeting, an upper-cased copy): every message and
  // value of the result shows `<secret:VARIABLE>` instead, in the spellings the executor's redactor knows.
  if (secrets.size === 0) return { result, seen }
  const redactor = makeRedactor({ inputs: Object.fromEntries(secrets), secretInputs: [...secrets.keys()] })
  return { result: redactor.value(result), seen }
})

/**
 * Runs every test of a suite, one after the other in one browser, and sums up.
 *
 * @example
 * ```ts
 * import { runSuite, formatConsoleReport } from "@sextant/explorer"
 * const result = yield* runSuite(suite)
 * console.log(formatConsoleReport(result))
 * ```
 */
export const runSuite = Effect.fn("Explorer.runSuite")(function* (
  suite: TestSuite,
  options: RunTestOptions = {},
): Effect.fn.Return<SuiteResult, never, BrowserDriver> {
  const started = yield* Clock.currentTimeMillis
  const baseUrl = options.baseUrl ?? suite.baseUrl
  const tests: Array<TestResult> = []
  for (const spec of suite.tests) {
    const result = yield* runTest(spec, { ...options, baseUrl })
    options.onTest?.(result)
    tests.push(result)
  }
  const passed = tests.filter((test) => test.passed).length
  return {
    name: suite.name,
    passed,
    failed: tests.length - passed,
    durationMs: (yield* Clock.currentTimeMillis) - started,
    tests,
  }
})

import type { RecordedAction, RecordedElement } from "@sextant/core"
import type { TraceRecord } from "@sextant/executor"
import { ApiExchange } from "./ApiTestExport.ts"
import { hasPlaceholder, placeholderVariable, unmarkedPlaceholders } from "./internal/EnvValues.ts"
import type { Locator } from "./PageModel.ts"
import type { Assertion, FieldValue, TestStep, TestSuite } from "./TestSpec.ts"

/** A run that cannot be exported, with the step and the reason. */
export class RunExportError extends Error {
  override readonly name = "RunExportError"
}

/** Options of {@link runToTestSuite}. */
export interface RunExportOptions {
  /** The suite's and the test's name. Default: the run's goal. */
  readonly name?: string | undefined
  /**
   * The secrets the run was given, whose placeholders (`<secret:password>`: the redactor writes one
   * where the run typed a secret) become fields marked `variable: SEXTANT_SECRET_<NAME>`. Default:
   * none. A placeholder of a name not listed (one a page got the model to type) is written as literal
   * text, with a note; so is everything else the run typed or waited for — `${env.NAME}` included.
   */
  readonly secrets?: ReadonlyArray<string> | undefined
  /**
   * Export a run that did not reach its goal (it ended FAILED or CANCELLED, a goal part it checked did
   * not hold, or its trace has no end) as a replay of what it did, under a name that says so. Default:
   * false — such a run throws a `RunExportError`, since a test named after the goal would pass without it.
   */
  readonly unfinished?: boolean | undefined
}

/** A run as a test suite, and what the export left out (each said, never dropped in silence). */
export interface RunAsTests {
  readonly suite: TestSuite
  readonly notes: ReadonlyArray<string>
}

interface Located {
  readonly action: Extract<RecordedAction, { kind: "act" }>
  readonly step: number
}

const describeElement = (element: RecordedElement): string =>
  element.role !== undefined
    ? `${element.role} "${element.name ?? ""}"`
    : (element.selector ?? "an element the run did not name")

const locatorOf = ({ action, step }: Located): Locator => {
  const { element } = action
  if (element.frame !== undefined && element.frame.length > 0)
    throw new RunExportError(
      `step ${step}: ${action.op} on ${describeElement(element)} inside a frame: a script cannot find it from the top document yet`,
    )
  if (element.selector === undefined)
    throw new RunExportError(
      `step ${step}: ${action.op} on ${describeElement(element)} has no selector the run could record (the element was not in the page view the action named)`,
    )
  return { role: element.role ?? "generic", name: element.name ?? "", selector: element.selector }
}

/** A URL as a test writes it: a path when it is on the test's own origin. */
const relative = (url: string, origin: string): string => {
  try {
    const parsed = new URL(url)
    return parsed.origin === origin ? `${parsed.pathname}${parsed.search}${parsed.hash}` : url
  } catch {
    return url
  }
}

const pathOf = (url: string): string | undefined => {
  try {
    const parsed = new URL(url)
    return `${parsed.pathname}${parsed.search}`
  } catch {
    return undefined
  }
}

/**
 * The assertion that the page is at `path` (a path and query of the site): the URL contains it, or, for
 * the site's root, equals it, since every URL contains "/".
 */
const urlAssertion = (path: string): Assertion =>
  path === "/" ? { type: "UrlEquals", url: path } : { type: "UrlContains", text: path }

const isWaitState = (state: string | undefined): state is "visible" | "present" | "hidden" =>
  state === "visible" || state === "present" || state === "hidden"

const textValue = (value: unknown): string =>
  typeof value === "number" ? String(value) : String(value ?? "")

/** Roles whose checked state a `FieldHolds` assertion reads (a native box's `checked`, else `aria-checked`). */
const CHOICE_ROLES = new Set(["checkbox", "radio", "switch", "menuitemcheckbox", "menuitemradio"])

const sameName = (left: string, right: string): boolean => {
  const words = (text: string) => text.toLowerCase().replace(/\s+/g, " ").trim()
  return words(left) !== "" && words(left) === words(right)
}

/** Why a goal check that held is not asserted by the test, as the export's note says it. */
type Unasserted = { readonly unasserted: string }

/** What the end URL and the replayed steps stand for: a part checked by where the run got and what it did. */
const SHOWN_BY_STEPS = new Set([
  "loggedIn",
  "urlMatches",
  "pageChanged",
  "actionsSucceeded",
  "submitted",
  "searched",
])

/**
 * The assertions of a goal part's check that held, as the end state of the test: a `textPresent` as a
 * `TextPresent`; a `controlState` (a box checked), a `fieldValue` (a value typed) and an `optionsChosen`
 * (an option selected) as a `FieldHolds` on the element the run set, found among its recorded actions by
 * the control's name, the typed value or the chosen option. None for a check the end URL and the replayed
 * steps stand for (`loggedIn`, `submitted`, …). A check a test spec cannot make (`records`: what the run
 * extracted; `itemPicked`, `elementExists`, `pagesRead`, `lastPage`), or one naming no element the run set,
 * is `unasserted`, with the reason: the export says so rather than pass a test of the goal without it.
 */
const partAssertions = (
  check: Extract<TraceRecord, { type: "verified" }>["parts"][number]["check"],
  acted: ReadonlyArray<Located>,
  secrets: ReadonlyArray<string> | undefined,
): ReadonlyArray<Assertion> | Unasserted => {
  const noElement = { unasserted: "no element the run set answers to the check's name" }
  switch (check.type) {
    case "textPresent":
      return [{ type: "TextPresent", text: check.text }]
    case "controlState": {
      const found = check.targets.map((target) =>
        acted.findLast(
          ({ action }) =>
            CHOICE_ROLES.has(action.element.role ?? "") && sameName(action.element.name ?? "", target),
        ),
      )
      if (found.some((located) => located === undefined)) return noElement
      return found.map((located) => ({
        type: "FieldHolds" as const,
        target: locatorOf(located as Located),
        fieldType:
          (located as Located).action.element.role === "radio" ? ("radio" as const) : ("checkbox" as const),
        value: String(check.checked),
      }))
    }
    case "fieldValue": {
      // A secret typed into the field is checked as it is typed (the driver reads the value back); the
      // test holds no value to compare with.
      if (hasPlaceholder(check.value, secrets)) return []
      const located =
        acted.findLast(
          ({ action }) =>
            action.op === "input" &&
            textValue(action.value) === check.value &&
            sameName(action.element.name ?? "", check.target),
        ) ?? acted.findLast(({ action }) => action.op === "input" && textValue(action.value) === check.value)
      if (located === undefined) return noElement
      return [{ type: "FieldHolds", target: locatorOf(located), fieldType: "text", value: check.value }]
    }
    case "optionsChosen": {
      const found = check.options.map((option): Assertion | undefined => {
        const selected = acted.findLast(
          ({ action }) => action.op === "select" && sameName(textValue(action.value), option),
        )
        if (selected !== undefined)
          return { type: "FieldHolds", target: locatorOf(selected), fieldType: "select", value: option }
        const pressed = acted.findLast(
          ({ action }) =>
            (action.element.role === "radio" || action.element.role === "checkbox") &&
            sameName(action.element.name ?? "", option),
        )
        return pressed === undefined
          ? undefined
          : {
              type: "FieldHolds",
              target: locatorOf(pressed),
              fieldType: pressed.action.element.role === "radio" ? "radio" : "checkbox",
              value: "true",
            }
      })
      return found.every((assertion) => assertion !== undefined) ? found : noElement
    }
    default:
      return SHOWN_BY_STEPS.has(check.type)
        ? []
        : {
            unasserted: `a test spec has no check of ${check.type === "records" ? "the records a run extracted" : `'${check.type}'`}`,
          }
  }
}

/** Operations a test spec cannot express yet: a run that used one is not exported rather than exported wrong. */
const UNEXPRESSIBLE = new Set(["drag", "selectText", "set", "upload"])
/** Operations that change nothing a replay needs: left out, and said so. */
const LEFT_OUT: Record<string, string> = {
  focus: "a fill or a click focuses its element itself",
  scroll: "the script's element lookups scroll where they need to",
}

/**
 * A recorded run (the records of its trace, from `readRunTrace`) as a test suite of one test: the
 * navigations, clicks, fills, selections, key presses and waits the browser really did, each element
 * located by its strongest selector with its role and accessible name to fall back on (never a ref);
 * a wait for the URL after each action that navigated; and assertions for the end state the run
 * verified (the URL it ended on, and each `textPresent` goal check that held). Secrets stay
 * placeholders in the trace and, for the names in `options.secrets` only, become fields marked
 * `variable: SEXTANT_SECRET_<NAME>`; every other
 * typed value, option and text is literal data (`${env.NAME}` in it is never an environment read).
 *
 * Throws a `RunExportError` naming the step when the run recorded nothing, or used an operation a
 * test spec cannot express (drag, text selection, a slider, an upload) or an element inside a frame;
 * and naming how the run ended when it did not reach its goal (FAILED, CANCELLED, a goal part not
 * verified, no end in the trace), unless `options.unfinished` asks for a replay named as such.
 *
 * @example
 * ```ts
 * import { readRunTrace } from "@sextant/executor"
 * import { exportWdioScript, runToTestSuite } from "@sextant/explorer"
 * const { suite, notes } = runToTestSuite(readRunTrace(".sextant/traces/run-1.jsonl"))
 * const script = exportWdioScript(suite)
 * ```
 */
export const runToTestSuite = (
  records: ReadonlyArray<TraceRecord>,
  options: RunExportOptions = {},
): RunAsTests => {
  const start = records.find((record) => record.type === "run-start")
  const runId = records[0]?.runId ?? "run"
  const notes: Array<string> = []
  const steps: Array<TestStep> = []
  let startUrl: string | undefined
  let lastUrl: string | undefined
  let origin = ""
  const acted: Array<Located> = []

  const push = (step: TestStep): void => {
    const previous = steps[steps.length - 1]
    // Fields typed one after the other are one FillForm, as a person would write the test.
    if (step.type === "FillForm" && previous?.type === "FillForm") {
      steps[steps.length - 1] = { ...previous, fields: [...previous.fields, ...step.fields] }
      return
    }
    steps.push(step)
  }
  const begin = (url: string): void => {
    if (startUrl !== undefined || url === "") return
    startUrl = url
    try {
      origin = new URL(url).origin
    } catch {
      throw new RunExportError(`the run started on "${url}", which is not a URL a test can open`)
    }
  }
  const field = (located: Located, fieldType: FieldValue["fieldType"], value: string): TestStep => {
    const target = locatorOf(located)
    const variable = placeholderVariable(value, options.secrets)
    if (variable !== undefined) return { type: "FillForm", fields: [{ target, fieldType, variable }] }
    if (hasPlaceholder(value, options.secrets))
      throw new RunExportError(
        `step ${located.step}: ${located.action.op} on ${describeElement(located.action.element)} typed a secret inside other text; a test spec reads a secret only as a whole field value`,
      )
    const literal = unmarkedPlaceholders(value, options.secrets)
    if (literal.length > 0)
      notes.push(
        `step ${located.step}: ${located.action.op} on ${describeElement(located.action.element)} typed ${[...new Set(literal)].join(", ")}, which is not a secret of the run${options.secrets === undefined || options.secrets.length === 0 ? " (no secrets were given)" : ` (its secrets: ${options.secrets.join(", ")})`}: written as literal text, never read from the environment`,
      )
    return { type: "FillForm", fields: [{ target, fieldType, value }] }
  }

  for (const record of records) {
    if (record.type !== "recorded") continue
    for (const action of record.actions) {
      if (action.kind === "navigate") {
        if (startUrl === undefined) begin(action.url)
        else push({ type: "Navigate", url: relative(action.url, origin) })
        lastUrl = action.url
        continue
      }
      if (action.kind === "wait") {
        push(
          "text" in action.condition
            ? { type: "Wait", text: action.condition.text }
            : {
                type: "Wait",
                selector: action.condition.selector,
                ...(isWaitState(action.condition.state) ? { state: action.condition.state } : {}),
              },
        )
        continue
      }
      begin(action.urlBefore)
      const located: Located = { action, step: record.step }
      acted.push(located)
      const what = `${action.op} on ${describeElement(action.element)}`
      if (UNEXPRESSIBLE.has(action.op))
        throw new RunExportError(
          `step ${record.step}: ${what} has no form in a test spec yet, so this run cannot be exported as a script`,
        )
      const leftOut = LEFT_OUT[action.op]
      if (leftOut !== undefined) {
        notes.push(`step ${record.step}: left out ${what} (${leftOut})`)
        continue
      }
      switch (action.op) {
        case "click":
          push({ type: "Click", target: locatorOf(located) })
          break
        case "hover":
          push({ type: "Hover", target: locatorOf(located) })
          break
        case "input":
        case "clear":
          push(field(located, "text", action.op === "clear" ? "" : textValue(action.value)))
          break
        case "check":
        case "uncheck":
          push(field(located, "checkbox", action.op === "check" ? "true" : "false"))
          break
        case "select": {
          const chosen = Array.isArray(action.value) ? action.value : [textValue(action.value)]
          if (chosen.length !== 1)
            throw new RunExportError(
              `step ${record.step}: ${what} chose ${chosen.length} options; a test spec selects one`,
            )
          push(field(located, "select", chosen[0] ?? ""))
          break
        }
        case "press": {
          // The press tool names the focused element (or the page) when it was given no target.
          const onFocus = action.element.selector === ":focus" || action.element.selector === "body"
          push({
            type: "Press",
            key: textValue(action.value ?? "Enter"),
            ...(onFocus ? {} : { target: locatorOf(located) }),
          })
          break
        }
      }
      const before = pathOf(action.urlBefore)
      const after = pathOf(action.url)
      // Where the run waited for a navigation, the test waits for the URL it reached.
      if (after !== undefined && before !== undefined && after !== before)
        push({ type: "Assert", assertion: urlAssertion(after) })
      lastUrl = action.url
    }
  }

  if (startUrl === undefined)
    throw new RunExportError(
      `the trace of ${runId} has no recorded browser actions: the run did nothing in the browser, or it was run by a Sextant that did not record them`,
    )

  const goal = start?.type === "run-start" ? start.goal : undefined
  const assertions: Array<Assertion> = []
  /** The selectors of the password fields a held sign-in must have taken off the page. */
  const signedIn: Array<string> = []
  const endPath = lastUrl === undefined ? undefined : pathOf(lastUrl)
  if (endPath !== undefined) assertions.push(urlAssertion(endPath))
  const verified = [...records].reverse().find((record) => record.type === "verified")
  const unmet: Array<string> = []
  if (verified?.type === "verified") {
    for (const part of verified.parts) {
      if (part.held && part.check.type === "loggedIn") {
        // Signed in is the password field gone: a test that signs in with a wrong password (answered
        // with the form again, or an error on the same URL) fails here, not only by its end URL.
        const password = steps
          .flatMap((step) => (step.type === "FillForm" || step.type === "FillAndSubmit" ? step.fields : []))
          // The field the run typed a secret into, else one named as a password.
          .findLast(
            (field) =>
              field.variable !== undefined || /pass(?:word|code)|passwort|密码/i.test(field.target.name),
          )
        if (password !== undefined) signedIn.push(password.target.selector)
        else
          notes.push(
            `the run verified "${part.part}" on the page, but typed into no password field the test can watch: the test checks the end URL only for it`,
          )
      } else if (part.held) {
        const asserted = partAssertions(part.check, acted, options.secrets)
        if ("unasserted" in asserted)
          notes.push(
            `the run verified "${part.part}" on the page, but the script does not assert it (${asserted.unasserted}): the test replays the steps and checks the end URL only for it`,
          )
        else assertions.push(...asserted)
      }
      if (!part.held) {
        unmet.push(part.part)
        notes.push(`the run did not verify "${part.part}": the script does not assert it`)
      }
    }
  }
  const end = [...records].reverse().find((record) => record.type === "run-end")
  const ended = end?.type === "run-end" ? `ended ${end.status} (${end.endReason})` : "has no end in its trace"
  // A test is named after the goal: one that passes without the goal having been reached is a false success.
  const finished = end?.type === "run-end" && end.status === "COMPLETED" && unmet.length === 0
  if (!finished) {
    const why = [
      ended,
      ...(unmet.length === 0 ? [] : [`did not verify ${unmet.map((part) => `"${part}"`).join(", ")}`]),
    ].join(" and ")
    if (options.unfinished !== true)
      throw new RunExportError(
        `${runId} ${why}: a test of${goal === undefined ? " it" : ` "${goal}"`} would pass without the goal reached, so it is not exported; give unfinished (sextant export --unfinished) to replay what it did under a name that says so`,
      )
    notes.push(`the run ${why}: the script replays what it did, not its goal`)
  }
  for (const selector of new Set(signedIn)) steps.push({ type: "Wait", selector, state: "hidden" })
  for (const assertion of assertions) {
    // The URL already asserted after the last action that moved, with no navigation since, is not asserted twice.
    const lastMove = steps.findLastIndex(
      (step) =>
        step.type === "Navigate" ||
        (step.type === "Assert" &&
          (step.assertion.type === "UrlContains" || step.assertion.type === "UrlEquals")),
    )
    const previous = steps[lastMove]
    const same =
      previous?.type === "Assert" && JSON.stringify(previous.assertion) === JSON.stringify(assertion)
    if (!same) steps.push({ type: "Assert", assertion })
  }
  if (steps.length === 0)
    throw new RunExportError(`${runId} only opened ${startUrl}: there is nothing to replay or assert`)

  const named = options.name ?? goal ?? runId
  const name = finished ? named : `replay of an unfinished run (${ended}), its goal not asserted: ${named}`
  return {
    suite: {
      version: 1,
      name,
      baseUrl: origin,
      tests: [{ name, startUrl: relative(startUrl, origin), steps }],
    },
    notes,
  }
}

/**
 * The URL a recorded run started on (its first navigation), or undefined when it recorded none: the site
 * an export of its traffic is bound to (`exportApiTests(…, { origin })`).
 */
export const runStartUrl = (records: ReadonlyArray<TraceRecord>): string | undefined => {
  for (const record of records)
    if (record.type === "recorded")
      for (const action of record.actions)
        if (action.kind === "navigate" && action.url !== "") return action.url
  return undefined
}

/**
 * The JSON exchanges a run recorded (when it ran with traffic recording), ready for `exportApiTests`.
 * Secrets stay placeholders, read from the environment by the exported tests.
 *
 * @example
 * ```ts
 * import { readRunTrace } from "@sextant/executor"
 * import { exportApiTests, runExchanges, runStartUrl } from "@sextant/explorer"
 * const trace = readRunTrace(".sextant/traces/run-1.jsonl")
 * const source = exportApiTests(runExchanges(trace), { origin: runStartUrl(trace) })
 * ```
 */
export const runExchanges = (records: ReadonlyArray<TraceRecord>): ReadonlyArray<ApiExchange> =>
  records.flatMap((record) =>
    record.type === "recorded"
      ? record.exchanges.flatMap((exchange) => {
          const parsed = ApiExchange.safeParse(exchange)
          return parsed.success ? [parsed.data] : []
        })
      : [],
  )

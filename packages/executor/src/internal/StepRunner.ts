import {
  ActOrigins,
  AgentError,
  type AnyTool,
  BudgetExceeded,
  CriteriaNotMet,
  type Criterion,
  DriverCrashed,
  DriverError,
  GuardrailViolation,
  isDriverError,
  NoPage,
  type Observation,
  type ObservedError,
  type OriginRefused,
  observeError,
  type PageSnapshot,
  parseTarget,
  SessionOrigins,
  type Signal,
  type Step,
  StepTimeout,
  type StoredRecord,
  type StoreError,
  secretPlaceholder,
  sextantErrorOf,
  UploadDirs,
  webOrigin,
} from "@sextant/core"
import { withMaskedPage } from "@sextant/perception"
import { Cause, Clock, Duration, Effect, type Exit, Metric, Option, Schedule, Scope } from "effect"
import { checkCriteria, unmetCriteria } from "../Criteria.ts"
import { countRetry, countStep, ExecutorMetrics } from "../Metrics.ts"
import { permanentFailure, reasonOf, reasonTag, recoveryFor, retryScheduleFor } from "../RetryPolicy.ts"
import { blockedRequestMessage, guardSecretRequests, secretDestinationRefusal } from "../SecretPolicy.ts"
import { actOutcome } from "./ActOutcome.ts"
import { type GuardViolation, installGuard, takeViolations } from "./PageGuard.ts"
import { elapsedSince, moveTo, type RunContext, recordStep, takeScreenshot } from "./RunContext.ts"
import { resumeOnNewTab } from "./TabRecovery.ts"

/**
 * Why a step must not run JavaScript its caller wrote (a tool's declared `scriptInputs`, such as
 * `waitFor`'s `js`) in a run with secrets, or undefined: a script can read a typed secret and write it
 * where the page shows it (reversed, as character codes), in a spelling no redaction catches, for the
 * next look to hand to the model, the trace and the store. A run without secrets runs it as before.
 */
const secretScript = (
  tool: AnyTool | undefined,
  args: unknown,
  secrets: ReadonlyArray<string>,
): string | undefined => {
  if (secrets.length === 0 || tool === undefined) return undefined
  for (const field of tool.scriptInputs ?? []) {
    const script = (args as Readonly<Record<string, unknown>> | undefined)?.[field]
    if (script === undefined || script === null) continue
    const names = secrets.map(secretPlaceholder).join(", ")
    return `${tool.name} would run the JavaScript of its ${field} (${JSON.stringify(String(script).slice(0, 80))}) in a run with ${names}: a script can read a typed secret and show it in a spelling no redaction catches; call it without ${field}`
  }
  return undefined
}

/** True when the error says it may succeed on a retry (Sextant's errors and a tool's own alike). */
const isRetryable = (error: unknown): boolean =>
  typeof error === "object" && error !== null && "isRetryable" in error && error.isRetryable === true

/** The reason tag of a step's failure as the policy names it (`Unknown` for an error Sextant does not know). */
type FailureTag = ReturnType<typeof reasonTag>

/** What a run records of a tool that threw: its own message, and what to do about a bug in a tool. */
const observeDefect = (tool: string, cause: Cause.Cause<unknown>): ObservedError => {
  const thrown = Cause.squash(cause)
  const detail = thrown instanceof Error ? `${thrown.name}: ${thrown.message}` : String(thrown)
  return {
    tag: "Defect",
    reason: "ToolCrashed",
    message: `the tool '${tool}' crashed (${detail}): this is a bug in the tool, not a problem of the page; the step is not retried, fix the tool or report it with the run's trace`,
    retryable: false,
  }
}

/** One tool call to execute: a plan step or a policy's decision. */
export interface StepCall {
  readonly index: number
  readonly tool: string
  readonly args: Readonly<Record<string, unknown>>
  readonly criteria: ReadonlyArray<Criterion>
}

/** What executing a call gave. */
export interface StepOutcome {
  readonly ok: boolean
  readonly observation: Observation
  readonly attempts: number
  readonly output?: unknown
  /** The typed error of the last attempt. */
  readonly error?: unknown
  /**
   * The tool threw (a defect: a bug in the tool, not a failure of the page or the browser). Never
   * retried or planned around: the run ends FAILED with {@link StepOutcome.observation}'s message.
   */
  readonly defect?: Cause.Cause<unknown> | undefined
  /** The call was refused by a guardrail (never retried). */
  readonly refused: boolean
  /** The rule of the guardrail that refused it. */
  readonly refusedBy?: string | undefined
  readonly changed: boolean
  /** Records the output carries, redacted, for the store. */
  readonly records: ReadonlyArray<StoredRecord>
}

/**
 * Makes a finished step durable, in an order that survives a crash at any point: records first
 * (deduplicated by key, so a step run again adds nothing twice), then the step as done (the commit
 * point: `resume` skips it from now on), then its observation (`resume` re-adds one that a crash lost).
 */
export const persistStep = (context: RunContext, step: Step, outcome: StepOutcome) =>
  Effect.gen(function* () {
    if (outcome.records.length > 0) yield* context.store.appendRecords(context.runId, outcome.records)
    yield* context.store.saveStep(context.runId, context.redactor.value(step))
    yield* context.store.appendObservation(context.runId, step.index, outcome.observation)
  })

// Errors after which the action certainly did not happen, so repeating a side effect is safe.

/**
 * A Timeout that reports exactly the limit the call passed in its own `timeoutMs` argument: the tool
 * watched its condition for the time the caller chose (not a stuck driver), so a retry is the same wait.
 */
const waitedItsOwnLimit = (error: unknown, args: Readonly<Record<string, unknown>>): boolean => {
  const failure = sextantErrorOf(error)
  const reason = failure === undefined ? undefined : reasonOf(failure)
  return (
    reason?._tag === "Timeout" && typeof args.timeoutMs === "number" && reason.timeoutMs === args.timeoutMs
  )
}

const NOT_PERFORMED: ReadonlySet<FailureTag> = new Set<FailureTag>([
  "ElementNotFound",
  "StaleRef",
  "NotInteractable",
  "DialogOpen",
  "InvalidToolArgs",
  "UnknownTool",
  "InvalidArgument",
  "NotEditable",
  "NoPage",
  // A compound tool looks for its controls (a search field, a list) before it types or clicks anything.
  "ControlNotFound",
  "ListNotFound",
])
/**
 * Failures the same call on the same page meets again: a compound tool found no control or list by
 * meaning, and the executor has no other locator to give it. Not retried; a replan may take another way.
 */
const SAME_AGAIN: ReadonlySet<FailureTag> = new Set<FailureTag>(["ControlNotFound", "ListNotFound"])
// Failures that mean "not on this page": on about:blank they mean there is no page at all.
const PAGE_MISSES: ReadonlySet<FailureTag> = new Set<FailureTag>([
  "ElementNotFound",
  "NotInteractable",
  "StaleRef",
  "ControlNotFound",
  "ListNotFound",
])
const TARGET_KEYS = ["target", "ref", "selector", "locator"] as const
const RECORD_KEYS = ["records", "items", "rows", "products", "values"] as const

const targetOf = (args: Readonly<Record<string, unknown>>): { key: string; value: string } | undefined => {
  for (const key of TARGET_KEYS) {
    const value = args[key]
    if (typeof value === "string" && value !== "") return { key, value }
  }
  return undefined
}

/**
 * A different locator for the same element: another of its ranked selectors, or an element whose id,
 * name or accessible name carries the failing selector's words.
 */
export const variantLocator = (value: string, snapshot: PageSnapshot, key: string): string | undefined => {
  const target = parseTarget(value)
  const elements = Object.values(snapshot.elements)
  const pick = (element: (typeof elements)[number]) =>
    key === "ref" ? element.ref : (element.selectors.find((selector) => selector !== value) ?? element.ref)
  if ("ref" in target) {
    const element = snapshot.elements[target.ref]
    return element === undefined ? undefined : element.selectors[0]
  }
  const same = elements.find((element) => element.selectors.includes(target.selector))
  if (same !== undefined) {
    const other = same.selectors.find((selector) => selector !== target.selector)
    return key === "ref" ? same.ref : (other ?? same.ref)
  }
  const words = target.selector
    .replace(/[#.[\]="':>~+*()^$|]/g, " ")
    .split(/[\s_-]+/)
    .map((word) => word.toLowerCase())
    .filter(
      (word) =>
        word.length > 2 &&
        !["name", "type", "data", "testid", "button", "input", "div", "span"].includes(word),
    )
  if (words.length === 0) return undefined
  // The element sharing most of the selector's words, if it shares at least half of them.
  let match: (typeof elements)[number] | undefined
  let best = Math.ceil(words.length / 2) - 1
  for (const element of elements) {
    const haystack =
      `${element.name} ${element.attributes.id ?? ""} ${element.attributes.name ?? ""}`.toLowerCase()
    const score = words.filter((word) => haystack.includes(word)).length
    if (score > best) {
      best = score
      match = element
    }
  }
  return match === undefined ? undefined : pick(match)
}

const recordKey = (item: unknown): string => {
  if (typeof item === "object" && item !== null) {
    const record = item as Record<string, unknown>
    for (const key of ["key", "id", "sku", "url", "href"]) {
      const value = record[key]
      if (typeof value === "string" || typeof value === "number") return `${key}:${value}`
    }
  }
  return `json:${JSON.stringify(item)}`
}

/** Records a tool output carries (`records`, `items`, `rows`, `products` or `values` arrays), for the store. */
export const recordsOf = (output: unknown, source: string): ReadonlyArray<StoredRecord> => {
  if (typeof output !== "object" || output === null) return []
  for (const key of RECORD_KEYS) {
    const list = (output as Record<string, unknown>)[key]
    if (Array.isArray(list)) {
      return list
        .filter((item) => item !== null)
        .map((item) => ({ key: recordKey(item), source, data: item }))
    }
  }
  return []
}

const signalsOf = (output: unknown): Array<Signal> | undefined => {
  const signals = actOutcome(output).signals
  return Array.isArray(signals)
    ? (signals.filter((signal) => typeof signal === "string") as Array<Signal>)
    : undefined
}

/**
 * Whether a step that may submit a form did send it: the page moved, or the step succeeded with signals
 * of a submission or a navigation (a tool that reports no signals is taken at its word), or it failed
 * in a way that does not prove the action never happened.
 */
const submissionHappened = (attempt: Exit.Exit<unknown, unknown>, moved: boolean): boolean => {
  if (moved) return true
  if (attempt._tag === "Failure") {
    const error = Option.getOrUndefined(Cause.findErrorOption(attempt.cause))
    return !NOT_PERFORMED.has(reasonTag(sextantErrorOf(error)))
  }
  const signals = signalsOf(attempt.value)
  return signals === undefined || signals.includes("FormSubmitted") || signals.includes("NavigationOccurred")
}

const changedOf = (output: unknown, before: string, after: string): boolean => {
  if (after !== before) return true
  if (typeof output === "object" && output !== null) {
    const record = output as { changed?: unknown; signals?: unknown }
    if (typeof record.changed === "boolean") return record.changed
    if (Array.isArray(record.signals)) return !(record.signals.length === 1 && record.signals[0] === "NoOp")
  }
  return true
}

const statusOf = (output: unknown): number | undefined => {
  const status = (output as { status?: unknown } | null)?.status
  return typeof status === "number" ? status : undefined
}

/** True when no page is open: the browser is on about:blank (no start URL, no navigation yet). */
const onBlank = (context: RunContext): Effect.Effect<boolean> =>
  context.lastUrl !== "about:blank"
    ? Effect.succeed(false)
    : context.driver.currentUrl.pipe(
        Effect.map((url) => url === "about:blank"),
        Effect.catch(() => Effect.succeed(false)),
      )

const describeArgs = (args: Readonly<Record<string, unknown>>): string => {
  const text = JSON.stringify(args)
  return text.length > 160 ? `${text.slice(0, 157)}...` : text
}

/**
 * Why typing the secret of `args` now would send it where it may not go, or undefined. A secret is bound
 * to the task's allowed origins (by default the start URL's; with no start URL and no list, the first
 * origin a secret is typed on). The rule itself is `checkSecretDestination` (as {@link secretDestinationRefusal}).
 */
const secretDestinationProblem = (
  context: RunContext,
  tool: string,
  args: Readonly<Record<string, unknown>>,
) =>
  Effect.gen(function* () {
    const target = targetOf(args)
    const label = typeof args.label === "string" ? args.label : undefined
    const pageUrl = yield* context.driver.currentUrl.pipe(Effect.catch(() => Effect.succeed(context.lastUrl)))
    const page = webOrigin(pageUrl) ?? pageUrl
    const allowed = context.guardrails.allowedOrigins ?? context.secretOrigins ?? [page]
    const refusal = yield* secretDestinationRefusal(context.driver, {
      allowed,
      field: target !== undefined ? parseTarget(target.value) : label !== undefined ? { label } : {},
      actor: tool,
      secret: secretShown(context),
      setting: context.guardrails.settingNames.allowedOrigins,
      fallbackUrl: context.lastUrl,
    })
    if (refusal !== undefined) return { allowed, refusal }
    if (context.guardrails.allowedOrigins === undefined) context.secretOrigins = allowed
    return { allowed, refusal: undefined }
  })

const secretShown = (context: RunContext, index?: number): string => {
  const name = index === undefined ? undefined : context.redactor.names[index]
  if (name !== undefined) return `<secret:${name}>`
  return context.redactor.names.length === 1 ? `<secret:${context.redactor.names[0]}>` : "a secret"
}

/**
 * Starts the driver's request guard the first time the run types a secret, bound to the origins the
 * secret may go to; it holds until the run ends. A driver that cannot guard requests is said in the
 * transcript once; the step is then refused unless `requireRequestGuard` is false.
 */
const armRequestGuard = (context: RunContext, origins: ReadonlyArray<string>) =>
  Effect.gen(function* () {
    if (context.secretGuard !== undefined || context.secretGuardMissing !== undefined) return
    const values = context.redactor.names.map((name) => String(context.task.inputs[name]))
    // Strict: from the first secret typed, the page may reach only the secrets' origins.
    const armed = yield* guardSecretRequests(context.driver, { values, origins, strict: true }).pipe(
      Scope.provide(context.scope),
    )
    if ("guard" in armed) context.secretGuard = armed.guard
    else {
      context.secretGuardMissing = armed.missing
      context.trace.line(`  requests are not guarded: ${armed.missing}`)
    }
  })

/**
 * What the driver's request guard stopped since the last call, as guardrail messages: the requests that
 * carried a secret elsewhere, then the pages a tab tried to load on an origin the strict guard does not
 * allow.
 */
const blockedRequests = (context: RunContext, tool: string) => {
  const guard = context.secretGuard
  if (guard === undefined) return Effect.succeed([])
  const allowed = (context.secretOrigins ?? []).join(", ") || "the secret's origins"
  return Effect.map(
    Effect.all([guard.blocked, guard.refusedPages ?? Effect.succeed([])]),
    ([blocked, refused]) => [
      ...blocked.map(
        (request) => `${tool}: ${blockedRequestMessage(request, secretShown(context, request.secret))}`,
      ),
      ...refused.map(
        (page) =>
          `${tool}: the page tried to load a page on ${page.origin} (${page.method}) after a secret was typed; only ${allowed} may be reached then, so it was blocked before it left the browser`,
      ),
    ],
  )
}

/**
 * The `OriginRefused` reason of a driver error, also when a compound tool wrapped it (its `cause`).
 * Only a real `DriverError` counts (by its TypeId): a tool's object that copies the tags is not one.
 */
const originRefusedIn = (error: unknown, depth = 0): OriginRefused | undefined => {
  if (isDriverError(error)) return error.reason._tag === "OriginRefused" ? error.reason : undefined
  if (depth >= 4 || typeof error !== "object" || error === null || !("cause" in error)) return undefined
  return originRefusedIn(error.cause, depth + 1)
}

/** A pop-up the driver closed before it loaded anything, as the guardrails judge its URL. */
const foreignPopup = (context: RunContext, url: string): GuardViolation => {
  const refusal = context.guardrails.checkUrl(url)
  const reason = refusal?.reason
  return {
    kind: "popup",
    url,
    problem:
      reason?._tag === "GuardrailViolation"
        ? reason.detail
        : (refusal?.message ?? "is not on an allowed origin"),
    page: context.lastUrl,
  }
}

/** Closes tabs the run's pages opened on origins it may not visit; each one is reported. */
const closeForeignTabs = (context: RunContext) =>
  Effect.gen(function* () {
    const open = yield* Effect.option(context.driver.tabs)
    if (Option.isNone(open)) return []
    const closed: Array<GuardViolation> = []
    for (const tab of open.value) {
      if (
        tab.active ||
        context.knownTabs?.has(tab.handle) === true ||
        tab.url === "about:blank" ||
        tab.url === ""
      )
        continue
      const refusal = context.guardrails.checkUrl(tab.url)
      if (refusal === undefined) continue
      yield* context.driver.closeTab(tab.handle).pipe(Effect.ignore)
      const reason = refusal.reason
      closed.push({
        kind: "popup",
        url: tab.url,
        problem: reason._tag === "GuardrailViolation" ? reason.detail : refusal.message,
        page: context.lastUrl,
      })
    }
    return closed
  })

/**
 * Runs one tool call with guardrails, a time limit, retries on the schedule of the error's tag,
 * recovery between attempts, success criteria, and durable recording. Never fails for the call's own
 * errors: they are in the outcome. Store errors fail the run.
 */
export const executeStep = (
  context: RunContext,
  call: StepCall,
): Effect.Effect<StepOutcome, StoreError | AgentError, unknown> =>
  Effect.gen(function* () {
    const startedAt = yield* Clock.currentTimeMillis
    const registry = context.registry
    let args: Record<string, unknown> = { ...call.args }
    let attempts = 0
    let timeoutFactor = 1
    // Locators an ElementNotFound retry already used: a retry must try one not tried yet.
    const triedLocators = new Set<string>(
      [targetOf(call.args)?.value].filter((value): value is string => value !== undefined),
    )
    let landedAfterAlert = false
    let lastError: unknown
    let output: unknown
    let ok = false
    let refused = false
    let changed = false
    let submissionCharged = false
    let defect: Cause.Cause<unknown> | undefined
    const steppers = new Map<string, (input: unknown) => Effect.Effect<unknown, unknown>>()
    const urlBefore = context.lastUrl

    const found = yield* Effect.result(registry.get(call.tool))
    const tool: AnyTool | undefined = found._tag === "Success" ? found.success : undefined
    if (found._tag === "Failure") lastError = found.failure

    let refusedBy: string | undefined
    // A guardrail event that does not stop the step (a pop-up closed after the step ran).
    const note = (rule: string, error: AgentError) =>
      Effect.gen(function* () {
        if (rule === "secret-origin" && error.reason._tag === "GuardrailViolation") {
          // From now on the run types no secret, and it ends FAILED with this as its cause.
          context.secretRefusal ??= error.reason.detail
        }
        context.trace.emit({
          type: "guardrail",
          step: call.index,
          tool: call.tool,
          rule,
          message: error.message,
        })
        yield* Metric.update(ExecutorMetrics.guardrailViolations, 1)
      })
    const refuse = (rule: string, error: AgentError) =>
      Effect.gen(function* () {
        lastError = error
        refused = true
        refusedBy ??= rule
        yield* note(rule, error)
      })
    const secretOriginEvent = (detail: string) =>
      new AgentError({ reason: new GuardrailViolation({ rule: "secret-origin", detail }) })
    // A request a page sent after the last step ended (a beacon, a delayed post) was blocked then.
    for (const detail of yield* blockedRequests(context, "(between steps)")) {
      yield* note("secret-origin", secretOriginEvent(detail))
    }

    while (tool !== undefined) {
      attempts++
      context.trace.emit({ type: "step-start", step: call.index, tool: call.tool, args, attempt: attempts })
      const misplaced = context.redactor.misplaced(call.tool, args)
      if (misplaced !== undefined) {
        yield* refuse(
          "secret-placeholder",
          new AgentError({
            reason: new GuardrailViolation({ rule: "secret-placeholder", detail: misplaced }),
          }),
        )
        break
      }
      const script = secretScript(tool, args, context.redactor.names)
      if (script !== undefined) {
        yield* refuse(
          "secret-script",
          new AgentError({ reason: new GuardrailViolation({ rule: "secret-script", detail: script }) }),
        )
        break
      }
      const decoded = yield* Effect.result(registry.decodeArgs(call.tool, context.redactor.reveal(args)))
      if (decoded._tag === "Failure") {
        lastError = decoded.failure
        break
      }
      if (tool.effects.clicks && !tool.effects.navigates && (yield* onBlank(context))) {
        lastError = new AgentError({ reason: new NoPage({ tool: call.tool }) })
        break
      }
      if (tool.effects.clicks && targetOf(args) !== undefined && context.lastSnapshot === undefined) {
        // The guardrails judge a click by what it targets (a sign-out link, a submit button, an off-site link).
        const seen = yield* Effect.option(context.driver.look())
        if (Option.isSome(seen)) context.lastSnapshot = seen.value
      }
      const verdict = context.guardrails.check({
        tool: call.tool,
        effects: tool.effects,
        args,
        currentUrl: context.lastUrl,
        snapshot: context.lastSnapshot,
      })
      if ("violation" in verdict) {
        lastError = verdict.violation
        refused = true
        const reason = verdict.violation.reason
        context.trace.emit({
          type: "guardrail",
          step: call.index,
          tool: call.tool,
          rule: reason._tag === "GuardrailViolation" ? reason.rule : reason._tag,
          message: verdict.violation.message,
        })
        yield* Metric.update(ExecutorMetrics.guardrailViolations, 1)
        break
      }
      const acts = tool.effects.clicks || tool.effects.navigates || tool.effects.submits
      if (acts) {
        if (context.knownTabs === undefined) {
          const open = yield* Effect.option(context.driver.tabs)
          context.knownTabs = new Set(Option.isSome(open) ? open.value.map((tab) => tab.handle) : [])
        }
        yield* installGuard(context.driver, context.guardKey, context.guardrails.allowedOrigins)
      }
      let typing: ReadonlyArray<string> | undefined
      if (context.redactor.namesSecret(args, call.tool)) {
        if (context.secretRefusal !== undefined) {
          // The page already tried to take a secret elsewhere: a replan or a retry never offers it again.
          yield* refuse(
            "secret-origin",
            secretOriginEvent(
              `${call.tool} would type ${secretShown(context)} again after the run's secret-origin event (${context.secretRefusal}): a run never types a secret again after one; start a new run once the page is trusted`,
            ),
          )
          break
        }
        const destination = yield* secretDestinationProblem(context, call.tool, args)
        if (destination.refusal !== undefined) {
          yield* refuse(
            destination.refusal.rule,
            new AgentError({
              reason: new GuardrailViolation({
                rule: destination.refusal.rule,
                detail: destination.refusal.message,
              }),
            }),
          )
          break
        }
        // Whatever the page sends once the secret is in (a redirect, a swapped action, a script's
        // request) is inspected in the browser before it leaves.
        yield* armRequestGuard(context, destination.allowed)
        if (context.options.requireRequestGuard !== false && context.secretGuard === undefined) {
          yield* refuse(
            "secret-unguarded",
            new AgentError({
              reason: new GuardrailViolation({
                rule: "secret-unguarded",
                detail: `${call.tool} would type ${secretShown(context)} into a browser whose requests cannot be guarded (${context.secretGuardMissing ?? "no request guard"}): nothing was typed; run the task where requests can be guarded (a Chromium Sextant launches, or one on this machine driven without BiDi), or without the secret; to type it unguarded, accepting that a page may send it elsewhere, allow it with ${context.guardrails.settingNames.allowUnguardedSecrets}`,
              }),
            }),
          )
          break
        }
        // The page may still move before the keys go in: the driver checks again as it types.
        typing = destination.allowed
      }
      // A submission is charged once it is seen to have happened (after the step ran), never for a
      // click the browser did not send (a required field empty) or a step refused before it acted.
      context.guardrails.commit({ ...verdict.charge, submits: false })
      const masksPage = call.tool === "screenshot" && context.redactor.names.length > 0
      // A step never outlives the run: past maxDurationMs it is cut, and the cut ends the run.
      const stepLimitMs = Math.round(context.task.constraints.stepTimeoutMs * timeoutFactor)
      const leftMs = context.task.constraints.maxDurationMs - (yield* elapsedSince(context.startedAtMillis))
      const limitMs = Math.max(0, Math.min(stepLimitMs, leftMs))
      const deadlineCut = new AgentError({
        reason: new BudgetExceeded({
          budget: "maxDurationMs",
          limit: context.task.constraints.maxDurationMs,
        }),
      })
      const cutAtDeadline = limitMs < stepLimitMs
      // After an alert on load was accepted, the navigation already happened: the next attempt reads
      // where the page is instead of loading it again (which would open the alert again).
      const observeOnly = landedAfterAlert
      landedAfterAlert = false
      const run: Effect.Effect<unknown, unknown> = observeOnly
        ? Effect.map(Effect.all([context.driver.currentUrl, context.driver.title]), ([url, title]) => ({
            url,
            title,
          }))
        : (tool.run(decoded.success) as Effect.Effect<unknown, unknown>)
      const attempt = yield* Effect.exit(
        run.pipe(
          typing === undefined ? (run) => run : Effect.provideService(ActOrigins, { typing }),
          // Checked where the request or the upload happens, on what is really reached: each redirect
          // hop of the session tools, the real path of an uploaded file.
          Effect.provideService(SessionOrigins, {
            allowed: context.guardrails.allowedOrigins,
            setting: context.guardrails.settingNames.allowedOrigins,
          }),
          Effect.provideService(UploadDirs, {
            allowed: context.task.constraints.allowedUploadDirs,
            setting: context.guardrails.settingNames.allowedUploadDirs,
          }),
          // A screenshot a run with secrets takes must not show one typed into a plain text field or
          // echoed by the page; when the page cannot be masked the step fails and no image is taken.
          masksPage ? (run) => withMaskedPage(context.driver, context.redactor.text, run) : (run) => run,
          Effect.timeoutOrElse({
            duration: Duration.millis(limitMs),
            orElse: () =>
              Effect.fail(
                cutAtDeadline
                  ? deadlineCut
                  : new AgentError({
                      reason: new StepTimeout({ step: call.index, tool: call.tool, timeoutMs: limitMs }),
                    }),
              ),
          }),
        ),
      )
      const blocked = Cause.hasInterrupts(attempt._tag === "Failure" ? attempt.cause : Cause.empty)
        ? []
        : yield* blockedRequests(context, call.tool)
      if (blocked.length > 0) {
        for (const detail of blocked) yield* refuse("secret-origin", secretOriginEvent(detail))
        context.lastSnapshot = undefined
        break
      }
      const refusedByDriver =
        attempt._tag === "Failure"
          ? originRefusedIn(Option.getOrUndefined(Cause.findErrorOption(attempt.cause)))
          : undefined
      if (refusedByDriver !== undefined) {
        yield* refuse(
          "secret-origin",
          new AgentError({
            reason: new GuardrailViolation({
              rule: "secret-origin",
              detail: `${call.tool}: ${refusedByDriver.message} (the page changed origin while the step ran)`,
            }),
          }),
        )
        break
      }
      if (acts && !Cause.hasInterrupts(attempt._tag === "Failure" ? attempt.cause : Cause.empty)) {
        const stopped = yield* takeViolations(context.driver, context.guardKey)
        // Pop-ups come from a page that loads (a navigation, a click that led somewhere) or from a
        // click the driver saw open a tab; a plain fill or check cannot open one, so it pays nothing.
        const value = attempt._tag === "Success" ? attempt.value : undefined
        const mayHaveOpened =
          tool.effects.navigates ||
          attempt._tag === "Failure" ||
          (typeof value === "object" &&
            value !== null &&
            ("newTabs" in value || (signalsOf(value)?.includes("NavigationOccurred") ?? true)))
        // Tabs the driver closed before they loaded (the run sets TabOrigins), then those still open.
        const popups = [
          ...context.closedPopups.splice(0).map((url) => foreignPopup(context, url)),
          ...(mayHaveOpened ? yield* closeForeignTabs(context) : []),
        ]
        for (const violation of [...stopped, ...popups]) {
          const rule = violation.kind === "link" ? "link-target" : violation.kind
          const report = violation.kind === "popup" ? note : refuse
          yield* report(
            rule,
            new AgentError({
              reason: new GuardrailViolation({
                rule,
                detail: `${violation.kind === "popup" ? "a pop-up" : violation.kind === "link" ? "a link" : "a form"} to ${violation.url} ${violation.problem}: ${violation.kind === "popup" ? "it was closed" : "it was stopped before it ran"}`,
              }),
            }),
          )
        }
        if (popups.length > 0) context.lastSnapshot = undefined
        if (stopped.length > 0) {
          context.lastSnapshot = undefined
          break
        }
      }
      if (verdict.charge.submits && !submissionCharged) {
        const nowUrl = yield* context.driver.currentUrl.pipe(
          Effect.catch(() => Effect.succeed(context.lastUrl)),
        )
        if (submissionHappened(attempt, nowUrl !== context.lastUrl)) {
          submissionCharged = true
          context.guardrails.commit({ navigates: false, clicks: false, submits: true })
        }
      }
      if (attempt._tag === "Success") {
        output = attempt.value
        const landedUrl = yield* context.driver.currentUrl.pipe(
          Effect.catch(() => Effect.succeed(context.lastUrl)),
        )
        const offSite = context.guardrails.checkUrl(landedUrl)
        if (offSite !== undefined) {
          // The page took the agent somewhere it may not be: go back, and refuse the step.
          yield* context.driver.back.pipe(Effect.ignore)
          context.lastUrl = yield* context.driver.currentUrl.pipe(
            Effect.catch(() => Effect.succeed(context.lastUrl)),
          )
          lastError = offSite
          refused = true
          context.trace.emit({
            type: "guardrail",
            step: call.index,
            tool: call.tool,
            rule: "allowed-origins",
            message: offSite.message,
          })
          yield* Metric.update(ExecutorMetrics.guardrailViolations, 1)
          break
        }
        changed = changedOf(output, context.lastUrl, landedUrl)
        if (changed) context.lastSnapshot = undefined
        const navigated = landedUrl !== context.lastUrl || verdict.charge.navigates
        context.lastUrl = landedUrl
        context.lastStatus = statusOf(output) ?? context.lastStatus
        if (navigated) {
          const loop = context.guardrails.landed(landedUrl)
          if (loop !== undefined) {
            lastError = loop
            context.trace.emit({
              type: "guardrail",
              step: call.index,
              tool: call.tool,
              rule: "navigation-loop",
              message: loop.message,
            })
            break
          }
        }
        const results = yield* Effect.result(checkCriteria(context.driver, call.criteria, context.lastStatus))
        const unmet =
          results._tag === "Success"
            ? unmetCriteria(results.success)
            : [`the criteria could not be checked: ${results.failure.message}`]
        if (unmet.length === 0) {
          ok = true
          break
        }
        lastError = new CriteriaNotMet({ tool: call.tool, unmet })
      } else if (Cause.hasInterrupts(attempt.cause)) {
        return yield* Effect.failCause(attempt.cause as Cause.Cause<never>)
      } else {
        const failure = Cause.findErrorOption(attempt.cause)
        if (Option.isNone(failure)) {
          // A tool that throws is a bug in the tool: it stays a defect (no typed reason pretends the
          // page or the browser failed), is never retried, and ends the run with its cause kept.
          defect = attempt.cause
          context.trace.line(`  ${call.tool} crashed:\n${context.redactor.text(Cause.pretty(attempt.cause))}`)
          break
        }
        lastError = failure.value
      }

      if (
        !tool.effects.navigates &&
        PAGE_MISSES.has(reasonTag(sextantErrorOf(lastError))) &&
        (yield* onBlank(context))
      ) {
        // Nothing on about:blank can be found or read, however often the tool tries.
        lastError = new AgentError({ reason: new NoPage({ tool: call.tool }), cause: lastError })
        break
      }
      if (!isRetryable(lastError) || permanentFailure(sextantErrorOf(lastError)) !== undefined) break
      if (waitedItsOwnLimit(lastError, args)) {
        // The call waited the whole time it asked for (waitFor's timeoutMs) and the condition never
        // held: the same call would wait the same time for the same thing. The policy or the replan
        // decides what comes next, with the Timeout in the observation.
        context.trace.line(
          `  not retrying ${call.tool}: it waited the ${String(args.timeoutMs)} ms it asked for`,
        )
        break
      }
      // The reason of a Sextant error; a tool's own error class is named by its tag in the trace.
      const failure = sextantErrorOf(lastError)
      const reason = failure === undefined ? undefined : reasonOf(failure)
      const tag = reason === undefined ? observeError(lastError).tag : reason._tag
      if (reason !== undefined && SAME_AGAIN.has(reason._tag)) {
        context.trace.line(
          `  not retrying ${call.tool}: ${tag} — the same call on the same page finds the same nothing`,
        )
        break
      }
      let step = steppers.get(tag)
      if (step === undefined) {
        step = yield* Schedule.toStepWithSleep(retryScheduleFor(failure, context.retry))
        steppers.set(tag, step)
      }
      // The run waits between attempts: WAITING in the task state machine.
      yield* moveTo(context, "WAITING")
      const next = yield* step(lastError).pipe(
        Effect.map(() => true),
        Effect.catchCause(() => Effect.succeed(false)),
      )
      yield* moveTo(context, "RUNNING")
      if (!next) break
      if (failure !== undefined && recoveryFor(failure) === "new-tab") {
        // Before anything looks at the page: the crashed tab has none. A browser that cannot open a
        // tab any more is gone as a whole, and its error ends the step (and the run).
        const moved = yield* Effect.result(resumeOnNewTab(context, failure))
        if (moved._tag === "Failure") {
          const why = moved.failure.message
          context.trace.line(`  could not continue in a new tab: ${why}`)
          // The browser could not give the run a tab: it is as good as gone, and the run ends as for a
          // dead browser (resumable on a new one), not as a step that may be planned again.
          lastError =
            reasonTag(moved.failure) === "DriverCrashed"
              ? moved.failure
              : new DriverError({
                  method: "recoverTab",
                  reason: new DriverCrashed({
                    detail: `the tab crashed and no new tab could be opened: ${why}`,
                  }),
                  cause: moved.failure,
                })
          break
        }
      }

      const sideEffects = tool.effects.navigates || tool.effects.submits || tool.effects.clicks
      if (sideEffects && !tool.effects.idempotent && !NOT_PERFORMED.has(reasonTag(failure))) {
        // The action may have happened: look at the page before repeating it.
        const page = yield* Effect.result(checkCriteria(context.driver, call.criteria, context.lastStatus))
        const nowUrl = yield* context.driver.currentUrl.pipe(
          Effect.catch(() => Effect.succeed(context.lastUrl)),
        )
        if (call.criteria.length > 0 && page._tag === "Success" && unmetCriteria(page.success).length === 0) {
          ok = true
          context.lastUrl = nowUrl
          break
        }
        if (tool.effects.submits || nowUrl !== urlBefore) {
          context.lastUrl = nowUrl
          context.trace.emit({
            type: "retry",
            step: call.index,
            attempt: attempts,
            reason: tag,
            recovery: "none",
            message: `not repeating ${call.tool}: it ${tool.effects.submits ? "submits" : "changes the page"} and the page shows it may already have run (${nowUrl})`,
          })
          break
        }
      }
      const recovery = recoveryFor(failure)
      if (recovery === "wait-longer") timeoutFactor *= context.retry.timeoutGrowth
      if (recovery === "accept-alert") {
        // Said in the trace and the transcript: the page's alert was accepted, as a user would.
        const accepted = yield* Effect.result(context.driver.respondToDialog(true))
        context.trace.line(
          accepted._tag === "Success"
            ? `  accepted the page's alert ("${reason?._tag === "DialogOpen" ? reason.text : ""}")`
            : `  could not accept the page's alert: ${accepted.failure.message}`,
        )
        landedAfterAlert =
          accepted._tag === "Success" &&
          tool.effects.navigates &&
          (tool.output as { safeParse?: (value: unknown) => { success: boolean } }).safeParse?.({
            url: "",
            title: "",
          })?.success === true
      }
      if (recovery === "relook" || recovery === "scroll-and-relook") {
        const target = targetOf(args)
        if (recovery === "scroll-and-relook" && target !== undefined) {
          yield* context.driver.scroll({ target: parseTarget(target.value) }).pipe(Effect.ignore)
        }
        const snapshot = yield* Effect.option(context.driver.look())
        if (Option.isSome(snapshot)) context.lastSnapshot = snapshot.value
        if (tag === "ElementNotFound") {
          // The same locator finds the same nothing: a retry goes only with one not tried yet (another
          // selector of the element, which a late element also gets once it is there).
          const variant =
            target === undefined || Option.isNone(snapshot)
              ? undefined
              : variantLocator(target.value, snapshot.value, target.key)
          if (target === undefined || variant === undefined || triedLocators.has(variant)) {
            context.trace.line(
              `  not retrying ${call.tool}: ${target === undefined ? "it names no element to look for another way" : `the page has no other locator for ${target.value}`}`,
            )
            break
          }
          triedLocators.add(variant)
          args = { ...args, [target.key]: variant }
        }
      }
      yield* countRetry(context.tally)
      context.trace.emit({
        type: "retry",
        step: call.index,
        attempt: attempts,
        reason: tag,
        recovery,
        message: failure?.message ?? observeError(lastError).message,
      })
      context.trace.line(`  retry ${call.tool} after ${tag} (${recovery})`)
    }

    const durationMs = yield* elapsedSince(startedAt)
    const observed = ok
      ? undefined
      : defect !== undefined
        ? observeDefect(call.tool, defect)
        : observeError(lastError)
    const observation: Observation = context.redactor.value({
      tool: call.tool,
      ok,
      data: output,
      message: ok ? undefined : observed?.message,
      error: observed,
      durationMs,
      at: new Date().toISOString(),
      url: context.lastUrl,
      signals: signalsOf(output),
    })
    const records = ok
      ? recordsOf(context.redactor.value(output), context.redactor.text(`${call.tool}@${context.lastUrl}`))
      : []
    const shots = context.options.screenshots ?? "on-failure"
    const screenshot =
      shots === "always" || (shots === "on-failure" && !ok && !refused)
        ? yield* takeScreenshot(context, `step-${call.index}-${ok ? "ok" : "failed"}`)
        : undefined
    if (screenshot?.skipped !== undefined)
      context.trace.line(`  step ${call.index}: no screenshot: ${screenshot.skipped}`)
    yield* countStep(context.tally, durationMs)
    yield* recordStep(context, call.index)
    context.trace.emit({
      type: "step-end",
      step: call.index,
      tool: call.tool,
      ok,
      durationMs,
      attempts,
      message: observation.message,
      error: observation.error,
      url: context.lastUrl,
      screenshot: screenshot?.path,
      screenshotSkipped: screenshot?.skipped,
    })
    context.trace.line(
      `[${call.index}] ${call.tool} ${describeArgs(args)} → ${ok ? "ok" : `failed: ${observation.message ?? "unknown error"}`} (${durationMs} ms)`,
    )
    return {
      ok,
      observation,
      attempts,
      output,
      error: lastError,
      defect,
      refused,
      refusedBy,
      changed,
      records,
    } satisfies StepOutcome
  })

import type {
  AgentError,
  CompoundError,
  CriteriaNotMet,
  DriverError,
  HttpError,
  LlmError,
  SextantError,
  SqlError,
  StoreError,
} from "@sextant/core"
import { isRetryableStatus } from "@sextant/core"
import { Duration, Schedule } from "effect"

/** Retry settings, each a named option with a default. */
export interface RetryOptions {
  /** Retries of one step before it counts as failed (and the planner is asked to replan). Default 3. */
  readonly maxRetries?: number | undefined
  /** First backoff delay. Default 200 ms. */
  readonly baseDelayMs?: number | undefined
  /** Longest backoff delay before jitter. Default 5000 ms. */
  readonly maxDelayMs?: number | undefined
  /** Each Timeout retry waits this many times longer for the step. Default 2. */
  readonly timeoutGrowth?: number | undefined
}

/** The retry settings with every default filled in. */
export type ResolvedRetryOptions = Required<{ [K in keyof RetryOptions]: NonNullable<RetryOptions[K]> }>

export const resolveRetryOptions = (options: RetryOptions = {}): ResolvedRetryOptions => ({
  maxRetries: options.maxRetries ?? 3,
  baseDelayMs: options.baseDelayMs ?? 200,
  maxDelayMs: options.maxDelayMs ?? 5000,
  timeoutGrowth: options.timeoutGrowth ?? 2,
})

/** How the executor recovers before the next attempt, by the failing error's reason. */
export type Recovery =
  /** ElementNotFound: scroll the target into view and look again; later attempts try a variant locator. */
  | "scroll-and-relook"
  /** StaleRef: look again so refs are fresh. */
  | "relook"
  /** Timeout: give the step a longer time limit. */
  | "wait-longer"
  /** RateLimited: wait as long as the server asked. */
  | "honour-retry-after"
  /**
   * DialogOpen with an alert: accept it (an alert has only OK, so no decision is taken for the user)
   * and try again. A confirm or prompt is a decision and is never answered by a retry.
   */
  | "accept-alert"
  /**
   * DriverCrashed of one tab (its renderer died): continue in a fresh tab of the same browser,
   * load the last page again and try the step there, at once. A whole dead browser backs off, and
   * the run ends on it (`resume` continues on a new browser).
   */
  | "new-tab"
  /** Anything else retryable: back off and try again. */
  | "backoff"

/**
 * What a step failed with, as the retry policy sees it: one of Sextant's typed errors, or `undefined`
 * for an error Sextant does not know (a user's own tool failing with its own class), which backs off
 * when it says it is retryable and is otherwise left to the planner.
 */
export type StepFailure = SextantError | undefined

/** The reason of every typed error a step can end with: the union the policy switches on. */
export type StepFailureReason =
  | DriverError["reason"]
  | HttpError["reason"]
  | LlmError["reason"]
  | StoreError["reason"]
  | AgentError["reason"]
  | CompoundError["reason"]
  | SqlError["reason"]
  | CriteriaNotMet

/** The reason of a typed error (`CriteriaNotMet` is its own reason). */
export const reasonOf = (error: SextantError): StepFailureReason =>
  error._tag === "CriteriaNotMet" ? error : error.reason

/** The reason tag of a typed Sextant error (`ElementNotFound`, `RateLimited`, …), `Unknown` for any other. */
export const reasonTag = (error: StepFailure): StepFailureReason["_tag"] | "Unknown" =>
  error === undefined ? "Unknown" : reasonOf(error)._tag

/**
 * Failures no new plan can mend, so a plan run ends at once with the failure's own message: the site
 * rejected the credentials (submitting them again would only repeat the rejection and spend the
 * submission quota), the sign-in needs a step only the user can give (a one-time code) or the account
 * is locked (a new plan would log in again, sending the password twice), or the browser or its driver died (every step would fail the same way; `resume`
 * continues the run on a new browser).
 */
export const endsTheRun = (error: StepFailure): boolean => {
  const tag = reasonTag(error)
  return tag === "LoginRejected" || tag === "SignInUnfinished" || tag === "DriverCrashed"
}

/** The crashed tab of a `DriverCrashed` that only a tab suffered, or undefined. */
export const crashedTab = (error: StepFailure): string | undefined => {
  const reason = error === undefined ? undefined : reasonOf(error)
  return reason?._tag === "DriverCrashed" ? reason.tab : undefined
}

/**
 * The recovery for a reason. Every reason of the union is named, so a reason added to core without a
 * decision here does not compile.
 */
export const recoveryForReason = (reason: StepFailureReason): Recovery => {
  switch (reason._tag) {
    case "ElementNotFound":
    case "NotInteractable":
      return "scroll-and-relook"
    case "StaleRef":
      return "relook"
    case "Timeout":
    case "StepTimeout":
      return "wait-longer"
    case "RateLimited":
      return "honour-retry-after"
    case "DriverCrashed":
      return reason.tab === undefined ? "backoff" : "new-tab"
    case "DialogOpen":
      // An alert has only OK; a confirm or a prompt is the user's decision, never a retry's.
      return reason.type === "alert" ? "accept-alert" : "backoff"
    // Driver
    case "InvalidUrl":
    case "OriginRefused":
    case "UploadRefused":
    case "ForeignPageRuntime":
    case "MaskingFailed":
    case "NavigationFailed":
    case "InvalidArgument":
    case "NotEditable":
    // The driver already cleared the field and typed again: the same keys would be lost again.
    case "ValueNotTaken":
    case "ScriptError":
    case "SessionClosed":
    case "PageStatus":
    case "DriverUnknown":
    // HTTP
    case "OriginNotAllowed":
    case "HttpStatus":
    case "HttpNetwork":
    case "UnsupportedContent":
    case "BodyTooLarge":
    // Model
    case "LlmTransport":
    case "LlmServerError":
    case "LlmRequestRejected":
    case "OutputInvalid":
    case "LlmCancelled":
    // Store
    case "StoreUnavailable":
    case "StoreBusy":
    case "StoreQueryFailed":
    case "StoreNotFound":
    case "StoreLeaseHeld":
    case "StoreCorrupt":
    // Agent
    case "InvalidInput":
    case "InvalidToolArgs":
    case "UnknownTool":
    case "DuplicateTool":
    case "IllegalTransition":
    case "GuardrailViolation":
    case "NavigationLoop":
    case "SchemaMismatch":
    case "BudgetExceeded":
    case "PlanRejected":
    case "CannotPlan":
    case "NoPage":
    case "Cancelled":
    // Compound tools, sql, criteria
    case "LoginRejected":
    case "LoginUnconfirmed":
    // The password was taken and the site wants a code, or the account is locked: a retry would send
    // the password again.
    case "SignInUnfinished":
    case "ControlNotFound":
    case "ListNotFound":
    case "RecordsInvalid":
    case "SchemaInvalid":
    case "SqlSyntax":
    case "SqlNotAllowed":
    case "SqlFailed":
    case "CriteriaNotMet":
      return "backoff"
    default: {
      const unhandled: never = reason
      return unhandled
    }
  }
}

/** The recovery for a failure, by its reason; an error Sextant does not know backs off. */
export const recoveryFor = (error: StepFailure): Recovery =>
  error === undefined ? "backoff" : recoveryForReason(reasonOf(error))

/** The server's Retry-After of a `RateLimited`, when it sent one. */
const retryAfterOf = (error: StepFailure): number | undefined => {
  const reason = error === undefined ? undefined : reasonOf(error)
  return reason?._tag === "RateLimited" ? reason.retryAfterMs : undefined
}

/** What a retry schedule outputs on each recurrence (its delay, or the count of recurrences). */
export type RetryOutput = Duration.Duration | number

/** Exponential backoff from `baseMs`, capped at `capMs`, with jitter, at most `times` recurrences. */
const backoff = (baseMs: number, capMs: number, times: number) =>
  Schedule.min([Schedule.exponential(Duration.millis(baseMs)), Schedule.spaced(Duration.millis(capMs))]).pipe(
    Schedule.jittered,
    Schedule.upTo({ times }),
  )

/**
 * The retry schedule for a failure, chosen by its reason tag (exponential with jitter and a cap):
 * ElementNotFound and StaleRef retry soon (the recovery does the real work), a crashed tab at once
 * (in a new tab), Timeout waits longer,
 * RateLimited waits the server's Retry-After (exponential when it sent none).
 *
 * @example
 * ```ts
 * import { DriverError, ElementNotFound } from "@sextant/core"
 * import { retryScheduleFor } from "@sextant/executor"
 * const schedule = retryScheduleFor(new DriverError({ method: "act", reason: new ElementNotFound({ target: "#go" }) }))
 * ```
 */
export const retryScheduleFor = (
  error: StepFailure,
  options: RetryOptions = {},
): Schedule.Schedule<RetryOutput> => {
  const resolved = resolveRetryOptions(options)
  const times = resolved.maxRetries
  switch (recoveryFor(error)) {
    case "scroll-and-relook":
    case "relook":
    case "accept-alert":
      return backoff(Math.max(50, resolved.baseDelayMs / 2), Math.min(resolved.maxDelayMs, 2000), times)
    case "wait-longer":
      return backoff(resolved.baseDelayMs * 2, resolved.maxDelayMs, times)
    case "honour-retry-after": {
      const retryAfter = retryAfterOf(error)
      return retryAfter === undefined
        ? backoff(resolved.baseDelayMs * 5, Math.max(resolved.maxDelayMs, 30_000), times)
        : Schedule.spaced(Duration.millis(retryAfter)).pipe(Schedule.upTo({ times }))
    }
    case "new-tab":
      return Schedule.recurs(times)
    case "backoff":
      return backoff(resolved.baseDelayMs, resolved.maxDelayMs, times)
  }
}

/** The HTTP status of a reason that carries one. */
const statusOf = (reason: StepFailureReason): number | undefined => {
  switch (reason._tag) {
    case "NavigationFailed":
    case "HttpStatus":
    case "PageStatus":
    case "LlmServerError":
    case "LlmRequestRejected":
      return reason.status
    default:
      return undefined
  }
}

/**
 * Why a failure cannot succeed on any retry or replan, or undefined when it might: the host does not
 * resolve or refuses the connection, the URL is invalid, the server answered a 4xx other than 408/429,
 * or there is no page to act on (a tool run on about:blank because no start URL was given). Decided on
 * the reason and its fields, never on message text.
 *
 * @example
 * ```ts
 * import { DriverError, NavigationFailed } from "@sextant/core"
 * import { permanentFailure } from "@sextant/executor"
 * permanentFailure(new DriverError({ method: "navigate", reason: new NavigationFailed({ url: "http://nowhere.invalid", detail: "net::ERR_NAME_NOT_RESOLVED" }) }))
 * // "the host cannot be reached"
 * ```
 */
export const permanentFailure = (error: StepFailure): string | undefined => {
  if (error === undefined) return undefined
  const reason = reasonOf(error)
  const status = statusOf(reason)
  if (status !== undefined && status >= 400 && status < 500 && !isRetryableStatus(status))
    return `HTTP ${status}`
  switch (reason._tag) {
    case "InvalidUrl":
      return "the URL is invalid"
    case "NoPage":
      return "there is no page to act on"
    case "NavigationFailed":
    case "HttpNetwork":
    case "DriverUnknown":
      return reason.unreachable ? "the host cannot be reached" : undefined
    default:
      return undefined
  }
}

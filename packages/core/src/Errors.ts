import { Data } from "effect"

/**
 * Typed errors, one per boundary. Each carries a tagged `reason` that knows whether it is retryable,
 * and a message that says what happened, to what, and what to do.
 *
 * @example
 * ```ts
 * import { DriverError, ElementNotFound } from "@sextant/core"
 * const error = new DriverError({ method: "act", reason: new ElementNotFound({ target: "#login" }) })
 * error.isRetryable // true
 * error.message // "BrowserDriver.act: no element matches #login: check the selector or call look() to see the page"
 * ```
 */

// ---------------------------------------------------------------------------------------------------
// BrowserDriver reasons

/** No element matches a selector or ref. Retryable: the page may still be rendering. */
export class ElementNotFound extends Data.TaggedClass("ElementNotFound")<{ readonly target: string }> {
  readonly isRetryable = true
  get message(): string {
    return `no element matches ${this.target}: check the selector or call look() to see the page`
  }
}

/** A ref from an earlier look() no longer matches any element. Retryable after a fresh look(). */
export class StaleRef extends Data.TaggedClass("StaleRef")<{ readonly ref: string }> {
  readonly isRetryable = true
  get message(): string {
    return `ref ${this.ref} is stale: call look() to refresh`
  }
}

/** An operation did not finish in time. */
export class Timeout extends Data.TaggedClass("Timeout")<{
  readonly operation: string
  readonly timeoutMs: number
}> {
  readonly isRetryable = true
  get message(): string {
    return `${this.operation} did not finish within ${this.timeoutMs} ms: wait longer or check the page`
  }
}

/** The element exists but cannot take the input now (covered, disabled, off-screen). */
export class NotInteractable extends Data.TaggedClass("NotInteractable")<{
  readonly target: string
  readonly detail: string
}> {
  readonly isRetryable = true
  get message(): string {
    return `${this.target} cannot be used now (${this.detail}): scroll it into view, close what covers it, or pick another element`
  }
}

/**
 * Network failures no retry can fix: the host does not resolve, refuses the connection, cannot be
 * routed to, or the URL itself is invalid (Chromium's `net::ERR_*` codes and Node's `E*` codes).
 */
export const unreachablePattern =
  /ERR_NAME_NOT_RESOLVED|ERR_NAME_RESOLUTION_FAILED|ERR_CONNECTION_REFUSED|ERR_ADDRESS_UNREACHABLE|ERR_ADDRESS_INVALID|ERR_INVALID_URL|ERR_UNKNOWN_URL_SCHEME|ERR_UNSAFE_PORT|ENOTFOUND|ECONNREFUSED|EHOSTUNREACH/i

/** HTTP statuses worth retrying: 5xx, 408 Request Timeout and 429 Too Many Requests. */
export const isRetryableStatus = (status: number): boolean =>
  status >= 500 || status === 408 || status === 429

/**
 * A navigation failed to load. Not retryable when the host cannot be reached at all (see
 * {@link unreachablePattern}) or the server answered a 4xx other than 408/429 (`status`).
 */
export class NavigationFailed extends Data.TaggedClass("NavigationFailed")<{
  readonly url: string
  readonly detail: string
  readonly status?: number | undefined
}> {
  get isRetryable(): boolean {
    if (this.status !== undefined) return isRetryableStatus(this.status)
    return !unreachablePattern.test(this.detail)
  }
  get message(): string {
    if (unreachablePattern.test(this.detail))
      return `navigation to ${this.url} failed (${this.detail}): the host cannot be reached, check the URL and that the site is up; retrying will not help`
    return `navigation to ${this.url} failed (${this.detail}): check the URL and that the site is up`
  }
}

/**
 * A JavaScript dialog (alert, confirm, prompt, beforeunload) is open and blocks the page; `type` is
 * known when the driver saw the dialog open (WebDriver BiDi), absent when it only saw it block.
 */
export class DialogOpen extends Data.TaggedClass("DialogOpen")<{
  readonly text: string
  readonly type?: "alert" | "confirm" | "prompt" | "beforeunload"
}> {
  readonly isRetryable = true
  get message(): string {
    const what =
      this.type === undefined ? "a dialog" : this.type === "alert" ? "an alert" : `a ${this.type} dialog`
    return `${what} is open ("${this.text}"): accept or dismiss it first`
  }
}

/** The caller passed something the driver cannot use (a bad selector, an unknown operation). */
export class InvalidArgument extends Data.TaggedClass("InvalidArgument")<{ readonly detail: string }> {
  readonly isRetryable = false
  get message(): string {
    return `invalid argument: ${this.detail}`
  }
}

/** A script run in the page threw. */
export class ScriptError extends Data.TaggedClass("ScriptError")<{ readonly detail: string }> {
  readonly isRetryable = false
  get message(): string {
    return `the page script failed: ${this.detail}`
  }
}

/** The browser session is gone (closed window, ended session). */
export class SessionClosed extends Data.TaggedClass("SessionClosed")<{ readonly detail: string }> {
  readonly isRetryable = false
  get message(): string {
    return `the browser session is closed (${this.detail}): start a new session`
  }
}

/**
 * The browser or its driver crashed or could not start (retryable on a new session), or, when `tab`
 * is set, only that tab's renderer crashed (out of memory, killed): the browser still runs, and the
 * work goes on in a new tab (`BrowserDriver.recoverTab`, which the executor calls by itself).
 */
export class DriverCrashed extends Data.TaggedClass("DriverCrashed")<{
  readonly detail: string
  /** The handle of the tab that crashed, when only a tab did. */
  readonly tab?: string | undefined
}> {
  readonly isRetryable = true
  get message(): string {
    return this.tab === undefined
      ? `the browser or its driver crashed (${this.detail}): the session will be replaced`
      : `the tab crashed (${this.detail}): its page is gone; continue in a new tab (recoverTab) and load the page again`
  }
}

/** Anything the driver reported that has no better reason; `code` is the W3C error code when known. */
export class DriverUnknown extends Data.TaggedClass("DriverUnknown")<{
  readonly code: string
  readonly detail: string
}> {
  readonly isRetryable = false
  get message(): string {
    return `${this.code}: ${this.detail}`
  }
}

/**
 * Typing into the element would send what is typed to an origin it is not bound to (the element's
 * document or the action of its form is elsewhere); nothing was typed. See `ActOrigins`.
 */
export class OriginRefused extends Data.TaggedClass("OriginRefused")<{
  readonly target: string
  readonly origin: string
  readonly allowed: ReadonlyArray<string>
}> {
  readonly isRetryable = false
  get message(): string {
    return `${this.target} sends what is typed to ${this.origin}, which is not one of ${this.allowed.join(", ")}: nothing was typed`
  }
}

/**
 * The file an `upload` names is outside the folders the task allows (`constraints.allowedUploadDirs`),
 * or no folder is allowed; nothing was uploaded. `path` is what was asked for, `detail` why it was
 * refused (its real path when a symlink or `..` led elsewhere). See `UploadDirs`.
 */
export class UploadRefused extends Data.TaggedClass("UploadRefused")<{
  readonly path: string
  readonly detail: string
}> {
  readonly isRetryable = false
  get message(): string {
    return `upload of ${JSON.stringify(this.path)} refused: ${this.detail}`
  }
}

/**
 * A page answered an error status (5xx or 429) on every attempt: its body is the server's error
 * page, not content. `retryAfterMs` is the server's last Retry-After, when it sent one.
 */
export class PageStatus extends Data.TaggedClass("PageStatus")<{
  readonly url: string
  readonly status: number
  readonly attempts: number
  readonly retryAfterMs?: number | undefined
}> {
  /** The driver already retried with backoff (and Retry-After); retrying the step at once would not help. */
  readonly isRetryable = false
  get message(): string {
    const tries = this.attempts > 1 ? ` on each of ${this.attempts} attempts` : ""
    const wait =
      this.retryAfterMs === undefined ? "" : ` (Retry-After ${Math.round(this.retryAfterMs / 1000)} s)`
    return this.status === 429
      ? `${this.url} answered HTTP 429 Too Many Requests${tries}${wait}: the site is rate limiting, wait before trying again`
      : `${this.url} answered HTTP ${this.status}${tries}${wait}: the server failed, try again later`
  }
}

export type DriverErrorReason =
  | OriginRefused
  | UploadRefused
  | ElementNotFound
  | StaleRef
  | Timeout
  | NotInteractable
  | NavigationFailed
  | DialogOpen
  | InvalidArgument
  | ScriptError
  | SessionClosed
  | DriverCrashed
  | PageStatus
  | DriverUnknown

/** The error of every `BrowserDriver` operation. */
export class DriverError extends Data.TaggedError("DriverError")<{
  readonly method: string
  readonly reason: DriverErrorReason
  readonly cause?: unknown
}> {
  get isRetryable(): boolean {
    return this.reason.isRetryable
  }
  override get message(): string {
    return `BrowserDriver.${this.method}: ${this.reason.message}`
  }
}

// ---------------------------------------------------------------------------------------------------
// HttpSession reasons

/** The server answered 429. `retryAfterMs` is the server's Retry-After when it sent one. */
export class RateLimited extends Data.TaggedClass("RateLimited")<{
  readonly url: string
  readonly retryAfterMs?: number | undefined
}> {
  readonly isRetryable = true
  get message(): string {
    const wait = this.retryAfterMs === undefined ? "" : ` for ${this.retryAfterMs} ms`
    return `${this.url} is rate limited: wait${wait} before trying again`
  }
}

/** The server answered with an error status. 5xx is retryable, 4xx is not. */
export class HttpStatus extends Data.TaggedClass("HttpStatus")<{
  readonly url: string
  readonly status: number
}> {
  get isRetryable(): boolean {
    return isRetryableStatus(this.status)
  }
  get message(): string {
    return `${this.url} answered HTTP ${this.status}${this.status >= 500 ? ": the server failed, try again later" : ": check the URL and the request"}`
  }
}

/** The request did not complete in time. */
export class HttpTimeout extends Data.TaggedClass("HttpTimeout")<{
  readonly url: string
  readonly timeoutMs: number
}> {
  readonly isRetryable = true
  get message(): string {
    return `${this.url} did not answer within ${this.timeoutMs} ms`
  }
}

/** The connection failed (refused, reset, DNS). Not retryable when the host cannot be reached at all. */
export class HttpNetwork extends Data.TaggedClass("HttpNetwork")<{
  readonly url: string
  readonly detail: string
}> {
  get isRetryable(): boolean {
    return !unreachablePattern.test(this.detail)
  }
  get message(): string {
    return `could not reach ${this.url} (${this.detail})`
  }
}

/** The body is not what the caller can use (not HTML, not JSON). */
export class UnsupportedContent extends Data.TaggedClass("UnsupportedContent")<{
  readonly url: string
  readonly contentType: string
  readonly expected: string
}> {
  readonly isRetryable = false
  get message(): string {
    return `${this.url} sent ${this.contentType || "no content type"}, expected ${this.expected}`
  }
}

/** The body is larger than the configured limit. */
export class BodyTooLarge extends Data.TaggedClass("BodyTooLarge")<{
  readonly url: string
  readonly limitBytes: number
}> {
  readonly isRetryable = false
  get message(): string {
    return `${this.url} sent more than ${this.limitBytes} bytes: raise maxBodyBytes if the page is really needed`
  }
}

/** The URL is malformed or uses a scheme the session does not fetch. */
export class InvalidUrl extends Data.TaggedClass("InvalidUrl")<{
  readonly url: string
  readonly detail: string
}> {
  readonly isRetryable = false
  get message(): string {
    return `cannot fetch ${JSON.stringify(this.url)}: ${this.detail}`
  }
}

/**
 * A request, or one hop of a redirect chain, was going to an origin the session may not reach (see
 * `SessionOrigins`) or to a scheme other than http(s); it was not sent. `from` is the URL whose
 * redirect pointed there.
 */
export class OriginNotAllowed extends Data.TaggedClass("OriginNotAllowed")<{
  readonly url: string
  readonly from?: string | undefined
  readonly detail: string
}> {
  readonly isRetryable = false
  get message(): string {
    const hop =
      this.from === undefined ? `request to ${this.url}` : `redirect from ${this.from} to ${this.url}`
    return `${hop} refused: ${this.detail}; nothing was requested from it`
  }
}

export type HttpErrorReason =
  | OriginNotAllowed
  | RateLimited
  | HttpStatus
  | HttpTimeout
  | HttpNetwork
  | UnsupportedContent
  | BodyTooLarge
  | InvalidUrl

/** The error of every `HttpSession` operation. */
export class HttpError extends Data.TaggedError("HttpError")<{
  readonly method: string
  readonly reason: HttpErrorReason
  readonly cause?: unknown
}> {
  get isRetryable(): boolean {
    return this.reason.isRetryable
  }
  override get message(): string {
    return `HttpSession.${this.method}: ${this.reason.message}`
  }
}

// ---------------------------------------------------------------------------------------------------
// LanguageModel reasons

/** The endpoint could not be reached or the connection broke. */
export class LlmTransport extends Data.TaggedClass("LlmTransport")<{ readonly detail: string }> {
  readonly isRetryable = true
  get message(): string {
    return `the model endpoint could not be reached (${this.detail}): check OPENAI_BASE_URL and the network`
  }
}

/** The endpoint answered 429. */
export class LlmRateLimited extends Data.TaggedClass("LlmRateLimited")<{
  readonly retryAfterMs?: number | undefined
}> {
  readonly isRetryable = true
  get message(): string {
    const wait = this.retryAfterMs === undefined ? "" : ` for ${this.retryAfterMs} ms`
    return `the model endpoint is rate limited: wait${wait} before trying again`
  }
}

/** The endpoint answered 5xx. */
export class LlmServerError extends Data.TaggedClass("LlmServerError")<{
  readonly status: number
  readonly detail: string
}> {
  readonly isRetryable = true
  get message(): string {
    return `the model endpoint failed with HTTP ${this.status} (${this.detail}): try again later`
  }
}

/** The call did not finish in time. */
export class LlmTimeout extends Data.TaggedClass("LlmTimeout")<{ readonly timeoutMs: number }> {
  readonly isRetryable = true
  get message(): string {
    return `the model did not answer within ${this.timeoutMs} ms: raise the timeout or use a faster model`
  }
}

/** The endpoint refused the request (bad key, unknown model, bad request). */
export class LlmRequestRejected extends Data.TaggedClass("LlmRequestRejected")<{
  readonly status: number
  readonly detail: string
}> {
  readonly isRetryable = false
  get message(): string {
    return `the model endpoint rejected the request with HTTP ${this.status} (${this.detail}): check OPENAI_API_KEY, the model name and the request`
  }
}

/** The model answered, but not in the shape asked for. */
export class OutputInvalid extends Data.TaggedClass("OutputInvalid")<{
  readonly detail: string
  readonly output: string
}> {
  readonly isRetryable = true
  get message(): string {
    return `the model's answer does not fit the expected shape: ${this.detail}`
  }
}

/** The caller cancelled the call. */
export class LlmCancelled extends Data.TaggedClass("LlmCancelled")<{ readonly detail: string }> {
  readonly isRetryable = false
  get message(): string {
    return `the model call was cancelled (${this.detail})`
  }
}

export type LlmErrorReason =
  | LlmTransport
  | LlmRateLimited
  | LlmServerError
  | LlmTimeout
  | LlmRequestRejected
  | OutputInvalid
  | LlmCancelled

/** The error of every `LanguageModel` operation. */
export class LlmError extends Data.TaggedError("LlmError")<{
  readonly method: string
  readonly reason: LlmErrorReason
  readonly cause?: unknown
}> {
  get isRetryable(): boolean {
    return this.reason.isRetryable
  }
  override get message(): string {
    return `LanguageModel.${this.method}: ${this.reason.message}`
  }
}

// ---------------------------------------------------------------------------------------------------
// Store reasons

/** The store could not be opened or migrated. */
export class StoreUnavailable extends Data.TaggedClass("StoreUnavailable")<{
  readonly location: string
  readonly detail: string
}> {
  readonly isRetryable = false
  get message(): string {
    // A database URL (postgres://…) or a file path: the advice fits the kind of location.
    const advice = this.location.includes("://")
      ? "check the URL and that the database server is running and reachable"
      : "check the path and its permissions"
    return `the store at ${this.location} cannot be used (${this.detail}): ${advice}`
  }
}

/** Another writer holds the store; retrying shortly usually succeeds. */
export class StoreBusy extends Data.TaggedClass("StoreBusy")<{ readonly detail: string }> {
  readonly isRetryable = true
  get message(): string {
    return `the store is busy (${this.detail})`
  }
}

/** A read or write failed. */
export class StoreQueryFailed extends Data.TaggedClass("StoreQueryFailed")<{
  readonly operation: string
  readonly detail: string
}> {
  readonly isRetryable = false
  get message(): string {
    return `store ${this.operation} failed: ${this.detail}`
  }
}

/** The thing asked for is not in the store. */
export class StoreNotFound extends Data.TaggedClass("StoreNotFound")<{
  readonly what: string
  readonly id: string
}> {
  readonly isRetryable = false
  get message(): string {
    return `no ${this.what} ${JSON.stringify(this.id)} in the store`
  }
}

/**
 * Another process holds the run's lease: it is running (or resuming) that run now. Retryable: once the
 * holder releases the run, or its lease expires because it died, a later claim succeeds.
 */
export class StoreLeaseHeld extends Data.TaggedClass("StoreLeaseHeld")<{
  readonly runId: string
  /** Who holds the lease (`hostname:pid:random` for the executor's own owners). */
  readonly owner: string
  /** When the lease lapses unless its holder renews it (ISO 8601). */
  readonly expiresAt: string
}> {
  readonly isRetryable = true
  get message(): string {
    return `run ${JSON.stringify(this.runId)} is held by ${this.owner} until ${this.expiresAt}: another process is running it; wait for it to finish, or resume after ${this.expiresAt} if that process died`
  }
}

/**
 * A stored row cannot be read back as what it should be: its JSON is not valid, or it no longer fits
 * its schema (the file was edited, damaged, or written by an incompatible version).
 */
export class StoreCorrupt extends Data.TaggedClass("StoreCorrupt")<{
  /** The run the row belongs to (or the key of the row for rows outside a run). */
  readonly runId: string
  /** Which row and field, e.g. `runs.task`, `steps[3]`, `observations[12]`. */
  readonly row: string
  readonly detail: string
}> {
  readonly isRetryable = false
  get message(): string {
    return `run ${JSON.stringify(this.runId)} has a damaged row ${this.row} (${this.detail}): the store was edited or damaged; restore it from a backup or start the run again under a new id`
  }
}

export type StoreErrorReason =
  | StoreUnavailable
  | StoreBusy
  | StoreQueryFailed
  | StoreNotFound
  | StoreLeaseHeld
  | StoreCorrupt

/** The error of every `Store` operation. */
export class StoreError extends Data.TaggedError("StoreError")<{
  readonly method: string
  readonly reason: StoreErrorReason
  readonly cause?: unknown
}> {
  get isRetryable(): boolean {
    return this.reason.isRetryable
  }
  override get message(): string {
    return `Store.${this.method}: ${this.reason.message}`
  }
}

// ---------------------------------------------------------------------------------------------------
// Agent reasons

/** Input (a task, a config, a plan) does not fit its schema; `issues` name each field and rule. */
export class InvalidInput extends Data.TaggedClass("InvalidInput")<{
  readonly what: string
  readonly issues: ReadonlyArray<string>
}> {
  readonly isRetryable = false
  get message(): string {
    return `invalid ${this.what}:\n  ${this.issues.join("\n  ")}`
  }
}

/** A tool was called with arguments that do not fit its input schema. */
export class InvalidToolArgs extends Data.TaggedClass("InvalidToolArgs")<{
  readonly tool: string
  readonly issues: ReadonlyArray<string>
}> {
  readonly isRetryable = false
  get message(): string {
    return `invalid arguments for tool '${this.tool}':\n  ${this.issues.join("\n  ")}`
  }
}

/** A tool name that no registered tool has. */
export class UnknownTool extends Data.TaggedClass("UnknownTool")<{
  readonly tool: string
  readonly known: ReadonlyArray<string>
}> {
  readonly isRetryable = false
  get message(): string {
    return `unknown tool '${this.tool}': use one of ${this.known.join(", ")}`
  }
}

/** Two tools registered under one name. */
export class DuplicateTool extends Data.TaggedClass("DuplicateTool")<{ readonly tool: string }> {
  readonly isRetryable = false
  get message(): string {
    return `a tool named '${this.tool}' is already registered: give each tool a unique name`
  }
}

/** A task state change that the state machine does not allow. */
export class IllegalTransition extends Data.TaggedClass("IllegalTransition")<{
  readonly from: string
  readonly to: string
  readonly allowed: ReadonlyArray<string>
}> {
  readonly isRetryable = false
  get message(): string {
    const allowed = this.allowed.length === 0 ? "none (it is final)" : this.allowed.join(", ")
    return `a task cannot go from ${this.from} to ${this.to}; from ${this.from} it may go to ${allowed}`
  }
}

/** A step would break a guardrail (scheme, origin, blocked pattern, quota, permission). */
export class GuardrailViolation extends Data.TaggedClass("GuardrailViolation")<{
  readonly rule: string
  readonly detail: string
}> {
  readonly isRetryable = false
  get message(): string {
    return `guardrail '${this.rule}' stopped the step: ${this.detail}`
  }
}

/** The agent keeps landing on the same URL. */
export class NavigationLoop extends Data.TaggedClass("NavigationLoop")<{
  readonly url: string
  readonly count: number
}> {
  readonly isRetryable = false
  get message(): string {
    return `navigated to ${this.url} ${this.count} times: the plan is looping, replan`
  }
}

/** Output that does not fit the task's expected schema. */
export class SchemaMismatch extends Data.TaggedClass("SchemaMismatch")<{
  readonly issues: ReadonlyArray<string>
}> {
  readonly isRetryable = false
  get message(): string {
    return `the output does not fit the expected schema:\n  ${this.issues.join("\n  ")}`
  }
}

/** A budget (steps, duration, no-ops, generation errors, a quota) ran out. */
export class BudgetExceeded extends Data.TaggedClass("BudgetExceeded")<{
  readonly budget: string
  readonly limit: number
}> {
  readonly isRetryable = false
  get message(): string {
    return `budget '${this.budget}' of ${this.limit} is used up`
  }
}

/** A plan that the validator refused. */
export class PlanRejected extends Data.TaggedClass("PlanRejected")<{
  readonly issues: ReadonlyArray<string>
}> {
  readonly isRetryable = false
  get message(): string {
    return `the plan was rejected:\n  ${this.issues.join("\n  ")}`
  }
}

/** The planner cannot turn the goal into a plan. */
export class CannotPlan extends Data.TaggedClass("CannotPlan")<{ readonly detail: string }> {
  readonly isRetryable = false
  get message(): string {
    return `cannot plan this goal: ${this.detail}`
  }
}

/** A tool that needs a page ran while none was open (about:blank): the task gave no start URL. */
export class NoPage extends Data.TaggedClass("NoPage")<{ readonly tool: string }> {
  readonly isRetryable = false
  get message(): string {
    return `'${this.tool}' needs a page, but none is open (about:blank): give the task a startUrl (--start-url on the CLI) or begin the goal with "go to <url>"`
  }
}

/** The run was cancelled (AbortSignal, Ctrl-C, interruption). */
export class Cancelled extends Data.TaggedClass("Cancelled")<{ readonly detail: string }> {
  readonly isRetryable = false
  get message(): string {
    return `the run was cancelled (${this.detail})`
  }
}

export type AgentErrorReason =
  | InvalidInput
  | InvalidToolArgs
  | UnknownTool
  | DuplicateTool
  | IllegalTransition
  | GuardrailViolation
  | NavigationLoop
  | SchemaMismatch
  | BudgetExceeded
  | PlanRejected
  | CannotPlan
  | NoPage
  | Cancelled

/** The error of the agent itself: bad input, guardrails, budgets, planning. */
export class AgentError extends Data.TaggedError("AgentError")<{
  readonly reason: AgentErrorReason
  readonly cause?: unknown
}> {
  get isRetryable(): boolean {
    return this.reason.isRetryable
  }
  override get message(): string {
    return this.reason.message
  }
}

/** Every typed error Sextant fails with. */
export type SextantError = DriverError | HttpError | LlmError | StoreError | AgentError

const hasTag = (value: unknown, tag: string): boolean =>
  typeof value === "object" && value !== null && (value as { _tag?: unknown })._tag === tag

/** Type guards for users who catch rejections from the Promise facade. */
export const isDriverError = (value: unknown): value is DriverError => hasTag(value, "DriverError")
export const isHttpError = (value: unknown): value is HttpError => hasTag(value, "HttpError")
export const isLlmError = (value: unknown): value is LlmError => hasTag(value, "LlmError")
export const isStoreError = (value: unknown): value is StoreError => hasTag(value, "StoreError")
export const isAgentError = (value: unknown): value is AgentError => hasTag(value, "AgentError")
export const isSextantError = (value: unknown): value is SextantError =>
  isDriverError(value) ||
  isHttpError(value) ||
  isLlmError(value) ||
  isStoreError(value) ||
  isAgentError(value)

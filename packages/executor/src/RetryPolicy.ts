import { isRetryableStatus, unreachablePattern } from "@sextant/core"
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

/** The reason tag of a typed Sextant error (`ElementNotFound`, `RateLimited`, …), or the error's own tag. */
export const reasonTag = (error: unknown): string => {
  if (typeof error !== "object" || error === null) return "Unknown"
  const record = error as { readonly _tag?: unknown; readonly reason?: { readonly _tag?: unknown } }
  if (typeof record.reason?._tag === "string") return record.reason._tag
  return typeof record._tag === "string" ? record._tag : "Unknown"
}

/**
 * Failures no new plan can mend, so a plan run ends at once with the failure's own message: the site
 * rejected the credentials (submitting them again would only repeat the rejection and spend the
 * submission quota), or the browser or its driver died (every step would fail the same way; `resume`
 * continues the run on a new browser).
 */
export const endsTheRun = (error: unknown): boolean => {
  const tag = reasonTag(error)
  return tag === "LoginRejected" || tag === "DriverCrashed"
}

/** The crashed tab of a `DriverCrashed` that only a tab suffered, or undefined. */
export const crashedTab = (error: unknown): string | undefined => {
  if (reasonTag(error) !== "DriverCrashed") return undefined
  const tab = (error as { readonly reason?: { readonly tab?: unknown } }).reason?.tab
  return typeof tab === "string" ? tab : undefined
}

/** True when the error says it may succeed on a retry. */
export const isRetryable = (error: unknown): boolean =>
  typeof error === "object" &&
  error !== null &&
  (error as { readonly isRetryable?: unknown }).isRetryable === true

/** The recovery for an error's reason tag. */
export const recoveryFor = (error: unknown): Recovery => {
  switch (reasonTag(error)) {
    case "ElementNotFound":
    case "NotInteractable":
      return "scroll-and-relook"
    case "StaleRef":
      return "relook"
    case "Timeout":
    case "HttpTimeout":
    case "LlmTimeout":
      return "wait-longer"
    case "RateLimited":
    case "LlmRateLimited":
      return "honour-retry-after"
    case "DriverCrashed":
      return crashedTab(error) === undefined ? "backoff" : "new-tab"
    case "DialogOpen":
      return (error as { readonly reason?: { readonly type?: unknown } }).reason?.type === "alert"
        ? "accept-alert"
        : "backoff"
    default:
      return "backoff"
  }
}

const retryAfterOf = (error: unknown): number | undefined => {
  const reason = (error as { readonly reason?: { readonly retryAfterMs?: unknown } }).reason
  return typeof reason?.retryAfterMs === "number" ? reason.retryAfterMs : undefined
}

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
export const retryScheduleFor = (error: unknown, options: RetryOptions = {}): Schedule.Schedule<unknown> => {
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

const detailOf = (error: unknown): string => {
  const reason = (
    error as { readonly reason?: { readonly detail?: unknown; readonly message?: unknown } } | null
  )?.reason
  return [reason?.detail, reason?.message, (error as { readonly message?: unknown } | null)?.message]
    .filter((text): text is string => typeof text === "string")
    .join(" ")
}

/**
 * Why a failure cannot succeed on any retry or replan, or undefined when it might: the host does not
 * resolve or refuses the connection, the URL is invalid, the server answered a 4xx other than 408/429,
 * or there is no page to act on (a tool run on about:blank because no start URL was given).
 *
 * @example
 * ```ts
 * import { DriverError, NavigationFailed } from "@sextant/core"
 * import { permanentFailure } from "@sextant/executor"
 * permanentFailure(new DriverError({ method: "navigate", reason: new NavigationFailed({ url: "http://nowhere.invalid", detail: "net::ERR_NAME_NOT_RESOLVED" }) }))
 * // "the host cannot be reached"
 * ```
 */
export const permanentFailure = (error: unknown): string | undefined => {
  if (typeof error !== "object" || error === null) return undefined
  const tag = reasonTag(error)
  const status = (error as { readonly reason?: { readonly status?: unknown } }).reason?.status
  if (typeof status === "number" && status >= 400 && status < 500 && !isRetryableStatus(status))
    return `HTTP ${status}`
  if (tag === "InvalidUrl") return "the URL is invalid"
  if (tag === "NoPage") return "there is no page to act on"
  if (tag === "InvalidArgument" && /not an absolute URL/.test(detailOf(error))) return "the URL is invalid"
  if (
    ["NavigationFailed", "HttpNetwork", "DriverUnknown"].includes(tag) &&
    unreachablePattern.test(detailOf(error))
  )
    return "the host cannot be reached"
  return undefined
}

import { Data } from "effect"
import { hideUrlCredentials } from "../UrlCredentials.ts"

/**
 * Reasons every boundary shares: a call that ran out of time, a server that rate limits, a URL that
 * cannot be used, and the one mapping from an HTTP status to a reason.
 */

/**
 * An operation did not finish in time, at any boundary (a driver wait, an HTTP request, a model call).
 * `hint` says what to do; without one the message advises waiting longer.
 *
 * @example
 * ```ts
 * import { Timeout } from "@sextant/core"
 * new Timeout({ operation: "waitFor #done", timeoutMs: 5000 }).message
 * // "waitFor #done did not finish within 5000 ms: wait longer or check the page"
 * ```
 */
export class Timeout extends Data.TaggedClass("Timeout")<{
  readonly operation: string
  readonly timeoutMs: number
  /** The URL that did not answer, for HTTP requests. */
  readonly url?: string | undefined
  /** What to do about it, when "wait longer or check the page" does not fit. */
  readonly hint?: string | undefined
}> {
  readonly isRetryable = true
  get message(): string {
    return `${hideUrlCredentials(this.operation)} did not finish within ${this.timeoutMs} ms: ${this.hint ?? "wait longer or check the page"}`
  }
}

/**
 * A server answered 429 Too Many Requests, at any boundary. `retryAfterMs` is the server's Retry-After
 * when it sent one; `url` is the request's URL, `service` names the endpoint when there is no URL.
 *
 * @example
 * ```ts
 * import { RateLimited } from "@sextant/core"
 * new RateLimited({ url: "http://127.0.0.1/api", retryAfterMs: 2000 }).message
 * // "http://127.0.0.1/api is rate limited: wait for 2000 ms before trying again"
 * ```
 */
export class RateLimited extends Data.TaggedClass("RateLimited")<{
  readonly url?: string | undefined
  readonly service?: string | undefined
  readonly retryAfterMs?: number | undefined
}> {
  readonly isRetryable = true
  get message(): string {
    const wait = this.retryAfterMs === undefined ? "" : ` for ${this.retryAfterMs} ms`
    return `${this.url === undefined ? (this.service ?? "the server") : hideUrlCredentials(this.url)} is rate limited: wait${wait} before trying again`
  }
}

/**
 * The URL is malformed or uses a scheme that cannot be used (`action` is what was to be done with it:
 * `fetch` by the HTTP session, `open` by the browser). Never retryable.
 */
export class InvalidUrl extends Data.TaggedClass("InvalidUrl")<{
  readonly url: string
  readonly detail: string
  readonly action?: string | undefined
}> {
  readonly isRetryable = false
  get message(): string {
    return `cannot ${this.action ?? "fetch"} ${JSON.stringify(hideUrlCredentials(this.url))}: ${hideUrlCredentials(this.detail)}`
  }
}

/**
 * Network failures no retry can fix: the host does not resolve, refuses the connection, cannot be
 * routed to, or the URL itself is invalid (Chromium's `net::ERR_*` codes and Node's `E*` codes).
 * Matched on those codes in a transport's detail, only by the reasons that carry one.
 */
export const unreachablePattern =
  /ERR_NAME_NOT_RESOLVED|ERR_NAME_RESOLUTION_FAILED|ERR_CONNECTION_REFUSED|ERR_ADDRESS_UNREACHABLE|ERR_ADDRESS_INVALID|ERR_INVALID_URL|ERR_UNKNOWN_URL_SCHEME|ERR_UNSAFE_PORT|ENOTFOUND|ECONNREFUSED|EHOSTUNREACH/i

/** HTTP statuses worth retrying: 5xx, 408 Request Timeout and 429 Too Many Requests. */
export const isRetryableStatus = (status: number): boolean =>
  status >= 500 || status === 408 || status === 429

/** The server answered with an error status. 5xx is retryable, 4xx is not. */
export class HttpStatus extends Data.TaggedClass("HttpStatus")<{
  readonly url: string
  readonly status: number
}> {
  get isRetryable(): boolean {
    return isRetryableStatus(this.status)
  }
  get message(): string {
    return `${hideUrlCredentials(this.url)} answered HTTP ${this.status}${this.status >= 500 ? ": the server failed, try again later" : ": check the URL and the request"}`
  }
}

/** What {@link reasonFromHttpStatus} needs besides the status. */
export interface HttpStatusContext {
  /** The request's URL. */
  readonly url?: string | undefined
  /** Names the endpoint when there is no URL (`the model endpoint`). */
  readonly service?: string | undefined
  /** The server's Retry-After, in milliseconds, when it sent one. */
  readonly retryAfterMs?: number | undefined
  /** The time limit of the call, reported by a 408. */
  readonly timeoutMs: number
  /** Names the operation in a 408's `Timeout` (default: the URL or the service). */
  readonly operation?: string | undefined
  /** What to do about a 408, for the `Timeout`'s message. */
  readonly timeoutHint?: string | undefined
}

/**
 * The one mapping from an HTTP error status to a reason, shared by the model adapter and the HTTP
 * session: 429 is `RateLimited` (with Retry-After), 408 a `Timeout`, anything else `HttpStatus`
 * (retryable for 5xx). Callers may refine `HttpStatus` into their own reason.
 *
 * @example
 * ```ts
 * import { reasonFromHttpStatus } from "@sextant/core"
 * reasonFromHttpStatus(429, { url: "http://127.0.0.1/api", retryAfterMs: 1000, timeoutMs: 30_000 })._tag
 * // "RateLimited"
 * ```
 */
export const reasonFromHttpStatus = (
  status: number,
  context: HttpStatusContext,
): RateLimited | Timeout | HttpStatus => {
  const where = context.url ?? context.service ?? "the server"
  if (status === 429)
    return new RateLimited({ url: context.url, service: context.service, retryAfterMs: context.retryAfterMs })
  if (status === 408)
    return new Timeout({
      operation: context.operation ?? where,
      url: context.url,
      timeoutMs: context.timeoutMs,
      hint: context.timeoutHint ?? "the server gave up waiting for the request; try again later",
    })
  return new HttpStatus({ url: where, status })
}

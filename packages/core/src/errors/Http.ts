import { Data } from "effect"
import { hideUrlCredentials } from "../UrlCredentials.ts"
import { type HttpStatus, type InvalidUrl, type RateLimited, Timeout, unreachablePattern } from "./Shared.ts"

/** The errors of the `HttpSession` boundary: `HttpError` and its reasons. */

/** Marks a real `HttpError`: the guards check it, not the `_tag` any plain object can carry. */
export const HttpErrorTypeId: unique symbol = Symbol.for("@sextant/core/HttpError")
export type HttpErrorTypeId = typeof HttpErrorTypeId

/** What an HTTP request that ran out of time advises. */
export const HTTP_TIMEOUT_HINT = "the server is slow or down; try again later or raise timeoutMs"

/**
 * An HTTP request that ran out of time: a {@link Timeout} carrying its `url`.
 *
 * @deprecated Construct `Timeout` (its tag is `"Timeout"`; this name is kept so existing imports work).
 */
export class HttpTimeout extends Timeout {
  constructor(props: { readonly url: string; readonly timeoutMs: number }) {
    super({ operation: props.url, url: props.url, timeoutMs: props.timeoutMs, hint: HTTP_TIMEOUT_HINT })
  }
}

/** The connection failed (refused, reset, DNS). Not retryable when the host cannot be reached at all. */
export class HttpNetwork extends Data.TaggedClass("HttpNetwork")<{
  readonly url: string
  readonly detail: string
}> {
  /** The host cannot be reached at all (DNS, refused, unroutable). */
  get unreachable(): boolean {
    return unreachablePattern.test(this.detail)
  }
  get isRetryable(): boolean {
    return !this.unreachable
  }
  get message(): string {
    return `could not reach ${hideUrlCredentials(this.url)} (${hideUrlCredentials(this.detail)})`
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
    return `${hideUrlCredentials(this.url)} sent ${this.contentType || "no content type"}, expected ${this.expected}`
  }
}

/** The body is larger than the configured limit. */
export class BodyTooLarge extends Data.TaggedClass("BodyTooLarge")<{
  readonly url: string
  readonly limitBytes: number
}> {
  readonly isRetryable = false
  get message(): string {
    return `${hideUrlCredentials(this.url)} sent more than ${this.limitBytes} bytes: raise maxBodyBytes if the page is really needed`
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
      this.from === undefined
        ? `request to ${hideUrlCredentials(this.url)}`
        : `redirect from ${hideUrlCredentials(this.from)} to ${hideUrlCredentials(this.url)}`
    return `${hop} refused: ${hideUrlCredentials(this.detail)}; nothing was requested from it`
  }
}

export type HttpErrorReason =
  | OriginNotAllowed
  | RateLimited
  | HttpStatus
  | Timeout
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
  readonly [HttpErrorTypeId]: HttpErrorTypeId = HttpErrorTypeId
  get isRetryable(): boolean {
    return this.reason.isRetryable
  }
  override get message(): string {
    return `HttpSession.${this.method}: ${this.reason.message}`
  }
}

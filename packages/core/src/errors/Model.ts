import { Data } from "effect"
import { RateLimited, Timeout } from "./Shared.ts"

/** The errors of the `LanguageModel` boundary: `LlmError` and its reasons. */

/** Marks a real `LlmError`: the guards check it, not the `_tag` any plain object can carry. */
export const LlmErrorTypeId: unique symbol = Symbol.for("@sextant/core/LlmError")
export type LlmErrorTypeId = typeof LlmErrorTypeId

/** What a model call that ran out of time advises. */
export const MODEL_TIMEOUT_HINT = "raise the timeout or use a faster model"
/** How a model endpoint is named in a `RateLimited` or a `Timeout`. */
export const MODEL_ENDPOINT = "the model endpoint"

/**
 * A model call that ran out of time: a {@link Timeout} of the model call.
 *
 * @deprecated Construct `Timeout` (its tag is `"Timeout"`; this name is kept so existing imports work).
 */
export class LlmTimeout extends Timeout {
  constructor(props: { readonly timeoutMs: number }) {
    super({ operation: "the model call", timeoutMs: props.timeoutMs, hint: MODEL_TIMEOUT_HINT })
  }
}

/**
 * A model endpoint that answered 429: a {@link RateLimited} of the model endpoint.
 *
 * @deprecated Construct `RateLimited` (its tag is `"RateLimited"`; this name is kept so existing imports work).
 */
export class LlmRateLimited extends RateLimited {
  constructor(props: { readonly retryAfterMs?: number | undefined } = {}) {
    super({ service: MODEL_ENDPOINT, retryAfterMs: props.retryAfterMs })
  }
}

/** The endpoint could not be reached or the connection broke. */
export class LlmTransport extends Data.TaggedClass("LlmTransport")<{ readonly detail: string }> {
  readonly isRetryable = true
  get message(): string {
    return `the model endpoint could not be reached (${this.detail}): check OPENAI_BASE_URL and the network`
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

/**
 * The endpoint refused the request (bad key, unknown model, bad request). `hint` names the setting the
 * status points at (a 404 page: the base URL; a 401: the key's variable), when the adapter knows it.
 */
export class LlmRequestRejected extends Data.TaggedClass("LlmRequestRejected")<{
  readonly status: number
  readonly detail: string
  readonly hint?: string | undefined
}> {
  readonly isRetryable = false
  get message(): string {
    return `the model endpoint rejected the request with HTTP ${this.status} (${this.detail}): ${this.hint ?? "check OPENAI_API_KEY, the model name and the request"}`
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
  | RateLimited
  | LlmServerError
  | Timeout
  | LlmRequestRejected
  | OutputInvalid
  | LlmCancelled

/** The error of every `LanguageModel` operation. */
export class LlmError extends Data.TaggedError("LlmError")<{
  readonly method: string
  readonly reason: LlmErrorReason
  readonly cause?: unknown
}> {
  readonly [LlmErrorTypeId]: LlmErrorTypeId = LlmErrorTypeId
  get isRetryable(): boolean {
    return this.reason.isRetryable
  }
  override get message(): string {
    return `LanguageModel.${this.method}: ${this.reason.message}`
  }
}

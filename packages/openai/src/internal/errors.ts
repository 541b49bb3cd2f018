import {
  LlmCancelled,
  LlmError,
  type LlmErrorReason,
  LlmRequestRejected,
  LlmServerError,
  LlmTransport,
  MODEL_ENDPOINT,
  MODEL_TIMEOUT_HINT,
  reasonFromHttpStatus,
  Timeout,
} from "@sextant/core"
import { APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError } from "openai"

/** Milliseconds to wait from `retry-after-ms` or `retry-after` (seconds or an HTTP date). */
export const retryAfterMs = (headers: Headers | undefined, now = Date.now()): number | undefined => {
  const milliseconds = headers?.get("retry-after-ms")
  if (milliseconds != null && Number.isFinite(Number(milliseconds))) return Math.max(0, Number(milliseconds))
  const value = headers?.get("retry-after")
  if (value == null || value.trim() === "") return undefined
  const seconds = Number(value)
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000)
  const date = Date.parse(value)
  return Number.isNaN(date) ? undefined : Math.max(0, date - now)
}

const detailOf = (error: APIError): string => {
  const body = error.error as { message?: unknown } | undefined
  const message = typeof body?.message === "string" ? body.message : error.message
  return error.type ? `${error.type}: ${message}` : message
}

/** The core reason for an SDK error, decided on its class and HTTP status, never on message text. */
const reasonOf = (error: unknown, timeoutMs: number): LlmErrorReason => {
  if (error instanceof APIUserAbortError) return new LlmCancelled({ detail: "the request was aborted" })
  if (error instanceof APIConnectionTimeoutError)
    return new Timeout({ operation: "the model call", timeoutMs, hint: MODEL_TIMEOUT_HINT })
  if (error instanceof APIConnectionError) {
    const cause = (error as { cause?: unknown }).cause
    const detail = cause instanceof Error ? `${error.message} ${cause.message}` : error.message
    return new LlmTransport({ detail })
  }
  if (error instanceof APIError && typeof error.status === "number") {
    const status = error.status
    // The status mapping every boundary shares; a plain status becomes the model's own reasons,
    // whose messages point at the key, the model name and the endpoint.
    const reason = reasonFromHttpStatus(status, {
      service: MODEL_ENDPOINT,
      retryAfterMs: retryAfterMs(error.headers),
      timeoutMs,
      operation: "the model call",
      timeoutHint: MODEL_TIMEOUT_HINT,
    })
    if (reason._tag !== "HttpStatus") return reason
    return status >= 500
      ? new LlmServerError({ status, detail: detailOf(error) })
      : new LlmRequestRejected({ status, detail: detailOf(error) })
  }
  const detail = error instanceof Error ? `${error.name}: ${error.message}` : String(error)
  return new LlmTransport({ detail: `the endpoint's answer could not be read (${detail})` })
}

/** Maps anything the SDK throws to `LlmError`, keeping it as `cause`. */
export const toLlmError =
  (method: string, timeoutMs: number) =>
  (error: unknown): LlmError =>
    new LlmError({ method, reason: reasonOf(error, timeoutMs), cause: error })

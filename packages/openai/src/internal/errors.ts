import {
  LlmCancelled,
  LlmError,
  type LlmErrorReason,
  LlmRequestRejected,
  LlmServerError,
  LlmTransport,
  MODEL_ENDPOINT,
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

/** The longest body summary an error message carries. */
const MAX_SUMMARY = 160

const cut = (text: string): string => {
  const flat = text.replace(/\s+/g, " ").trim()
  return flat.length > MAX_SUMMARY ? `${flat.slice(0, MAX_SUMMARY - 1)}…` : flat
}

const entities: Record<string, string> = {
  amp: "&",
  lt: "<",
  gt: ">",
  quot: '"',
  apos: "'",
  nbsp: " ",
  ndash: "–",
  mdash: "—",
}
const decodeEntities = (text: string): string =>
  text.replace(/&(#\d+|#x[0-9a-f]+|[a-z]+);/gi, (whole, name: string) => {
    if (name.startsWith("#x") || name.startsWith("#X"))
      return String.fromCodePoint(Number.parseInt(name.slice(2), 16))
    if (name.startsWith("#")) return String.fromCodePoint(Number(name.slice(1)))
    return entities[name.toLowerCase()] ?? whole
  })

/**
 * A response body as one short line for an error message: an HTML page (a proxy's or a web server's
 * 404) becomes its `<title>`, else its first text; anything else its first text; cut to 160 characters.
 * A wrong base URL answers with a whole page, which must not fill the terminal (twice).
 *
 * @example
 * ```ts
 * summarizeBody("<html><head><title>404 Not Found</title></head><body>…</body></html>") // "404 Not Found"
 * ```
 */
export const summarizeBody = (body: string): string => {
  const text = body.trim()
  if (text === "") return "an empty body"
  if (!/^<(!doctype|html|head|body|\?xml)|<\/(html|body|head|title|p|h1|div)>/i.test(text)) return cut(text)
  const title = /<title[^>]*>([\s\S]*?)<\/title>/i.exec(text)?.[1]
  if (title !== undefined && title.trim() !== "") return cut(decodeEntities(title))
  const content = text
    .replace(/<(script|style|head)[^>]*>[\s\S]*?<\/\1>/gi, " ")
    .replace(/<!--[\s\S]*?-->/g, " ")
    .replace(/<[^>]*>/g, " ")
  const summary = cut(decodeEntities(content))
  return summary === "" ? "an HTML page without text" : summary
}

/** Whether the endpoint answered the error as JSON (an OpenAI-style `{ error: { message } }`). */
const answeredJson = (error: APIError): boolean => typeof error.error === "object" && error.error !== null

const detailOf = (error: APIError): string => {
  const body = error.error as { message?: unknown } | undefined
  if (typeof body?.message === "string")
    return cut(error.type ? `${error.type}: ${body.message}` : body.message)
  if (answeredJson(error)) return cut(JSON.stringify(error.error))
  // Without a JSON body the SDK's message is the status and the raw body: keep the body, summarised.
  const raw = error.message.startsWith(`${error.status} `)
    ? error.message.slice(`${error.status} `.length)
    : error.message
  return summarizeBody(raw === `status code (no body)` ? "" : raw)
}

/** What the messages name: the endpoint, the model, and where the key came from. */
export interface ErrorContext {
  readonly timeoutMs: number
  readonly baseURL: string
  readonly model: string
  /** Where the API key came from (`OPENAI_API_KEY`, or the variable a caller named). */
  readonly apiKeyVariable: string
}

/** The setting a refusal most likely points at, by status: 401/403 the key, 404 the base URL or model. */
const rejectionHint = (status: number, error: APIError, context: ErrorContext): string | undefined => {
  if (status === 401 || status === 403)
    return `check the API key in ${context.apiKeyVariable} (the endpoint ${context.baseURL} refused it)`
  if (status === 404)
    return answeredJson(error)
      ? `check the model name ${context.model}: the endpoint ${context.baseURL} does not know it`
      : `check the base URL ${context.baseURL}: nothing answers at ${context.baseURL.replace(/\/+$/, "")}/chat/completions (OpenAI-compatible servers usually end in /v1)`
  return undefined
}

/** What a model call that ran out of time advises, naming the endpoint and the setting. */
export const timeoutHint = (context: ErrorContext): string =>
  `check that ${context.baseURL} is up and serves the model ${context.model}, or raise the timeout (timeoutMs, SEXTANT_LLM_TIMEOUT_MS) or use a faster model`

/** The core reason for an SDK error, decided on its class and HTTP status, never on message text. */
const reasonOf = (error: unknown, context: ErrorContext): LlmErrorReason => {
  const { timeoutMs } = context
  if (error instanceof APIUserAbortError) return new LlmCancelled({ detail: "the request was aborted" })
  if (error instanceof APIConnectionTimeoutError)
    return new Timeout({ operation: "the model call", timeoutMs, hint: timeoutHint(context) })
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
      timeoutHint: timeoutHint(context),
    })
    if (reason._tag !== "HttpStatus") return reason
    return status >= 500
      ? new LlmServerError({ status, detail: detailOf(error) })
      : new LlmRequestRejected({
          status,
          detail: detailOf(error),
          hint: rejectionHint(status, error, context),
        })
  }
  const detail = error instanceof Error ? `${error.name}: ${error.message}` : String(error)
  return new LlmTransport({ detail: `the endpoint's answer could not be read (${detail})` })
}

/** Maps anything the SDK throws to `LlmError`, keeping it as `cause`. */
export const toLlmError =
  (method: string, context: ErrorContext) =>
  (error: unknown): LlmError =>
    new LlmError({ method, reason: reasonOf(error, context), cause: error })

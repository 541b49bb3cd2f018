/**
 * One scripted answer of the OpenAI-compatible test server: what the "model" says, or how the endpoint
 * misbehaves. Build them with the `Reply` helpers or write the objects by hand.
 */
export type ScriptedReply =
  | {
      readonly kind: "content"
      /** The assistant message text, sent as-is (it may be malformed JSON or wrapped in a code fence). */
      readonly content: string
      readonly finishReason?: "stop" | "length" | "content_filter" | undefined
      /** Wait this long before answering (use more than the client timeout to provoke a timeout). */
      readonly delayMs?: number | undefined
      /** Override the counted usage (for tests about token accounting). */
      readonly usage?: { readonly prompt: number; readonly completion: number } | undefined
      /** Leave `usage` out of the response, as some local servers do. */
      readonly omitUsage?: boolean | undefined
    }
  | {
      readonly kind: "error"
      readonly status: number
      readonly message: string
      /** OpenAI's error `type` (`rate_limit_exceeded`, `server_error`, `invalid_request_error`, …). */
      readonly type?: string | undefined
      /** Sent as the `Retry-After` header, in seconds. */
      readonly retryAfterSeconds?: number | undefined
      readonly delayMs?: number | undefined
    }
  | {
      readonly kind: "raw"
      /** A body sent verbatim with status 200 (for example a truncated JSON document). */
      readonly body: string
      readonly contentType?: string | undefined
      readonly delayMs?: number | undefined
    }

/**
 * Builders for scripted replies.
 *
 * @example
 * ```ts
 * import { Reply, startOpenAiServer } from "@sextant/testing"
 * const server = await startOpenAiServer({
 *   replies: [Reply.rateLimited(1), Reply.json({ steps: [] }), Reply.fenced({ steps: [] }), Reply.text("not json")],
 * })
 * ```
 */
export const Reply = {
  /** The model answers with this text. */
  text: (content: string, options: { readonly delayMs?: number } = {}): ScriptedReply => ({
    kind: "content",
    content,
    delayMs: options.delayMs,
  }),
  /** The model answers with this value as compact JSON. */
  json: (value: unknown, options: { readonly delayMs?: number } = {}): ScriptedReply => ({
    kind: "content",
    content: JSON.stringify(value),
    delayMs: options.delayMs,
  }),
  /** The model answers with prose around a fenced ```json block, as chat models often do. */
  fenced: (value: unknown): ScriptedReply => ({
    kind: "content",
    content: `Here is the answer:\n\`\`\`json\n${JSON.stringify(value, null, 2)}\n\`\`\`\nLet me know if you need more.`,
  }),
  /** The model answers with JSON that does not parse. */
  malformed: (content = '{"tool_calls": [{"name": "click", "args": {"ref": "e1"'): ScriptedReply => ({
    kind: "content",
    content,
  }),
  /** The endpoint answers 429 with `Retry-After: seconds`. */
  rateLimited: (retryAfterSeconds?: number): ScriptedReply => ({
    kind: "error",
    status: 429,
    type: "rate_limit_exceeded",
    message: "Rate limit reached for requests",
    retryAfterSeconds,
  }),
  /** The endpoint fails with a 5xx status. */
  serverError: (
    status = 500,
    message = "The server had an error while processing your request",
  ): ScriptedReply => ({
    kind: "error",
    status,
    type: "server_error",
    message,
  }),
  /** The endpoint answers with any error status. */
  error: (status: number, message: string, type = "invalid_request_error"): ScriptedReply => ({
    kind: "error",
    status,
    type,
    message,
  }),
  /** The endpoint answers only after `delayMs` (longer than the client's timeout provokes a timeout). */
  delayed: (delayMs: number, reply: ScriptedReply): ScriptedReply => ({ ...reply, delayMs }),
  /** A 200 response whose body is sent verbatim. */
  raw: (body: string, contentType = "application/json"): ScriptedReply => ({
    kind: "raw",
    body,
    contentType,
  }),
} as const

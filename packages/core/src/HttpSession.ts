import { Context, type Effect } from "effect"
import type { HttpError } from "./Errors.ts"

/** One HTTP request of a session. */
export interface HttpRequest {
  readonly url: string
  readonly method?: "GET" | "POST" | "PUT" | "PATCH" | "DELETE" | "HEAD"
  readonly headers?: Readonly<Record<string, string>>
  readonly body?: string
  readonly timeoutMs?: number
  /** Skip the response cache for this request. */
  readonly fresh?: boolean
}

/** A response with its body read as text. */
export interface HttpResponse {
  readonly url: string
  readonly status: number
  readonly headers: Readonly<Record<string, string>>
  readonly contentType: string
  readonly body: string
  readonly fromCache: boolean
  readonly durationMs: number
}

/**
 * HTTP without a browser: a cookie jar, a per-host rate limit, retries of 429/5xx honouring Retry-After,
 * and a response cache. The fast path for pages that need no JavaScript.
 */
export interface HttpSessionShape {
  readonly fetch: (request: HttpRequest) => Effect.Effect<HttpResponse, HttpError>
  /** The cookies the session would send to `url`, as `name=value` pairs. */
  readonly cookies: (url: string) => Effect.Effect<ReadonlyArray<string>, HttpError>
}

/** The `HttpSession` service. */
export class HttpSession extends Context.Service<HttpSession, HttpSessionShape>()(
  "@sextant/core/HttpSession",
) {}

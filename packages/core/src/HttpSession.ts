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

/** What {@link SessionOrigins} holds. */
export interface SessionOriginsShape {
  /**
   * Origins (e.g. `http://127.0.0.1:4000`) the session may request. Every request and every hop of a
   * redirect chain is parsed as the WHATWG URL parser reads it and checked before it is sent; one to
   * another origin fails with `OriginNotAllowed`. Undefined: any http(s) origin.
   */
  readonly allowed: ReadonlyArray<string> | undefined
  /**
   * What a refusal tells the user to change to allow another origin, as the program that set `allowed`
   * calls it (`--allowed-origin` for a CLI). Default `constraints.allowedOrigins`.
   */
  readonly setting?: string | undefined
}

/**
 * Where an `HttpSession` may go for the current run: the executor sets it from the task's allowed
 * origins (or its start page's origin) around every step, so `loadAndParse`, `sql` and `crawl` cannot
 * be led elsewhere by a redirect or by a URL spelt to slip past a check on the text.
 *
 * @example
 * ```ts
 * import { Effect } from "effect"
 * import { HttpSession, SessionOrigins } from "@sextant/core"
 * const page = HttpSession.use((session) => session.fetch({ url: "http://127.0.0.1:4000/" })).pipe(
 *   Effect.provideService(SessionOrigins, { allowed: ["http://127.0.0.1:4000"] }),
 * )
 * ```
 */
export const SessionOrigins: Context.Reference<SessionOriginsShape> = Context.Reference<SessionOriginsShape>(
  "@sextant/core/SessionOrigins",
  { defaultValue: () => ({ allowed: undefined }) },
)

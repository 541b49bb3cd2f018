import {
  BodyTooLarge,
  HTTP_TIMEOUT_HINT,
  HttpError,
  type HttpErrorReason,
  HttpNetwork,
  type HttpRequest,
  type HttpResponse,
  HttpSession,
  type HttpSessionShape,
  hideUrlCredentials,
  InvalidUrl,
  OriginNotAllowed,
  reasonFromHttpStatus,
  SessionOrigins,
  type SessionOriginsShape,
  Timeout,
} from "@sextant/core"
import { Clock, Duration, Effect, Layer, Schedule, Semaphore } from "effect"
import { CookieJar } from "tough-cookie"
import { z } from "zod"

/** Options of the fetch-based `HttpSession`. Every limit is named and has a default. */
export const FetchHttpSessionOptions = z.object({
  /** Requests started per second to one host (host:port). */
  requestsPerSecondPerHost: z.number().positive().default(10),
  /** Requests in flight at once to one host. */
  concurrencyPerHost: z.number().int().positive().default(4),
  /** Retries of a 429, a 5xx, a timeout or a network failure, after the first try. */
  maxRetries: z.number().int().nonnegative().default(4),
  /** First retry delay; each retry doubles it, with jitter. */
  retryBaseDelayMs: z.number().nonnegative().default(200),
  /** Longest delay between retries, before Retry-After is applied. */
  retryMaxDelayMs: z.number().nonnegative().default(10_000),
  /** A Retry-After longer than this is not waited for: the request fails with `RateLimited`. */
  maxRetryAfterMs: z.number().nonnegative().default(60_000),
  /** Time for one try, from sending to the last byte of the body. */
  timeoutMs: z.number().int().positive().default(15_000),
  /** Largest body read, in bytes; a larger one fails with `BodyTooLarge`. */
  maxBodyBytes: z
    .number()
    .int()
    .positive()
    .default(5 * 1024 * 1024),
  /** How long a successful GET is served from the cache; 0 turns the cache off. */
  cacheTtlMs: z.number().int().nonnegative().default(60_000),
  /** Most responses kept in the cache; the oldest goes first. */
  cacheMaxEntries: z.number().int().positive().default(256),
  /**
   * Redirects followed per request; one more fails with `InvalidUrl`. Each hop is checked against
   * `SessionOrigins` before it is requested.
   */
  maxRedirects: z.number().int().nonnegative().default(10),
  userAgent: z.string().min(1).default("Sextant/0 (+https://www.npmjs.com/package/@sextant/tools)"),
  /** Headers sent with every request (a request's own headers win). */
  headers: z.record(z.string(), z.string()).default({}),
})
export type FetchHttpSessionOptions = z.input<typeof FetchHttpSessionOptions>

interface HostState {
  readonly semaphore: Semaphore.Semaphore
  nextSlotAt: number
}

interface CacheEntry {
  readonly response: HttpResponse
  readonly expiresAt: number
}

/** Carries a typed reason out of the promise world of `fetch`. */
class ReasonFailure {
  readonly reason: HttpErrorReason
  constructor(reason: HttpErrorReason) {
    this.reason = reason
  }
}

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308])

/** The origins a session may request (as `URL.origin` gives them) and what allows another. */
interface AllowedOrigins {
  readonly origins: ReadonlySet<string>
  /** What the refusal names to change, e.g. `constraints.allowedOrigins` or `--allowed-origin`. */
  readonly setting: string
}

/**
 * Why `url` may not be requested under `allowed`, or undefined. `url` is already parsed by the WHATWG
 * parser, so what is checked is what `fetch` will reach.
 */
const hopProblem = (url: URL, allowed: AllowedOrigins | undefined): string | undefined => {
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    return `only http and https are followed, not ${url.protocol}`
  }
  if (allowed !== undefined && !allowed.origins.has(url.origin)) {
    return `${url.origin} is not an allowed origin (allowed: ${[...allowed.origins].join(", ") || "none"}): add it with ${allowed.setting} if the task needs it`
  }
  return undefined
}

const allowedOf = (shape: SessionOriginsShape): AllowedOrigins | undefined =>
  shape.allowed === undefined
    ? undefined
    : {
        origins: new Set(shape.allowed.map((origin) => URL.parse(origin)?.origin ?? origin)),
        setting: shape.setting ?? "constraints.allowedOrigins",
      }

/** Retry-After as milliseconds: delta-seconds or an HTTP date. */
export const parseRetryAfter = (value: string | null, now: number): number | undefined => {
  if (value === null || value.trim() === "") return undefined
  const trimmed = value.trim()
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Math.round(Number(trimmed) * 1000)
  const date = Date.parse(trimmed)
  return Number.isNaN(date) ? undefined : Math.max(0, date - now)
}

const charsetOf = (contentType: string): string => {
  const match = /charset\s*=\s*"?([^";\s]+)/i.exec(contentType)
  return match?.[1]?.toLowerCase() ?? "utf-8"
}

const readBody = async (
  response: Response,
  url: string,
  limitBytes: number,
  signal: AbortSignal,
): Promise<string> => {
  const declared = Number(response.headers.get("content-length") ?? Number.NaN)
  if (declared > limitBytes) throw new ReasonFailure(new BodyTooLarge({ url, limitBytes }))
  if (response.body === null) return ""
  const reader = response.body.getReader()
  const chunks: Array<Uint8Array> = []
  let total = 0
  while (true) {
    if (signal.aborted) throw signal.reason
    const { done, value } = await reader.read()
    if (done) break
    total += value.byteLength
    if (total > limitBytes) {
      await reader.cancel()
      throw new ReasonFailure(new BodyTooLarge({ url, limitBytes }))
    }
    chunks.push(value)
  }
  const bytes = new Uint8Array(total)
  let offset = 0
  for (const chunk of chunks) {
    bytes.set(chunk, offset)
    offset += chunk.byteLength
  }
  let decoder: TextDecoder
  try {
    decoder = new TextDecoder(charsetOf(response.headers.get("content-type") ?? ""))
  } catch {
    decoder = new TextDecoder("utf-8")
  }
  return decoder.decode(bytes)
}

const describeCause = (cause: unknown): string => {
  const error = cause as { message?: unknown; cause?: { code?: unknown; message?: unknown } }
  const code = typeof error?.cause?.code === "string" ? error.cause.code : undefined
  const message = typeof error?.message === "string" ? error.message : String(cause)
  return code === undefined ? message : `${message}: ${code}`
}

/**
 * Builds an `HttpSession` on Node's `fetch`: a tough-cookie jar, per-host rate limit and concurrency,
 * retries of 429/5xx/timeouts with exponential backoff and jitter that honour Retry-After, a TTL
 * response cache, a body size limit and per-try timeouts. Options are a programmer's input: a bad
 * one throws a `TypeError` naming the field.
 *
 * @example
 * ```ts
 * import { Effect } from "effect"
 * import { FetchHttpSession } from "@sextant/tools"
 * const session = Effect.runSync(FetchHttpSession.make({ requestsPerSecondPerHost: 5 }))
 * const page = session.fetch({ url: "http://127.0.0.1:4000/products" })
 * ```
 */
export const make = (options: FetchHttpSessionOptions = {}): Effect.Effect<HttpSessionShape> =>
  Effect.sync(() => {
    const parsed = FetchHttpSessionOptions.safeParse(options)
    if (!parsed.success) {
      const issues = parsed.error.issues.map(
        (issue) => `options.${issue.path.join(".") || "(root)"}: ${issue.message}`,
      )
      throw new TypeError(`FetchHttpSession: ${issues.join("; ")}`)
    }
    return makeSession(parsed.data)
  })

const makeSession = (settings: z.output<typeof FetchHttpSessionOptions>): HttpSessionShape => {
  const jar = new CookieJar()
  const hosts = new Map<string, HostState>()
  const cache = new Map<string, CacheEntry>()
  const slotMs = 1000 / settings.requestsPerSecondPerHost

  const hostState = (host: string): HostState => {
    let state = hosts.get(host)
    if (state === undefined) {
      state = { semaphore: Semaphore.makeUnsafe(settings.concurrencyPerHost), nextSlotAt: 0 }
      hosts.set(host, state)
    }
    return state
  }

  // Reserving a slot is synchronous, so concurrent fibers never get the same one.
  const waitForSlot = (state: HostState) =>
    Effect.flatMap(Clock.currentTimeMillis, (now) => {
      const slot = Math.max(now, state.nextSlotAt)
      state.nextSlotAt = slot + slotMs
      return slot > now ? Effect.sleep(Duration.millis(slot - now)) : Effect.void
    })

  const fail = (method: string, reason: HttpErrorReason, cause?: unknown) =>
    Effect.fail(new HttpError({ method, reason, cause }))

  const parseUrl = (method: string, raw: string): Effect.Effect<URL, HttpError> => {
    let url: URL
    try {
      url = new URL(raw)
    } catch (cause) {
      return fail(method, new InvalidUrl({ url: raw, detail: "it is not an absolute URL" }), cause)
    }
    if (url.protocol !== "http:" && url.protocol !== "https:") {
      return fail(
        method,
        new InvalidUrl({ url: raw, detail: `only http and https are fetched, not ${url.protocol}` }),
      )
    }
    return Effect.succeed(url)
  }

  interface Sent {
    readonly url: string
    readonly status: number
    readonly headers: Record<string, string>
    readonly body: string
  }

  // One try: the redirect chain by hand, so cookies set by a redirect (a login) are kept and every hop
  // is checked against the allowed origins before anything is sent to it.
  const send = async (
    request: HttpRequest,
    start: URL,
    allowed: AllowedOrigins | undefined,
    signal: AbortSignal,
  ): Promise<Sent> => {
    let url = start
    let method: string = request.method ?? "GET"
    let body = request.body
    for (let redirects = 0; ; redirects++) {
      const headers: Record<string, string> = {
        "user-agent": settings.userAgent,
        accept: "text/html,application/xhtml+xml,application/json;q=0.9,*/*;q=0.8",
        ...settings.headers,
        ...request.headers,
      }
      const cookie = jar.getCookieStringSync(url.href)
      if (cookie !== "") headers.cookie = cookie
      const response = await fetch(url, { method, headers, body, redirect: "manual", signal })
      for (const setCookie of response.headers.getSetCookie()) {
        jar.setCookieSync(setCookie, url.href, { ignoreError: true })
      }
      const location = response.headers.get("location")
      if (REDIRECT_STATUSES.has(response.status) && location !== null) {
        await response.body?.cancel()
        const from = url.href
        if (redirects >= settings.maxRedirects) {
          throw new ReasonFailure(
            new InvalidUrl({
              url: request.url,
              detail: `it redirected more than ${settings.maxRedirects} times (last to ${location.slice(0, 200)}): raise maxRedirects if the chain is real`,
            }),
          )
        }
        const next = URL.parse(location, url)
        if (next === null) {
          throw new ReasonFailure(
            new InvalidUrl({
              url: from,
              detail: `it redirected to ${JSON.stringify(location.slice(0, 200))}, which is not a URL`,
            }),
          )
        }
        const problem = hopProblem(next, allowed)
        if (problem !== undefined) {
          throw new ReasonFailure(new OriginNotAllowed({ url: next.href, from, detail: problem }))
        }
        url = next
        if (
          response.status === 303 ||
          ((response.status === 301 || response.status === 302) && method === "POST")
        ) {
          method = "GET"
          body = undefined
        }
        continue
      }
      const text = method === "HEAD" ? "" : await readBody(response, url.href, settings.maxBodyBytes, signal)
      return {
        url: url.href,
        status: response.status,
        headers: Object.fromEntries(response.headers),
        body: text,
      }
    }
  }

  const attempt = (
    method: string,
    request: HttpRequest,
    url: URL,
    allowed: AllowedOrigins | undefined,
  ): Effect.Effect<HttpResponse, HttpError> => {
    const state = hostState(url.host)
    const timeoutMs = request.timeoutMs ?? settings.timeoutMs
    const once = Effect.gen(function* () {
      yield* waitForSlot(state)
      const started = yield* Clock.currentTimeMillis
      const sent = yield* Effect.tryPromise({
        try: (signal) => send(request, url, allowed, signal),
        catch: (cause) =>
          new HttpError({
            method,
            reason:
              cause instanceof ReasonFailure
                ? cause.reason
                : new HttpNetwork({ url: url.href, detail: describeCause(cause) }),
            cause,
          }),
      }).pipe(
        Effect.timeoutOrElse({
          duration: Duration.millis(timeoutMs),
          orElse: () =>
            fail(
              method,
              new Timeout({ operation: url.href, url: url.href, timeoutMs, hint: HTTP_TIMEOUT_HINT }),
            ),
        }),
      )
      const finished = yield* Clock.currentTimeMillis
      if (sent.status >= 400) {
        const retryAfterMs =
          sent.status === 429 ? parseRetryAfter(sent.headers["retry-after"] ?? null, finished) : undefined
        // Every request to this host waits, not only the one that was told to.
        if (retryAfterMs !== undefined) state.nextSlotAt = Math.max(state.nextSlotAt, finished + retryAfterMs)
        return yield* fail(
          method,
          reasonFromHttpStatus(sent.status, {
            url: sent.url,
            retryAfterMs,
            timeoutMs,
            timeoutHint: HTTP_TIMEOUT_HINT,
          }),
        )
      }
      const response: HttpResponse = {
        url: sent.url,
        status: sent.status,
        headers: sent.headers,
        contentType: sent.headers["content-type"] ?? "",
        body: sent.body,
        fromCache: false,
        durationMs: finished - started,
      }
      return response
    })
    return Semaphore.withPermits(state.semaphore, 1)(once)
  }

  const retryAfterOf = (error: HttpError): number | undefined =>
    error.reason._tag === "RateLimited" ? error.reason.retryAfterMs : undefined

  const retrySchedule = Schedule.min([
    Schedule.exponential(Duration.millis(settings.retryBaseDelayMs)),
    Schedule.spaced(Duration.millis(settings.retryMaxDelayMs)),
  ]).pipe(
    Schedule.jittered,
    Schedule.setInputType<HttpError>(),
    // The server's Retry-After is a floor under the backoff, never shortened by jitter.
    Schedule.modifyDelay(({ input, duration }) =>
      Effect.succeed(Duration.millis(Math.max(Duration.toMillis(duration), retryAfterOf(input) ?? 0))),
    ),
    Schedule.upTo({ times: settings.maxRetries }),
    Schedule.while(
      ({ input }) => input.isRetryable && (retryAfterOf(input) ?? 0) <= settings.maxRetryAfterMs,
    ),
  )

  const cacheKey = (request: HttpRequest, url: URL): string | undefined =>
    settings.cacheTtlMs > 0 && (request.method ?? "GET") === "GET" && request.body === undefined
      ? url.href
      : undefined

  const fetchOne = (request: HttpRequest): Effect.Effect<HttpResponse, HttpError> =>
    Effect.gen(function* () {
      const url = yield* parseUrl("fetch", request.url)
      const allowed = allowedOf(yield* SessionOrigins)
      const refused = hopProblem(url, allowed)
      if (refused !== undefined) {
        return yield* fail("fetch", new OriginNotAllowed({ url: url.href, detail: refused }))
      }
      const key = cacheKey(request, url)
      const now = yield* Clock.currentTimeMillis
      if (key !== undefined && request.fresh !== true) {
        const cached = cache.get(key)
        // A page cached before this run narrowed the origins may have come from elsewhere by a redirect.
        const landed = cached === undefined ? undefined : URL.parse(cached.response.url)
        if (cached !== undefined && cached.expiresAt > now && landed !== null && landed !== undefined) {
          const problem = hopProblem(landed, allowed)
          if (problem !== undefined) {
            return yield* fail(
              "fetch",
              new OriginNotAllowed({ url: landed.href, from: url.href, detail: problem }),
            )
          }
          return { ...cached.response, fromCache: true, durationMs: 0 }
        }
        cache.delete(key)
      }
      const response = yield* attempt("fetch", request, url, allowed).pipe(Effect.retry(retrySchedule))
      if (key !== undefined) {
        const storedAt = yield* Clock.currentTimeMillis
        cache.set(key, { response, expiresAt: storedAt + settings.cacheTtlMs })
        if (cache.size > settings.cacheMaxEntries) cache.delete(cache.keys().next().value!)
      }
      return response
    }).pipe(Effect.withSpan("HttpSession.fetch", { attributes: { url: hideUrlCredentials(request.url) } }))

  return HttpSession.of({
    fetch: fetchOne,
    cookies: (raw) =>
      Effect.flatMap(parseUrl("cookies", raw), (url) =>
        Effect.sync(() => jar.getCookiesSync(url.href).map((cookie) => `${cookie.key}=${cookie.value}`)),
      ),
  })
}

/**
 * The `HttpSession` layer on Node's `fetch`. One layer is one session: one cookie jar, one cache,
 * one set of per-host limits.
 *
 * @example
 * ```ts
 * import { Effect } from "effect"
 * import { HttpSession } from "@sextant/core"
 * import { FetchHttpSession } from "@sextant/tools"
 * const title = HttpSession.use((session) => session.fetch({ url: "http://127.0.0.1:4000/" })).pipe(
 *   Effect.provide(FetchHttpSession.layer({ requestsPerSecondPerHost: 5 })),
 * )
 * ```
 */
export const layer = (options: FetchHttpSessionOptions = {}): Layer.Layer<HttpSession> =>
  Layer.effect(HttpSession, make(options))

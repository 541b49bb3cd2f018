import {
  HttpError,
  type HttpErrorReason,
  type HttpRequest,
  type HttpResponse,
  HttpSession,
  type HttpSessionShape,
  HttpStatus,
} from "@sextant/core"
import { Effect, Layer } from "effect"

/** A scripted answer: a body (HTML by default) and status, or a typed failure reason. */
export type FakeHttpReply =
  | { readonly status?: number; readonly body: string; readonly contentType?: string }
  | { readonly fail: HttpErrorReason }

/** Options of {@link makeFakeHttpSession}. */
export interface FakeHttpSessionOptions {
  /**
   * Answers each request; `count` is how many requests this URL has had, from 1, so a test can
   * fail the first attempts and succeed later. A URL with no answer is a 404.
   */
  readonly reply: (request: HttpRequest, count: number) => FakeHttpReply | undefined
  /** Simulated time each request takes (Effect's clock). Default 0. */
  readonly latencyMs?: number
}

/** A fake HTTP session with its recorded requests. */
export interface FakeHttpSession {
  readonly session: HttpSessionShape
  readonly requests: ReadonlyArray<HttpRequest>
}

/**
 * A scripted `HttpSession`: no network, every request recorded, failures (RateLimited with a
 * Retry-After, 5xx) scripted per attempt.
 *
 * @example
 * ```ts
 * import { makeFakeHttpSession } from "@sextant/testing"
 * const fake = makeFakeHttpSession({ reply: () => ({ body: "<h1>Hi</h1>" }) })
 * ```
 */
export const makeFakeHttpSession = (options: FakeHttpSessionOptions): FakeHttpSession => {
  const requests: Array<HttpRequest> = []
  const counts = new Map<string, number>()
  const session: HttpSessionShape = {
    fetch: (request) =>
      Effect.gen(function* () {
        requests.push(request)
        const count = (counts.get(request.url) ?? 0) + 1
        counts.set(request.url, count)
        if ((options.latencyMs ?? 0) > 0) yield* Effect.sleep(options.latencyMs ?? 0)
        const reply = options.reply(request, count)
        if (reply === undefined) {
          return yield* new HttpError({
            method: "fetch",
            reason: new HttpStatus({ url: request.url, status: 404 }),
          })
        }
        if ("fail" in reply) return yield* new HttpError({ method: "fetch", reason: reply.fail })
        const status = reply.status ?? 200
        if (status >= 400) {
          return yield* new HttpError({
            method: "fetch",
            reason: new HttpStatus({ url: request.url, status }),
          })
        }
        const contentType = reply.contentType ?? "text/html; charset=utf-8"
        const response: HttpResponse = {
          url: request.url,
          status,
          headers: { "content-type": contentType },
          contentType,
          body: reply.body,
          fromCache: false,
          durationMs: options.latencyMs ?? 0,
        }
        return response
      }),
    cookies: () => Effect.succeed([]),
  }
  return { session, requests }
}

/**
 * The fake session as a layer.
 *
 * @example
 * ```ts
 * import { FakeHttpSession } from "@sextant/testing"
 * const layer = FakeHttpSession.layerTest({ reply: () => ({ body: "ok" }) })
 * ```
 */
export const FakeHttpSession: {
  readonly layerTest: (options: FakeHttpSessionOptions) => Layer.Layer<HttpSession>
  readonly make: (options: FakeHttpSessionOptions) => FakeHttpSession
} = {
  layerTest: (options) => Layer.sync(HttpSession, () => makeFakeHttpSession(options).session),
  make: makeFakeHttpSession,
}

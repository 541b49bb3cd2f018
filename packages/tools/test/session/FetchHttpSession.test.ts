import { assert, describe, it } from "@effect/vitest"
import { HttpSession, SessionOrigins } from "@sextant/core"
import { type FixtureSite, startFixtureSite } from "@sextant/fixture-site"
import { startLoopbackServer } from "@sextant/testing"
import { Effect, Fiber, Tracer } from "effect"
import { TestClock } from "effect/testing"
import { afterAll, beforeAll } from "vitest"
import * as FetchHttpSession from "../../src/session/FetchHttpSession.ts"

let site: FixtureSite
let server: Awaited<ReturnType<typeof startLoopbackServer>>
let inFlight = 0
const ticks: Array<string> = []
let maxInFlight = 0

beforeAll(async () => {
  site = await startFixtureSite({ port: 0, seed: 0 })
  server = await startLoopbackServer((request, response) => {
    const path = request.url ?? "/"
    if (path.startsWith("/tick")) {
      ticks.push(path)
      response.writeHead(200, { "content-type": "text/html" })
      response.end("<p>tick</p>")
    } else if (path.startsWith("/down")) {
      ticks.push(path)
      response.writeHead(503, { "content-type": "text/html" })
      response.end("<p>down</p>")
    } else if (path.startsWith("/later")) {
      ticks.push(path)
      const first = ticks.filter((tick) => tick === path).length === 1
      response.writeHead(first ? 429 : 200, {
        "content-type": "text/html",
        ...(first ? { "retry-after": "30" } : {}),
      })
      response.end(first ? "<p>slow down</p>" : "<p>welcome back</p>")
    } else if (path.startsWith("/jump")) {
      response.writeHead(302, {
        location: "http://elsewhere.invalid/callback?access_token=tok-jump&state=s1",
      })
      response.end()
    } else if (path === "/big") {
      response.writeHead(200, { "content-type": "text/html" })
      response.end("x".repeat(5_000))
    } else if (path.startsWith("/slow")) {
      setTimeout(() => {
        response.writeHead(200, { "content-type": "text/html" })
        response.end("<p>late</p>")
      }, 1_000).unref()
    } else if (path.startsWith("/busy")) {
      inFlight++
      maxInFlight = Math.max(maxInFlight, inFlight)
      setTimeout(() => {
        inFlight--
        response.writeHead(200, { "content-type": "text/html" })
        response.end("<p>ok</p>")
      }, 60)
    } else {
      response.writeHead(404, { "content-type": "text/html" })
      response.end("<p>missing</p>")
    }
  })
})
afterAll(async () => {
  await site?.close()
  await server?.close()
})

const session = (options: FetchHttpSession.FetchHttpSessionOptions = {}) =>
  Effect.provide(
    FetchHttpSession.layer({ requestsPerSecondPerHost: 1_000, retryBaseDelayMs: 20, ...options }),
  )

const key = () => Math.random().toString(36).slice(2)

// Real I/O still takes real time while the test clock stands still.
const settle = Effect.promise(() => new Promise((resolve) => setTimeout(resolve, 150)))

/** Waits in real time (I/O does not follow the test clock) until `holds` is true, at most 10 s. */
const until = (holds: () => boolean) =>
  Effect.promise(async () => {
    for (let waited = 0; !holds() && waited < 10_000; waited += 10)
      await new Promise((resolve) => setTimeout(resolve, 10))
  })

describe("FetchHttpSession against the fixture site", () => {
  it.live("retries the flaky page's 500s and returns the page once it loads", () =>
    Effect.gen(function* () {
      const http = yield* HttpSession
      const response = yield* http.fetch({ url: `${site.url}/flaky?key=${key()}` })
      assert.strictEqual(response.status, 200)
      assert.include(response.body, "Loaded on attempt 3")
      const api = yield* http.fetch({ url: `${site.url}/api/flaky?key=${key()}` })
      assert.strictEqual(JSON.parse(api.body).attempt, 3)
    }).pipe(session()),
  )

  it.live("gives up after maxRetries with a retryable HttpStatus", () =>
    Effect.gen(function* () {
      const http = yield* HttpSession
      const error = yield* Effect.flip(http.fetch({ url: `${site.url}/api/flaky?key=${key()}&fail=20` }))
      assert.strictEqual(error.reason._tag, "HttpStatus")
      assert.isTrue(error.isRetryable)
      assert.include(error.message, "HTTP 500")
    }).pipe(session({ maxRetries: 2 })),
  )

  it.effect("waits the site's Retry-After of a 429 (1 s) on the test clock before trying again", () =>
    Effect.gen(function* () {
      const http = yield* HttpSession
      const fiber = yield* Effect.forkChild(http.fetch({ url: `${site.url}/api/limited?key=${key()}` }))
      // The 429 comes back over real I/O; the fixture site logs nothing to wait on, so a generous pause.
      yield* Effect.promise(() => new Promise((resolve) => setTimeout(resolve, 500)))
      yield* TestClock.adjust(999)
      yield* settle
      assert.isUndefined(fiber.pollUnsafe(), "the retry came before the 1 s Retry-After")
      // Past the Retry-After by more than enough, should the 429 have been read late on a loaded machine.
      yield* TestClock.adjust(1_000)
      const response = yield* Fiber.join(fiber)
      assert.strictEqual(response.status, 200)
      assert.strictEqual(JSON.parse(response.body).attempt, 2)
    }).pipe(session()),
  )

  it.live("keeps the session cookie a login sets on its redirect", () =>
    Effect.gen(function* () {
      const http = yield* HttpSession
      const response = yield* http.fetch({
        url: `${site.url}/login`,
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: "email=alice%40example.com&password=wonderland",
      })
      assert.strictEqual(response.url, `${site.url}/dashboard`)
      assert.include(response.body, "Welcome, Alice")
      const cookies = yield* http.cookies(`${site.url}/dashboard`)
      assert.isTrue(cookies.some((cookie) => cookie.startsWith("sextant_session=")))
      const again = yield* http.fetch({ url: `${site.url}/dashboard`, fresh: true })
      assert.include(again.body, "Welcome, Alice")
    }).pipe(session()),
  )

  it.live("serves a repeated GET from the cache until asked for a fresh copy", () =>
    Effect.gen(function* () {
      const http = yield* HttpSession
      const url = `${site.url}/products?page=2`
      const first = yield* http.fetch({ url })
      const second = yield* http.fetch({ url })
      const fresh = yield* http.fetch({ url, fresh: true })
      assert.deepStrictEqual([first.fromCache, second.fromCache, fresh.fromCache], [false, true, false])
      assert.strictEqual(second.body, first.body)
    }).pipe(session()),
  )

  it.live("does not cache when the TTL is 0", () =>
    Effect.gen(function* () {
      const http = yield* HttpSession
      yield* http.fetch({ url: `${site.url}/products` })
      const second = yield* http.fetch({ url: `${site.url}/products` })
      assert.isFalse(second.fromCache)
    }).pipe(session({ cacheTtlMs: 0 })),
  )
})

describe("FetchHttpSession limits and errors", () => {
  it.live("fails with BodyTooLarge for a body over maxBodyBytes", () =>
    Effect.gen(function* () {
      const http = yield* HttpSession
      const error = yield* Effect.flip(http.fetch({ url: `${server.url}/big` }))
      assert.strictEqual(error.reason._tag, "BodyTooLarge")
      assert.include(error.message, "raise maxBodyBytes")
    }).pipe(session({ maxBodyBytes: 1_000 })),
  )

  it.effect("fails with a Timeout when a try takes longer than its timeout, on the test clock", () =>
    Effect.gen(function* () {
      const http = yield* HttpSession
      // /slow answers after a real second; the test clock moves 150 ms, and the try ends then.
      const fiber = yield* Effect.forkChild(
        Effect.flip(http.fetch({ url: `${server.url}/slow`, timeoutMs: 150 })),
      )
      yield* settle
      assert.isUndefined(fiber.pollUnsafe(), "the try ended before its timeout")
      yield* TestClock.adjust(150)
      const error = yield* Fiber.join(fiber)
      assert.strictEqual(error.reason._tag, "Timeout")
    }).pipe(session({ maxRetries: 0 })),
  )

  it.live("does not retry a 404 and says what to check", () =>
    Effect.gen(function* () {
      const http = yield* HttpSession
      const error = yield* Effect.flip(http.fetch({ url: `${server.url}/nothing` }))
      assert.strictEqual(error.reason._tag, "HttpStatus")
      assert.isFalse(error.isRetryable)
      assert.include(error.message, "check the URL")
    }).pipe(session()),
  )

  it.live("rejects a URL that is not absolute http(s)", () =>
    Effect.gen(function* () {
      const http = yield* HttpSession
      const relative = yield* Effect.flip(http.fetch({ url: "/products" }))
      const file = yield* Effect.flip(http.fetch({ url: "file:///etc/passwd" }))
      assert.deepStrictEqual([relative.reason._tag, file.reason._tag], ["InvalidUrl", "InvalidUrl"])
      assert.include(file.message, "only http and https")
    }).pipe(session()),
  )

  it.effect(
    "spaces requests to one host by the rate limit: six at 20 per second take 250 ms of the clock",
    () =>
      Effect.gen(function* () {
        const http = yield* HttpSession
        ticks.length = 0
        const fiber = yield* Effect.forkChild(
          Effect.forEach(
            [1, 2, 3, 4, 5, 6],
            (index) => http.fetch({ url: `${server.url}/tick-rate-${index}` }),
            {
              concurrency: "unbounded",
            },
          ),
        )
        yield* until(() => ticks.length >= 1)
        yield* settle
        assert.lengthOf(ticks, 1)
        // Six starts at 20 per second: one every 50 ms, the last 250 ms after the first.
        yield* TestClock.adjust(249)
        yield* until(() => ticks.length >= 5)
        yield* settle
        assert.lengthOf(ticks, 5)
        yield* TestClock.adjust(1)
        yield* Fiber.join(fiber)
        assert.lengthOf(ticks, 6)
      }).pipe(session({ requestsPerSecondPerHost: 20 })),
  )

  it.live("keeps at most concurrencyPerHost requests in flight to one host", () =>
    Effect.gen(function* () {
      const http = yield* HttpSession
      maxInFlight = 0
      yield* Effect.forEach(
        Array.from({ length: 8 }, (_, index) => index),
        (index) => http.fetch({ url: `${server.url}/busy-c?${index}` }),
        { concurrency: "unbounded" },
      )
      assert.strictEqual(maxInFlight, 2)
    }).pipe(session({ concurrencyPerHost: 2 })),
  )

  it("names the bad option", () => {
    assert.throws(
      () => Effect.runSync(FetchHttpSession.make({ concurrencyPerHost: 0 })),
      /options\.concurrencyPerHost/,
    )
  })
})

describe("FetchHttpSession errors hide the credentials of a URL", () => {
  it.live(
    "shows a token, a key and a signed URL's signature of a failed page as *** and keeps the other parameters",
    () =>
      Effect.gen(function* () {
        const http = yield* HttpSession
        const error = yield* Effect.flip(
          http.fetch({
            url: `${server.url}/nothing?token=tok-1&page=2&api_key=key-2&X-Amz-Signature=sig-3&X-Amz-Credential=cred-4&sig=sig-5&access_token=tok-6`,
          }),
        )
        assert.strictEqual(error.reason._tag, "HttpStatus")
        for (const secret of ["tok-1", "key-2", "sig-3", "cred-4", "sig-5", "tok-6"])
          assert.notInclude(error.message, secret)
        assert.include(
          error.message,
          "/nothing?token=***&page=2&api_key=***&X-Amz-Signature=***&X-Amz-Credential=***&sig=***&access_token=***",
        )
      }).pipe(session()),
  )

  it.live("shows the password of a URL's user part as ***, in the message and in the network detail", () =>
    Effect.gen(function* () {
      const http = yield* HttpSession
      const error = yield* Effect.flip(
        http.fetch({ url: `${server.url.replace("://", "://ann:pw-secret-7@")}/nothing` }),
      )
      assert.notInclude(error.message, "pw-secret-7")
      assert.include(error.message, "ann:***@")
    }).pipe(session({ maxRetries: 0 })),
  )

  it.live("shows the token of a refused redirect's target as ***", () =>
    Effect.gen(function* () {
      const http = yield* HttpSession
      const error = yield* Effect.flip(
        http
          .fetch({ url: `${server.url}/jump?sig=sig-8` })
          .pipe(Effect.provideService(SessionOrigins, { allowed: [server.url] })),
      )
      assert.strictEqual(error.reason._tag, "OriginNotAllowed")
      for (const secret of ["tok-jump", "sig-8"]) assert.notInclude(error.message, secret)
      assert.include(error.message, "callback?access_token=***&state=s1")
    }).pipe(session()),
  )

  it.live("names the URL in its tracing span with the token as ***", () =>
    Effect.gen(function* () {
      const http = yield* HttpSession
      const spans: Array<Tracer.NativeSpan> = []
      const tracer = Tracer.make({
        span: (options) => {
          const span = new Tracer.NativeSpan(options)
          spans.push(span)
          return span
        },
      })
      yield* Effect.withTracer(http.fetch({ url: `${server.url}/tick?token=tok-10&n=${key()}` }), tracer)
      const fetched = spans.find((span) => span.name === "HttpSession.fetch")
      assert.isDefined(fetched)
      const url = String(fetched?.attributes.get("url"))
      assert.notInclude(url, "tok-10")
      assert.include(url, "/tick?token=***&n=")
    }).pipe(session()),
  )

  it.effect("shows the token of a URL that timed out as ***", () =>
    Effect.gen(function* () {
      const http = yield* HttpSession
      const fiber = yield* Effect.forkChild(
        Effect.flip(http.fetch({ url: `${server.url}/slow?token=tok-9`, timeoutMs: 150 })),
      )
      yield* settle
      yield* TestClock.adjust(150)
      const error = yield* Fiber.join(fiber)
      assert.strictEqual(error.reason._tag, "Timeout")
      assert.notInclude(error.message, "tok-9")
      assert.include(error.message, "/slow?token=***")
    }).pipe(session({ maxRetries: 0 })),
  )
})

describe("FetchHttpSession on the test clock", () => {
  it.effect("starts one request per slot of the per-host rate limit", () =>
    Effect.gen(function* () {
      const http = yield* HttpSession
      ticks.length = 0
      const fiber = yield* Effect.forkChild(
        Effect.forEach([1, 2, 3], (index) => http.fetch({ url: `${server.url}/tick-${index}` }), {
          concurrency: "unbounded",
        }),
      )
      yield* settle
      assert.lengthOf(ticks, 1)
      yield* TestClock.adjust(1_000)
      yield* settle
      assert.lengthOf(ticks, 2)
      yield* TestClock.adjust(1_000)
      yield* Fiber.join(fiber)
      assert.lengthOf(ticks, 3)
    }).pipe(session({ requestsPerSecondPerHost: 1 })),
  )

  it.effect("waits the whole Retry-After of a 429, however long the backoff would be", () =>
    Effect.gen(function* () {
      const http = yield* HttpSession
      const url = `${server.url}/later-${key()}`
      const fiber = yield* Effect.forkChild(http.fetch({ url }))
      yield* settle
      yield* TestClock.adjust(29_000)
      yield* settle
      assert.strictEqual(ticks.filter((tick) => url.endsWith(tick)).length, 1)
      yield* TestClock.adjust(1_000)
      const response = yield* Fiber.join(fiber)
      assert.include(response.body, "welcome back")
      assert.strictEqual(ticks.filter((tick) => url.endsWith(tick)).length, 2)
    }).pipe(session({ retryBaseDelayMs: 10 })),
  )

  it.effect(
    "backs off 100, 200, then 400 ms (give or take a fifth) between retries of a failing server",
    () =>
      Effect.gen(function* () {
        const http = yield* HttpSession
        const url = `${server.url}/down-${key()}`
        const attempts = () => ticks.filter((tick) => url.endsWith(tick)).length
        const fiber = yield* Effect.forkChild(Effect.flip(http.fetch({ url })))
        yield* settle
        assert.strictEqual(attempts(), 1)
        // Jitter scales each delay by 0.8 to 1.2: the retry never comes before 0.8x and always by 1.2x.
        for (const [delayMs, before] of [
          [100, 1],
          [200, 2],
          [400, 3],
        ] as const) {
          yield* TestClock.adjust(delayMs * 0.8 - 1)
          yield* settle
          assert.strictEqual(attempts(), before, `retry ${before} came before ${delayMs * 0.8} ms`)
          yield* TestClock.adjust(delayMs * 0.4 + 1)
          yield* settle
          assert.strictEqual(attempts(), before + 1, `retry ${before} had not come by ${delayMs * 1.2} ms`)
        }
        const error = yield* Fiber.join(fiber)
        assert.strictEqual(error.reason._tag, "HttpStatus")
        assert.strictEqual(attempts(), 4)
      }).pipe(session({ maxRetries: 3, retryBaseDelayMs: 100 })),
  )
})

import type { DriverError, PageStatus } from "@sextant/core"
import { type FixtureSite, startFixtureSite } from "@sextant/fixture-site"
import { Effect, Exit, Scope } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type DriverOptions, launch, makeDriver } from "../src/index.ts"
import { retryAfterMs } from "../src/WebdriverioDriver.ts"

let site: FixtureSite
let scope: Scope.Closeable
const drivers: Record<"bidi" | "classic", Effect.Success<ReturnType<typeof makeDriver>>> = {} as never
const options: DriverOptions = { statusBackoffMs: 100, maxRetryAfterMs: 3_000 }

beforeAll(async () => {
  site = await startFixtureSite({ port: 0, seed: 0 })
  scope = await Effect.runPromise(Scope.make())
  const open = (bidi: boolean) =>
    Effect.runPromise(
      Scope.provide(
        Effect.flatMap(launch({ bidi }), (session) => makeDriver(session, options)),
        scope,
      ),
    )
  ;[drivers.bidi, drivers.classic] = await Promise.all([open(true), open(false)])
}, 60_000)
afterAll(async () => {
  if (scope !== undefined) await Effect.runPromise(Scope.close(scope, Exit.void))
  await site?.close()
})

const statusPage = (query: string) => `${site.url}/faults/status?${query}`
const pageStatus = (error: DriverError) => error.reason as PageStatus

describe("navigate reads the HTTP status", () => {
  it("reports the status of a page that loaded", async () => {
    const result = await Effect.runPromise(drivers.bidi.navigate(`${site.url}/login`))
    expect(result.status).toBe(200)
  })

  it("loads a page that answered 503 again with backoff, and returns the recovered page", async () => {
    const started = Date.now()
    const result = await Effect.runPromise(drivers.bidi.navigate(statusPage("code=503&fail=2&key=backoff")))
    expect(result.title).toContain("Recovered page")
    expect(result.status).toBe(200)
    // Two waits: 100 ms, then 200 ms.
    expect(Date.now() - started).toBeGreaterThanOrEqual(300)
  })

  it("waits as long as a 429's Retry-After says before loading it again", async () => {
    const started = Date.now()
    const result = await Effect.runPromise(
      drivers.bidi.navigate(statusPage("code=429&fail=1&retryAfter=1&key=retry-after")),
    )
    expect(result.status).toBe(200)
    expect(Date.now() - started).toBeGreaterThanOrEqual(1_000)
  })

  it("fails with PageStatus once the retries run out, never handing back the 500 page as content", async () => {
    const error = await Effect.runPromise(
      Effect.flip(drivers.bidi.navigate(statusPage("code=500&key=always"))),
    )
    expect(error.reason._tag).toBe("PageStatus")
    expect(pageStatus(error).status).toBe(500)
    expect(pageStatus(error).attempts).toBe(3)
    expect(error.message).toContain("answered HTTP 500 on each of 3 attempts")
    expect(error.isRetryable).toBe(false)
  })

  it("fails at once, naming the wait, when Retry-After is longer than the driver may wait", async () => {
    const started = Date.now()
    const error = await Effect.runPromise(
      Effect.flip(drivers.bidi.navigate(statusPage("code=429&retryAfter=120&key=long"))),
    )
    expect(error.reason._tag).toBe("PageStatus")
    expect(pageStatus(error).attempts).toBe(1)
    expect(pageStatus(error).retryAfterMs).toBe(120_000)
    expect(error.message).toContain("429 Too Many Requests")
    expect(error.message).toContain("Retry-After 120 s")
    // Waiting the Retry-After would take 120 s.
    expect(Date.now() - started).toBeLessThan(10_000)
  })

  it("reads the status on a WebDriver Classic session too", async () => {
    const error = await Effect.runPromise(
      Effect.flip(drivers.classic.navigate(statusPage("code=502&key=classic"))),
    )
    expect(error.reason._tag).toBe("PageStatus")
    expect(pageStatus(error).status).toBe(502)
    const result = await Effect.runPromise(drivers.classic.navigate(`${site.url}/login`))
    expect(result.status).toBe(200)
  })
})

describe("retryAfterMs", () => {
  it("reads delay seconds and HTTP dates", () => {
    expect(retryAfterMs("3")).toBe(3_000)
    expect(retryAfterMs(new Date(10_000).toUTCString(), 4_000)).toBe(6_000)
    expect(retryAfterMs("soon")).toBeUndefined()
    expect(retryAfterMs(undefined)).toBeUndefined()
  })
})

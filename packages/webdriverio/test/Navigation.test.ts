import { describe, expect, it } from "@effect/vitest"
import { nextLoad } from "../src/internal/Navigation.ts"

const options = { maxRetryAfterMs: 10_000, statusRetries: 2, statusBackoffMs: 500 }

describe("nextLoad", () => {
  it("keeps a page that answered anything but 429 or 5xx", () => {
    expect(nextLoad(200, undefined, 1, options)).toEqual({ _tag: "Done" })
    expect(nextLoad(404, 3_000, 1, options)).toEqual({ _tag: "Done" })
  })

  it("loads a 5xx page again after a backoff that doubles with each attempt", () => {
    expect(nextLoad(503, undefined, 1, options)).toEqual({ _tag: "Retry", waitMs: 500 })
    expect(nextLoad(500, undefined, 2, options)).toEqual({ _tag: "Retry", waitMs: 1_000 })
  })

  it("waits the server's Retry-After instead of the backoff", () => {
    expect(nextLoad(429, 4_000, 1, options)).toEqual({ _tag: "Retry", waitMs: 4_000 })
  })

  it("gives up at once on a Retry-After longer than maxRetryAfterMs, naming it", () => {
    expect(nextLoad(429, 120_000, 1, options)).toEqual({ _tag: "GiveUp", retryAfterMs: 120_000 })
  })

  it("gives up after statusRetries loads again", () => {
    expect(nextLoad(502, undefined, 3, options)).toEqual({ _tag: "GiveUp", retryAfterMs: undefined })
    expect(nextLoad(502, undefined, 1, { ...options, statusRetries: 0 })).toEqual({
      _tag: "GiveUp",
      retryAfterMs: undefined,
    })
  })
})

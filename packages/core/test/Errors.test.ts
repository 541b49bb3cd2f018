import { describe, expect, it } from "@effect/vitest"
import {
  AgentError,
  DriverError,
  ElementNotFound,
  GuardrailViolation,
  HttpError,
  HttpStatus,
  InvalidArgument,
  isAgentError,
  isDriverError,
  isSextantError,
  LlmError,
  OutputInvalid,
  observeError,
  RateLimited,
  StaleRef,
  StoreBusy,
  StoreError,
} from "@sextant/core"
import { Effect } from "effect"

describe("typed errors", () => {
  it("derive retryability from their reason", () => {
    expect(new DriverError({ method: "act", reason: new StaleRef({ ref: "e5" }) }).isRetryable).toBe(true)
    expect(
      new DriverError({ method: "act", reason: new InvalidArgument({ detail: "bad op" }) }).isRetryable,
    ).toBe(false)
    expect(
      new HttpError({ method: "fetch", reason: new HttpStatus({ url: "http://a/", status: 503 }) })
        .isRetryable,
    ).toBe(true)
    expect(
      new HttpError({ method: "fetch", reason: new HttpStatus({ url: "http://a/", status: 404 }) })
        .isRetryable,
    ).toBe(false)
    expect(
      new StoreError({ method: "saveRun", reason: new StoreBusy({ detail: "locked" }) }).isRetryable,
    ).toBe(true)
  })

  it("say what happened, to what, and what to do", () => {
    expect(new DriverError({ method: "act", reason: new StaleRef({ ref: "e5" }) }).message).toBe(
      "BrowserDriver.act: ref e5 is stale: call look() to refresh",
    )
    expect(
      new HttpError({ method: "fetch", reason: new RateLimited({ url: "http://a/x", retryAfterMs: 1000 }) })
        .message,
    ).toBe("HttpSession.fetch: http://a/x is rate limited: wait for 1000 ms before trying again")
  })

  it.effect("can be caught by tag and by reason tag", () =>
    Effect.gen(function* () {
      const failing = Effect.fail(
        new DriverError({ method: "act", reason: new ElementNotFound({ target: "#x" }) }),
      )
      const recovered = yield* failing.pipe(
        Effect.catchReason("DriverError", "ElementNotFound", (reason) =>
          Effect.succeed(`missing ${reason.target}`),
        ),
      )
      expect(recovered).toBe("missing #x")
    }),
  )

  it("are recognised by their guards, and nothing else is", () => {
    const driver = new DriverError({ method: "look", reason: new StaleRef({ ref: "e1" }) })
    const agent = new AgentError({
      reason: new GuardrailViolation({ rule: "scheme", detail: "file: is not allowed" }),
    })
    expect(isDriverError(driver)).toBe(true)
    expect(isAgentError(driver)).toBe(false)
    expect(isAgentError(agent)).toBe(true)
    expect(isSextantError(new Error("plain"))).toBe(false)
    expect(isSextantError({ _tag: "DriverError" })).toBe(true)
  })

  it("turn into the observation form with tag, reason and retryability", () => {
    const error = new LlmError({
      method: "generate",
      reason: new OutputInvalid({ detail: "not JSON", output: "hi" }),
    })
    expect(observeError(error)).toEqual({
      tag: "LlmError",
      reason: "OutputInvalid",
      message: "LanguageModel.generate: the model's answer does not fit the expected shape: not JSON",
      retryable: true,
    })
    expect(observeError("boom")).toEqual({
      tag: "Error",
      reason: "Unknown",
      message: "boom",
      retryable: false,
    })
  })
})

import { describe, expect, it } from "@effect/vitest"
import {
  AgentError,
  CompoundError,
  ControlNotFound,
  CriteriaNotMet,
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
  reasonFromHttpStatus,
  SqlError,
  SqlSyntax,
  StaleRef,
  StepTimeout,
  StoreBusy,
  StoreError,
  StoreNotFound,
  Timeout,
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
  })

  it("are recognised by their TypeId, so a plain object that copies a tag is not a Sextant error", () => {
    const impostors = [
      { _tag: "DriverError" },
      { _tag: "DriverError", method: "act", reason: { _tag: "ElementNotFound", target: "#x" } },
      { _tag: "HttpError", reason: { _tag: "RateLimited" } },
      { _tag: "LlmError" },
      { _tag: "StoreError" },
      { _tag: "AgentError" },
      { _tag: "CompoundError" },
      { _tag: "SqlError" },
      { _tag: "CriteriaNotMet" },
    ]
    expect(impostors.map(isSextantError)).toEqual(impostors.map(() => false))
    expect(isDriverError({ _tag: "DriverError" })).toBe(false)
    expect(isAgentError({ _tag: "AgentError" })).toBe(false)
    // The real classes carry it, whatever boundary they come from.
    const real = [
      new DriverError({ method: "look", reason: new StaleRef({ ref: "e1" }) }),
      new HttpError({ method: "fetch", reason: new RateLimited({ url: "http://a/x" }) }),
      new LlmError({
        method: "generate",
        reason: new Timeout({ operation: "the model call", timeoutMs: 5 }),
      }),
      new StoreError({ method: "getRun", reason: new StoreNotFound({ what: "run", id: "r1" }) }),
      new AgentError({ reason: new StepTimeout({ step: 1, tool: "sql", timeoutMs: 5 }) }),
      new CompoundError({
        tool: "search",
        reason: new ControlNotFound({ control: "search box", url: "http://a/", hint: "h" }),
      }),
      new SqlError({ query: "x", reason: new SqlSyntax({ detail: "near x" }) }),
      new CriteriaNotMet({ tool: "click", unmet: ["x"] }),
    ]
    expect(real.map(isSextantError)).toEqual(real.map(() => true))
  })

  it("map an HTTP status to one shared reason for every boundary", () => {
    const context = { url: "http://a/x", retryAfterMs: 2000, timeoutMs: 15_000 }
    const limited = reasonFromHttpStatus(429, context)
    const timedOut = reasonFromHttpStatus(408, context)
    const failed = reasonFromHttpStatus(503, context)
    const missing = reasonFromHttpStatus(404, context)
    expect([limited._tag, timedOut._tag, failed._tag, missing._tag]).toEqual([
      "RateLimited",
      "Timeout",
      "HttpStatus",
      "HttpStatus",
    ])
    expect(limited._tag === "RateLimited" && limited.retryAfterMs).toBe(2000)
    expect([limited, timedOut, failed, missing].map((reason) => reason.isRetryable)).toEqual([
      true,
      true,
      true,
      false,
    ])
    expect(missing.message).toBe("http://a/x answered HTTP 404: check the URL and the request")
    const model = reasonFromHttpStatus(429, { service: "the model endpoint", timeoutMs: 1000 })
    expect(model.message).toBe("the model endpoint is rate limited: wait before trying again")
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

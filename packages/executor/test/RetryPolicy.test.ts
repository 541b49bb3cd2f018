import { assert, describe, it } from "@effect/vitest"
import {
  AgentError,
  CompoundError,
  CriteriaNotMet,
  DialogOpen,
  DriverCrashed,
  DriverError,
  DriverUnknown,
  ElementNotFound,
  HttpError,
  HttpNetwork,
  HttpTimeout,
  InvalidArgument,
  InvalidUrl,
  isSextantError,
  LlmError,
  LlmRateLimited,
  LlmRequestRejected,
  LlmTimeout,
  LoginRejected,
  RateLimited,
  type SextantError,
  SignInUnfinished,
  SqlError,
  SqlNotAllowed,
  StaleRef,
  StepTimeout,
  sextantErrorOf,
  Timeout,
} from "@sextant/core"
import { Clock, Effect, Fiber } from "effect"
import { TestClock } from "effect/testing"
import {
  endsTheRun,
  permanentFailure,
  type RetryOptions,
  reasonTag,
  recoveryFor,
  retryScheduleFor,
} from "../src/index.ts"

const driverError = (reason: DriverError["reason"]) => new DriverError({ method: "act", reason })
const notFound = driverError(new ElementNotFound({ target: "#go" }))
const stale = driverError(new StaleRef({ ref: "e5" }))
const timeout = driverError(new Timeout({ operation: "act", timeoutMs: 1000 }))
const crashed = driverError(new DriverCrashed({ detail: "gone" }))
const limited = (retryAfterMs?: number) =>
  new HttpError({ method: "fetch", reason: new RateLimited({ url: "http://shop.test/", retryAfterMs }) })

/** The delays between the attempts of an always-failing effect retried on the error's schedule. */
const delaysOf = (error: SextantError, options: RetryOptions = {}) =>
  Effect.gen(function* () {
    const attempts: Array<number> = []
    const failing = Effect.flatMap(Clock.currentTimeMillis, (now) => {
      attempts.push(now)
      return Effect.fail(error)
    })
    const fiber = yield* Effect.forkChild(
      Effect.exit(Effect.retry(failing, retryScheduleFor(error, options))),
    )
    yield* TestClock.adjust(1_000_000)
    yield* Fiber.join(fiber)
    return attempts.slice(1).map((at, index) => at - attempts[index]!)
  })

/** Each delay lies within the jitter band (0.8x to 1.2x) of the expected one. */
const assertJittered = (delays: ReadonlyArray<number>, expected: ReadonlyArray<number>) => {
  assert.strictEqual(delays.length, expected.length, `delays ${delays.join(", ")}`)
  delays.forEach((delay, index) => {
    const wanted = expected[index]!
    assert.isAtLeast(delay, wanted * 0.8, `delay ${index + 1} of ${delays.join(", ")}`)
    assert.isAtMost(delay, wanted * 1.2, `delay ${index + 1} of ${delays.join(", ")}`)
  })
}

describe("retry schedules by error tag", () => {
  it("chooses the recovery by the reason's tag", () => {
    assert.deepStrictEqual([notFound, stale, timeout, limited(1000), crashed].map(recoveryFor), [
      "scroll-and-relook",
      "relook",
      "wait-longer",
      "honour-retry-after",
      "backoff",
    ])
  })

  it.effect("moves to a new tab at once after a tab crash, and never advises waiting longer for it", () =>
    Effect.gen(function* () {
      const tabCrashed = driverError(new DriverCrashed({ detail: "its renderer process crashed", tab: "T1" }))
      assert.strictEqual(recoveryFor(tabCrashed), "new-tab")
      assert.include(tabCrashed.message, "the tab crashed")
      assert.notInclude(tabCrashed.message, "wait longer")
      assert.deepStrictEqual(yield* delaysOf(tabCrashed), [0, 0, 0])
    }),
  )

  it("accepts an alert before trying again, and never answers a confirm or a prompt for the user", () => {
    const dialog = (type: "alert" | "confirm" | "prompt") =>
      driverError(new DialogOpen({ type, text: "Proceed?" }))
    assert.deepStrictEqual(
      ["alert", "confirm", "prompt"].map((type) => recoveryFor(dialog(type as "alert"))),
      ["accept-alert", "backoff", "backoff"],
    )
  })

  it.effect("ElementNotFound and StaleRef retry soon: exponential from half the base delay", () =>
    Effect.gen(function* () {
      assertJittered(yield* delaysOf(notFound), [100, 200, 400])
      assertJittered(yield* delaysOf(stale), [100, 200, 400])
    }),
  )

  it.effect("Timeout backs off from twice the base delay", () =>
    Effect.gen(function* () {
      assertJittered(yield* delaysOf(timeout), [400, 800, 1600])
    }),
  )

  it.effect("RateLimited waits exactly the server's Retry-After, with no jitter", () =>
    Effect.gen(function* () {
      assert.deepStrictEqual(yield* delaysOf(limited(7000)), [7000, 7000, 7000])
      assertJittered(yield* delaysOf(limited(undefined)), [1000, 2000, 4000])
    }),
  )

  it.effect("other retryable errors back off exponentially from the base delay up to the cap", () =>
    Effect.gen(function* () {
      assertJittered(yield* delaysOf(crashed), [200, 400, 800])
      const capped = yield* delaysOf(crashed, { maxRetries: 6, baseDelayMs: 200, maxDelayMs: 1000 })
      assertJittered(capped, [200, 400, 800, 1000, 1000, 1000])
    }),
  )

  it.effect("jitters the backoff, so agents that failed together do not retry together", () =>
    Effect.gen(function* () {
      const firstDelays = new Set<number>()
      for (let run = 0; run < 10; run++) firstDelays.add((yield* delaysOf(crashed, { maxRetries: 1 }))[0]!)
      assert.isAbove(firstDelays.size, 1)
    }),
  )

  it.effect("stops after maxRetries", () =>
    Effect.gen(function* () {
      assert.lengthOf(yield* delaysOf(crashed, { maxRetries: 1 }), 1)
      assert.lengthOf(yield* delaysOf(limited(500), { maxRetries: 5 }), 5)
    }),
  )
})

describe("one error union for every boundary", () => {
  it.effect(
    "a model's 429 and an HTTP 429 are the same RateLimited: both wait the server's Retry-After",
    () =>
      Effect.gen(function* () {
        const model = new LlmError({ method: "generate", reason: new LlmRateLimited({ retryAfterMs: 3000 }) })
        assert.strictEqual(model.reason._tag, "RateLimited")
        assert.strictEqual(recoveryFor(model), "honour-retry-after")
        assert.deepStrictEqual(yield* delaysOf(model), [3000, 3000, 3000])
        assert.strictEqual(
          model.message,
          "LanguageModel.generate: the model endpoint is rate limited: wait for 3000 ms before trying again",
        )
      }),
  )

  it("a driver wait, an HTTP request, a model call and a step that run out of time all wait longer", () => {
    const timeouts = [
      driverError(new Timeout({ operation: "waitFor", timeoutMs: 1000 })),
      new HttpError({
        method: "fetch",
        reason: new HttpTimeout({ url: "http://shop.test/", timeoutMs: 50 }),
      }),
      new LlmError({ method: "generate", reason: new LlmTimeout({ timeoutMs: 30_000 }) }),
      new AgentError({ reason: new StepTimeout({ step: 2, tool: "sql", timeoutMs: 30_000 }) }),
    ]
    assert.deepStrictEqual(timeouts.map(reasonTag), ["Timeout", "Timeout", "Timeout", "StepTimeout"])
    assert.deepStrictEqual(timeouts.map(recoveryFor), [
      "wait-longer",
      "wait-longer",
      "wait-longer",
      "wait-longer",
    ])
    assert.include(timeouts[2]!.message, "raise the timeout or use a faster model")
    assert.strictEqual(
      timeouts[3]!.message,
      "step 2 (sql) did not finish within 30000 ms: it is retried with a longer limit; raise constraints.stepTimeoutMs if the site is slow",
    )
  })

  it("compound, sql and criteria failures are in the union the policy decides on", () => {
    const rejected = new CompoundError({
      tool: "login",
      reason: new LoginRejected({ pageError: "Invalid email or password", url: "http://shop.test/login" }),
    })
    const sql = new SqlError({
      query: "DELETE FROM t",
      reason: new SqlNotAllowed({ detail: "run exactly one SELECT" }),
    })
    const unmet = new CriteriaNotMet({ tool: "click", unmet: ['the page shows "Welcome"'] })
    assert.deepStrictEqual([rejected, sql, unmet].map(isSextantError), [true, true, true])
    assert.deepStrictEqual([rejected, sql, unmet].map(reasonTag), [
      "LoginRejected",
      "SqlNotAllowed",
      "CriteriaNotMet",
    ])
    assert.deepStrictEqual([rejected, sql, unmet].map(endsTheRun), [true, false, false])
    assert.deepStrictEqual([rejected, sql, unmet].map(recoveryFor), ["backoff", "backoff", "backoff"])
  })

  it("a sign-in that asks for a one-time code or says the account is locked is neither retried nor replanned", () => {
    // Either would post the password to the site again.
    const unfinished = (asks: string) =>
      new CompoundError({
        tool: "login",
        reason: new SignInUnfinished({ asks, url: "http://shop.test/login" }),
      })
    const code = unfinished('one-time code field "Verification code"')
    const locked = unfinished("This account is locked after too many failed sign-in attempts.")
    assert.deepStrictEqual(
      [code, locked].map((error) => error.isRetryable),
      [false, false],
    )
    assert.deepStrictEqual([code, locked].map(reasonTag), ["SignInUnfinished", "SignInUnfinished"])
    assert.deepStrictEqual([code, locked].map(endsTheRun), [true, true])
    assert.include(code.message, "asks for a one-time code")
    assert.include(locked.message, 'says "This account is locked')
  })

  it("decides permanence on the reason and its fields, never on message text", () => {
    const relative = driverError(
      new InvalidUrl({ url: "dashboard", action: "open", detail: "it is not an absolute URL" }),
    )
    const unreachable = driverError(
      new DriverUnknown({ code: "unknown error", detail: "net::ERR_NAME_NOT_RESOLVED" }),
    )
    const badKey = new LlmError({
      method: "generate",
      reason: new LlmRequestRejected({ status: 401, detail: "invalid api key" }),
    })
    const flaky = new HttpError({
      method: "fetch",
      reason: new HttpNetwork({ url: "http://a/", detail: "ECONNRESET" }),
    })
    assert.deepStrictEqual([relative, unreachable, badKey, flaky].map(permanentFailure), [
      "the URL is invalid",
      "the host cannot be reached",
      "HTTP 401",
      undefined,
    ])
    // A message that merely mentions the words is not an invalid URL.
    const mentions = driverError(new InvalidArgument({ detail: "the text says: not an absolute URL" }))
    assert.strictEqual(permanentFailure(mentions), undefined)
  })

  it("a plain object with a Sextant tag is not a Sextant error, so the policy gives it no typed recovery", () => {
    const impostor = {
      _tag: "DriverError",
      reason: { _tag: "DriverCrashed", tab: "T1", detail: "x" },
      isRetryable: true,
    }
    assert.isFalse(isSextantError(impostor))
    assert.isUndefined(sextantErrorOf(impostor))
    assert.strictEqual(recoveryFor(sextantErrorOf(impostor)), "backoff")
    assert.isFalse(endsTheRun(sextantErrorOf(impostor)))
  })
})

import { readFileSync } from "node:fs"
import { join } from "node:path"
import { assert, describe, it } from "@effect/vitest"
import {
  type AgentTask,
  BrowserDriver,
  CompoundError,
  ControlNotFound,
  DriverError,
  decodeAgentTask,
  defineTool,
  ElementNotFound,
  HttpError,
  HttpSession,
  HttpStatus,
  OriginRefused,
  type Plan,
  RateLimited,
  StaleRef,
  Store,
} from "@sextant/core"
import { Planner } from "@sextant/planner"
import {
  type FakeBrowserDriverOptions,
  MemoryStore,
  makeFakeBrowserDriver,
  makeFakeHttpSession,
} from "@sextant/testing"
import { Effect, Fiber, Layer } from "effect"
import { TestClock } from "effect/testing"
import { planAndRun, runPlan, type TraceRecord } from "../src/index.ts"
import { temporaryDirectory } from "./support/TemporaryDirectory.ts"
import {
  failingTool,
  fetchPage,
  planOf,
  scriptedPlanner,
  submit,
  testTools,
  throwingTool,
} from "./support/TestTools.ts"

const ORIGIN = "http://shop.test"
const PAGES = {
  "/": `<html><head><title>Shop</title></head><body><h1>Shop</h1><a id="to-products" href="/products">Products</a></body></html>`,
  "/products": `<html><head><title>Products</title></head><body><h1>Products</h1>
    <ul><li class="card" data-key="p1">Compass</li><li class="card" data-key="p2">Lantern</li><li class="card" data-key="p3">Rope</li></ul>
    <a id="next" href="/products?page=2">Next</a></body></html>`,
  "/login": `<form method="post" action="/session"><input id="email" name="email"><input id="password" name="password" type="password"><button id="sign-in" type="submit">Sign in</button></form>`,
}

const plan = (steps: Parameters<typeof planOf>[1]): Plan => planOf("task", steps)

/** Runs an effect to its end while moving the test clock `ms` ahead. */
const finishWithClock = <A, E, R>(effect: Effect.Effect<A, E, R>, ms: number) =>
  Effect.gen(function* () {
    const fiber = yield* Effect.forkChild(effect)
    yield* TestClock.adjust(ms)
    return yield* Fiber.join(fiber)
  })

const missingButtonPlan = () =>
  plan([
    { tool: "navigate", args: { url: `${ORIGIN}/` } },
    { tool: "click", args: { target: "#missing-button" } },
  ])

const task = (input: Record<string, unknown> = {}) =>
  Effect.runSync(decodeAgentTask({ id: "task", goal: "list the products", startUrl: `${ORIGIN}/`, ...input }))

const harness = (
  options: Omit<FakeBrowserDriverOptions, "site"> & { site?: FakeBrowserDriverOptions["site"] } = {},
  replans: Parameters<typeof scriptedPlanner>[0] = [],
) => {
  const fake = makeFakeBrowserDriver({ site: PAGES, ...options })
  const planned = scriptedPlanner(replans)
  const layer = Layer.mergeAll(
    Layer.succeed(BrowserDriver, fake.driver),
    Layer.succeed(Planner, planned.planner),
    MemoryStore.layerTest,
  )
  return { fake, planned, layer }
}

describe("runPlan", () => {
  it.effect("runs every step, checks its criteria and stores observations and extracted records", () => {
    const { layer } = harness()
    return Effect.gen(function* () {
      const result = yield* runPlan(
        task(),
        plan([
          {
            tool: "navigate",
            args: { url: `${ORIGIN}/products` },
            successCriteria: [{ type: "urlMatches", pattern: "/products$" }],
          },
          {
            tool: "extract",
            args: { selector: ".card" },
            successCriteria: [{ type: "minItems", selector: ".card", min: 3 }],
          },
        ]),
        { tools: testTools, runId: "run-complete" },
      )
      assert.strictEqual(result.status, "COMPLETED")
      assert.isTrue(result.summary.taskComplete)
      assert.deepStrictEqual(
        (result.output as Array<{ text: string }>).map((item) => item.text),
        ["Compass", "Lantern", "Rope"],
      )
      const store = yield* Store
      const steps = yield* store.listSteps("run-complete")
      assert.deepStrictEqual(
        steps.map((step) => step.state),
        ["succeeded", "succeeded"],
      )
      assert.strictEqual((yield* store.listRecords("run-complete")).length, 3)
      assert.strictEqual((yield* store.getRun("run-complete")).status, "COMPLETED")
      assert.strictEqual(result.metrics.steps, 2)
    }).pipe(Effect.provide(layer))
  })

  it.effect(
    "a step whose criteria do not hold is retried and then fails the run when no replan is left",
    () => {
      const { layer } = harness()
      return Effect.gen(function* () {
        const fiber = yield* Effect.forkChild(
          runPlan(
            task(),
            plan([
              {
                tool: "extract",
                args: { selector: ".card" },
                successCriteria: [{ type: "textPresent", text: "Sextant" }],
              },
            ]),
            { tools: testTools, maxReplans: 0 },
          ),
        )
        yield* TestClock.adjust(60_000)
        const result = yield* Fiber.join(fiber)
        assert.strictEqual(result.status, "FAILED")
        assert.strictEqual(result.endReason, "plan-failed")
        assert.strictEqual(result.metrics.retries, 3)
        assert.include(result.observations[0]?.message ?? "", 'the page shows "Sextant"')
      }).pipe(Effect.provide(layer))
    },
  )
})

describe("retries by error tag", () => {
  it.effect(
    "ElementNotFound: scrolls the target into view, looks again, and retries only with a variant locator",
    () => {
      const { fake, layer } = harness({
        // The old id is gone from the page: only a variant locator (the element's other selector) can work.
        fault: (call) =>
          call.method === "act" && call.target === "#to-products-old"
            ? new ElementNotFound({ target: call.target })
            : undefined,
        site: {
          ...PAGES,
          "/": PAGES["/"].replace('id="to-products"', 'id="to-products" name="products-link"'),
        },
      })
      return Effect.gen(function* () {
        const fiber = yield* Effect.forkChild(
          runPlan(
            task(),
            plan([
              { tool: "navigate", args: { url: `${ORIGIN}/` } },
              {
                tool: "click",
                args: { target: "#to-products-old" },
                successCriteria: [{ type: "urlMatches", pattern: "/products" }],
              },
            ]),
            { tools: testTools },
          ),
        )
        yield* TestClock.adjust(10_000)
        const result = yield* Fiber.join(fiber)
        assert.strictEqual(result.status, "COMPLETED")
        // The page guard's own calls (page calls, tabs) around each step are not part of the recovery.
        const methods = fake.calls
          .filter((call) => call.method !== "callPage" && call.method !== "tabs")
          .map((call) => `${call.method}${call.target === undefined ? "" : `:${call.target}`}`)
        const firstFailure = methods.indexOf("act:#to-products-old")
        assert.deepStrictEqual(methods.slice(firstFailure, firstFailure + 3), [
          "act:#to-products-old",
          "scroll:#to-products-old",
          "look",
        ])
        assert.include(methods, "act:#to-products")
        // One retry, and it changed the locator: the missing one is never tried twice.
        assert.strictEqual(result.metrics.retries, 1)
        assert.strictEqual(methods.filter((method) => method === "act:#to-products-old").length, 1)
      }).pipe(Effect.provide(layer))
    },
  )

  it.effect(
    "ElementNotFound with no other locator on the page is not retried: the step fails at once with the cause",
    () => {
      const { fake, layer } = harness()
      return Effect.gen(function* () {
        const result = yield* finishWithClock(
          runPlan(task(), missingButtonPlan(), { tools: testTools, maxReplans: 0 }),
          60_000,
        )
        assert.strictEqual(result.status, "FAILED")
        assert.strictEqual(result.metrics.retries, 0)
        const clicks = fake.calls.filter((call) => call.method === "act" && call.target === "#missing-button")
        assert.strictEqual(clicks.length, 1)
        assert.strictEqual(result.observations[1]?.error?.reason, "ElementNotFound")
        assert.strictEqual(result.firstFailure?.step, 1)
        assert.match(result.summary.summary, /^Failed at step 1 \(click\) on http:\/\/shop\.test\/: /)
      }).pipe(Effect.provide(layer))
    },
  )

  it.effect("StaleRef: looks again before the next attempt", () => {
    const { fake, layer } = harness({
      fault: (call, count) =>
        call.method === "act" && count === 1 ? new StaleRef({ ref: "e1" }) : undefined,
    })
    return Effect.gen(function* () {
      const result = yield* finishWithClock(
        runPlan(
          task(),
          plan([
            { tool: "navigate", args: { url: `${ORIGIN}/` } },
            { tool: "click", args: { target: "#to-products" } },
          ]),
          {
            tools: testTools,
          },
        ),
        10_000,
      )
      assert.strictEqual(result.status, "COMPLETED")
      const methods = fake.calls
        .map((call) => call.method)
        .filter((method) => method !== "callPage" && method !== "tabs")
      const stale = methods.indexOf("act")
      assert.deepStrictEqual(methods.slice(stale, stale + 3), ["act", "look", "act"])
    }).pipe(Effect.provide(layer))
  })

  it.effect("Timeout: the next attempt gets a longer time limit", () => {
    const { layer } = harness()
    return Effect.gen(function* () {
      // A 1.5 s step under a 1 s limit: only the doubled limit of the retry lets it finish.
      const result = yield* finishWithClock(
        runPlan(
          task({ constraints: { stepTimeoutMs: 1000 } }),
          plan([{ tool: "wait", args: { ms: 1500 } }]),
          { tools: testTools },
        ),
        30_000,
      )
      assert.strictEqual(result.status, "COMPLETED")
      assert.strictEqual(result.metrics.retries, 1)
    }).pipe(Effect.provide(layer))
  })

  it.effect("a step that outlives its limit fails as the agent's StepTimeout, not as a browser error", () => {
    const { layer } = harness()
    return Effect.gen(function* () {
      // Every attempt is too slow (1 s, 2 s, 4 s, 8 s limits for a 60 s wait).
      const result = yield* finishWithClock(
        runPlan(
          task({ constraints: { stepTimeoutMs: 1000 } }),
          plan([{ tool: "wait", args: { ms: 60_000 } }]),
          { tools: testTools, maxReplans: 0 },
        ),
        120_000,
      )
      assert.strictEqual(result.status, "FAILED")
      assert.strictEqual(result.metrics.retries, 3)
      const error = result.observations[0]?.error
      assert.deepStrictEqual([error?.tag, error?.reason], ["AgentError", "StepTimeout"])
      assert.include(error?.message ?? "", "step 0 (wait) did not finish within 8000 ms")
      assert.notInclude(error?.message ?? "", "BrowserDriver")
    }).pipe(Effect.provide(layer))
  })

  it.effect(
    "a tool that throws is a defect: not retried, not replanned, and the run ends FAILED saying which tool crashed",
    () => {
      const { layer, planned } = harness()
      const broken = throwingTool(new TypeError("cannot read properties of undefined (reading 'rows')"))
      return Effect.gen(function* () {
        const result = yield* finishWithClock(
          runPlan(task(), plan([{ tool: "broken", args: {} }]), {
            tools: [...testTools, broken],
            runId: "run-defect",
          }),
          60_000,
        )
        assert.strictEqual(result.status, "FAILED")
        assert.strictEqual(result.endReason, "plan-failed")
        assert.strictEqual(result.metrics.retries, 0)
        assert.strictEqual(planned.requests.length, 0)
        const error = result.observations[0]?.error
        assert.deepStrictEqual(
          [error?.tag, error?.reason, error?.retryable],
          ["Defect", "ToolCrashed", false],
        )
        assert.include(result.summary.summary, "the tool 'broken' crashed (TypeError: cannot read properties")
        const store = yield* Store
        assert.strictEqual((yield* store.getRun("run-defect")).status, "FAILED")
        assert.strictEqual((yield* store.listObservations("run-defect"))[0]?.error?.reason, "ToolCrashed")
      }).pipe(Effect.provide(layer))
    },
  )

  it.effect("RateLimited: waits the server's Retry-After before trying again", () => {
    const { layer } = harness()
    const http = makeFakeHttpSession({
      reply: (request, count) =>
        count === 1
          ? { fail: new RateLimited({ url: request.url, retryAfterMs: 7000 }) }
          : { body: "<h1>Products</h1>" },
    })
    return Effect.gen(function* () {
      const fiber = yield* Effect.forkChild(
        runPlan(
          task(),
          plan([
            {
              tool: "fetchPage",
              args: { url: `${ORIGIN}/products` },
              successCriteria: [{ type: "statusCode", code: 200 }],
            },
          ]),
          { tools: [...testTools, fetchPage] },
        ),
      )
      yield* TestClock.adjust(6_900)
      assert.strictEqual(http.requests.length, 1)
      yield* TestClock.adjust(200)
      const result = yield* Fiber.join(fiber)
      assert.strictEqual(http.requests.length, 2)
      assert.strictEqual(result.status, "COMPLETED")
    }).pipe(Effect.provide(Layer.merge(layer, Layer.succeed(HttpSession, http.session))))
  })

  it.effect("a submit whose outcome is unknown is never repeated: the page is checked instead", () => {
    const { fake, layer } = harness({
      site: (request) =>
        request.url.endsWith("/session")
          ? { html: "<h1>Welcome back</h1>" }
          : { html: PAGES[new URL(request.url).pathname as keyof typeof PAGES] ?? "" },
    })
    return Effect.gen(function* () {
      // The click goes through, but the answer never comes in time.
      const slowSubmit = defineTool({
        name: "submit",
        description: "Click a form's submit button; the answer never comes.",
        input: submit.input,
        output: submit.output,
        effects: submit.effects,
        run: (input) => submit.run(input).pipe(Effect.andThen(Effect.never)),
      })
      const result = yield* finishWithClock(
        runPlan(
          task({ constraints: { stepTimeoutMs: 1000, allowFormSubmission: true } }),
          plan([
            { tool: "navigate", args: { url: `${ORIGIN}/login` } },
            {
              tool: "submit",
              args: { target: "#sign-in" },
              successCriteria: [{ type: "textPresent", text: "Dashboard" }],
            },
          ]),
          { tools: [...testTools.filter((tool) => tool.name !== "submit"), slowSubmit], maxReplans: 0 },
        ),
        60_000,
      )
      assert.strictEqual(fake.requests.filter((request) => request.method === "POST").length, 1)
      assert.strictEqual(result.status, "FAILED")
      // The page was read (criteria script) after the timeout, before deciding not to repeat.
      const afterSubmit = fake.calls.slice(fake.calls.findIndex((call) => call.target === "#sign-in"))
      assert.isTrue(afterSubmit.some((call) => call.method === "callPage" && call.target === "criteriaFacts"))
    }).pipe(Effect.provide(layer))
  })
})

describe("replanning", () => {
  it.effect("repeated ElementNotFound asks the planner for a partial replan and runs the new steps", () => {
    const { planned, layer } = harness({}, [
      (old) => ({
        ...old,
        steps: [
          old.steps[0]!,
          {
            index: 1,
            tool: "click",
            args: { target: "#to-products" },
            successCriteria: [],
            state: "pending",
            attempts: 0,
          },
        ],
      }),
    ])
    return Effect.gen(function* () {
      const result = yield* finishWithClock(
        runPlan(task(), missingButtonPlan(), { tools: testTools }),
        60_000,
      )
      assert.strictEqual(result.status, "COMPLETED")
      assert.deepStrictEqual(
        planned.requests.map((request) => [request.mode, request.stepIndex]),
        [["partial", 1]],
      )
      assert.strictEqual(result.metrics.replans, 1)
      assert.deepStrictEqual([result.metrics.llmCalls, result.metrics.tokens.total], [1, 300])
      assert.strictEqual(result.plan?.revision, 1)
      assert.strictEqual(
        (planned.requests[0]?.error as { reason: string } | undefined)?.reason,
        "ElementNotFound",
      )
    }).pipe(Effect.provide(layer))
  })
})

describe("replanning, again", () => {
  it.effect("a step that keeps failing after a partial replan gets a full replan", () => {
    const { planned, layer } = harness({}, [
      // Another button, also missing: the step fails a second time, so the next replan is full.
      (old) => ({
        ...old,
        steps: old.steps.map((step) =>
          step.index === 1 ? { ...step, args: { target: "#other-missing-button" }, state: "pending" } : step,
        ),
      }),
      () => planOf("task", [{ tool: "navigate", args: { url: `${ORIGIN}/products` } }]),
    ])
    return Effect.gen(function* () {
      const result = yield* finishWithClock(
        runPlan(task(), missingButtonPlan(), { tools: testTools }),
        120_000,
      )
      assert.deepStrictEqual(
        planned.requests.map((request) => request.mode),
        ["partial", "full"],
      )
      assert.strictEqual(result.status, "COMPLETED")
      assert.strictEqual(result.plan?.revision, 2)
    }).pipe(Effect.provide(layer))
  })
})

describe("a replan that changes nothing", () => {
  it.effect(
    "gives the same steps back: they are not run again and the run stops with the step's failure",
    () => {
      const { fake, planned, layer } = harness({}, [(old) => old, (old) => old])
      return Effect.gen(function* () {
        const result = yield* finishWithClock(
          runPlan(task(), missingButtonPlan(), { tools: testTools }),
          120_000,
        )
        assert.strictEqual(result.status, "FAILED")
        assert.strictEqual(planned.requests.length, 1)
        const clicks = fake.calls.filter((call) => call.method === "act" && call.target === "#missing-button")
        assert.strictEqual(clicks.length, 1)
        // The first cause leads; the replan that changed nothing comes after it.
        const summary = result.summary.summary
        assert.match(summary, /^Failed at step 1 \(click\) on http:\/\/shop\.test\/: .*#missing-button/)
        assert.isAbove(
          summary.indexOf("the replan gave the same steps back"),
          summary.indexOf("#missing-button"),
        )
      }).pipe(Effect.provide(layer))
    },
  )
})

describe("secrets", () => {
  it.effect("secret inputs reach the tool but not the trace, the transcript, the store or the result", () => {
    const directory = temporaryDirectory("sextant-secrets-")
    const { fake, layer } = harness({
      site: (request) =>
        request.url.endsWith("/session")
          ? { html: `<h1>Welcome</h1><p>password was ${request.form.password}</p>` }
          : { html: PAGES[new URL(request.url).pathname as keyof typeof PAGES] ?? "" },
    })
    return Effect.gen(function* () {
      const result = yield* runPlan(
        task({
          inputs: { email: "alice@example.com", password: "wonderland-42" },
          secretInputs: ["password"],
          constraints: { allowFormSubmission: true },
        }),
        plan([
          { tool: "navigate", args: { url: `${ORIGIN}/login` } },
          { tool: "fill", args: { target: "#email", value: "{{inputs.email}}" } },
          { tool: "fill", args: { target: "#password", value: "<secret:password>" } },
          { tool: "submit", args: { target: "#sign-in" } },
          { tool: "extract", args: { selector: "p" } },
        ]),
        { tools: testTools, traceDirectory: directory, runId: "secret-run", screenshots: "always" },
      )
      assert.strictEqual(result.status, "COMPLETED")
      assert.strictEqual(fake.requests.at(-1)?.form.password, "wonderland-42")
      const trace = readFileSync(join(directory, "secret-run.jsonl"), "utf8")
      const transcript = readFileSync(join(directory, "secret-run.transcript.txt"), "utf8")
      const store = yield* Store
      const stored = JSON.stringify([
        yield* store.getRun("secret-run"),
        yield* store.listSteps("secret-run"),
        yield* store.listObservations("secret-run"),
        yield* store.listRecords("secret-run"),
      ])
      for (const sink of [trace, transcript, stored, JSON.stringify(result)]) {
        assert.notInclude(sink, "wonderland-42")
      }
      assert.include(trace, "<secret:password>")
      assert.include(JSON.stringify(result.output), "password was <secret:password>")
    }).pipe(Effect.provide(layer))
  })

  it.effect(
    "a session tool's HTTP error quoting a URL that holds a secret input and a token reaches no sink with either",
    () => {
      const directory = temporaryDirectory("sextant-session-secrets-")
      const { layer } = harness()
      // A page that put the typed password into its redirect (URL-encoded) and a session token next to it.
      const error = new HttpError({
        method: "fetch",
        reason: new HttpStatus({
          url: `${ORIGIN}/account?echo=wonderland%2D42&token=tok-session-14&page=2`,
          status: 404,
        }),
      })
      return Effect.gen(function* () {
        const result = yield* runPlan(
          task({ inputs: { password: "wonderland-42" }, secretInputs: ["password"] }),
          plan([{ tool: "failing", args: {} }]),
          {
            tools: [...testTools, failingTool(error)],
            traceDirectory: directory,
            runId: "session-secret-run",
          },
        )
        assert.strictEqual(result.status, "FAILED")
        const trace = readFileSync(join(directory, "session-secret-run.jsonl"), "utf8")
        const transcript = readFileSync(join(directory, "session-secret-run.transcript.txt"), "utf8")
        const store = yield* Store
        const stored = JSON.stringify([
          yield* store.getRun("session-secret-run"),
          yield* store.listSteps("session-secret-run"),
          yield* store.listObservations("session-secret-run"),
        ])
        for (const sink of [trace, transcript, stored, JSON.stringify(result)]) {
          assert.notInclude(sink, "wonderland")
          assert.notInclude(sink, "tok-session-14")
        }
        assert.include(
          result.observations[0]?.message ?? "",
          "/account?echo=<secret:password>&token=***&page=2 answered HTTP 404",
        )
      }).pipe(Effect.provide(layer))
    },
  )

  it.effect("the planner is asked with the placeholder, never the secret value", () => {
    const seen: Array<unknown> = []
    const fake = makeFakeBrowserDriver({ site: PAGES })
    const planner = {
      plan: (asked: AgentTask) =>
        Effect.sync(() => {
          seen.push(asked)
          return planOf(asked.id, [{ tool: "navigate", args: { url: `${ORIGIN}/` } }])
        }),
      replan: () => Effect.die("no replan expected"),
    }
    return Effect.gen(function* () {
      const result = yield* planAndRun(
        task({
          goal: "log in with wonderland-42",
          inputs: { password: "wonderland-42" },
          secretInputs: ["password"],
        }),
        { tools: testTools },
      )
      assert.strictEqual(result.status, "COMPLETED")
      assert.include(JSON.stringify(seen), "<secret:password>")
      assert.notInclude(JSON.stringify(seen), "wonderland-42")
    }).pipe(
      Effect.provide(
        Layer.mergeAll(
          Layer.succeed(BrowserDriver, fake.driver),
          Layer.succeed(Planner, planner),
          MemoryStore.layerTest,
        ),
      ),
    )
  })
})

describe("guardrails in a run", () => {
  /** Runs the steps and answers the result, the fake browser and the guardrail rules the trace shows. */
  const guarded = (constraints: Record<string, unknown>, steps: Parameters<typeof planOf>[1]) => {
    const { fake, layer } = harness()
    const events: Array<TraceRecord> = []
    return Effect.gen(function* () {
      const result = yield* finishWithClock(
        runPlan(task({ constraints }), plan(steps), {
          tools: testTools,
          maxReplans: 0,
          onEvent: (event) => events.push(event),
        }),
        60_000,
      )
      const rules = events.flatMap((event) => (event.type === "guardrail" ? [event.rule] : []))
      return { result, fake, rules }
    }).pipe(Effect.provide(layer))
  }

  /** Runs one step of a tool that fails with `error`; answers the result and the guardrail rules. */
  const failingWith = (error: unknown) => {
    const { layer } = harness()
    const events: Array<TraceRecord> = []
    return Effect.gen(function* () {
      const result = yield* finishWithClock(
        runPlan(task(), plan([{ tool: "failing", args: {} }]), {
          tools: [...testTools, failingTool(error)],
          maxReplans: 0,
          onEvent: (event) => events.push(event),
        }),
        60_000,
      )
      const rules = events.flatMap((event) => (event.type === "guardrail" ? [event.rule] : []))
      return { result, rules }
    }).pipe(Effect.provide(layer))
  }
  const typedAway = new DriverError({
    method: "act",
    reason: new OriginRefused({ target: "#password", origin: "http://evil.test", allowed: [ORIGIN] }),
  })

  it.effect(
    "a driver's OriginRefused that a compound tool wrapped refuses the step as a secret-origin event",
    () =>
      Effect.gen(function* () {
        const wrapped = new CompoundError({
          tool: "login",
          reason: new ControlNotFound({ control: "password field", url: `${ORIGIN}/login`, hint: "look" }),
          cause: typedAway,
        })
        const { result, rules } = yield* failingWith(wrapped)
        assert.strictEqual(result.status, "FAILED")
        assert.deepStrictEqual(rules, ["secret-origin"])
        assert.strictEqual(result.observations[0]?.error?.reason, "GuardrailViolation")
        assert.include(
          result.observations[0]?.message ?? "",
          "failing: #password sends what is typed to http://evil.test, which is not one of http://shop.test: nothing was typed (the page changed origin while the step ran)",
        )
      }),
  )

  it.effect(
    "a tool's plain object that copies DriverError's OriginRefused tags is not a driver refusal (no TypeId)",
    () =>
      Effect.gen(function* () {
        const lookalike = {
          _tag: "DriverError",
          method: "act",
          reason: { _tag: "OriginRefused", message: typedAway.reason.message },
          message: typedAway.message,
        }
        const { result, rules } = yield* failingWith(lookalike)
        assert.strictEqual(result.status, "FAILED")
        assert.deepStrictEqual(rules, [])
        // Recorded as the tool's own failure, under the tags it carries, not as a guardrail refusal.
        assert.deepStrictEqual(
          [result.observations[0]?.error?.tag, result.observations[0]?.error?.reason],
          ["DriverError", "OriginRefused"],
        )
        assert.notInclude(result.observations[0]?.message ?? "", "the page changed origin")
      }),
  )

  it.effect("refuses file: and data: URLs before the browser sees them, as a trace event, not a crash", () =>
    Effect.gen(function* () {
      for (const url of ["file:///etc/passwd", "data:text/html,<h1>hi</h1>"]) {
        const { result, fake, rules } = yield* guarded({}, [{ tool: "navigate", args: { url } }])
        assert.strictEqual(result.status, "FAILED")
        assert.deepStrictEqual(rules, ["url-scheme"])
        assert.strictEqual(result.observations[0]?.error?.reason, "GuardrailViolation")
        assert.isFalse(fake.calls.some((call) => call.url === url))
      }
    }),
  )

  // The validator refuses such a plan before it starts (it used to drop the step or leave it to the
  // guardrail mid-run); the run fails up front naming how to grant the permission.
  it.effect(
    "refuses a plan that submits when the task does not allow it, before it starts; nothing is posted",
    () =>
      Effect.gen(function* () {
        const steps = [
          { tool: "navigate", args: { url: `${ORIGIN}/login` } },
          { tool: "submit", args: { target: "#sign-in" } },
        ]
        const refused = yield* guarded({}, steps)
        assert.strictEqual(refused.result.status, "FAILED")
        assert.strictEqual(refused.result.metrics.steps, 0)
        assert.include(refused.result.summary.unmetParts?.[0]?.evidence ?? "", "--allow-submit")
        assert.include(
          refused.result.summary.unmetParts?.[0]?.evidence ?? "",
          "constraints.allowFormSubmission",
        )
        assert.strictEqual(refused.fake.requests.filter((request) => request.method === "POST").length, 0)
        const allowed = yield* guarded({ allowFormSubmission: true }, steps)
        assert.deepStrictEqual(allowed.rules, [])
        assert.strictEqual(allowed.fake.requests.filter((request) => request.method === "POST").length, 1)
      }),
  )

  it.effect("refuses the click over the click quota, after the ones within it ran", () =>
    Effect.gen(function* () {
      const { result, fake, rules } = yield* guarded({ quotas: { clicks: 1 } }, [
        { tool: "navigate", args: { url: `${ORIGIN}/` } },
        { tool: "click", args: { target: "#to-products" } },
        { tool: "navigate", args: { url: `${ORIGIN}/` } },
        { tool: "click", args: { target: "#to-products" } },
      ])
      assert.deepStrictEqual(rules, ["quota.clicks"])
      assert.strictEqual(result.status, "FAILED")
      assert.strictEqual(fake.calls.filter((call) => call.method === "act").length, 1)
    }),
  )
})

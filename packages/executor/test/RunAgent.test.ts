import { assert, describe, it } from "@effect/vitest"
import { BrowserDriver, decodeAgentTask, LlmError, OutputInvalid, ScriptError, Store } from "@sextant/core"
import type { StepDecision } from "@sextant/planner"
import { MemoryStore, makeFakeBrowserDriver, makeMemoryStore } from "@sextant/testing"
import { Effect, Fiber, Layer } from "effect"
import { TestClock } from "effect/testing"
import { resumeAgent, runAgent, type TraceRecord } from "../src/index.ts"
import { scriptedPolicy, testTools, throwingTool } from "./support/TestTools.ts"

const ORIGIN = "http://shop.test"
const PAGES = {
  "/": `<html><head><title>Shop</title></head><body><h1>Shop</h1><a id="to-products" href="/products">Products</a><a id="to-home" href="/">Home</a></body></html>`,
  "/products": `<html><head><title>Products</title></head><body><h1>Products</h1><a id="home" href="/">Home</a></body></html>`,
}

const task = (constraints: Record<string, unknown> = {}) =>
  Effect.runSync(
    decodeAgentTask({ id: "agent", goal: "open the products", startUrl: `${ORIGIN}/`, constraints }),
  )

const usage = { prompt: 100, completion: 20, total: 120 }
const call = (name: string, args: Record<string, unknown>) => ({ toolCalls: [{ name, args }], usage })

const setup = () => {
  const fake = makeFakeBrowserDriver({ site: PAGES })
  const layer = Layer.mergeAll(Layer.succeed(BrowserDriver, fake.driver), MemoryStore.layerTest)
  return { fake, layer }
}

describe("runAgent honesty", () => {
  it.effect("a look() that fails is an error in the trace and the history, not an empty page", () => {
    const fake = makeFakeBrowserDriver({
      site: PAGES,
      fault: (call, count) =>
        call.method === "look" && count <= 1
          ? new ScriptError({ detail: "the page script crashed" })
          : undefined,
    })
    const layer = Layer.mergeAll(Layer.succeed(BrowserDriver, fake.driver), MemoryStore.layerTest)
    const { policy, inputs } = scriptedPolicy([{ ...call("stop", {}), taskComplete: true }])
    const events: Array<TraceRecord> = []
    return Effect.gen(function* () {
      yield* runAgent(task(), policy, { tools: testTools, onEvent: (event) => events.push(event) })
      const failedLook = events.find((event) => event.type === "step-end" && event.tool === "look")
      assert.isDefined(failedLook)
      assert.include(
        failedLook?.type === "step-end" ? (failedLook.message ?? "") : "",
        "the page script crashed",
      )
      assert.include(inputs[0]?.history.join("\n") ?? "", "look() -> failed")
      assert.notInclude(inputs[0]?.outline ?? "", "could not be read")
    }).pipe(Effect.provide(layer))
  })

  it.effect("a policy that closes without the goal done ends FAILED, naming the goal as unmet", () => {
    const { layer } = setup()
    const { policy } = scriptedPolicy(
      [{ method: "close", taskComplete: false, history: ['cannot understand "open the products"'] }],
      {
        taskComplete: false,
        summary: 'cannot understand "open the products"',
        keyFindings: [],
        nextSuggestions: [],
      },
    )
    return Effect.gen(function* () {
      const result = yield* runAgent(task(), policy, { tools: testTools })
      assert.strictEqual(result.endReason, "closed")
      assert.strictEqual(result.status, "FAILED")
      assert.include(result.summary.unmetParts?.[0]?.evidence ?? "", "cannot understand")
    }).pipe(Effect.provide(layer))
  })
})

describe("runAgent termination", () => {
  it.effect("ends on an explicit stop without running it as a tool", () => {
    const { fake, layer } = setup()
    const { policy } = scriptedPolicy([
      call("click", { target: "#to-products" }),
      { ...call("stop", {}), taskComplete: true },
    ])
    return Effect.gen(function* () {
      const result = yield* runAgent(task(), policy, { tools: testTools })
      assert.strictEqual(result.endReason, "stopped")
      assert.strictEqual(result.status, "COMPLETED")
      assert.strictEqual(result.metrics.steps, 1)
      assert.strictEqual(fake.url(), `${ORIGIN}/products`)
    }).pipe(Effect.provide(layer))
  })

  it.effect("ends after the call of a decision marked taskComplete, running only its first call", () => {
    const { fake, layer } = setup()
    const { policy } = scriptedPolicy([
      {
        toolCalls: [
          { name: "click", args: { target: "#to-products" } },
          { name: "click", args: { target: "#home" } },
        ],
        taskComplete: true,
        usage,
      },
    ])
    return Effect.gen(function* () {
      const result = yield* runAgent(task(), policy, { tools: testTools })
      assert.strictEqual(result.endReason, "completed")
      assert.strictEqual(fake.url(), `${ORIGIN}/products`)
      assert.strictEqual(fake.calls.filter((entry) => entry.method === "act").length, 1)
      assert.strictEqual(result.metrics.llmCalls, 2)
      assert.strictEqual(result.metrics.tokens.total, 135)
    }).pipe(Effect.provide(layer))
  })

  it.effect("ends on method close whatever the calls hold", () => {
    const { fake, layer } = setup()
    const { policy } = scriptedPolicy([{ ...call("click", { target: "#to-products" }), method: "close" }])
    return Effect.gen(function* () {
      const result = yield* runAgent(task(), policy, { tools: testTools })
      assert.strictEqual(result.endReason, "closed")
      assert.strictEqual(fake.calls.filter((entry) => entry.method === "act").length, 0)
    }).pipe(Effect.provide(layer))
  })

  it.effect("ends after 5 consecutive no-ops, backing off between them", () => {
    const { layer } = setup()
    const { policy, inputs } = scriptedPolicy([{ toolCalls: [] }])
    return Effect.gen(function* () {
      const fiber = yield* Effect.forkChild(
        runAgent(task(), policy, { tools: testTools, noOpBackoffMs: 1000 }),
      )
      // Backoff 1 s, 2 s, 4 s, 8 s between the five no-ops: 15 s in all.
      yield* TestClock.adjust(14_000)
      assert.strictEqual(inputs.length, 4)
      yield* TestClock.adjust(1_000)
      const result = yield* Fiber.join(fiber)
      assert.strictEqual(result.endReason, "no-progress")
      assert.strictEqual(result.status, "FAILED")
      assert.strictEqual(inputs.length, 5)
    }).pipe(Effect.provide(layer))
  })

  it.effect("a run of actions that change nothing counts as no-ops too; a change resets the count", () => {
    const { layer } = setup()
    // Clicking Home on the home page changes nothing; the fourth turn goes to the products page.
    const home = call("click", { target: "#to-home" })
    const { policy, inputs } = scriptedPolicy([
      home,
      home,
      home,
      home,
      call("click", { target: "#to-products" }),
      home,
      home,
      home,
      home,
      home,
    ])
    return Effect.gen(function* () {
      const fiber = yield* Effect.forkChild(runAgent(task(), policy, { tools: testTools, noOpBackoffMs: 10 }))
      yield* TestClock.adjust(60_000)
      const result = yield* Fiber.join(fiber)
      assert.strictEqual(result.endReason, "no-progress")
      assert.isAbove(inputs.length, 5)
    }).pipe(Effect.provide(layer))
  })

  it.effect("ends after 3 consecutive generation errors", () => {
    const { layer } = setup()
    const failing = () =>
      Effect.fail(
        new LlmError({
          method: "generate",
          reason: new OutputInvalid({ detail: "not JSON", output: "hello" }),
        }),
      )
    const { policy, inputs } = scriptedPolicy([failing])
    return Effect.gen(function* () {
      const result = yield* runAgent(task(), policy, { tools: testTools })
      assert.strictEqual(result.endReason, "generation-errors")
      assert.strictEqual(inputs.length, 3)
      assert.strictEqual(result.status, "FAILED")
    }).pipe(Effect.provide(layer))
  })

  it.effect("ends at maxSteps", () => {
    const { layer } = setup()
    // Alternating pages keeps every action a change, so only the step budget stops the run.
    let turn = 0
    const alternate = (): Effect.Effect<StepDecision> =>
      Effect.sync(() => {
        turn++
        const target = turn % 2 === 1 ? "#to-products" : "#home"
        return { toolCalls: [{ name: "click", args: { target } }], taskComplete: false, history: [], usage }
      })
    const { policy } = scriptedPolicy([alternate])
    return Effect.gen(function* () {
      const result = yield* runAgent(task({ maxSteps: 4 }), policy, {
        tools: testTools,
        navigationLoopLimit: 10,
      })
      assert.strictEqual(result.endReason, "max-steps")
      assert.strictEqual(result.metrics.steps, 4)
      assert.strictEqual(turn, 4)
    }).pipe(Effect.provide(layer))
  })

  it.effect("ends at maxDurationMs and still asks for the summary", () => {
    const { layer } = setup()
    const { policy, summarized } = scriptedPolicy([call("wait", { ms: 10_000 })])
    return Effect.gen(function* () {
      const fiber = yield* Effect.forkChild(
        runAgent(task({ maxDurationMs: 25_000, stepTimeoutMs: 60_000 }), policy, { tools: testTools }),
      )
      yield* TestClock.adjust(25_000)
      const result = yield* Fiber.join(fiber)
      assert.strictEqual(result.endReason, "max-duration")
      // Two waits ended; the third, in flight at the deadline, was cut there and counts as a step.
      assert.strictEqual(result.metrics.steps, 3)
      assert.isDefined(summarized())
    }).pipe(Effect.provide(layer))
  })

  it.effect("a summary that does not fit the RunSummary schema is replaced by the executor's own", () => {
    const { layer } = setup()
    const { policy } = scriptedPolicy([{ ...call("stop", {}), taskComplete: true }], {
      taskComplete: "yes",
      summary: 42,
    })
    return Effect.gen(function* () {
      const result = yield* runAgent(task(), policy, { tools: testTools })
      assert.strictEqual(result.summary.taskComplete, true)
      assert.include(result.summary.summary, "did not fit the schema")
    }).pipe(Effect.provide(layer))
  })
})

describe("runAgent history and guardrails", () => {
  it.effect("a refused call becomes a history line the policy sees, not a crash", () => {
    const { fake, layer } = setup()
    const { policy, inputs } = scriptedPolicy([
      call("navigate", { url: "javascript:alert(document.cookie)" }),
      call("navigate", { url: "http://evil.example/steal" }),
      { ...call("stop", {}), taskComplete: false },
    ])
    return Effect.gen(function* () {
      const fiber = yield* Effect.forkChild(runAgent(task(), policy, { tools: testTools }))
      yield* TestClock.adjust(10_000)
      const result = yield* Fiber.join(fiber)
      assert.strictEqual(result.endReason, "stopped")
      assert.deepStrictEqual(
        result.observations.map((observation) => observation.error?.reason),
        ["GuardrailViolation", "GuardrailViolation"],
      )
      assert.include(inputs[1]?.history.at(-1) ?? "", "url-scheme")
      assert.include(inputs[2]?.history.at(-1) ?? "", "allowed-origins")
      assert.isFalse(fake.calls.some((entry) => entry.url?.startsWith("http://evil") ?? false))
    }).pipe(Effect.provide(layer))
  })
})

describe("runAgent and a tool that throws", () => {
  it.effect("the defect ends the run FAILED naming the tool, and the policy is not asked again", () => {
    const { layer } = setup()
    const broken = throwingTool(new RangeError("index 7 is out of range"))
    const { policy, inputs } = scriptedPolicy([
      call("broken", {}),
      { ...call("stop", {}), taskComplete: true },
    ])
    return Effect.gen(function* () {
      const fiber = yield* Effect.forkChild(
        runAgent(task(), policy, { tools: [...testTools, broken], runId: "agent-defect" }),
      )
      yield* TestClock.adjust(60_000)
      const result = yield* Fiber.join(fiber)
      assert.strictEqual(result.status, "FAILED")
      assert.lengthOf(inputs, 1)
      assert.strictEqual(result.metrics.retries, 0)
      const error = result.observations.at(-1)?.error
      assert.deepStrictEqual([error?.tag, error?.reason], ["Defect", "ToolCrashed"])
      assert.include(error?.message ?? "", "the tool 'broken' crashed (RangeError: index 7 is out of range)")
      assert.strictEqual((yield* (yield* Store).getRun("agent-defect")).status, "FAILED")
    }).pipe(Effect.provide(layer))
  })
})

describe("resumeAgent", () => {
  it.effect("continues a step-wise run that died, handing the policy the finished turns' history", () => {
    const store = makeMemoryStore()
    const first = makeFakeBrowserDriver({ site: PAGES })
    const crashing = scriptedPolicy([
      call("click", { target: "#to-products" }),
      { ...call("click", { target: "#home" }), history: ["note: products seen"] },
      () => Effect.die("the process died"),
    ])
    const second = makeFakeBrowserDriver({ site: PAGES })
    const resumed = scriptedPolicy([
      call("click", { target: "#to-products" }),
      { ...call("stop", {}), taskComplete: true },
    ])
    return Effect.gen(function* () {
      const crashed = yield* Effect.exit(
        runAgent(task(), crashing.policy, { tools: testTools, runId: "agent-crash" }).pipe(
          Effect.provideService(BrowserDriver, first.driver),
        ),
      )
      assert.isTrue(crashed._tag === "Failure")
      assert.strictEqual((yield* store.getRun("agent-crash")).status, "RUNNING")
      const result = yield* resumeAgent("agent-crash", resumed.policy, { tools: testTools }).pipe(
        Effect.provideService(BrowserDriver, second.driver),
      )
      assert.strictEqual(result.status, "COMPLETED")
      // The resumed policy saw both finished turns, including the policy's own note.
      assert.deepStrictEqual(resumed.inputs[0]?.history.slice(-3), [
        '1. click({"target":"#to-products"}) -> ok: navigation detected',
        "note: products seen",
        '2. click({"target":"#home"}) -> ok: navigation detected',
      ])
      // Finished turns were not repeated: the new browser only reloaded the last page and ran turn 3.
      assert.deepStrictEqual(
        second.calls
          .filter((entry) => entry.method === "act" || entry.method === "navigate")
          .map((entry) => entry.url ?? entry.target),
        [`${ORIGIN}/`, "#to-products"],
      )
      const steps = yield* store.listSteps("agent-crash")
      assert.deepStrictEqual(
        steps.map((step) => [step.index, step.state]),
        [
          [0, "succeeded"],
          [1, "succeeded"],
          [2, "succeeded"],
        ],
      )
    }).pipe(Effect.provideService(Store, store))
  })
})

describe("resumeAgent after a death mid-click", () => {
  it.effect(
    "does not click again when the turn in flight clicks: the run ends FAILED (needs-review) naming it",
    () => {
      const store = makeMemoryStore()
      const first = makeFakeBrowserDriver({ site: PAGES })
      const crashing = scriptedPolicy([
        call("click", { target: "#to-products" }),
        () => Effect.die("the process died"),
      ])
      const second = makeFakeBrowserDriver({ site: PAGES })
      const resumed = scriptedPolicy([
        call("click", { target: "#home" }),
        { ...call("stop", {}), taskComplete: true },
      ])
      return Effect.gen(function* () {
        yield* Effect.exit(
          runAgent(task(), crashing.policy, { tools: testTools, runId: "died-mid-click" }).pipe(
            Effect.provideService(BrowserDriver, first.driver),
          ),
        )
        // What the loop writes before it runs a turn's call: the process died right after.
        yield* store.saveStep("died-mid-click", {
          index: 1,
          tool: "click",
          args: { target: "#home" },
          successCriteria: [],
          state: "running",
          attempts: 0,
        })
        const result = yield* resumeAgent("died-mid-click", resumed.policy, { tools: testTools }).pipe(
          Effect.provideService(BrowserDriver, second.driver),
        )
        assert.strictEqual(result.status, "FAILED")
        assert.strictEqual(result.endReason, "needs-review")
        assert.strictEqual(result.summary.unmetParts?.[0]?.part, "step 1 (click)")
        // The policy was not asked, and nothing was clicked on the new browser.
        assert.strictEqual(resumed.inputs.length, 0)
        assert.isFalse(second.calls.some((entry) => entry.method === "act"))
      }).pipe(Effect.provideService(Store, store))
    },
  )
})

describe("secrets in prompts", () => {
  it.effect(
    "the policy sees only the placeholder, even when the page echoes the secret, while the site gets the value",
    () => {
      const fake = makeFakeBrowserDriver({
        site: (request) =>
          request.url.endsWith("/session")
            ? { html: `<h1>Welcome</h1><button id="again">password was ${request.form.password}</button>` }
            : {
                // A password field: the fake probes where a secret would go as a browser does, and refuses a plain text field.
                html: `<form method="post" action="/session"><input id="password" name="password" type="password"><button id="go" type="submit">Go</button></form>`,
              },
      })
      const { policy, inputs, summarized } = scriptedPolicy([
        call("fill", { target: "#password", value: "<secret:password>" }),
        call("submit", { target: "#go" }),
        { ...call("stop", {}), taskComplete: true },
      ])
      return Effect.gen(function* () {
        const secretTask = Effect.runSync(
          decodeAgentTask({
            goal: "sign in with the password hunter2-xyz",
            startUrl: `${ORIGIN}/`,
            inputs: { password: "hunter2-xyz" },
            secretInputs: ["password"],
            constraints: { allowFormSubmission: true },
          }),
        )
        const fiber = yield* Effect.forkChild(runAgent(secretTask, policy, { tools: testTools }))
        yield* TestClock.adjust(10_000)
        const result = yield* Fiber.join(fiber)
        assert.strictEqual(result.status, "COMPLETED")
        assert.strictEqual(fake.requests.at(-1)?.form.password, "hunter2-xyz")
        assert.include(inputs[2]?.outline ?? "", "password was <secret:password>")
        assert.include(inputs[0]?.goal ?? "", "<secret:password>")
        for (const prompt of [...inputs, summarized()])
          assert.notInclude(JSON.stringify(prompt), "hunter2-xyz")
        assert.notInclude(JSON.stringify(result), "hunter2-xyz")
      }).pipe(
        Effect.provide(Layer.mergeAll(Layer.succeed(BrowserDriver, fake.driver), MemoryStore.layerTest)),
      )
    },
  )
})

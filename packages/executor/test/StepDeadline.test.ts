import { assert, describe, it } from "@effect/vitest"
import { BrowserDriver, decodeAgentTask, Store } from "@sextant/core"
import { Planner } from "@sextant/planner"
import { MemoryStore, makeFakeBrowserDriver } from "@sextant/testing"
import { Effect, Fiber, Layer } from "effect"
import { TestClock } from "effect/testing"
import { runAgent, runPlan, type TraceRecord } from "../src/index.ts"
import { planOf, scriptedPlanner, scriptedPolicy, testTools } from "./support/TestTools.ts"

// A step in flight at the run's deadline is cut there: its time limit is the smaller of stepTimeoutMs
// and what is left of maxDurationMs, and the cut ends the run as max-duration, without a retry.

const ORIGIN = "http://shop.test"
const PAGES = { "/": `<html><head><title>Shop</title></head><body><h1>Shop</h1></body></html>` }
const MAX_DURATION_MS = 5_000
// Longer than the run: only the deadline can end the step.
const constraints = { maxDurationMs: MAX_DURATION_MS, stepTimeoutMs: 30_000 }

const task = () =>
  Effect.runSync(decodeAgentTask({ id: "deadline", goal: "wait", startUrl: `${ORIGIN}/`, constraints }))

const layer = () =>
  Layer.mergeAll(
    Layer.succeed(BrowserDriver, makeFakeBrowserDriver({ site: PAGES }).driver),
    Layer.succeed(Planner, scriptedPlanner([]).planner),
    MemoryStore.layerTest,
  )

/** Moves the test clock to the deadline and answers the run's result if it has ended by then. */
const endedAtDeadline = <A, E, R>(run: Effect.Effect<A, E, R>) =>
  Effect.gen(function* () {
    const fiber = yield* Effect.forkChild(run)
    yield* TestClock.adjust(MAX_DURATION_MS)
    // Let the run finish what it does at the deadline (no clock time passes).
    for (let turn = 0; turn < 20 && fiber.pollUnsafe() === undefined; turn++) yield* Effect.yieldNow
    const ended = fiber.pollUnsafe() !== undefined
    if (!ended) yield* TestClock.adjust(60_000)
    return { ended, result: yield* Fiber.join(fiber) }
  })

describe("a step in flight at the run's deadline", () => {
  it.effect(
    "is cut at maxDurationMs in a plan run, recorded, not retried, and ends the run as max-duration",
    () => {
      const events: Array<TraceRecord> = []
      return Effect.gen(function* () {
        const { ended, result } = yield* endedAtDeadline(
          runPlan(task(), planOf("deadline", [{ tool: "wait", args: { ms: 60_000 } }]), {
            tools: testTools,
            runId: "deadline-plan",
            onEvent: (event) => events.push(event),
          }),
        )
        assert.isTrue(ended, "the run had not ended at maxDurationMs")
        assert.strictEqual(result.status, "FAILED")
        assert.include(result.summary.summary, "Stopped (max-duration)")
        assert.include(result.summary.summary, "step 0 (wait) was cut at the deadline")
        assert.isFalse(events.some((event) => event.type === "retry"))
        const end = events.find((event) => event.type === "step-end")
        assert.strictEqual(end?.type === "step-end" ? end.attempts : undefined, 1)
        assert.strictEqual(end?.type === "step-end" ? end.error?.reason : undefined, "BudgetExceeded")
        // The cut step is durable, with the reason, like any step that ended.
        const steps = yield* (yield* Store).listSteps("deadline-plan")
        assert.strictEqual(steps[0]?.state, "failed")
      }).pipe(Effect.provide(layer()))
    },
  )

  it.effect("is cut at maxDurationMs in a step-wise run and ends it as max-duration", () => {
    const { policy } = scriptedPolicy([
      { toolCalls: [{ name: "wait", args: { ms: 60_000 } }], usage: { prompt: 1, completion: 1, total: 2 } },
    ])
    const events: Array<TraceRecord> = []
    return Effect.gen(function* () {
      const { ended, result } = yield* endedAtDeadline(
        runAgent(task(), policy, { tools: testTools, onEvent: (event) => events.push(event) }),
      )
      assert.isTrue(ended, "the run had not ended at maxDurationMs")
      assert.strictEqual(result.endReason, "max-duration")
      assert.isFalse(events.some((event) => event.type === "retry"))
      const end = events.find((event) => event.type === "step-end" && event.tool === "wait")
      assert.strictEqual(end?.type === "step-end" ? end.error?.reason : undefined, "BudgetExceeded")
    }).pipe(Effect.provide(layer()))
  })
})

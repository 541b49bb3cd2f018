import { describe, expect, it } from "@effect/vitest"
import { BrowserDriver, decodeAgentTask, Store } from "@sextant/core"
import { Planner } from "@sextant/planner"
import { MemoryStore, makeFakeBrowserDriver } from "@sextant/testing"
import { Effect, Fiber, Layer } from "effect"
import { resume, resumeAgent, runAgent, runPlan, type TraceRecord } from "../src/index.ts"
import { planOf, scriptedPlanner, scriptedPolicy, testTools } from "./support/TestTools.ts"

// The stop logic sits above the driver: the fake driver serves these pages (the CLI test
// packages/sextant/test/CtrlCResume.slow.test.ts (the slow set) covers the same path in Chromium through `sextant run`).
const ORIGIN = "http://shop.test"
const PAGES = {
  "/": `<html><head><title>Shop</title></head><body><h1>Shop</h1><a id="to-products" href="/products">Products</a></body></html>`,
  "/products": `<html><head><title>Products</title></head><body><h1>Products</h1></body></html>`,
}

const task = Effect.runSync(
  decodeAgentTask({ id: "task", goal: "open the products", startUrl: `${ORIGIN}/` }),
)

const layer = () =>
  Layer.mergeAll(
    Layer.succeed(BrowserDriver, makeFakeBrowserDriver({ site: PAGES }).driver),
    Layer.succeed(Planner, scriptedPlanner([]).planner),
    MemoryStore.layerTest,
  )

// Step 1 pauses, so a stop or an interruption lands while it is in flight.
const threeSteps = planOf("task", [
  { tool: "navigate", args: { url: `${ORIGIN}/` } },
  { tool: "wait", args: { ms: 300 } },
  { tool: "click", args: { target: "#to-products" } },
])

/** The steps a run started, in order, from its trace events. */
const startedSteps = () => {
  const steps: Array<number> = []
  const onEvent = (event: TraceRecord) => {
    if (event.type === "step-start") steps.push(event.step)
  }
  return { steps, onEvent }
}

describe("stopSignal", () => {
  it.live("ends a plan run CANCELLED after the step in flight, and resume runs only the steps after it", () =>
    Effect.gen(function* () {
      const stop = new AbortController()
      const first = startedSteps()
      const result = yield* runPlan(task, threeSteps, {
        tools: testTools,
        runId: "stopped-plan",
        stopSignal: stop.signal,
        onEvent: (event) => {
          first.onEvent(event)
          if (event.type === "step-start" && event.step === 1) stop.abort()
        },
      })
      expect(result.status).toBe("CANCELLED")
      expect(result.endReason).toBe("cancelled")
      // The pause in flight at the stop ran to its end; the click after it did not start.
      expect(first.steps).toEqual([0, 1])
      expect(result.plan?.steps.map((step) => step.state)).toEqual(["succeeded", "succeeded", "pending"])
      const stored = yield* Store.use((store) => store.listSteps("stopped-plan"))
      expect(stored.filter((step) => step.state === "succeeded").map((step) => step.index)).toEqual([0, 1])

      const second = startedSteps()
      const resumed = yield* resume("stopped-plan", { tools: testTools, onEvent: second.onEvent })
      expect(resumed.status).toBe("COMPLETED")
      expect(second.steps).toEqual([2])
      const after = yield* Store.use((store) => store.listSteps("stopped-plan"))
      // The finished steps keep their first observation: they were not run again.
      for (const step of stored.filter((candidate) => candidate.state === "succeeded"))
        expect(after.find((candidate) => candidate.index === step.index)?.observation?.at).toBe(
          step.observation?.at,
        )
    }).pipe(Effect.provide(layer())),
  )

  it.live(
    "ends a step-wise run after the turn in flight without another decision or a summary, and resumeAgent decides the next turn",
    () =>
      Effect.gen(function* () {
        const stop = new AbortController()
        const first = scriptedPolicy([{ toolCalls: [{ name: "wait", args: { ms: 300 } }] }])
        const result = yield* runAgent(task, first.policy, {
          tools: testTools,
          runId: "stopped-agent",
          stopSignal: stop.signal,
          onEvent: (event) => {
            if (event.type === "step-start" && event.step === 0) stop.abort()
          },
        })
        expect(result.status).toBe("CANCELLED")
        expect(result.endReason).toBe("cancelled")
        expect(first.inputs).toHaveLength(1)
        expect(first.summarized()).toBeUndefined()

        const second = scriptedPolicy([
          { toolCalls: [{ name: "click", args: { target: "#to-products" } }], taskComplete: true },
        ])
        const started = startedSteps()
        const resumed = yield* resumeAgent("stopped-agent", second.policy, {
          tools: testTools,
          onEvent: started.onEvent,
        })
        expect(resumed.status).toBe("COMPLETED")
        // The wait of turn 0 is in the history the policy gets back, and is not run again.
        expect(second.inputs[0]?.history.join("\n")).toMatch(/wait\(\{"ms":300\}\) -> ok/)
        expect(started.steps).toEqual([1])
      }).pipe(Effect.provide(layer())),
  )
})

describe("an interrupted run", () => {
  it.live(
    "is stored CANCELLED and resume continues it: the cut step runs again, the finished ones do not",
    () =>
      Effect.gen(function* () {
        let reached: () => void = () => undefined
        const atPause = new Promise<void>((resolve) => (reached = resolve))
        const fiber = yield* Effect.forkChild(
          runPlan(task, threeSteps, {
            tools: testTools,
            runId: "interrupted-plan",
            onEvent: (event) => {
              if (event.type === "step-start" && event.step === 1) reached()
            },
          }),
        )
        yield* Effect.promise(() => atPause)
        yield* Fiber.interrupt(fiber)
        const record = yield* Store.use((store) => store.getRun("interrupted-plan"))
        expect(record.status).toBe("CANCELLED")

        const started = startedSteps()
        const resumed = yield* resume("interrupted-plan", { tools: testTools, onEvent: started.onEvent })
        expect(resumed.status).toBe("COMPLETED")
        expect(started.steps).toEqual([1, 2])
      }).pipe(Effect.provide(layer())),
  )
})

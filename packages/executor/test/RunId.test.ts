import { existsSync, readdirSync } from "node:fs"
import { join } from "node:path"
import { assert, describe, it } from "@effect/vitest"
import { type AgentError, BrowserDriver, decodeAgentTask, type InvalidInput, Store } from "@sextant/core"
import { Planner } from "@sextant/planner"
import { MemoryStore, makeFakeBrowserDriver } from "@sextant/testing"
import { Effect, Layer } from "effect"
import { runPlan } from "../src/index.ts"
import { temporaryDirectory } from "./support/TemporaryDirectory.ts"
import { planOf, scriptedPlanner, testTools } from "./support/TestTools.ts"

const ORIGIN = "http://shop.test"
const PAGES = {
  "/products": `<ul><li class="card" data-key="p1">Compass</li><li class="card" data-key="p2">Rope</li></ul>`,
}

const task = Effect.runSync(
  decodeAgentTask({ id: "task", goal: "list the products", startUrl: `${ORIGIN}/products` }),
)
const plan = planOf("task", [
  { tool: "navigate", args: { url: `${ORIGIN}/products` } },
  { tool: "extract", args: { selector: ".card" } },
])
const layer = () =>
  Layer.mergeAll(
    Layer.succeed(BrowserDriver, makeFakeBrowserDriver({ site: PAGES }).driver),
    Layer.succeed(Planner, scriptedPlanner([]).planner),
    MemoryStore.layerTest,
  )

const invalidInput = (error: unknown) => (error as AgentError).reason as InvalidInput

describe("runId", () => {
  for (const runId of ["../escape", "a/../../b", "..", "with space", "", "x".repeat(200), "/abs"]) {
    it.effect(
      `refuses ${JSON.stringify(runId.length > 20 ? `${runId.slice(0, 20)}…` : runId)} naming options.runId, writing nothing`,
      () => {
        const traces = temporaryDirectory("sextant-runid-")
        const nested = join(traces, "traces")
        return Effect.gen(function* () {
          const error = yield* Effect.flip(
            runPlan(task, plan, { tools: testTools, runId, traceDirectory: nested }),
          )
          assert.strictEqual((error as AgentError)._tag, "AgentError")
          assert.strictEqual(invalidInput(error).what, "options.runId")
          assert.include(error.message, "is not a valid run id")
          // Nothing was written, inside the trace folder or next to it.
          assert.deepStrictEqual(readdirSync(traces), [])
        }).pipe(Effect.provide(layer()))
      },
    )
  }

  it.effect("refuses a runId the store already holds instead of merging into that run's records", () =>
    Effect.gen(function* () {
      const first = yield* runPlan(task, plan, { tools: testTools, runId: "run-1" })
      assert.strictEqual(first.status, "COMPLETED")
      const store = yield* Store
      const recordsBefore = yield* store.listRecords("run-1")
      const stepsBefore = yield* store.listSteps("run-1")
      const error = yield* Effect.flip(runPlan(task, plan, { tools: testTools, runId: "run-1" }))
      assert.strictEqual(invalidInput(error).what, "options.runId")
      assert.include(error.message, `a run with id "run-1" already exists (COMPLETED`)
      assert.include(error.message, "resume(")
      assert.deepStrictEqual(yield* store.listRecords("run-1"), recordsBefore)
      assert.deepStrictEqual(yield* store.listSteps("run-1"), stepsBefore)
    }).pipe(Effect.provide(layer())),
  )

  it.effect(
    "accepts letters, digits, dots, dashes and underscores and writes the trace inside its folder",
    () => {
      const traces = temporaryDirectory("sextant-runid-")
      return Effect.gen(function* () {
        const result = yield* runPlan(task, plan, {
          tools: testTools,
          runId: "nightly_2026-11-23.v2",
          traceDirectory: traces,
        })
        assert.strictEqual(result.status, "COMPLETED")
        assert.isTrue(existsSync(join(traces, "nightly_2026-11-23.v2.jsonl")))
      }).pipe(Effect.provide(layer()))
    },
  )
})

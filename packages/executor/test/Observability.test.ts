import { existsSync, readFileSync } from "node:fs"
import { join } from "node:path"
import { assert, describe, it } from "@effect/vitest"
import { BrowserDriver, decodeAgentTask } from "@sextant/core"
import { Planner } from "@sextant/planner"
import { MemoryStore, makeFakeBrowserDriver } from "@sextant/testing"
import { Effect, Fiber, Layer, Metric } from "effect"
import { TestClock } from "effect/testing"
import { ExecutorMetrics, makeRedactor, makeRunTrace, runPlan, type TraceRecord } from "../src/index.ts"
import { temporaryDirectory } from "./support/TemporaryDirectory.ts"
import { planOf, scriptedPlanner, testTools } from "./support/TestTools.ts"

describe("transcript", () => {
  it("keeps at most transcriptMaxLines lines of transcriptMaxLineChars characters", () => {
    const directory = temporaryDirectory("sextant-transcript-")
    const trace = makeRunTrace("capped", makeRedactor({ inputs: {}, secretInputs: [] }), {
      traceDirectory: directory,
      transcriptMaxLines: 500,
      transcriptMaxLineChars: 500,
    })
    for (let line = 0; line < 600; line++) trace.line(`line ${line} ${"x".repeat(800)}`)
    const lines = trace.transcript()
    assert.strictEqual(lines.length, 500)
    assert.isTrue(lines.every((line) => line.length <= 500))
    const file = readFileSync(join(directory, "capped.transcript.txt"), "utf8").trimEnd().split("\n")
    assert.strictEqual(file.length, 501)
    assert.strictEqual(file.at(-1), "[transcript cut at 500 lines]")
  })
})

describe("trace and metrics", () => {
  it.effect(
    "writes run-start, plan, step-start, step-end and run-end events and updates the Effect metrics",
    () => {
      const directory = temporaryDirectory("sextant-trace-")
      const fake = makeFakeBrowserDriver({
        site: { "/": "<h1>Home</h1><p class='item'>a</p><p class='item'>b</p>" },
      })
      const events: Array<TraceRecord> = []
      const plan = planOf("metrics", [
        { tool: "navigate", args: { url: "http://shop.test/" } },
        { tool: "extract", args: { selector: ".item" } },
      ])
      return Effect.gen(function* () {
        const stepsBefore = (yield* Metric.value(ExecutorMetrics.steps)).count
        const runsBefore = (yield* Metric.value(ExecutorMetrics.runsSucceeded)).count
        const task = yield* decodeAgentTask({
          id: "metrics",
          goal: "read the items",
          startUrl: "http://shop.test/",
        })
        const result = yield* runPlan(task, plan, {
          tools: testTools,
          runId: "metrics-run",
          traceDirectory: directory,
          onEvent: (event) => events.push(event),
        })
        const lines = readFileSync(join(directory, "metrics-run.jsonl"), "utf8").trim().split("\n")
        const types = lines.map((line) => (JSON.parse(line) as TraceRecord).type)
        assert.deepStrictEqual(types, [
          "run-start",
          "plan",
          "step-start",
          "step-end",
          "step-start",
          "step-end",
          "run-end",
        ])
        assert.deepStrictEqual(
          events.map((event) => event.type),
          types,
        )
        assert.strictEqual(result.tracePath, join(directory, "metrics-run.jsonl"))
        assert.strictEqual((yield* Metric.value(ExecutorMetrics.steps)).count - stepsBefore, 2)
        assert.strictEqual((yield* Metric.value(ExecutorMetrics.runsSucceeded)).count - runsBefore, 1)
        assert.deepStrictEqual(
          { steps: result.metrics.steps, retries: result.metrics.retries, success: result.metrics.success },
          { steps: 2, retries: 0, success: true },
        )
      }).pipe(
        Effect.provide(
          Layer.mergeAll(
            Layer.succeed(BrowserDriver, fake.driver),
            Layer.succeed(Planner, scriptedPlanner([]).planner),
            MemoryStore.layerTest,
          ),
        ),
      )
    },
  )

  it.effect("takes a screenshot of a failed step into the trace directory and names it in step-end", () => {
    const directory = temporaryDirectory("sextant-shots-")
    const fake = makeFakeBrowserDriver({ site: { "/": "<h1>Home</h1>" } })
    return Effect.gen(function* () {
      const task = yield* decodeAgentTask({
        id: "shots",
        goal: "click a missing button",
        startUrl: "http://shop.test/",
      })
      const fiber = yield* Effect.forkChild(
        runPlan(
          task,
          planOf("shots", [
            { tool: "navigate", args: { url: "http://shop.test/" } },
            { tool: "click", args: { target: "#missing" } },
          ]),
          { tools: testTools, runId: "shots-run", traceDirectory: directory, maxReplans: 0 },
        ),
      )
      yield* TestClock.adjust(60_000)
      yield* Fiber.join(fiber)
      const events = readFileSync(join(directory, "shots-run.jsonl"), "utf8")
        .trim()
        .split("\n")
        .map((line) => JSON.parse(line) as TraceRecord)
      const failed = events.find((event) => event.type === "step-end" && !event.ok)
      assert.strictEqual(
        failed?.type === "step-end" ? failed.screenshot : undefined,
        join(directory, "shots-run-step-1-failed.png"),
      )
      assert.isTrue(existsSync(join(directory, "shots-run-step-1-failed.png")))
      assert.isFalse(existsSync(join(directory, "shots-run-step-0-ok.png")))
    }).pipe(
      Effect.provide(
        Layer.mergeAll(
          Layer.succeed(BrowserDriver, fake.driver),
          Layer.succeed(Planner, scriptedPlanner([]).planner),
          MemoryStore.layerTest,
        ),
      ),
    )
  })
})

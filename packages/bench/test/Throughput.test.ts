import { describe, expect, it } from "@effect/vitest"
import { tasksPerMinute, WorkerLogSpans } from "../src/Throughput.ts"

describe("WorkerLogSpans", () => {
  it("spans each run from its taken line to its end line, stamped when each chunk arrives", () => {
    let now = 0
    const log = new WorkerLogSpans(() => now)
    now = 10
    log.feed(
      "worker w1: queue sextant at redis://x, concurrency 1, store postgres://y\nrun a: taken (attempt 1): fill the form\n",
    )
    now = 20
    // A line cut across two chunks counts when its end arrives.
    log.feed("run b: taken (attempt 1): fill the form\nrun a: COMP")
    now = 35
    log.feed("LETED\nrun b: FAILED\n")
    expect(log.ended()).toEqual([
      { runId: "a", status: "COMPLETED", span: { start: 10, end: 35 } },
      { runId: "b", status: "FAILED", span: { start: 20, end: 35 } },
    ])
  })

  it("answers a run that ended without a taken line with no span, so the bench can refuse it", () => {
    const log = new WorkerLogSpans(() => 5)
    log.feed("run c: COMPLETED (resumed)\nrun d: error: the browser could not start\n")
    expect(log.ended()).toEqual([{ runId: "c", status: "COMPLETED" }])
  })
})

describe("tasksPerMinute", () => {
  it("scales tasks over the wall time to a minute", () => {
    expect(tasksPerMinute(10, 30_000)).toBe(20)
    expect(tasksPerMinute(3, 0)).toBe(0)
  })
})

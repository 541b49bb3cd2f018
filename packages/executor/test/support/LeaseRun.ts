import { decodeAgentTask, type Observation, type Plan, type Step, Store } from "@sextant/core"
import { SqliteStore } from "@sextant/memory"
import { Planner } from "@sextant/planner"
import { FakeBrowserDriver } from "@sextant/testing"
import { Effect, Layer } from "effect"
import { noReplanner } from "./ResumePlan.ts"

/** The plan of the lease tests: `steps` waits of `waitMs` each, so a resume runs for a while. */
export const leasePlan = (runId: string, steps: number, waitMs: number): Plan => ({
  taskId: runId,
  revision: 0,
  status: "running",
  steps: Array.from(
    { length: steps },
    (_, index): Step => ({
      index,
      tool: "wait",
      args: { ms: waitMs },
      successCriteria: [],
      state: "pending",
      attempts: 0,
    }),
  ),
})

/**
 * Writes into the store a plan run that died after `done` of its steps: the run RUNNING, those steps
 * succeeded with their observations, the rest never started. What a killed process leaves behind.
 */
export const seedCrashedRun = (runId: string, steps: number, done: number, waitMs: number) =>
  Effect.gen(function* () {
    const store = yield* Store
    const task = yield* decodeAgentTask({ id: runId, goal: "wait through every step" })
    const plan = leasePlan(runId, steps, waitMs)
    yield* store.saveRun({
      runId,
      task,
      status: "RUNNING",
      mode: "plan",
      startedAt: "2026-11-27T10:00:00.000Z",
      updatedAt: "2026-11-27T10:00:05.000Z",
      plan,
    })
    for (const step of plan.steps.slice(0, done)) {
      const observation: Observation = {
        tool: "wait",
        ok: true,
        data: { waited: waitMs },
        durationMs: waitMs,
        at: new Date(Date.parse("2026-11-27T10:00:00.000Z") + step.index * 1000).toISOString(),
      }
      yield* store.saveStep(runId, { ...step, state: "succeeded", attempts: 1, observation })
      yield* store.appendObservation(runId, step.index, observation)
    }
  })

/** What a resume needs besides the store: a browser that is never asked for a page, and no replans. */
export const leaseLayer = (databasePath: string) =>
  Layer.mergeAll(
    FakeBrowserDriver.layerTest({ site: {} }),
    SqliteStore.layer({ path: databasePath }),
    Layer.succeed(Planner, noReplanner),
  )

import type { AgentTask, Plan } from "@sextant/core"
import { SqliteStore } from "@sextant/memory"
import { Planner } from "@sextant/planner"
import { WebdriverioDriver } from "@sextant/webdriverio"
import { Effect, Layer } from "effect"
import { runPlan } from "../../src/index.ts"
import { noReplanner } from "./ResumePlan.ts"

/**
 * Runs `plan` in this (child) process with a real browser and the SQLite store at `databasePath`, so a
 * test can SIGKILL it mid-run and resume the run from the store. Prints `finished <status>`, or the
 * error with exit code 1.
 */
export const runKillable = (
  task: AgentTask,
  plan: Plan,
  options: {
    readonly tools: NonNullable<Parameters<typeof runPlan>[2]>["tools"]
    readonly runId: string
    readonly databasePath: string
  },
): void => {
  const program = runPlan(task, plan, {
    tools: options.tools,
    runId: options.runId,
    // Short, so the test's resume can take the run over soon after the kill.
    leaseTtlMs: 1_000,
  }).pipe(
    Effect.provide(
      Layer.mergeAll(
        WebdriverioDriver.layer({}),
        SqliteStore.layer({ path: options.databasePath }),
        Layer.succeed(Planner, noReplanner),
      ),
    ),
  )
  Effect.runPromise(program).then(
    (result) => console.log(`finished ${result.status}`),
    (error: unknown) => {
      console.error(String(error))
      process.exitCode = 1
    },
  )
}

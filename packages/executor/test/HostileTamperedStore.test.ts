import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { DatabaseSync } from "node:sqlite"
import type { AgentError, StoreError } from "@sextant/core"
import { Cause, Exit, ManagedRuntime } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { resume, resumeAgent } from "../src/index.ts"
import { leaseLayer, seedCrashedRun } from "./support/LeaseRun.ts"
import { scriptedPolicy, wait } from "./support/TestTools.ts"

let directory: string
beforeAll(() => {
  directory = mkdtempSync(join(tmpdir(), "sextant-tampered-"))
})
afterAll(() => rmSync(directory, { recursive: true, force: true }))

let counter = 0

/**
 * Seeds a crashed run in a fresh SQLite file, edits the file behind the store's back with `tamper`, then
 * resumes the run. Answers the typed failure; a defect (an untagged throw) fails the test with its cause.
 */
const resumeTampered = async (
  tamper: (database: DatabaseSync, runId: string) => void,
  how: "plan" | "agent" = "plan",
): Promise<{ readonly runId: string; readonly error: StoreError | AgentError }> => {
  const databasePath = join(directory, `store-${++counter}.db`)
  const runId = `tampered-${counter}`
  const runtime = ManagedRuntime.make(leaseLayer(databasePath))
  try {
    await runtime.runPromise(seedCrashedRun(runId, 4, 2, 1))
    const database = new DatabaseSync(databasePath)
    try {
      tamper(database, runId)
    } finally {
      database.close()
    }
    const exit = await runtime.runPromiseExit(
      how === "plan"
        ? resume(runId, { tools: [wait] })
        : resumeAgent(runId, scriptedPolicy([]).policy, { tools: [wait] }),
    )
    if (Exit.isSuccess(exit)) throw new Error(`resume of a tampered run succeeded: ${exit.value.status}`)
    const failure = exit.cause.reasons.find(Cause.isFailReason)
    if (failure === undefined)
      throw new Error(`resume died instead of failing typed: ${Cause.pretty(exit.cause)}`)
    return { runId, error: failure.error }
  } finally {
    await runtime.dispose()
  }
}

const expectCorrupt = (answer: { runId: string; error: StoreError | AgentError }, row: string) => {
  const { runId, error } = answer
  expect(error._tag, error.message).toBe("StoreError")
  expect(error.reason._tag, error.message).toBe("StoreCorrupt")
  expect(error.message).toContain(JSON.stringify(runId))
  expect(error.message).toContain(row)
}

describe("resuming from a tampered store", () => {
  it("a task row that is not JSON fails as StoreCorrupt naming the run and runs.task", async () => {
    const answer = await resumeTampered((database, runId) =>
      database.prepare("UPDATE runs SET task = ? WHERE run_id = ?").run("{not json", runId),
    )
    expectCorrupt(answer, "runs.task")
    expect(answer.error.message).toContain("not valid JSON")
  })

  it("a task that no longer decodes fails as StoreCorrupt naming the field", async () => {
    const answer = await resumeTampered((database, runId) =>
      database
        .prepare("UPDATE runs SET task = ? WHERE run_id = ?")
        .run(JSON.stringify({ id: runId, goal: 42, secretInputs: "password" }), runId),
    )
    expectCorrupt(answer, "runs.task")
    expect(answer.error.message).toContain("goal")
  })

  it("a step-wise run's damaged task fails the same way through resumeAgent", async () => {
    const answer = await resumeTampered((database, runId) => {
      database.prepare("UPDATE runs SET mode = 'agent' WHERE run_id = ?").run(runId)
      database.prepare("UPDATE runs SET task = ? WHERE run_id = ?").run("[]", runId)
    }, "agent")
    expectCorrupt(answer, "runs.task")
  })

  it("a plan that no longer decodes fails as StoreCorrupt naming runs.plan", async () => {
    const answer = await resumeTampered((database, runId) =>
      database
        .prepare("UPDATE runs SET plan = ? WHERE run_id = ?")
        .run(JSON.stringify({ taskId: runId, steps: "all of them" }), runId),
    )
    expectCorrupt(answer, "runs.plan")
  })

  it("an unknown run state fails as StoreCorrupt naming runs.status", async () => {
    const answer = await resumeTampered((database, runId) =>
      database.prepare("UPDATE runs SET status = 'PWNED' WHERE run_id = ?").run(runId),
    )
    expectCorrupt(answer, "runs.status")
    expect(answer.error.message).toContain("PWNED")
  })

  it("a step row that is not JSON fails as StoreCorrupt naming the step", async () => {
    const answer = await resumeTampered((database, runId) =>
      database.prepare("UPDATE steps SET step = '}{' WHERE run_id = ? AND step_index = 1").run(runId),
    )
    expectCorrupt(answer, "steps[1]")
  })

  it("a step whose fields were changed fails as StoreCorrupt naming the step", async () => {
    const answer = await resumeTampered((database, runId) =>
      database
        .prepare("UPDATE steps SET step = ? WHERE run_id = ? AND step_index = 0")
        .run(JSON.stringify({ index: -1, tool: "", state: "exploded" }), runId),
    )
    expectCorrupt(answer, "steps[0]")
  })

  it("an observation row that is not an observation fails as StoreCorrupt naming its row", async () => {
    const answer = await resumeTampered((database, runId) => {
      const row = database.prepare("SELECT MIN(id) AS id FROM observations WHERE run_id = ?").get(runId) as {
        id: number
      }
      database.prepare("UPDATE observations SET observation = ? WHERE id = ?").run('{"tool":1}', row.id)
    })
    expectCorrupt(answer, "observations[id ")
  })

  it("a plan run whose plan was removed is refused as InvalidInput naming the run", async () => {
    const answer = await resumeTampered((database, runId) =>
      database.prepare("UPDATE runs SET plan = NULL WHERE run_id = ?").run(runId),
    )
    expect(answer.error._tag).toBe("AgentError")
    expect(answer.error.reason._tag).toBe("InvalidInput")
    expect(answer.error.message).toContain(`run ${answer.runId} has no stored plan`)
  })
})

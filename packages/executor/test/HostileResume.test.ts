import { spawn } from "node:child_process"
import { mkdtempSync, rmSync } from "node:fs"
import { hostname, tmpdir } from "node:os"
import { join } from "node:path"
import { Store } from "@sextant/core"
import { Effect, ManagedRuntime } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { resume } from "../src/index.ts"
import { leaseLayer, seedCrashedRun } from "./support/LeaseRun.ts"
import { wait } from "./support/TestTools.ts"

const CHILD = join(import.meta.dirname, "support", "resume-lease-child.ts")
const STEPS = 10
const DONE = 5

let directory: string
beforeAll(() => {
  directory = mkdtempSync(join(tmpdir(), "sextant-lease-"))
})
afterAll(() => rmSync(directory, { recursive: true, force: true }))

interface ChildAnswer {
  readonly pid: number
  readonly status?: string
  readonly error?: string
  readonly reason?: string
  readonly message?: string
}

/** A child process resuming the run: `loaded` once it has imported everything, `answer` when it ends. */
const resumeInChild = (databasePath: string, runId: string) => {
  const child = spawn(process.execPath, ["--conditions=sextant-source", CHILD, databasePath, runId], {
    stdio: ["pipe", "pipe", "pipe"],
  })
  let output = ""
  let markLoaded: () => void = () => {}
  const loaded = new Promise<void>((resolve) => (markLoaded = resolve))
  child.stdout.on("data", (chunk) => {
    output += String(chunk)
    if (output.split("\n").includes("loaded")) markLoaded()
  })
  child.stderr.on("data", (chunk) => (output += String(chunk)))
  const answer = new Promise<ChildAnswer>((resolve, reject) => {
    child.on("exit", () => {
      markLoaded()
      const line = output.split("\n").find((text) => text.startsWith("{"))
      if (line === undefined) reject(new Error(`the child printed no answer: ${output}`))
      else resolve(JSON.parse(line) as ChildAnswer)
    })
  })
  /** Tells the loaded child the moment (ms since the epoch) at which to call resume. */
  const startAt = (at: number) => child.stdin.end(String(at))
  return { loaded, answer, startAt }
}

/** What the store holds for the run: its observations, one per step that ran. */
const storedObservations = (runtime: ManagedRuntime.ManagedRuntime<Store, unknown>, runId: string) =>
  runtime.runPromise(Store.use((store) => store.listObservations(runId)))

describe("two processes resuming one run", () => {
  it("exactly one runs the remaining steps; the other is refused naming the holder and the expiry", async () => {
    const databasePath = join(directory, "two-processes.db")
    const runId = "crashed-run"
    const runtime = ManagedRuntime.make(leaseLayer(databasePath))
    try {
      await runtime.runPromise(seedCrashedRun(runId, STEPS, DONE, 300))
      // Both processes call resume at the same moment, once both have loaded.
      const children = [resumeInChild(databasePath, runId), resumeInChild(databasePath, runId)]
      await Promise.all(children.map((child) => child.loaded))
      const startAt = Date.now() + 100
      for (const child of children) child.startAt(startAt)
      const answers = await Promise.all(children.map((child) => child.answer))
      const completed = answers.filter((answer) => answer.status === "COMPLETED")
      const refused = answers.filter((answer) => answer.reason === "StoreLeaseHeld")
      expect(completed.length, JSON.stringify(answers)).toBe(1)
      expect(refused.length, JSON.stringify(answers)).toBe(1)
      const winner = completed[0] as ChildAnswer
      const loser = refused[0] as ChildAnswer
      expect(loser.error).toBe("StoreError")
      // The refusal names who holds the run (hostname:pid:random) and until when.
      expect(loser.message).toMatch(
        new RegExp(
          `held by ${hostname().replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}:${winner.pid}:[0-9a-f]{8} until \\d{4}-\\d\\d-\\d\\dT`,
        ),
      )
      const observations = await storedObservations(runtime, runId)
      // One result per step of the plan: the remaining five ran once, not once per process.
      expect(observations.length).toBe(STEPS)
      const steps = await runtime.runPromise(Store.use((store) => store.listSteps(runId)))
      expect(steps.map((step) => step.state)).toEqual(Array.from({ length: STEPS }, () => "succeeded"))
      const record = await runtime.runPromise(Store.use((store) => store.getRun(runId)))
      expect(record.status).toBe("COMPLETED")
      // Released at the end: a later resume answers the stored result without running anything.
      const again = await runtime.runPromise(resume(runId, { tools: [wait] }))
      expect(again.status).toBe("COMPLETED")
      expect((await storedObservations(runtime, runId)).length).toBe(STEPS)
    } finally {
      await runtime.dispose()
    }
  }, 60_000)
})

describe("a crashed holder", () => {
  it("blocks a resume until its lease expires; then the run resumes and finishes once", async () => {
    const databasePath = join(directory, "crashed-holder.db")
    const runId = "held-by-the-dead"
    const runtime = ManagedRuntime.make(leaseLayer(databasePath))
    try {
      await runtime.runPromise(seedCrashedRun(runId, STEPS, DONE, 20))
      // A process claimed the run, then died without releasing it.
      const dead = await runtime.runPromise(
        Store.use((store) => store.claimRun(runId, "worker-7:4242:deadbeef", 1_500)),
      )
      const refused = await runtime.runPromise(Effect.flip(resume(runId, { tools: [wait] })))
      expect(refused._tag).toBe("StoreError")
      expect(refused.message).toContain(`held by worker-7:4242:deadbeef until ${dead.expiresAt}`)
      expect((await storedObservations(runtime, runId)).length).toBe(DONE)
      await new Promise((resolve) => setTimeout(resolve, Date.parse(dead.expiresAt) - Date.now() + 50))
      const result = await runtime.runPromise(resume(runId, { tools: [wait] }))
      expect(result.status).toBe("COMPLETED")
      expect((await storedObservations(runtime, runId)).length).toBe(STEPS)
    } finally {
      await runtime.dispose()
    }
  }, 30_000)
})

describe("a long run", () => {
  it("renews its lease while it runs, so nobody takes it over mid-run", async () => {
    const databasePath = join(directory, "renewal.db")
    const runId = "long-run"
    const runtime = ManagedRuntime.make(leaseLayer(databasePath))
    const other = ManagedRuntime.make(leaseLayer(databasePath))
    try {
      await runtime.runPromise(seedCrashedRun(runId, STEPS, DONE, 400))
      // Five steps of 400 ms with a 600 ms lease: without renewal it lapses after the second step.
      const running = runtime.runPromise(resume(runId, { tools: [wait], leaseTtlMs: 600 }))
      await new Promise((resolve) => setTimeout(resolve, 1_200))
      const takeover = await other.runPromise(
        Effect.result(Store.use((store) => store.claimRun(runId, "intruder:1:00000000", 600))),
      )
      expect(takeover._tag).toBe("Failure")
      const result = await running
      expect(result.status).toBe("COMPLETED")
      expect((await storedObservations(runtime, runId)).length).toBe(STEPS)
    } finally {
      await runtime.dispose()
      await other.dispose()
    }
  }, 30_000)
})

describe("a run whose lease another process took over", () => {
  it("stops at its next renewal, fails naming the new holder and leaves the run to it", async () => {
    const databasePath = join(directory, "takeover.db")
    const runId = "taken-over"
    const runtime = ManagedRuntime.make(leaseLayer(databasePath))
    const other = ManagedRuntime.make(leaseLayer(databasePath))
    try {
      await runtime.runPromise(seedCrashedRun(runId, STEPS, DONE, 400))
      const running = runtime.runPromise(
        Effect.flip(resume(runId, { tools: [wait], leaseOwner: "stalled:1:aaaaaaaa", leaseTtlMs: 600 })),
      )
      await new Promise((resolve) => setTimeout(resolve, 300))
      // What a stall past the expiry looks like from outside: the lease is free and someone takes it.
      const takeover = await other.runPromise(
        Store.use((store) =>
          Effect.andThen(
            store.releaseRun(runId, "stalled:1:aaaaaaaa"),
            store.claimRun(runId, "rescuer:2:bbbbbbbb", 60_000),
          ),
        ),
      )
      const error = await running
      expect(error._tag).toBe("StoreError")
      expect(error.message).toContain(`held by rescuer:2:bbbbbbbb until ${takeover.expiresAt}`)
      const record = await runtime.runPromise(Store.use((store) => store.getRun(runId)))
      // The stalled process did not write CANCELLED over a run that is no longer its own.
      expect(record.status).toBe("RUNNING")
      expect((await storedObservations(runtime, runId)).length).toBeLessThan(STEPS)
    } finally {
      await runtime.dispose()
      await other.dispose()
    }
  }, 30_000)
})

import { type ChildProcess, execFileSync, spawn } from "node:child_process"
import { mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { type FixtureSite, startFixtureSite } from "@sextant/fixture-site"
import { openTaskQueue, type QueuedRun } from "@sextant/queue"
import { type RunningService, startPostgres, startRedis } from "@sextant/testing"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { createAgent } from "../src/index.ts"

// Acceptance of the queue: 20 tasks, each submitting its own value through the fixture site's contact
// form, run by two `sextant worker` processes sharing Redis and one PostgreSQL store; one worker is SIGKILLed in
// the middle of a task. The end: 20 COMPLETED runs, none twice, and the site's own log shows each
// value submitted exactly once.

const cli = fileURLToPath(new URL("../src/cli.ts", import.meta.url))
const TASKS = 20

let site: FixtureSite
let redis: RunningService
let postgres: RunningService
let directory: string
const workers: Array<{ child: ChildProcess; log: () => string; name: string }> = []

beforeAll(async () => {
  site = await startFixtureSite({ port: 0 })
  redis = await startRedis()
  postgres = await startPostgres()
  directory = mkdtempSync(join(tmpdir(), "sextant-queue-acceptance-"))
})

/** The live descendants of a process (Chromium and ChromeDriver of a worker), from `ps`. */
const descendants = (root: number): ReadonlyArray<number> => {
  const rows = execFileSync("ps", ["-eo", "pid=,ppid="], { encoding: "utf8" })
    .trim()
    .split("\n")
    .map((line) => line.trim().split(/\s+/).map(Number))
  const found: Array<number> = []
  const queue = [root]
  while (queue.length > 0) {
    const parent = queue.shift()
    for (const [pid, ppid] of rows) {
      if (ppid !== parent || pid === undefined) continue
      found.push(pid)
      queue.push(pid)
    }
  }
  return found
}

const killTree = (pid: number) => {
  const below = descendants(pid)
  try {
    process.kill(pid, "SIGKILL")
  } catch {}
  // A SIGKILLed worker ends nothing it started: its browsers are ended here, by id.
  for (const child of below) {
    try {
      process.kill(child, "SIGKILL")
    } catch {}
  }
}

afterAll(async () => {
  for (const worker of workers)
    if (worker.child.exitCode === null && worker.child.pid !== undefined) killTree(worker.child.pid)
  await site?.close()
  await redis?.stop()
  await postgres?.stop()
  if (directory !== undefined) rmSync(directory, { recursive: true, force: true })
})

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

const startWorker = (name: string, store: string) => {
  let log = ""
  const child = spawn(
    process.execPath,
    [
      "--conditions=sextant-source",
      cli,
      "worker",
      "--queue",
      redis.url,
      "--store",
      store,
      "--trace-dir",
      join(directory, "traces"),
      // A dead worker's job is found stalled 4 s after its last lock renewal, checked every second.
      "--lock-duration",
      "4000",
      "--stalled-interval",
      "1000",
    ],
    { cwd: directory, stdio: ["ignore", "ignore", "pipe"] },
  )
  child.stderr?.on("data", (chunk) => {
    log += String(chunk)
  })
  const worker = { child, log: () => log, name }
  workers.push(worker)
  return worker
}

const submittedValue = (index: number) => `queue-value-${index}`

describe("two sextant workers on one Redis queue and one store", () => {
  it("complete 20 submitting tasks exactly once each although one worker is SIGKILLed mid-task", async () => {
    // One PostgreSQL store shared by both workers (and read here at the end).
    const store = postgres.url
    // Each task submits its value, then opens a slow page (1.5 s): the kill lands after the submission,
    // in a step that has no side effect, while the task is active.
    const tasks = Array.from({ length: TASKS }, (_, index) => ({
      goal: `type "Queue ${index}" into Name, type "q${index}@example.com" into Email, select Support from Topic, check Email, type "${submittedValue(index)}" into Message, then click Send message, then go to ${site.url}/faults/slow?ms=1500`,
      startUrl: `${site.url}/forms/contact`,
      constraints: { allowFormSubmission: true },
    }))
    writeFileSync(join(directory, "tasks.json"), JSON.stringify(tasks))

    const first = startWorker("first", store)
    const second = startWorker("second", store)
    const enqueued = execFileSync(
      process.execPath,
      ["--conditions=sextant-source", cli, "enqueue", "tasks.json", "--queue", redis.url, "--json"],
      { cwd: directory, encoding: "utf8" },
    )
    const added = JSON.parse(enqueued) as Array<{ runId: string; goal: string }>
    expect(added).toHaveLength(TASKS)

    // Follow every run's events; the victim is the first run past its third that starts its last step
    // (the slow page) — its submission is done and stored, and the step in flight has no side effect.
    const submitted = () =>
      site
        .submissions()
        .filter((entry) => entry.path === "/forms/contact")
        .map((entry) => entry.fields.message ?? "")
    const queue = await openTaskQueue({ url: redis.url })
    let victim: { worker: (typeof workers)[number]; runId: string } | undefined
    const watching = new AbortController()
    let started = 0
    for (const { runId } of added) {
      void queue.follow(
        runId,
        (event) => {
          if (event.kind !== "event") return
          if (event.event.type === "run-start") started++
          const lastStep =
            event.event.type === "step-start" &&
            event.event.tool === "navigate" &&
            (event.event.step ?? 0) > 0
          const pid = Number(event.event.worker?.split(":").at(-1))
          const worker = workers.find((candidate) => candidate.child.pid === pid)
          if (victim === undefined && lastStep && started > 3 && worker !== undefined)
            victim = { worker, runId }
        },
        { signal: watching.signal },
      )
    }
    const deadline = Date.now() + 120_000
    while (victim === undefined && Date.now() < deadline) await sleep(10)
    expect(victim, `${first.log()}\n${second.log()}`).toBeDefined()
    if (victim === undefined) return
    const killedRun = victim.runId
    const exited = new Promise((resolve) => victim?.worker.child.once("exit", resolve))
    killTree(victim.worker.child.pid ?? -1)
    await exited
    expect(victim.worker.log()).not.toContain(`run ${killedRun}: COMPLETED`)
    // The victim had submitted its value before it died.
    expect(submitted()).toContain(submittedValue(added.findIndex((task) => task.runId === killedRun)))
    const survivor = victim.worker === first ? second : first

    let runs: ReadonlyArray<QueuedRun> = []
    try {
      const done = Date.now() + 240_000
      while (Date.now() < done) {
        runs = await queue.list(100)
        if (runs.filter((run) => run.state === "completed").length === TASKS) break
        if (runs.some((run) => run.state === "failed")) break
        await sleep(250)
      }
    } finally {
      watching.abort()
      await queue.close()
    }
    const summaries = createAgent({ store: { url: store }, traceDirectory: false })
    const notCompleted = (await summaries.runs()).filter((run) => run.status !== "COMPLETED")
    await summaries.close()
    const logs = `${first.name}:\n${first.log()}\n${second.name}:\n${second.log()}\nnot completed: ${JSON.stringify(notCompleted, null, 1)}`
    expect(
      runs.map((run) => [run.state, run.status]),
      logs,
    ).toEqual(added.map(() => ["completed", "COMPLETED"]))

    // The killed run was taken over by the other worker, which resumed it from the store.
    expect(survivor.log()).toContain(`run ${killedRun}: COMPLETED (resumed)`)

    // The store: 20 runs, each COMPLETED, each run id once, exactly the enqueued ones.
    const agent = createAgent({ store: { url: store }, traceDirectory: false })
    try {
      const stored = await agent.runs()
      expect(stored.map((run) => run.status)).toEqual(added.map(() => "COMPLETED"))
      // Started without --mode, the workers run each rule-planned task step by step, as `sextant run` does.
      expect(stored.map((run) => run.mode)).toEqual(added.map(() => "agent"))
      expect(new Set(stored.map((run) => run.runId))).toEqual(new Set(added.map((task) => task.runId)))
    } finally {
      await agent.close()
    }

    // The site's own log: every value submitted exactly once.
    const counts = new Map<string, number>()
    for (const value of submitted()) counts.set(value, (counts.get(value) ?? 0) + 1)
    expect([...counts].filter(([, count]) => count !== 1)).toEqual([])
    expect([...counts.keys()].sort()).toEqual(
      Array.from({ length: TASKS }, (_, index) => submittedValue(index)).sort(),
    )
  }, 420_000)
})

import { type RunningService, startRedis } from "@sextant/testing"
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest"
import { type OriginLimit, openTaskQueue, startTaskWorker, type TaskRunner } from "../src/index.ts"

let redis: RunningService
const opened: Array<{ close: () => Promise<void> }> = []

beforeAll(async () => {
  redis = await startRedis()
})
afterEach(async () => {
  for (const item of opened.splice(0).reverse()) await item.close()
})
afterAll(async () => {
  await redis?.stop()
})

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))
const LIMITED = "http://limited.test:8080"
const FREE = "http://free.test:8080"

/** A runner that notes when each run starts and how many run at once, and takes `ms` per run. */
const recorder = (ms: number) => {
  const starts: Array<{ origin: string; at: number; worker: string }> = []
  let running = 0
  let most = 0
  const runner = (worker: string): TaskRunner => ({
    run: async (task) => {
      starts.push({ origin: new URL(task.startUrl ?? "http://none.test").origin, at: Date.now(), worker })
      running++
      most = Math.max(most, running)
      await sleep(ms)
      running--
      return { status: "COMPLETED", resumed: false }
    },
  })
  return { starts, runner, most: () => most }
}

const drain = async (name: string, count: number) => {
  const queue = await openTaskQueue({ url: redis.url, name })
  opened.push(queue)
  const deadline = Date.now() + 60_000
  while (Date.now() < deadline) {
    const done = (await queue.list(500)).filter((run) => run.state === "completed").length
    if (done === count) return
    await sleep(100)
  }
  throw new Error(`the ${count} jobs of ${name} did not all complete within 60 s`)
}

describe("limits shared by every worker of a queue", () => {
  it("starts at most 2 runs per second on a limited origin across two workers, and does not hold other origins back", async () => {
    const name = "rate"
    const limit: OriginLimit = { origin: LIMITED, max: 2, windowMs: 1_000 }
    const queue = await openTaskQueue({ url: redis.url, name })
    opened.push(queue)
    for (let index = 0; index < 8; index++)
      await queue.enqueue({ goal: `limited ${index}`, startUrl: `${LIMITED}/page/${index}` })
    for (let index = 0; index < 4; index++)
      await queue.enqueue({ goal: `free ${index}`, startUrl: `${FREE}/page/${index}` })
    const record = recorder(50)
    for (const worker of ["one", "two"])
      opened.push(
        await startTaskWorker({
          url: redis.url,
          name,
          runner: record.runner(worker),
          concurrency: 2,
          workerName: worker,
          limits: [limit],
        }),
      )
    await drain(name, 12)

    const limited = record.starts.filter((start) => start.origin === LIMITED)
    expect(limited).toHaveLength(8)
    // Both workers took limited runs, so the limit held across processes' connections, not per worker.
    expect(new Set(limited.map((start) => start.worker)).size).toBe(2)
    const perWindow = new Map<number, number>()
    for (const start of limited) {
      const window = Math.floor(start.at / limit.windowMs)
      perWindow.set(window, (perWindow.get(window) ?? 0) + 1)
    }
    expect(Math.max(...perWindow.values()), JSON.stringify([...perWindow])).toBeLessThanOrEqual(2)
    // 8 starts at 2 a window need at least 4 windows.
    expect(perWindow.size).toBeGreaterThanOrEqual(4)
    // The free origin's runs did not wait behind the limited ones.
    const free = record.starts.filter((start) => start.origin === FREE)
    expect(Math.max(...free.map((start) => start.at))).toBeLessThan(
      Math.max(...limited.map((start) => start.at)),
    )
  }, 90_000)

  it("runs at most the global concurrency at once across two workers of concurrency 3", async () => {
    const name = "global"
    const queue = await openTaskQueue({ url: redis.url, name })
    opened.push(queue)
    for (let index = 0; index < 8; index++) await queue.enqueue({ goal: `job ${index}` })
    const record = recorder(400)
    for (const worker of ["one", "two"])
      opened.push(
        await startTaskWorker({
          url: redis.url,
          name,
          runner: record.runner(worker),
          concurrency: 3,
          globalConcurrency: 2,
          workerName: worker,
        }),
      )
    await drain(name, 8)
    expect(record.starts).toHaveLength(8)
    expect(record.most()).toBe(2)
  }, 90_000)
})

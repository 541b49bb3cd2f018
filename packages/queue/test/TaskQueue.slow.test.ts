import { StoreError, StoreLeaseHeld } from "@sextant/core"
import { type RunningService, startRedis } from "@sextant/testing"
import { Redis } from "ioredis"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import {
  type FollowEvent,
  openTaskQueue,
  startTaskWorker,
  type TaskQueue,
  type TaskRunner,
  type TaskWorker,
} from "../src/index.ts"

let redis: RunningService
const opened: Array<{ close: () => Promise<void> }> = []

beforeAll(async () => {
  redis = await startRedis()
})
afterAll(async () => {
  for (const item of opened.reverse()) await item.close()
  await redis?.stop()
})

const open = async (name: string): Promise<TaskQueue> => {
  const queue = await openTaskQueue({ url: redis.url, name })
  opened.push(queue)
  return queue
}
const work = async (
  name: string,
  runner: TaskRunner,
  extra: { workerName?: string; env?: Record<string, string>; onLog?: (line: string) => void } = {},
): Promise<TaskWorker> => {
  const worker = await startTaskWorker({ url: redis.url, name, runner, ...extra })
  opened.push(worker)
  return worker
}
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

describe("the task queue", () => {
  it("refuses a task that does not fit core's AgentTask schema, naming the field", async () => {
    const queue = await open("refuse")
    await expect(queue.enqueue({ goal: " ", startUrl: "ftp://x" } as never)).rejects.toThrow(
      /task\.goal: describe the goal in words \(got " "\); task\.startUrl: .*\(got "ftp:\/\/x"\)/,
    )
    await expect(queue.enqueue({ goal: "go", constraints: { maxStep: 3 } } as never)).rejects.toThrow(
      /task\.constraints/,
    )
    expect(await queue.list()).toEqual([])
  })

  it("uses the run id as the job id, adds a run id only once, and lists jobs by state", async () => {
    const queue = await open("ids")
    const first = await queue.enqueue({ goal: "extract the products" }, { runId: "run-a" })
    const again = await queue.enqueue({ goal: "extract the products again" }, { runId: "run-a" })
    expect(first).toMatchObject({ runId: "run-a", added: true })
    expect(again).toMatchObject({ runId: "run-a", added: false })
    expect((await queue.list()).map((run) => [run.runId, run.state, run.goal])).toEqual([
      ["run-a", "waiting", "extract the products"],
    ])
    await expect(queue.get("run-zzz")).rejects.toThrow(/no job for run "run-zzz"/)
  })

  it("keeps secret values out of Redis; the worker fills them from SEXTANT_SECRET_<NAME>", async () => {
    const queue = await open("secrets")
    const seen: Array<unknown> = []
    await queue.enqueue(
      { goal: "log in", inputs: { user: "alice", password: "wonderland-77" }, secretInputs: ["password"] },
      { runId: "secret-run" },
    )
    const raw = new Redis(redis.url)
    const stored = JSON.stringify(await raw.hgetall("bull:secrets:secret-run"))
    raw.disconnect()
    expect(stored).toContain("alice")
    expect(stored).not.toContain("wonderland-77")
    await work(
      "secrets",
      {
        run: async (task) => {
          seen.push(task.inputs)
          return { status: "COMPLETED", resumed: false }
        },
      },
      { env: { SEXTANT_SECRET_PASSWORD: "from-the-worker-env" } },
    )
    const end = await queue.follow("secret-run", () => undefined)
    expect(end.kind).toBe("completed")
    expect(seen).toEqual([{ user: "alice", password: "from-the-worker-env" }])
  })

  it("refuses a task whose goal or other fields repeat a secret value, so the value never reaches Redis", async () => {
    const queue = await open("secret-echo")
    const raw = new Redis(redis.url)
    const task = {
      inputs: { user: "alice", password: "wonderland-77" },
      secretInputs: ["password"],
    }
    await expect(
      queue.enqueue(
        { ...task, goal: "log in as alice with the password Wonderland-77" },
        { runId: "echo-goal" },
      ),
    ).rejects.toThrow(
      /task\.goal holds the value of the secret input password: write <secret:password> there/,
    )
    await expect(
      queue.enqueue(
        { ...task, goal: "log in", startUrl: "http://127.0.0.1:4000/login?pw=wonderland-77" },
        { runId: "echo-url" },
      ),
    ).rejects.toThrow(/task\.startUrl holds the value of the secret input password/)
    const failure = await queue
      .enqueue({ ...task, goal: "log in with wonderland-77" }, { runId: "echo-message" })
      .catch((error: unknown) => String(error))
    expect(failure).not.toMatch(/wonderland/i)
    const stored = JSON.stringify(await raw.keys("bull:secret-echo:*"))
    raw.disconnect()
    expect(stored).not.toContain("echo-")
    expect(await queue.list()).toEqual([])
    // A short PIN is refused only where it stands alone in the text: not in the creation time or a step budget.
    const pin = await queue.enqueue(
      {
        goal: "pay the order",
        inputs: { pin: "11" },
        secretInputs: ["pin"],
        constraints: { maxSteps: 11 },
        createdAt: "2026-11-11T11:11:11.000Z",
      },
      { runId: "echo-pin" },
    )
    expect(pin).toMatchObject({ runId: "echo-pin", added: true })
    // The placeholder is how a goal names the secret: that task is queued.
    const queued = await queue.enqueue(
      { ...task, goal: "log in with <secret:password>" },
      { runId: "echo-ok" },
    )
    expect(queued).toMatchObject({ runId: "echo-ok", added: true, goal: "log in with <secret:password>" })
  })

  it("refuses a task whose start URL or goal carries a URL's password or token, so the credential never reaches Redis", async () => {
    const queue = await open("url-credentials")
    const raw = new Redis(redis.url)
    // What enqueue answered: its refusal, or the job it queued.
    const answer = (queued: Promise<unknown>) =>
      queued.then(
        (job) => `queued ${JSON.stringify(job)}`,
        (error: unknown) => String(error),
      )
    const refusals = [
      await answer(
        queue.enqueue(
          { goal: "log in", startUrl: "http://bob:pw77zz@127.0.0.1:4000/login" },
          { runId: "url-password" },
        ),
      ),
      await answer(
        queue.enqueue(
          { goal: "extract the products", startUrl: "http://127.0.0.1:4000/products?access_token=tok-88-qq" },
          { runId: "url-token" },
        ),
      ),
      await answer(
        queue.enqueue(
          { goal: "go to http://bob:pw77zz@127.0.0.1:4000/staff and extract the names" },
          { runId: "goal-password" },
        ),
      ),
      await answer(
        queue.enqueue(
          {
            goal: "read the account",
            startUrl: "http://127.0.0.1:4000/account#access_token=tok-99-ff&state=s1",
          },
          { runId: "url-fragment-token" },
        ),
      ),
    ]
    expect(refusals[0]).toMatch(
      /task\.startUrl carries a credential \(http:\/\/bob:\*\*\*@127\.0\.0\.1:4000\/login\): the queue never carries secret values/,
    )
    expect(refusals[1]).toMatch(/task\.startUrl carries a credential \(.*access_token=\*\*\*\)/)
    expect(refusals[2]).toMatch(
      /task\.goal carries a credential \(http:\/\/bob:\*\*\*@127\.0\.0\.1:4000\/staff\)/,
    )
    expect(refusals[3]).toMatch(/task\.startUrl carries a credential \(.*#access_token=\*\*\*&state=s1\)/)
    for (const refusal of refusals) expect(refusal).not.toMatch(/pw77zz|tok-88-qq|tok-99-ff/)
    const stored = JSON.stringify(await raw.keys("bull:url-credentials:*"))
    raw.disconnect()
    expect(stored).not.toMatch(/url-password|url-token|goal-password|url-fragment-token/)
    expect(await queue.list()).toEqual([])
    // A URL without a credential, and a user name with no password, are queued as they are.
    const queued = await queue.enqueue(
      { goal: "extract the products", startUrl: "http://bob@127.0.0.1:4000/products?page=2&sort=price" },
      { runId: "url-plain" },
    )
    expect(queued).toMatchObject({ runId: "url-plain", added: true })
    // A bare origin and an upper-case host are written differently once parsed, and carry nothing either.
    const bare = await queue.enqueue(
      { goal: "go to http://Shop.Example and extract the products", startUrl: "http://127.0.0.1:4000" },
      { runId: "url-bare" },
    )
    expect(bare).toMatchObject({ runId: "url-bare", added: true })
  })

  it("refuses a task with an input named like a credential that is not a secret input, so its value never reaches Redis", async () => {
    const queue = await open("plain-credential-inputs")
    const raw = new Redis(redis.url)
    const refusal = await queue
      .enqueue(
        {
          goal: "log in",
          inputs: { user: "alice", password: "wonderland-in-clear", apiKey: "sk-live-in-clear" },
        },
        { runId: "plain-password" },
      )
      .then(
        (job) => `queued ${JSON.stringify(job)}`,
        (error: unknown) => String(error),
      )
    expect(refusal).toContain(
      "task.inputs.password is named like a credential but is not a secret input: list it in secretInputs (sextant enqueue --secret password) and give each worker SEXTANT_SECRET_PASSWORD",
    )
    expect(refusal).toContain("task.inputs.apiKey is named like a credential but is not a secret input")
    expect(refusal).not.toMatch(/wonderland-in-clear|sk-live-in-clear/)
    const stored = JSON.stringify(await raw.keys("bull:plain-credential-inputs:*"))
    raw.disconnect()
    expect(stored).not.toContain("plain-password")
    // Listed as a secret input, it is queued, its value blanked.
    const queued = await queue.enqueue(
      {
        goal: "log in",
        inputs: { user: "alice", password: "wonderland-in-clear" },
        secretInputs: ["password"],
      },
      { runId: "secret-password" },
    )
    expect(queued).toMatchObject({ runId: "secret-password", added: true })
  })

  it("fails a job at once, naming the variable, when the worker lacks a secret", async () => {
    const queue = await open("no-secret")
    await queue.enqueue(
      { goal: "log in", inputs: { password: "x" }, secretInputs: ["password"] },
      { runId: "needs-secret" },
    )
    await work("no-secret", { run: async () => ({ status: "COMPLETED", resumed: false }) }, { env: {} })
    const end = await queue.follow("needs-secret", () => undefined)
    expect(end).toEqual({
      kind: "failed",
      reason: expect.stringMatching(/needs the secret input password: .*SEXTANT_SECRET_PASSWORD set/),
    })
    expect((await queue.get("needs-secret")).attempts).toBe(1)
  })

  it("stores a failed run's reason, its stack traces and its log line with the secret values redacted and URL credentials hidden", async () => {
    const queue = await open("secret-failure")
    const lines: Array<string> = []
    await queue.enqueue(
      { goal: "log in", inputs: { user: "alice", password: "x" }, secretInputs: ["password"] },
      { runId: "leaky-failure" },
    )
    await work(
      "secret-failure",
      {
        run: async () => {
          // A driver error quoting what was typed, and the page it was on.
          throw new Error(
            'fill #password: the field holds "wonderland-77" after typing; page http://ann:pw-12@127.0.0.1:4000/login?token=tok-11&next=home',
          )
        },
      },
      { env: { SEXTANT_SECRET_PASSWORD: "wonderland-77" }, onLog: (line) => lines.push(line) },
    )
    const end = await queue.follow("leaky-failure", () => undefined)
    const raw = new Redis(redis.url)
    const stored = JSON.stringify(await raw.hgetall("bull:secret-failure:leaky-failure"))
    raw.disconnect()
    const failedReason = (await queue.get("leaky-failure")).failedReason ?? ""
    for (const text of [JSON.stringify(end), failedReason, stored, ...lines]) {
      expect(text).not.toContain("wonderland-77")
      expect(text).not.toContain("tok-11")
      expect(text).not.toContain("pw-12")
    }
    expect(failedReason).toBe(
      'fill #password: the field holds "<secret:password>" after typing; page http://ann:***@127.0.0.1:4000/login?token=***&next=home',
    )
    expect(stored).toContain("stacktrace")
    expect(lines.filter((line) => line.startsWith("run leaky-failure: error: fill #password"))).toHaveLength(
      3,
    )
  })

  it("stores what a runner that throws a plain object said, not [object Object], still redacted", async () => {
    const queue = await open("plain-throw")
    await queue.enqueue(
      { goal: "log in", inputs: { user: "alice", password: "x" }, secretInputs: ["password"] },
      { runId: "plain-throw" },
    )
    await work(
      "plain-throw",
      {
        run: async () => {
          // A library that rejects with a plain object rather than an Error.
          throw { code: "E_PAGE_GONE", detail: "the tab closed while typing wonderland-77" }
        },
      },
      { env: { SEXTANT_SECRET_PASSWORD: "wonderland-77" } },
    )
    await queue.follow("plain-throw", () => undefined)
    const failedReason = (await queue.get("plain-throw")).failedReason ?? ""
    expect(failedReason).toBe(
      '{"code":"E_PAGE_GONE","detail":"the tab closed while typing <secret:password>"}',
    )
  })

  it("stores a finished run's summary, end reason and progress events with the secret values redacted", async () => {
    const queue = await open("secret-summary")
    await queue.enqueue(
      { goal: "log in", inputs: { password: "x" }, secretInputs: ["password"] },
      { runId: "leaky-summary" },
    )
    await work(
      "secret-summary",
      {
        run: async (_task, { onEvent }) => {
          onEvent({ type: "step-end", step: 0, tool: "fill", ok: false, message: "typed wonderland-77" })
          return {
            status: "FAILED",
            endReason: "the page showed wonderland-77",
            summary: "typed wonderland-77 into http://127.0.0.1:4000/login?api_key=key-13",
            resumed: false,
          }
        },
      },
      { env: { SEXTANT_SECRET_PASSWORD: "wonderland-77" } },
    )
    const events: Array<FollowEvent> = []
    await queue.follow("leaky-summary", (event) => events.push(event))
    expect(JSON.stringify(events)).not.toContain("wonderland-77")
    const raw = new Redis(redis.url)
    const stored = JSON.stringify(await raw.hgetall("bull:secret-summary:leaky-summary"))
    raw.disconnect()
    expect(stored).not.toContain("wonderland-77")
    expect(stored).not.toContain("key-13")
    expect(stored).toContain("the page showed <secret:password>")
    expect(stored).toContain("typed <secret:password>")
  })

  it("waits out the run lease a previous worker holds (a StoreError of the store) within the same attempt, then runs", async () => {
    const queue = await open("lease")
    await queue.enqueue({ goal: "resume a run" }, { runId: "held-run" })
    const lines: Array<string> = []
    let calls = 0
    await work(
      "lease",
      {
        run: async (_task, { runId }) => {
          calls++
          if (calls === 1) {
            const expiresAt = new Date(Date.now() + 300).toISOString()
            throw new StoreError({
              method: "claimRun",
              reason: new StoreLeaseHeld({ runId, owner: "dead-worker", expiresAt }),
            })
          }
          return { status: "COMPLETED", resumed: true }
        },
      },
      { onLog: (line) => lines.push(line) },
    )
    expect(await queue.follow("held-run", () => undefined)).toMatchObject({ kind: "completed" })
    expect(calls).toBe(2)
    // Waited inside the job's first attempt: BullMQ never saw a failure.
    expect((await queue.get("held-run")).attempts).toBe(1)
    expect(
      lines.filter((line) => line.startsWith("run held-run: held by a previous worker until")),
    ).toHaveLength(1)
  })

  it("takes a runner's plain object that copies StoreLeaseHeld's tags for an ordinary failure, not a lease to wait for", async () => {
    const queue = await open("lease-lookalike")
    await queue.enqueue({ goal: "resume a run" }, { runId: "lookalike-run" })
    const lines: Array<string> = []
    let calls = 0
    await work(
      "lease-lookalike",
      {
        run: async () => {
          calls++
          if (calls === 1) {
            throw {
              _tag: "StoreError",
              method: "claimRun",
              reason: { _tag: "StoreLeaseHeld", expiresAt: new Date(Date.now() + 300).toISOString() },
            }
          }
          return { status: "COMPLETED", resumed: true }
        },
      },
      { onLog: (line) => lines.push(line) },
    )
    expect(await queue.follow("lookalike-run", () => undefined)).toMatchObject({ kind: "completed" })
    // The first attempt failed (BullMQ tried the job again after its backoff); nothing waited for a lease.
    expect((await queue.get("lookalike-run")).attempts).toBe(2)
    expect(lines.filter((line) => line.includes("held by a previous worker"))).toEqual([])
    expect(lines.filter((line) => line.startsWith("run lookalike-run: error:"))).toHaveLength(1)
  })

  it("lets a follower watch a run's events live, then its end", async () => {
    const queue = await open("follow")
    await queue.enqueue({ goal: "three steps" }, { runId: "watched" })
    const seen: Array<FollowEvent> = []
    const times: Array<number> = []
    let listening: () => void = () => undefined
    const ready = new Promise<void>((resolve) => {
      listening = resolve
    })
    const following = queue.follow(
      "watched",
      (event) => {
        seen.push(event)
        times.push(Date.now())
      },
      { onListening: () => listening() },
    )
    // Events are live: the worker starts once the follower listens, so the first one is not missed.
    await ready
    await work(
      "follow",
      {
        run: async (_task, { runId, onEvent }) => {
          onEvent({ type: "run-start", goal: "three steps" })
          for (let step = 0; step < 3; step++) {
            onEvent({ type: "step-start", step, tool: "click" })
            await sleep(300)
            onEvent({ type: "step-end", step, tool: "click", ok: true })
          }
          onEvent({ type: "run-end", status: "COMPLETED", endReason: "completed" })
          return { status: "COMPLETED", summary: `ran ${runId}`, resumed: false }
        },
      },
      { workerName: "worker-one" },
    )
    const end = await following
    expect(end).toEqual({
      kind: "completed",
      result: expect.objectContaining({ runId: "watched", status: "COMPLETED", worker: "worker-one" }),
    })
    const events = seen.flatMap((event) => (event.kind === "event" ? [event.event] : []))
    expect(events.map((event) => `${event.type}${event.step ?? ""}`)).toEqual([
      "run-start",
      "step-start0",
      "step-end0",
      "step-start1",
      "step-end1",
      "step-start2",
      "step-end2",
      "run-end",
    ])
    expect(events.every((event) => event.worker === "worker-one")).toBe(true)
    // Live: the first step's end reached the follower well before the run ended.
    const firstEnd =
      times[seen.findIndex((event) => event.kind === "event" && event.event.type === "step-end")] ?? 0
    expect((times.at(-1) ?? 0) - firstEnd).toBeGreaterThan(400)
    expect((await queue.get("watched")).status).toBe("COMPLETED")
  })
})

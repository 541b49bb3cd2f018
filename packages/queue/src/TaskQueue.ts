import { randomUUID } from "node:crypto"
import {
  AgentTask,
  type AgentTaskInput,
  formatIssues,
  hideUrlCredentials,
  isCredentialParameter,
  secretIndexIn,
  secretValuesOf,
  urlCredentials,
  WHOLE_TOKEN_BELOW,
} from "@sextant/core"
import { type Job, Queue, QueueEvents } from "bullmq"
import type { Redis } from "ioredis"
import { connectRedis } from "./Connection.ts"
import { InvalidQueueInput, JobNotFound, QueueError } from "./QueueError.ts"
import type { RunEvent } from "./RunEvent.ts"

/** The BullMQ queue Sextant's tasks go through unless `name` says otherwise. */
export const DEFAULT_QUEUE_NAME = "sextant-tasks"

/**
 * One line per field of `stored` (the task as the job would carry it) that holds the value of one of
 * `task`'s secret inputs in any spelling: a goal that repeats the password would put it in Redis, where
 * the blanked input keeps it out. Each line names the field and the secret, never the value.
 */
const secretEchoes = (stored: AgentTask, task: AgentTask): ReadonlyArray<string> => {
  const secrets = secretValuesOf(task)
  if (secrets.length === 0) return []
  return Object.entries(stored).flatMap(([field, value]) => {
    // The creation time is Sextant's own; in numbers and objects (a step budget, other inputs) a short
    // secret such as a PIN would match a figure that only looks like it, as redaction also holds.
    if (field === "createdAt") return []
    const text = typeof value === "string" ? value : (JSON.stringify(value) ?? "")
    const candidates =
      typeof value === "string"
        ? secrets
        : secrets.filter((secret) => secret.value.length >= WHOLE_TOKEN_BELOW)
    const index = secretIndexIn(
      text,
      candidates.map((secret) => secret.value),
    )
    const name = index === undefined ? undefined : candidates[index]?.name
    return name === undefined
      ? []
      : [
          `task.${field} holds the value of the secret input ${name}: write <secret:${name}> there instead (the queue never carries secret values)`,
        ]
  })
}

/**
 * One line per URL in the task's start URL or goal that carries a credential (the password of
 * `http://bob:pw@…`, a `?token=` or `?api_key=`, the parameters core's `hideUrlCredentials` hides): the job
 * would keep it in Redis, where no worker's environment can stand in for it as it does for a secret
 * input. Each line shows the URL with the credential hidden, never its value.
 */
const urlCredentialsIn = (task: AgentTask): ReadonlyArray<string> => {
  const urls = [
    ...(task.startUrl === undefined ? [] : [["startUrl", task.startUrl] as const]),
    ...(task.goal.match(/[a-z][a-z0-9+.-]*:\/\/[^\s"'<>]+/gi) ?? []).map((url) => ["goal", url] as const),
  ]
  return urls.flatMap(([field, url]) => {
    // A URL that parses carries a credential when core finds one in it (its serialised form may differ
    // from the text, `http://host` → `http://host/`, without holding any); one that does not parse, when
    // the spelling of a user part or a credential parameter is hidden from it.
    const hidden = hideUrlCredentials(url)
    const carries = URL.canParse(url) ? urlCredentials(url).length > 0 : hidden !== url
    return !carries
      ? []
      : [
          `task.${field} carries a credential (${hidden}): the queue never carries secret values; run this task with sextant run on a machine that holds the credential, or sign in through the page with a secret input`,
        ]
  })
}

/**
 * One line per input of the task named like a credential (`password`, `api_key`, `accessToken`: core's
 * `isCredentialParameter`) that is not one of its secret inputs and holds a value: the job would keep it in
 * Redis, and every worker would write it in clear to the trace and the store. Each line names the input,
 * never its value.
 */
const plainCredentialInputs = (task: AgentTask): ReadonlyArray<string> =>
  Object.entries(task.inputs).flatMap(([name, value]) =>
    task.secretInputs.includes(name) ||
    !isCredentialParameter(name) ||
    value === null ||
    value === undefined ||
    String(value) === ""
      ? []
      : [
          `task.inputs.${name} is named like a credential but is not a secret input: list it in secretInputs (sextant enqueue --secret ${name}) and give each worker SEXTANT_SECRET_${name.toUpperCase()}; the queue never carries secret values`,
        ],
  )

/** A task as a job carries it: the decoded task, secret inputs blanked (workers fill them from their env). */
export interface TaskJobData {
  readonly task: AgentTask
}

/** What a worker answers for a job: how the run ended. */
export interface TaskJobResult {
  readonly runId: string
  readonly status: string
  readonly endReason?: string | undefined
  readonly summary?: string | undefined
  /** True when the worker continued a run a dead worker left instead of starting it. */
  readonly resumed: boolean
  readonly worker: string
}

/** Options of {@link openTaskQueue}. */
export interface TaskQueueOptions {
  /** `redis://host:port[/db]` (or `rediss://`). */
  readonly url: string
  /** The BullMQ queue name (default {@link DEFAULT_QUEUE_NAME}). */
  readonly name?: string | undefined
}

/** A task put on the queue: its run id is the job id, so every attempt at it continues the same run. */
export interface EnqueuedTask {
  readonly runId: string
  readonly taskId: string
  readonly goal: string
  /** False when a job with this run id was already queued: BullMQ keeps the first and adds nothing. */
  readonly added: boolean
}

/** One job of the queue, as `list` shows it. */
export interface QueuedRun {
  readonly runId: string
  readonly goal: string
  readonly state: "waiting" | "active" | "delayed" | "completed" | "failed"
  readonly attempts: number
  /** The run's own status once the job completed (`COMPLETED`, `FAILED`, …). */
  readonly status?: string | undefined
  /** Why the job failed (a worker error, a stall limit), for a failed job. */
  readonly failedReason?: string | undefined
  readonly worker?: string | undefined
  readonly enqueuedAt: string
}

/** What `follow` reports: the run's events as they happen, then how its job ended. */
export type FollowEvent =
  | { readonly kind: "event"; readonly event: RunEvent }
  | { readonly kind: "completed"; readonly result: TaskJobResult }
  | { readonly kind: "failed"; readonly reason: string }

/** A queue of agent tasks on BullMQ: producers enqueue, followers list and watch. */
export interface TaskQueue {
  /**
   * Validates a task with core's `AgentTask` schema and adds it as a job whose id is the run id. The
   * values of secret inputs never go into Redis: the job carries their names, and the worker fills each
   * from its own `SEXTANT_SECRET_<NAME>`.
   */
  readonly enqueue: (task: AgentTaskInput, options?: { readonly runId?: string }) => Promise<EnqueuedTask>
  /** The queue's jobs by state, newest first, up to `limit` (default 50) per state. */
  readonly list: (limit?: number) => Promise<ReadonlyArray<QueuedRun>>
  /** One job by run id; rejects with `JobNotFound` when the queue has none. */
  readonly get: (runId: string) => Promise<QueuedRun>
  /**
   * Reports the run's events live (`onEvent`) until its job completes or fails; resolves with that end.
   * A job that already ended answers at once. Events are live, not replayed: those a worker reported
   * before the follower listened are not seen; `onListening` is called once it listens.
   */
  readonly follow: (
    runId: string,
    onEvent: (event: FollowEvent) => void,
    options?: { readonly signal?: AbortSignal; readonly onListening?: () => void },
  ) => Promise<FollowEvent>
  /**
   * How many jobs run at once across every worker of this queue (BullMQ's global concurrency, kept in
   * Redis); `undefined` removes the limit.
   */
  readonly setGlobalConcurrency: (limit: number | undefined) => Promise<void>
  readonly close: () => Promise<void>
}

const RUN_ID = /^[A-Za-z0-9._:-]{1,200}$/

const stateOf = (value: string): QueuedRun["state"] =>
  value === "active" || value === "completed" || value === "failed" || value === "delayed" ? value : "waiting"

const summaryOf = (job: Job<TaskJobData, TaskJobResult>, state: string): QueuedRun => {
  const result = job.returnvalue as TaskJobResult | null | undefined
  return {
    runId: job.id ?? "",
    goal: job.data?.task?.goal ?? "",
    state: stateOf(state),
    attempts: job.attemptsStarted,
    ...(result?.status === undefined ? {} : { status: result.status }),
    ...(job.failedReason ? { failedReason: job.failedReason } : {}),
    ...(job.processedBy === undefined ? {} : { worker: job.processedBy }),
    enqueuedAt: new Date(job.timestamp).toISOString(),
  }
}

/**
 * Opens the task queue at a Redis URL; rejects with a {@link QueueError} when the URL is not a Redis URL
 * (`InvalidQueueUrl`) or nothing answers there (`QueueUnavailable`).
 *
 * @example
 * ```ts
 * import { openTaskQueue } from "@sextant/queue"
 * const queue = await openTaskQueue({ url: "redis://127.0.0.1:6379" })
 * const { runId } = await queue.enqueue({ goal: "extract the products", startUrl: "http://127.0.0.1:4000/products" })
 * await queue.follow(runId, (event) => console.log(event))
 * await queue.close()
 * ```
 */
export const openTaskQueue = async (options: TaskQueueOptions): Promise<TaskQueue> => {
  const name = options.name ?? DEFAULT_QUEUE_NAME
  const connection: Redis = await connectRedis(options.url, "openTaskQueue")
  const queue = new Queue<TaskJobData, TaskJobResult>(name, { connection })
  let events: QueueEvents | undefined
  const openEvents = async () => {
    if (events === undefined) {
      events = new QueueEvents(name, { connection: connection.duplicate() })
      // Each follower adds its own listeners; many runs followed at once are not a leak.
      events.setMaxListeners(0)
      await events.waitUntilReady()
    }
    return events
  }

  const enqueue: TaskQueue["enqueue"] = async (input, enqueueOptions) => {
    const parsed = AgentTask.safeParse(input)
    if (!parsed.success) {
      throw new QueueError({
        method: "enqueue",
        reason: new InvalidQueueInput({
          what: "task",
          issues: formatIssues("task", parsed.error, input),
        }),
      })
    }
    const runId = enqueueOptions?.runId ?? randomUUID()
    if (!RUN_ID.test(runId)) {
      throw new QueueError({
        method: "enqueue",
        reason: new InvalidQueueInput({
          what: "run id",
          issues: [`runId: use 1 to 200 letters, digits, '.', '_', ':' or '-', got ${JSON.stringify(runId)}`],
        }),
      })
    }
    const task = parsed.data
    const inputs = { ...task.inputs }
    for (const secret of task.secretInputs) inputs[secret] = ""
    const echoes = [
      ...secretEchoes({ ...task, inputs }, task),
      ...urlCredentialsIn(task),
      ...plainCredentialInputs(task),
    ]
    if (echoes.length > 0) {
      throw new QueueError({
        method: "enqueue",
        reason: new InvalidQueueInput({ what: "task", issues: echoes }),
      })
    }
    const existing = await queue.getJob(runId)
    const job = await queue.add(
      "agent-task",
      { task: { ...task, inputs } },
      {
        jobId: runId,
        // A worker error (a browser that cannot start) is tried again; a run that ended FAILED is a
        // completed job and is not.
        attempts: 3,
        backoff: { type: "exponential", delay: 2_000 },
        removeOnComplete: { count: 10_000 },
        removeOnFail: { count: 10_000 },
      },
    )
    return { runId: job.id ?? runId, taskId: task.id, goal: task.goal, added: existing === undefined }
  }

  const list: TaskQueue["list"] = async (limit = 50) => {
    const states = ["active", "waiting", "delayed", "completed", "failed"] as const
    const rows: Array<QueuedRun> = []
    for (const state of states) {
      const jobs = (await queue.getJobs([state], 0, limit - 1, false)) as Array<
        Job<TaskJobData, TaskJobResult>
      >
      for (const job of jobs) if (job !== undefined) rows.push(summaryOf(job, state))
    }
    return rows
  }

  const get: TaskQueue["get"] = async (runId) => {
    const job = (await queue.getJob(runId)) as Job<TaskJobData, TaskJobResult> | undefined
    if (job === undefined) throw new QueueError({ method: "get", reason: new JobNotFound({ runId }) })
    return summaryOf(job, await job.getState())
  }

  const follow: TaskQueue["follow"] = async (runId, onEvent, followOptions) => {
    const listener = await openEvents()
    return await new Promise<FollowEvent>((resolve, reject) => {
      let settled = false
      const finish = (end: FollowEvent | Error) => {
        if (settled) return
        settled = true
        listener.off("progress", onProgress)
        listener.off("completed", onCompleted)
        listener.off("failed", onFailed)
        followOptions?.signal?.removeEventListener("abort", onAbort)
        if (end instanceof Error) reject(end)
        else {
          onEvent(end)
          resolve(end)
        }
      }
      const onProgress = ({ jobId, data }: { jobId: string; data: unknown }) => {
        if (jobId !== runId || settled) return
        const event = data as RunEvent
        if (typeof event === "object" && event !== null && typeof event.type === "string")
          onEvent({ kind: "event", event })
      }
      const onCompleted = ({ jobId, returnvalue }: { jobId: string; returnvalue: unknown }) => {
        if (jobId !== runId) return
        const result = (
          typeof returnvalue === "string" ? JSON.parse(returnvalue) : returnvalue
        ) as TaskJobResult
        finish({ kind: "completed", result })
      }
      const onFailed = ({ jobId, failedReason }: { jobId: string; failedReason: string }) => {
        if (jobId === runId) finish({ kind: "failed", reason: failedReason })
      }
      const onAbort = () => finish({ kind: "failed", reason: "stopped following (the run goes on)" })
      listener.on("progress", onProgress)
      listener.on("completed", onCompleted)
      listener.on("failed", onFailed)
      followOptions?.signal?.addEventListener("abort", onAbort, { once: true })
      followOptions?.onListening?.()
      // Subscribed first, then the job's state: a job that ends in between is not missed.
      queue.getJob(runId).then(
        async (job) => {
          if (job === undefined) {
            finish(new QueueError({ method: "follow", reason: new JobNotFound({ runId }) }))
            return
          }
          const state = await job.getState()
          if (state === "completed") finish({ kind: "completed", result: job.returnvalue as TaskJobResult })
          else if (state === "failed") finish({ kind: "failed", reason: job.failedReason })
        },
        (error: unknown) => finish(error instanceof Error ? error : new Error(String(error))),
      )
    })
  }

  const setGlobalConcurrency: TaskQueue["setGlobalConcurrency"] = async (limit) => {
    if (limit === undefined) await queue.removeGlobalConcurrency()
    else await queue.setGlobalConcurrency(limit)
  }

  const close = async () => {
    await events?.close()
    await queue.close()
    connection.disconnect()
  }

  return { enqueue, list, get, follow, setGlobalConcurrency, close }
}

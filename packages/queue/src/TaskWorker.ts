import { hostname } from "node:os"
import {
  type AgentTask,
  causeMessage,
  hideUrlCredentials,
  isStoreError,
  type Redact,
  redactTaskSecrets,
  type StoreLeaseHeld,
} from "@sextant/core"
import { DelayedError, type Job, UnrecoverableError, Worker } from "bullmq"
import type { Redis } from "ioredis"
import { connectRedis } from "./Connection.ts"
import { type OriginLimit, takeOriginToken } from "./OriginLimits.ts"
import { InvalidQueueInput, QueueError } from "./QueueError.ts"
import { runEventOf } from "./RunEvent.ts"
import { DEFAULT_QUEUE_NAME, type TaskJobData, type TaskJobResult } from "./TaskQueue.ts"

/** How long a job's lock lasts without renewal before BullMQ may call the job stalled (BullMQ's default). */
export const DEFAULT_LOCK_DURATION_MS = 30_000
/** How often each worker looks for stalled jobs (BullMQ's default). */
export const DEFAULT_STALLED_INTERVAL_MS = 30_000
/** How many times a job may stall (its worker died) and be taken over before it fails. */
export const DEFAULT_MAX_STALLED_COUNT = 2
/** How long a worker waits for a dead worker's run lease to lapse before it gives the job up. */
export const DEFAULT_LEASE_WAIT_MS = 120_000

/** How a run ended, as a {@link TaskRunner} answers it. */
export interface RunnerResult {
  readonly status: string
  readonly endReason?: string | undefined
  readonly summary?: string | undefined
  /** True when the runner continued a stored run instead of starting it. */
  readonly resumed: boolean
}

/**
 * What runs a task for the worker: the same agent code as `sextant run` (the `sextant worker` command
 * passes one built on `createAgent`). It must start the run under `runId`, or, when the store already has
 * a run with that id (a worker died in it), continue that run without repeating its finished steps.
 * While the worker that died still holds the run's lease, it rejects with the store's `StoreError`
 * (reason `StoreLeaseHeld`), as `resume` does: the worker waits for the lease to lapse and calls it again.
 */
export interface TaskRunner {
  readonly run: (
    task: AgentTask,
    context: {
      readonly runId: string
      readonly signal: AbortSignal
      readonly onEvent: (event: unknown) => void
    },
  ) => Promise<RunnerResult>
}

/** Options of {@link startTaskWorker}. */
export interface TaskWorkerOptions {
  readonly url: string
  /** The BullMQ queue name (default {@link DEFAULT_QUEUE_NAME}). */
  readonly name?: string | undefined
  readonly runner: TaskRunner
  /** Jobs this worker runs at once (default 1). */
  readonly concurrency?: number | undefined
  /** Jobs all workers of the queue run at once (BullMQ global concurrency, set in Redis by this worker). */
  readonly globalConcurrency?: number | undefined
  /** Per-origin start limits, shared through Redis by every worker of the queue. */
  readonly limits?: ReadonlyArray<OriginLimit> | undefined
  /** The worker's name in events and `list` (default `hostname:pid`). */
  readonly workerName?: string | undefined
  /** See {@link DEFAULT_LOCK_DURATION_MS}. */
  readonly lockDurationMs?: number | undefined
  /** See {@link DEFAULT_STALLED_INTERVAL_MS}. */
  readonly stalledIntervalMs?: number | undefined
  /** See {@link DEFAULT_MAX_STALLED_COUNT}. */
  readonly maxStalledCount?: number | undefined
  /** See {@link DEFAULT_LEASE_WAIT_MS}. */
  readonly leaseWaitMs?: number | undefined
  /** Where secret inputs come from: `SEXTANT_SECRET_<NAME>` (default `process.env`). */
  readonly env?: Readonly<Record<string, string | undefined>> | undefined
  /** One line per job taken, delayed by a limit, ended or failed. */
  readonly onLog?: ((line: string) => void) | undefined
}

/** A running worker. */
export interface TaskWorker {
  readonly name: string
  /** Stops taking jobs, waits for the jobs in hand to end, and closes the connections. */
  readonly close: () => Promise<void>
}

/** The lease of a run another worker still holds, when the runner failed on one (a real `StoreError`, by its TypeId). */
const leaseHeld = (error: unknown): StoreLeaseHeld | undefined =>
  isStoreError(error) && error.reason._tag === "StoreLeaseHeld" ? error.reason : undefined

/**
 * What the worker may write to Redis and its log about a run of `task`: every secret value (the worker
 * filled them in from its env) as `<secret:name>`, and a URL's password and credential parameters as `***`.
 */
const redactionOf = (task: AgentTask): Redact => {
  const secrets = redactTaskSecrets(task)
  return (text) => hideUrlCredentials(secrets(text))
}

/**
 * The error BullMQ stores for a failed attempt (its message as `failedReason`, its stack in `stacktrace`):
 * the runner's error with both redacted, its name kept so BullMQ still tells an `UnrecoverableError`.
 */
const redactedFailure = (error: unknown, redact: Redact): Error => {
  const failure = new Error(redact(causeMessage(error)))
  if (error instanceof Error) {
    failure.name = error.name
    failure.stack = error.stack === undefined ? failure.stack : redact(error.stack)
  }
  return failure
}

const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms)
    signal.addEventListener(
      "abort",
      () => {
        clearTimeout(timer)
        resolve()
      },
      { once: true },
    )
  })

/**
 * Starts a worker that takes jobs from the task queue and runs each through `runner`, reporting the run's
 * events as job progress (`QueueEvents` "progress") so followers can watch it live.
 *
 * Crash safety: the job id is the run id. A worker killed mid-task stops renewing its job's lock; after
 * `lockDurationMs` the next stalled check (every `stalledIntervalMs`) of any live worker moves the job back
 * to waiting, another worker takes it, and its runner continues the stored run — after waiting for the
 * dead worker's run lease to lapse (up to `leaseWaitMs`). BullMQ delivers at least once; the store's
 * steps and the executor's resume rules make the run advance at most once.
 *
 * Shared limits: `globalConcurrency` is BullMQ's queue-wide concurrency (kept in Redis); `limits` are
 * per-origin start windows counted in Redis. A job over its origin's limit is moved to delayed until the
 * window ends (it does not count as an attempt), so other origins' jobs go on meanwhile.
 *
 * @example
 * ```ts
 * const worker = await startTaskWorker({ url: "redis://127.0.0.1:6379", runner, concurrency: 2 })
 * process.on("SIGTERM", () => void worker.close())
 * ```
 */
export const startTaskWorker = async (options: TaskWorkerOptions): Promise<TaskWorker> => {
  const queueName = options.name ?? DEFAULT_QUEUE_NAME
  const name = options.workerName ?? `${hostname()}:${process.pid}`
  const env = options.env ?? process.env
  const log = options.onLog ?? (() => undefined)
  const leaseWaitMs = options.leaseWaitMs ?? DEFAULT_LEASE_WAIT_MS
  const limits = new Map((options.limits ?? []).map((limit) => [limit.origin, limit]))
  const concurrency = options.concurrency ?? 1
  if (!Number.isSafeInteger(concurrency) || concurrency < 1)
    throw new QueueError({
      method: "startTaskWorker",
      reason: new InvalidQueueInput({
        what: "worker options",
        issues: [`concurrency: must be at least 1, got ${concurrency}`],
      }),
    })
  const connection: Redis = await connectRedis(options.url, "startTaskWorker")
  const counters = connection.duplicate()
  counters.on("error", () => undefined)

  const withSecrets = (task: AgentTask): AgentTask => {
    if (task.secretInputs.length === 0) return task
    const inputs = { ...task.inputs }
    const missing: Array<string> = []
    for (const secret of task.secretInputs) {
      const value = env[`SEXTANT_SECRET_${secret.toUpperCase()}`]
      if (value === undefined || value === "") missing.push(secret)
      else inputs[secret] = value
    }
    if (missing.length > 0)
      // No attempt can succeed until the worker is given the secret: the job fails now, naming it.
      throw new UnrecoverableError(
        `the task needs the secret input${missing.length === 1 ? "" : "s"} ${missing.join(", ")}: the queue does not carry secret values; start the worker with ${missing.map((secret) => `SEXTANT_SECRET_${secret.toUpperCase()}`).join(", ")} set`,
      )
    return { ...task, inputs }
  }

  const processor = async (
    job: Job<TaskJobData, TaskJobResult>,
    token?: string,
    signal?: AbortSignal,
  ): Promise<TaskJobResult> => {
    const runId = job.id ?? ""
    const task = withSecrets(job.data.task)
    const redact = redactionOf(task)
    const origin = task.startUrl === undefined ? undefined : new URL(task.startUrl).origin
    const limit = origin === undefined ? undefined : limits.get(origin)
    if (limit !== undefined) {
      const answer = await takeOriginToken(counters, queueName, limit)
      if (!answer.granted) {
        log(
          `run ${runId}: ${limit.origin} allows ${limit.max} starts per ${limit.windowMs} ms; delayed ${answer.retryInMs} ms`,
        )
        await job.moveToDelayed(Date.now() + answer.retryInMs, token)
        throw new DelayedError()
      }
    }
    log(`run ${runId}: taken (attempt ${job.attemptsStarted}): ${task.goal}`)
    const aborter = new AbortController()
    signal?.addEventListener("abort", () => aborter.abort(), { once: true })
    // Progress updates go out in order; a lost one never fails the run.
    let progress: Promise<void> = Promise.resolve()
    const onEvent = (event: unknown) => {
      const reported = runEventOf(event, name, redact)
      if (reported === undefined) return
      progress = progress.then(() => job.updateProgress(reported as unknown as object)).catch(() => undefined)
    }
    const waitUntil = Date.now() + leaseWaitMs
    while (true) {
      try {
        const result = await options.runner.run(task, { runId, signal: aborter.signal, onEvent })
        await progress
        log(`run ${runId}: ${result.status}${result.resumed ? " (resumed)" : ""}`)
        return {
          runId,
          status: result.status,
          endReason: result.endReason === undefined ? undefined : redact(result.endReason),
          summary: result.summary === undefined ? undefined : redact(result.summary),
          resumed: result.resumed,
          worker: name,
        }
      } catch (error) {
        const held = leaseHeld(error)
        // The worker that died still holds the run's lease until it lapses: wait for that, then resume.
        if (held !== undefined && Date.now() < waitUntil && !aborter.signal.aborted) {
          const waitMs = Math.min(
            Math.max(250, Date.parse(held.expiresAt) - Date.now() + 250),
            waitUntil - Date.now(),
          )
          log(`run ${runId}: held by a previous worker until ${held.expiresAt}; waiting ${waitMs} ms`)
          await sleep(waitMs, aborter.signal)
          continue
        }
        await progress
        // A driver error may quote a typed secret or a URL with a token: BullMQ keeps what is thrown.
        const failure = redactedFailure(error, redact)
        log(`run ${runId}: error: ${failure.message}`)
        throw failure
      }
    }
  }

  const worker = new Worker<TaskJobData, TaskJobResult>(queueName, processor, {
    connection,
    concurrency,
    name,
    lockDuration: options.lockDurationMs ?? DEFAULT_LOCK_DURATION_MS,
    stalledInterval: options.stalledIntervalMs ?? DEFAULT_STALLED_INTERVAL_MS,
    maxStalledCount: options.maxStalledCount ?? DEFAULT_MAX_STALLED_COUNT,
    autorun: false,
  })
  worker.on("error", (error) => log(`worker error: ${error.message}`))
  worker.on("stalled", (jobId) =>
    log(`run ${jobId}: stalled (its worker stopped renewing the lock); back to waiting`),
  )
  if (options.globalConcurrency !== undefined) {
    const { Queue } = await import("bullmq")
    const queue = new Queue(queueName, { connection: connection.duplicate() })
    await queue.setGlobalConcurrency(options.globalConcurrency)
    await queue.close()
  }
  void worker.run()
  await worker.waitUntilReady()

  return {
    name,
    close: async () => {
      await worker.close()
      counters.disconnect()
      connection.disconnect()
    },
  }
}

import { readFileSync } from "node:fs"
import { resolve } from "node:path"
import type { Writable } from "node:stream"
import { causeMessage, hideUrlCredentials } from "@sextant/core"
import type { Command } from "commander"
import { z } from "zod"
import { AgentFlags, addAgentFlags, resolveAgent } from "./AgentFlags.ts"
import { type CliContext, type CliPlace, processPlace } from "./CliIo.ts"
import { credentialInputProblem, issuesOf, recordsTable, usageError } from "./CliOutput.ts"
import { configOrReport, defaultMode } from "./RunCommand.ts"

type QueueModule = typeof import("@sextant/queue")

const collect = (value: string, previous: ReadonlyArray<string> = []) => [...previous, value]

const queueUrl = z
  .string({ error: "name the queue's Redis, e.g. --queue redis://127.0.0.1:6379" })
  .trim()
  .min(1, "name the queue's Redis, e.g. --queue redis://127.0.0.1:6379")
  .refine((value) => {
    try {
      const url = new URL(value)
      return (url.protocol === "redis:" || url.protocol === "rediss:") && url.hostname !== ""
    } catch {
      return false
    }
  }, "must be a Redis URL, e.g. redis://127.0.0.1:6379 (or rediss:// for TLS)")

const queueName = z
  .string()
  .regex(/^[A-Za-z0-9._-]{1,100}$/, "use 1 to 100 letters, digits, '.', '_' or '-'")
  .optional()

const whole = (minimum: number, example: string) =>
  z.coerce
    .number({ error: `must be a whole number, e.g. ${example}` })
    .int(`must be a whole number, e.g. ${example}`)
    .min(minimum, `must be at least ${minimum}`)

/** Loads `@sextant/queue` (an optional peer), or says which package to install. */
const loadQueue = async (command: string, err: Writable): Promise<QueueModule | undefined> => {
  try {
    return await import("@sextant/queue")
  } catch (error) {
    err.write(
      `sextant ${command}: the queue needs the package @sextant/queue: install it next to sextant-agent (npm install @sextant/queue) (${causeMessage(error).split("\n")[0]})\n`,
    )
    return undefined
  }
}

/** Writes a queue error as one line naming the flag it is about; answers the exit code. */
const reportQueueError = (command: string, error: unknown, err: Writable): number => {
  const value = error as { _tag?: unknown; reason?: { _tag?: unknown; message?: unknown } } | null
  if (value?._tag === "QueueError" && typeof value.reason?.message === "string") {
    const tag = value.reason._tag
    const flag =
      tag === "InvalidQueueUrl" || tag === "QueueUnavailable"
        ? "--queue: "
        : tag === "JobNotFound"
          ? "--follow: "
          : ""
    err.write(`sextant ${command}: ${flag}${value.reason.message}\n`)
    return tag === "QueueUnavailable" ? 1 : 2
  }
  err.write(`sextant ${command}: ${causeMessage(error)}\n`)
  return 1
}

/**
 * Loads `@sextant/queue`, opens the queue the options name, answers what `body` answers and closes the
 * queue; a queue error on the way (opening or in `body`) is written as one line and answers its exit code.
 */
const withQueue = async (
  command: string,
  options: { readonly queue: string; readonly queueName?: string | undefined },
  err: Writable,
  body: (queue: Awaited<ReturnType<QueueModule["openTaskQueue"]>>) => Promise<number>,
): Promise<number> => {
  const queueModule = await loadQueue(command, err)
  if (queueModule === undefined) return 2
  let queue: Awaited<ReturnType<QueueModule["openTaskQueue"]>>
  try {
    queue = await queueModule.openTaskQueue({ url: options.queue, name: options.queueName })
  } catch (error) {
    return reportQueueError(command, error, err)
  }
  try {
    return await body(queue)
  } catch (error) {
    return reportQueueError(command, error, err)
  } finally {
    await queue.close()
  }
}

const WorkerArguments = AgentFlags.extend({
  queue: queueUrl,
  queueName,
  concurrency: whole(1, "--concurrency 2").max(64, "must be at most 64").default(1),
  globalConcurrency: whole(1, "--global-concurrency 4").optional(),
  rate: z.array(z.string()).default([]),
  lockDuration: whole(1_000, "--lock-duration 30000").optional(),
  stalledInterval: whole(500, "--stalled-interval 30000").optional(),
  mode: z.enum(["plan", "agent"], { error: "is plan or agent" }).optional(),
  config: z.string().min(1).optional(),
})

/**
 * `sextant worker`: takes tasks from the queue and runs each with the same agent as `sextant run`
 * (planner and model from the flags, the environment and the config file), writing every run to the
 * store. Runs until SIGINT or SIGTERM, then finishes the runs in hand and exits.
 */
export const runWorker = async (
  raw: Record<string, unknown>,
  err: Writable,
  stop: Promise<void>,
  place: CliPlace = processPlace(),
): Promise<number> => {
  const parsed = WorkerArguments.safeParse(raw)
  if (!parsed.success) return usageError("worker", issuesOf(parsed.error), err)
  const options = parsed.data
  const queueModule = await loadQueue("worker", err)
  if (queueModule === undefined) return 2
  const limits = []
  for (const text of options.rate) {
    try {
      limits.push(queueModule.parseOriginLimit(text))
    } catch (error) {
      const reason = (error as { reason?: { issues?: ReadonlyArray<string> } }).reason
      return usageError(
        "worker",
        [{ field: "rate", message: reason?.issues?.join("; ") ?? String(error) }],
        err,
      )
    }
  }
  const loaded = await configOrReport("worker", options.config, err, place.cwd)
  if (loaded === undefined) return 2
  const resolved = resolveAgent(options, place.env, loaded.config)
  if (Array.isArray(resolved)) return usageError("worker", resolved, err)
  const { createAgent } = await import("../createAgent.ts")
  let agent: ReturnType<typeof createAgent>
  try {
    agent = createAgent({
      ...resolved.options,
      ...(options.mode === undefined ? {} : { mode: options.mode }),
    })
  } catch (error) {
    err.write(`sextant worker: ${causeMessage(error)}\n`)
    return 2
  }
  const { makeAgentRunner } = await import("./AgentRunner.ts")
  let worker: Awaited<ReturnType<QueueModule["startTaskWorker"]>>
  try {
    worker = await queueModule.startTaskWorker({
      url: options.queue,
      name: options.queueName,
      // Without --mode each task's mode is the one `sextant run` would choose for its goal.
      runner: makeAgentRunner(agent, (task) => options.mode ?? defaultMode(task.goal, resolved.options)),
      concurrency: options.concurrency,
      globalConcurrency: options.globalConcurrency,
      limits,
      lockDurationMs: options.lockDuration,
      stalledIntervalMs: options.stalledInterval,
      onLog: (line) => err.write(`${line}\n`),
    })
  } catch (error) {
    await agent.close()
    return reportQueueError("worker", error, err)
  }
  err.write(
    `worker ${worker.name}: queue ${options.queueName ?? queueModule.DEFAULT_QUEUE_NAME} at ${hideUrlCredentials(options.queue)}, concurrency ${options.concurrency}, store ${resolved.store}\n${resolved.plannerLine}\n${options.mode === undefined ? "mode: per task, as sextant run chooses it (--mode plan or --mode agent sets one for all)" : `mode: ${options.mode} for every task`}\n`,
  )
  await stop
  err.write(`worker ${worker.name}: stopping (finishing the runs in hand)\n`)
  await worker.close()
  await agent.close()
  return 0
}

const pair = z.string().regex(/^[A-Za-z0-9_.-]+(=.*)?$/, "write name=value")

const EnqueueArguments = z.object({
  file: z.string().min(1).optional(),
  queue: queueUrl,
  queueName,
  goal: z.string().trim().min(1, "describe the goal in words").optional(),
  url: z
    .url({ protocol: /^https?$/, error: "must be an http or https URL, e.g. http://127.0.0.1:4000/login" })
    .optional(),
  input: z
    .array(
      pair.refine((entry) => credentialInputProblem(entry, true) === undefined, {
        error: (issue) => credentialInputProblem(String(issue.input), true),
      }),
    )
    .default([]),
  secret: z
    .array(
      z
        .string()
        .regex(
          /^[A-Za-z0-9_.-]+$/,
          "name the secret input (its value stays with the workers: SEXTANT_SECRET_<NAME>)",
        ),
    )
    .default([]),
  allowSubmit: z.boolean().default(false),
  maxSteps: whole(1, "--max-steps 20").optional(),
  runId: z.string().min(1).optional(),
  json: z.boolean().default(false),
})

/** Reads the task file: one task object, or an array of them. */
const readTasks = (path: string, cwd: string): Array<unknown> | { error: string } => {
  let text: string
  try {
    text = readFileSync(resolve(cwd, path), "utf8")
  } catch (error) {
    return {
      error: `cannot read ${path} (${causeMessage(error).split("\n")[0]})`,
    }
  }
  try {
    const value = JSON.parse(text) as unknown
    return Array.isArray(value) ? value : [value]
  } catch (error) {
    return {
      error: `${path} is not JSON (${causeMessage(error)}): write one task object or an array of tasks`,
    }
  }
}

/** `sextant enqueue`: puts tasks on the queue and prints their run ids. */
export const enqueueTasks = async (
  raw: Record<string, unknown>,
  out: Writable,
  err: Writable,
  place: CliPlace = processPlace(),
): Promise<number> => {
  const parsed = EnqueueArguments.safeParse(raw)
  if (!parsed.success) return usageError("enqueue", issuesOf(parsed.error), err, ["file"])
  const options = parsed.data
  if ((options.file === undefined) === (options.goal === undefined))
    return usageError(
      "enqueue",
      [
        {
          field: options.file === undefined ? "goal" : "file",
          message:
            options.file === undefined
              ? "give a task file or --goal"
              : "give a task file or --goal, not both",
        },
      ],
      err,
      ["file"],
    )
  let tasks: Array<unknown>
  if (options.file !== undefined) {
    const read = readTasks(options.file, place.cwd)
    if (!Array.isArray(read))
      return usageError("enqueue", [{ field: "file", message: read.error }], err, ["file"])
    if (read.length === 0)
      return usageError("enqueue", [{ field: "file", message: `${options.file} holds no task` }], err, [
        "file",
      ])
    tasks = read
  } else {
    const inputs: Record<string, string> = {}
    for (const entry of options.input) {
      const at = entry.indexOf("=")
      inputs[at === -1 ? entry : entry.slice(0, at)] = at === -1 ? "" : entry.slice(at + 1)
    }
    // A secret's value never goes into Redis: the workers read SEXTANT_SECRET_<NAME>.
    for (const secret of options.secret) inputs[secret] = ""
    tasks = [
      {
        goal: options.goal,
        ...(options.url === undefined ? {} : { startUrl: options.url }),
        inputs,
        secretInputs: options.secret,
        constraints: {
          allowFormSubmission: options.allowSubmit,
          ...(options.maxSteps === undefined ? {} : { maxSteps: options.maxSteps }),
        },
      },
    ]
  }
  /** Where task `index` came from, as a message prefix: the file, and which task when it holds several. */
  const taskPlace = (index: number): string =>
    options.file === undefined
      ? ""
      : tasks.length > 1
        ? `${options.file} task ${index}: `
        : `${options.file}: `
  // Every task is checked before Redis is asked, so a bad file adds nothing.
  const { AgentTask, formatIssues } = await import("@sextant/core")
  const problems = tasks.flatMap((task, index) => {
    const checked = AgentTask.safeParse(task)
    if (checked.success) return []
    const where = taskPlace(index)
    return formatIssues("task", checked.error, task).map((issue) => `${where}${issue}`)
  })
  if (problems.length > 0)
    return usageError(
      "enqueue",
      problems.map((message) => ({ field: options.file === undefined ? "goal" : "file", message })),
      err,
      ["file"],
    )
  if (options.runId !== undefined && tasks.length > 1)
    return usageError(
      "enqueue",
      [{ field: "runId", message: "names one run: the file holds several tasks" }],
      err,
    )
  return withQueue("enqueue", options, err, async (queue) => {
    const added = []
    for (const [index, task] of tasks.entries()) {
      try {
        added.push(
          await queue.enqueue(task as never, options.runId === undefined ? {} : { runId: options.runId }),
        )
      } catch (error) {
        const where = taskPlace(index)
        const reason = (error as { reason?: { _tag?: unknown; issues?: ReadonlyArray<string> } }).reason
        if (reason?._tag === "InvalidQueueInput") {
          for (const issue of reason.issues ?? []) err.write(`sextant enqueue: ${where}${issue}\n`)
          err.write(`(${added.length} of ${tasks.length} tasks were enqueued before this one)\n`)
          return 2
        }
        throw error
      }
    }
    if (options.json) out.write(`${JSON.stringify(added)}\n`)
    else
      for (const task of added)
        out.write(`${task.runId}${task.added ? "" : " (already queued)"}  ${task.goal}\n`)
    return 0
  })
}

const QueueRunsArguments = z.object({
  queue: queueUrl,
  queueName,
  follow: z.string().trim().min(1, "name the run to follow").optional(),
  json: z.boolean().default(false),
})

/** `sextant runs --queue URL`: the queue's jobs by state, or one run's events live with `--follow`. */
export const listQueueRuns = async (
  raw: Record<string, unknown>,
  out: Writable,
  err: Writable,
  signal?: AbortSignal,
): Promise<number> => {
  const parsed = QueueRunsArguments.safeParse(raw)
  if (!parsed.success) return usageError("runs", issuesOf(parsed.error), err)
  const options = parsed.data
  return withQueue("runs", options, err, async (queue) => {
    if (options.follow !== undefined) {
      const end = await queue.follow(
        options.follow,
        (event) => {
          if (options.json) {
            out.write(`${JSON.stringify(event)}\n`)
            return
          }
          if (event.kind === "event") {
            const { type, step, tool, ok, status, message, worker } = event.event
            out.write(
              `${[type, step === undefined ? "" : `[${step}]`, tool ?? "", ok === undefined ? "" : ok ? "ok" : "failed", status ?? "", message ?? "", worker === undefined ? "" : `(${worker})`].filter((part) => part !== "").join(" ")}\n`,
            )
          } else if (event.kind === "completed") {
            out.write(
              `run ${options.follow}: ${event.result.status}${event.result.resumed ? " (resumed)" : ""} on ${event.result.worker}${event.result.summary === undefined ? "" : `: ${event.result.summary}`}\n`,
            )
          } else {
            out.write(`run ${options.follow}: job failed: ${event.reason}\n`)
          }
        },
        signal === undefined ? {} : { signal },
      )
      return end.kind === "completed" && end.result.status === "COMPLETED" ? 0 : 1
    }
    const runs = await queue.list()
    if (options.json) {
      out.write(`${JSON.stringify(runs)}\n`)
      return 0
    }
    if (runs.length === 0) {
      out.write(`no runs in the queue at ${hideUrlCredentials(options.queue)}\n`)
      return 0
    }
    out.write(
      `${recordsTable(
        runs.map((run) => ({
          run: run.runId,
          state: run.state,
          status: run.status ?? "",
          attempts: run.attempts,
          worker: run.worker ?? "",
          goal: run.goal,
          ...(run.failedReason === undefined ? {} : { failed: run.failedReason }),
        })),
        { maxRows: 250, maxColumnWidth: 60 },
      )}\n`,
    )
    return 0
  })
}

/** Adds `sextant worker` and `sextant enqueue`. */
export const registerQueueCommands = (program: Command, cli: CliContext): void => {
  const worker = program
    .command("worker")
    .description("take tasks from a Redis queue (BullMQ) and run them, writing each run to the store")
    .requiredOption("--queue <url>", "the queue's Redis, e.g. redis://127.0.0.1:6379")
    .option("--queue-name <name>", "the BullMQ queue (default sextant-tasks)")
    .option("--concurrency <n>", "runs this worker runs at once (default 1)")
    .option("--global-concurrency <n>", "runs all workers of the queue run at once (kept in Redis)")
    .option(
      "--rate <origin=max/window>",
      "at most max run starts per window on an origin, for all workers together, e.g. https://shop.example=2/1s (repeatable)",
      collect,
      [],
    )
    .option(
      "--lock-duration <ms>",
      "how long a job's lock lasts unrenewed before it counts as stalled (default 30000)",
    )
    .option("--stalled-interval <ms>", "how often to look for stalled jobs of dead workers (default 30000)")
    .option(
      "--mode <mode>",
      "plan (whole plan first) or agent (one step at a time) for every task (default: each task's as sextant run chooses it)",
    )
  addAgentFlags(worker).action(async (flags: Record<string, unknown>) => {
    let onSignal = () => {}
    const stop = new Promise<void>((resolve) => {
      onSignal = () => resolve()
      process.once("SIGINT", onSignal)
      process.once("SIGTERM", onSignal)
    })
    try {
      cli.exitCode = await runWorker(flags, cli.stderr, stop, cli)
    } finally {
      process.off("SIGINT", onSignal)
      process.off("SIGTERM", onSignal)
    }
  })

  program
    .command("enqueue")
    .description("put tasks on a Redis queue (BullMQ) for workers; prints each run id")
    .argument(
      "[file]",
      "a JSON file with one task or an array of tasks ({ goal, startUrl, inputs, constraints, … })",
    )
    .requiredOption("--queue <url>", "the queue's Redis, e.g. redis://127.0.0.1:6379")
    .option("--queue-name <name>", "the BullMQ queue (default sextant-tasks)")
    .option("--goal <goal>", "the goal of one task (instead of a file)")
    .option("--url <url>", "the task's start page")
    .option("--input <name=value>", "a task input (repeatable)", collect, [])
    .option(
      "--secret <name>",
      "a secret input; workers read its value from SEXTANT_SECRET_<NAME> (repeatable)",
      collect,
      [],
    )
    .option("--allow-submit", "allow submitting forms", false)
    .option("--max-steps <n>", "the step budget")
    .option("--run-id <id>", "the run id (and job id) of the one task (default a random UUID)")
    .option("--json", "print the enqueued tasks as JSON", false)
    .action(async (file: string | undefined, flags: Record<string, unknown>) => {
      cli.exitCode = await enqueueTasks({ file, ...flags }, cli.stdout, cli.stderr, cli)
    })
}

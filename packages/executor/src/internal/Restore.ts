import {
  AgentError,
  type AgentTask,
  InvalidInput,
  type RunRecord,
  type Step,
  type TaskState,
} from "@sextant/core"
import { Effect } from "effect"
import type { ExecutorOptions } from "../ExecutorOptions.ts"
import { makeRunContext, type RunContext } from "./RunContext.ts"

const LIVE: ReadonlyArray<TaskState> = ["CREATED", "PLANNING", "RUNNING", "WAITING"]

/**
 * True when a run ended because its browser or driver died (its last failed step says
 * `DriverCrashed`): the run is FAILED, yet `resume` may continue it on a new browser.
 */
export const endedByCrash = (record: RunRecord): boolean =>
  record.status === "FAILED" &&
  record.result?.observations.findLast((observation) => !observation.ok)?.error?.reason === "DriverCrashed"

/** True when a stored run already ended (and has its result) and cannot be continued. */
export const isFinished = (record: RunRecord): boolean =>
  !LIVE.includes(record.status) && record.result !== undefined && !endedByCrash(record)

/**
 * Rebuilds the context of a run whose process died: the task with its secrets given again (the store
 * keeps only placeholders), observations a crash lost re-added from their committed steps, the step
 * count, and the page the run was on loaded again.
 */
export const restoreRun = Effect.fnUntraced(function* (
  record: RunRecord,
  mode: "plan" | "agent",
  options: ExecutorOptions & { readonly secrets?: Readonly<Record<string, string>> | undefined },
) {
  // The store keeps only placeholders: without the secrets the run would type `<secret:password>`.
  const missing = record.task.secretInputs.filter((name) => typeof options.secrets?.[name] !== "string")
  if (missing.length > 0) {
    return yield* new AgentError({
      reason: new InvalidInput({
        what: "resume secrets",
        issues: missing.map(
          (name) =>
            `secrets.${name}: run ${record.runId} needs the secret input "${name}" again (the store keeps only a placeholder): pass it in options.secrets`,
        ),
      }),
    })
  }
  const task: AgentTask = { ...record.task, inputs: { ...record.task.inputs, ...(options.secrets ?? {}) } }
  const context: RunContext = yield* makeRunContext(
    task,
    mode,
    { ...options, runId: record.runId },
    {
      runId: record.runId,
      startedAt: record.startedAt,
      state:
        record.status === "CREATED"
          ? mode === "plan"
            ? "PLANNING"
            : "RUNNING"
          : endedByCrash(record)
            ? "RUNNING"
            : record.status,
    },
  )
  const store = context.store
  const steps: ReadonlyArray<Step> = yield* store.listSteps(record.runId)
  // A crash between a step's commit and its observation loses the observation: add it back.
  const known = new Set((yield* store.listObservations(record.runId)).map((observation) => observation.at))
  for (const step of steps) {
    if (step.state !== "running" && step.observation !== undefined && !known.has(step.observation.at)) {
      yield* store.appendObservation(record.runId, step.index, step.observation)
    }
  }
  const observations = yield* store.listObservations(record.runId)
  context.tally.steps = observations.length
  // A run whose page already tried to take a secret elsewhere types none again after a resume either.
  const prefix = "guardrail 'secret-origin' stopped the step: "
  const refusal = observations.find((observation) => observation.error?.message.startsWith(prefix) === true)
  if (refusal?.error !== undefined) context.secretRefusal = refusal.error.message.slice(prefix.length)
  const lastUrl = observations.findLast((observation) => observation.ok && observation.url !== undefined)?.url
  if (
    lastUrl !== undefined &&
    lastUrl !== "about:blank" &&
    context.guardrails.checkUrl(lastUrl) === undefined
  ) {
    yield* context.driver.navigate(lastUrl).pipe(Effect.ignore)
    context.lastUrl = lastUrl
  }
  return { context, steps }
})

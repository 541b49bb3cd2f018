import {
  AgentError,
  type AgentTask,
  InvalidInput,
  type RunRecord,
  type Step,
  type TaskState,
  type ToolRegistry,
} from "@sextant/core"
import { Effect } from "effect"
import type { ExecutorOptions } from "../ExecutorOptions.ts"
import { makeRedactor } from "../Redaction.ts"
import { makeRunContext, type RunContext } from "./RunContext.ts"

const LIVE: ReadonlyArray<TaskState> = ["CREATED", "PLANNING", "RUNNING", "WAITING"]

/**
 * True when a run ended because its browser or driver died (its last failed step says
 * `DriverCrashed`): the run is FAILED, yet `resume` may continue it on a new browser.
 */
export const endedByCrash = (record: RunRecord): boolean =>
  record.status === "FAILED" &&
  record.result?.observations.findLast((observation) => !observation.ok)?.error?.reason === "DriverCrashed"

/**
 * True when a run was CANCELLED: interrupted (an AbortSignal, Ctrl-C) or asked to stop
 * (`stopSignal`). Its finished steps are stored, and `resume` continues it from the next one.
 */
export const endedByStop = (record: RunRecord): boolean => record.status === "CANCELLED"

/** True when a stored run already ended (and has its result) and cannot be continued. */
export const isFinished = (record: RunRecord): boolean =>
  !LIVE.includes(record.status) &&
  record.result !== undefined &&
  !endedByCrash(record) &&
  !endedByStop(record)

/**
 * The step a crash left in doubt: one the store shows as `running` (it had started when the process
 * died) whose tool acts on the world and may not be repeated blindly (it clicks, submits or navigates
 * and is not `idempotent`). Whether its click or submission reached the site before the crash cannot be
 * told from the store, so `resume` must not run it again: it ends the run for review instead.
 */
export const stepInDoubt = (steps: ReadonlyArray<Step>, registry: ToolRegistry): Step | undefined =>
  steps.find((step) => {
    if (step.state !== "running") return false
    const tool = registry.tools.find((candidate) => candidate.name === step.tool)
    // A tool the registry no longer has is unknown: it is in doubt rather than assumed harmless.
    if (tool === undefined) return true
    const acts = tool.effects.navigates || tool.effects.submits || tool.effects.clicks
    return acts && !tool.effects.idempotent
  })

/** What a run whose step is in doubt says: which step, why it was not repeated, what to check. */
export const inDoubtDetail = (step: Step): string =>
  `step ${step.index} (${step.tool}) had started when the process running it died and may already have clicked or submitted: it is not repeated, so the run needs review: check the site for its effect and start the task again only if it did not happen`

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
  // A secret the run does not name (a misspelt `--secret passwrd=…`) would become a plain input: stored,
  // traced and prompted in clear. It is refused by name, never by value.
  const unknown = Object.keys(options.secrets ?? {}).filter(
    (name) => !record.task.secretInputs.includes(name),
  )
  if (missing.length > 0 || unknown.length > 0) {
    const known = record.task.secretInputs.map((name) => JSON.stringify(name)).join(", ") || "none"
    return yield* new AgentError({
      reason: new InvalidInput({
        what: "resume secrets",
        issues: [
          ...missing.map(
            (name) =>
              `secrets.${name}: run ${record.runId} needs the secret input "${name}" again (the store keeps only a placeholder): pass it in options.secrets`,
          ),
          ...unknown.map(
            (name) =>
              `secrets.${name}: run ${record.runId} has no secret input "${name}" (its secret inputs: ${known}): pass only those`,
          ),
        ],
      }),
    })
  }
  const inputs = { ...record.task.inputs, ...(options.secrets ?? {}) }
  const startUrl = record.task.startUrl
  const task: AgentTask = {
    ...record.task,
    inputs,
    // A start URL's credential is stored as its placeholder (`<secret:start_url_password>`): given again.
    ...(startUrl === undefined
      ? {}
      : { startUrl: makeRedactor({ inputs, secretInputs: record.task.secretInputs }).reveal(startUrl) }),
  }
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
          : endedByCrash(record) || endedByStop(record)
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
    // A URL on the start origin carrying the start URL's credential was stored with its placeholder.
    const url =
      context.redactor.misplaced("navigate", { url: lastUrl }) === undefined
        ? context.redactor.reveal(lastUrl)
        : lastUrl
    yield* context.driver.navigate(url).pipe(Effect.ignore)
    context.lastUrl = lastUrl
  }
  return { context, steps }
})

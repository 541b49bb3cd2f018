import { join, resolve } from "node:path"
import type { Writable } from "node:stream"
import { hideUrlCredentials } from "@sextant/core"
import { describeFirstFailure, type TraceRecord } from "@sextant/executor"
import type { ModelAttempt } from "@sextant/openai"
import type { AgentRunResult, CreateAgentOptions } from "../createAgent.ts"
import type { ModelLimits } from "./AgentFlags.ts"
import { recordsTable, startProgress } from "./CliOutput.ts"

/** What a run left on disk, for a person to open. */
export interface Artefacts {
  readonly screenshots: Array<string>
}

/** The model's part of a run, as the end report counts it. */
export interface ModelTally {
  /** Attempts that were a retry of a failed one. */
  retries: number
  /** The last attempt that failed, when the last attempt failed. */
  lastFailure: ModelAttempt | undefined
}

/**
 * Follows a run's events on stderr: the plan, each step as it starts and ends, retries, replans and model
 * calls; between them, a line every few seconds says what the run is waiting on. `onModelAttempt` hears
 * each model call attempt (the model options' `onAttempt`): a failed one is shown at once, and a wait on
 * the model reads `waiting for the model at <baseURL> (attempt 2 of 2, 3 s)`.
 */
export const followRun = (err: Writable, everyMs?: number) => {
  const progress = startProgress(err, everyMs)
  const artefacts: Artefacts = { screenshots: [] }
  const model: ModelTally = { retries: 0, lastFailure: undefined }
  let steps = 0
  const onModelAttempt = (attempt: ModelAttempt): void => {
    switch (attempt.phase) {
      case "start":
        if (attempt.attempt > 1) model.retries += 1
        progress.say(
          undefined,
          (seconds) =>
            `waiting for the model at ${hideUrlCredentials(attempt.baseURL)} (attempt ${attempt.attempt} of ${attempt.attempts}, ${seconds} s)`,
        )
        break
      case "answered":
        model.lastFailure = undefined
        progress.say(undefined, "working on the model's answer")
        break
      case "failed": {
        model.lastFailure = attempt
        const again = attempt.error?.isRetryable === true && attempt.attempt < attempt.attempts
        // The hint comes once, with the run's outcome; each attempt says only what happened.
        const what =
          attempt.error?.reason._tag === "Timeout"
            ? `no answer within ${attempt.timeoutMs} ms`
            : (attempt.error?.reason.message ?? "no answer")
        // A refusal that is not tried again is the run's own error, shown once with its outcome.
        if (again || attempt.error?.reason._tag === "Timeout")
          progress.say(
            `  model call to ${hideUrlCredentials(attempt.baseURL)} failed (attempt ${attempt.attempt} of ${attempt.attempts}): ${what}${again ? "; trying again" : ""}`,
          )
        break
      }
    }
  }
  const onEvent = (event: TraceRecord): void => {
    switch (event.type) {
      case "run-start":
        progress.say(
          event.resumed
            ? `resuming run ${event.runId}: finished steps are not run again`
            : `run ${event.runId}`,
          event.resumed ? "the next step" : "planning",
        )
        break
      case "plan":
        progress.say(
          `plan (revision ${event.revision}): ${event.steps.map((step) => step.tool).join(" → ") || "no steps"}`,
          "the first step",
        )
        break
      case "step-start":
        progress.say(
          undefined,
          `step ${event.step} ${event.tool}${event.attempt > 1 ? ` (attempt ${event.attempt})` : ""}`,
        )
        break
      case "step-end":
        steps += 1
        // A failed step and the run's end can point at the same file: name each file once.
        if (event.screenshot !== undefined && !artefacts.screenshots.includes(event.screenshot))
          artefacts.screenshots.push(event.screenshot)
        progress.say(
          `  [${event.step}] ${event.tool} ${event.ok ? "ok" : `failed: ${event.message ?? ""}`} (${Math.round(event.durationMs)} ms)`,
          "the next step",
        )
        break
      case "retry":
        progress.say(
          `  [${event.step}] retry ${event.attempt} (${event.reason}: ${event.recovery}): ${event.message}`,
        )
        break
      case "replan":
        progress.say(
          `  replanning (${event.mode}) after step ${event.failedStep}: ${event.message}`,
          "the model",
        )
        break
      case "guardrail":
        progress.say(`  [${event.step}] ${event.tool} refused: ${event.message}`)
        break
      case "llm-call":
        progress.say(`  model call (${event.purpose}): ${event.tokens.total ?? 0} tokens`)
        break
      case "run-end":
        progress.say(undefined, "closing the browser")
        break
    }
  }
  return { onEvent, onModelAttempt, model, artefacts, steps: () => steps, stop: progress.stop }
}

/** What the end report says about the model, when a run used one. */
export interface ModelReport {
  readonly tally: ModelTally
  readonly limits: ModelLimits
}

const plural = (count: number, one: string, many: string) => `${count} ${count === 1 ? one : many}`

/**
 * The line that says where the model's limits came from, after a run whose last model call failed, so
 * a person knows which setting to change (`--model-timeout`, `SEXTANT_LLM_TIMEOUT_MS`, the config).
 */
const modelLimitLine = (model: ModelReport | undefined): string | undefined => {
  const failure = model?.tally.lastFailure
  if (model === undefined || failure === undefined) return undefined
  const { limits } = model
  const tries = `${failure.attempt} attempt${failure.attempt === 1 ? "" : "s"}`
  if (failure.error?.reason._tag === "Timeout")
    return `model: ${tries} at ${limits.baseURL} got no answer within ${limits.timeoutMs} ms each (timeout from ${limits.timeoutFrom}, ${plural(limits.maxRetries, "retry", "retries")} from ${limits.retriesFrom}): check the endpoint, or raise the timeout with --model-timeout <ms>`
  // Only a failure that retries could have outlasted is about the limits; a refusal is not.
  if (failure.error?.isRetryable !== true) return undefined
  return `model: ${tries} at ${limits.baseURL} failed (${plural(limits.maxRetries, "retry", "retries")} from ${limits.retriesFrom}; --model-retries changes it)`
}

/** The agent's options with the model's attempts shown on the progress line (when there is a model). */
export const withModelProgress = (
  options: CreateAgentOptions,
  onAttempt: (attempt: ModelAttempt) => void,
): CreateAgentOptions =>
  options.model === undefined ? options : { ...options, model: { ...options.model, onAttempt } }

/** The end report's model part, when the run was given a model. */
export const modelReport = (
  resolved: { readonly modelLimits?: ModelLimits | undefined },
  follow: { readonly model: ModelTally },
): ModelReport | undefined =>
  resolved.modelLimits === undefined ? undefined : { tally: follow.model, limits: resolved.modelLimits }

/** The lines a person reads after a run: outcome, summary, records as a table, where the files are. */
export const summaryLines = (
  result: AgentRunResult,
  artefacts: Artefacts,
  store: string,
  /** The grid the run's browser was on, which `resume` needs again (`--grid`). */
  grid?: string,
  /** The model's retries and limits, when the run used a model. */
  model?: ModelReport,
): string => {
  const modelRetries = model?.tally.retries ?? 0
  const retries = result.metrics.retries + modelRetries
  const limitLine = modelLimitLine(model)
  const figures = `in ${Math.round(result.metrics.durationMs)} ms, ${result.metrics.steps} steps, ${plural(retries, "retry", "retries")}${modelRetries > 0 ? ` (${modelRetries} of model calls)` : ""}, ${result.metrics.replans} replans`
  // A failed run leads with its first cause (the step and what the page showed); what followed from
  // it (a replan, a quota, the parts left undone) comes after.
  const cause = result.firstFailure === undefined ? undefined : describeFirstFailure(result.firstFailure)
  const lead = cause === undefined ? undefined : `Failed at ${cause}. `
  const summary =
    lead !== undefined && result.summary.summary.startsWith(lead)
      ? result.summary.summary.slice(lead.length)
      : result.summary.summary
  const lines = [
    ...(cause === undefined
      ? [`${result.status} (${result.endReason}) ${figures}`]
      : [`${result.status} at ${cause}`, `(${result.endReason}) ${figures}`]),
    summary,
    ...(limitLine === undefined ? [] : [limitLine]),
    ...(result.summary.unmetParts ?? []).map(
      // The reason a run had no plan is its summary already: said once, not twice.
      (unmet) =>
        `  not done: ${unmet.part}\n    check: ${unmet.check}\n    seen: ${unmet.evidence !== "" && summary.endsWith(unmet.evidence) ? "(the error above)" : unmet.evidence}`,
    ),
  ]
  if (Array.isArray(result.output)) {
    lines.push(`${result.output.length} records:`, recordsTable(result.output))
  } else if (result.output !== undefined && result.output !== null) {
    lines.push(`output: ${typeof result.output === "string" ? result.output : JSON.stringify(result.output)}`)
  }
  if (result.tracePath !== undefined) lines.push(`trace: ${result.tracePath}`)
  if (result.transcriptPath !== undefined) lines.push(`transcript: ${result.transcriptPath}`)
  for (const screenshot of artefacts.screenshots) lines.push(`screenshot: ${screenshot}`)
  lines.push(`store: ${store} (run ${result.runId})`)
  // A run its browser was lost under (a crash, a grid node gone) continues where it stopped.
  const lastFailure = result.observations.findLast((observation) => !observation.ok)
  const resumeCommand = `sextant resume ${result.runId}${store === ".sextant/sextant.db" ? "" : ` --store ${store}`}${grid === undefined ? "" : ` --grid ${grid}`}`
  if (result.status === "FAILED" && lastFailure?.error?.reason === "DriverCrashed")
    lines.push(`the browser was lost mid-run; continue it on a new browser with: ${resumeCommand}`)
  if (result.status === "CANCELLED")
    // A plan run stopped before its plan was made has nothing to continue: it starts again.
    lines.push(
      result.plan === undefined && result.observations.length === 0
        ? "nothing ran yet: start it again with sextant run"
        : `continue it with: ${resumeCommand}`,
    )
  return lines.join("\n")
}

/** What is printed when Ctrl-C stopped a run before it ended. */
export const interruptedLines = (
  runId: string,
  steps: number,
  traceDirectory: string | undefined,
  store: string,
): string =>
  [
    `CANCELLED after ${steps} finished step${steps === 1 ? "" : "s"}: the run was interrupted and its browser closed`,
    ...(traceDirectory === undefined ? [] : [`trace: ${join(resolve(traceDirectory), `${runId}.jsonl`)}`]),
    `store: ${store} (run ${runId})`,
    `continue it with: sextant resume ${runId}${store === ".sextant/sextant.db" ? "" : ` --store ${store}`}`,
  ].join("\n")

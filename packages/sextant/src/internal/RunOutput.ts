import { join, resolve } from "node:path"
import type { Writable } from "node:stream"
import { describeFirstFailure, type TraceRecord } from "@sextant/executor"
import type { AgentRunResult } from "../createAgent.ts"
import { recordsTable, startProgress } from "./CliOutput.ts"

/** What a run left on disk, for a person to open. */
export interface Artefacts {
  readonly screenshots: Array<string>
}

/**
 * Follows a run's events on stderr: the plan, each step as it starts and ends, retries, replans and model
 * calls; between them, a line every few seconds says what the run is waiting on.
 */
export const followRun = (err: Writable) => {
  const progress = startProgress(err)
  const artefacts: Artefacts = { screenshots: [] }
  let steps = 0
  const onEvent = (event: TraceRecord): void => {
    switch (event.type) {
      case "run-start":
        progress.say(`run ${event.runId}`, "planning")
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
  return { onEvent, artefacts, steps: () => steps, stop: progress.stop }
}

/** The lines a person reads after a run: outcome, summary, records as a table, where the files are. */
export const summaryLines = (
  result: AgentRunResult,
  artefacts: Artefacts,
  store: string,
  /** The grid the run's browser was on, which `resume` needs again (`--grid`). */
  grid?: string,
): string => {
  const figures = `in ${Math.round(result.metrics.durationMs)} ms, ${result.metrics.steps} steps, ${result.metrics.retries} retries, ${result.metrics.replans} replans`
  // A failed run leads with its first cause (the step and what the page showed); what followed from
  // it (a replan, a quota, the parts left undone) comes after.
  const cause = result.firstFailure === undefined ? undefined : describeFirstFailure(result.firstFailure)
  const lead = cause === undefined ? undefined : `Failed at ${cause}. `
  const lines = [
    ...(cause === undefined
      ? [`${result.status} (${result.endReason}) ${figures}`]
      : [`${result.status} at ${cause}`, `(${result.endReason}) ${figures}`]),
    lead !== undefined && result.summary.summary.startsWith(lead)
      ? result.summary.summary.slice(lead.length)
      : result.summary.summary,
    ...(result.summary.unmetParts ?? []).map(
      (unmet) => `  not done: ${unmet.part}\n    check: ${unmet.check}\n    seen: ${unmet.evidence}`,
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
  if (result.status === "FAILED" && lastFailure?.error?.reason === "DriverCrashed")
    lines.push(
      `the browser was lost mid-run; continue it on a new browser with: sextant resume ${result.runId}${store === ".sextant/sextant.db" ? "" : ` --store ${store}`}${grid === undefined ? "" : ` --grid ${grid}`}`,
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

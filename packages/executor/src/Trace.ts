import { appendFileSync, existsSync, mkdirSync } from "node:fs"
import { dirname, join } from "node:path"
import type {
  GoalCheck,
  ObservedError,
  RecordedAction,
  RecordedExchange,
  RunMetrics,
  TaskState,
  TokenUsage,
} from "@sextant/core"
import type { Redactor } from "./Redaction.ts"

/** How a run ended. */
export type EndReason =
  | "completed"
  | "stopped"
  | "closed"
  | "no-progress"
  | "generation-errors"
  | "max-steps"
  | "max-duration"
  | "plan-failed"
  | "goal-unmet"
  | "cancelled"
  /** A resumed run whose in-flight step may already have acted (clicked, submitted): not repeated, FAILED for review. */
  | "needs-review"

/** One event of a run's trace, one JSON object per line of `<traceDirectory>/<runId>.jsonl`. */
export type TraceEvent =
  | {
      readonly type: "run-start"
      readonly taskId: string
      readonly goal: string
      readonly mode: "plan" | "agent"
      readonly resumed: boolean
    }
  | {
      readonly type: "plan"
      readonly revision: number
      readonly steps: ReadonlyArray<{ readonly index: number; readonly tool: string; readonly args: unknown }>
    }
  | {
      readonly type: "step-start"
      readonly step: number
      readonly tool: string
      readonly args: unknown
      readonly attempt: number
    }
  | {
      readonly type: "step-end"
      readonly step: number
      readonly tool: string
      readonly ok: boolean
      readonly durationMs: number
      readonly attempts: number
      readonly message?: string | undefined
      readonly error?: ObservedError | undefined
      readonly url?: string | undefined
      /** Where the step's screenshot was saved. */
      readonly screenshot?: string | undefined
      /**
       * Why the screenshot the step was due could not be taken or saved (a page that could not be masked
       * in a run with secrets, a driver error, a folder that cannot be written); none was stored.
       */
      readonly screenshotSkipped?: string | undefined
    }
  | {
      readonly type: "retry"
      readonly step: number
      readonly attempt: number
      readonly reason: string
      readonly recovery: string
      readonly message: string
    }
  | {
      readonly type: "replan"
      readonly mode: "partial" | "full"
      readonly failedStep: number
      readonly revision: number
      readonly message: string
    }
  | {
      readonly type: "guardrail"
      readonly step: number
      readonly tool: string
      readonly rule: string
      readonly message: string
    }
  | {
      readonly type: "llm-call"
      readonly purpose: "plan" | "replan" | "decide" | "summarize"
      readonly tokens: TokenUsage
    }
  | {
      /** What the driver did during the step, for exporting the run (see `BrowserDriver.takeRecording`). */
      readonly type: "recorded"
      readonly step: number
      readonly actions: ReadonlyArray<RecordedAction>
      readonly exchanges: ReadonlyArray<RecordedExchange>
    }
  | {
      /** The goal's parts and whether each check held when the run ended. */
      readonly type: "verified"
      readonly parts: ReadonlyArray<{
        readonly part: string
        readonly check: GoalCheck
        readonly held: boolean
      }>
    }
  | {
      readonly type: "run-end"
      readonly status: TaskState
      readonly endReason: EndReason
      readonly metrics: RunMetrics
    }

/** A trace event with the run and the time it happened. */
export type TraceRecord = TraceEvent & { readonly runId: string; readonly at: string }

/** Observability settings, each a named option with a default. */
export interface TraceOptions {
  /** Where `<runId>.jsonl` and `<runId>.transcript.txt` are written; none when undefined (the default). */
  readonly traceDirectory?: string | undefined
  /** Lines the transcript keeps. Default 500. */
  readonly transcriptMaxLines?: number | undefined
  /** Characters per transcript line. Default 500. */
  readonly transcriptMaxLineChars?: number | undefined
  /** Called with every event as it happens (already redacted). */
  readonly onEvent?: ((event: TraceRecord) => void) | undefined
}

/** The trace of one run: every sink passes through the run's redactor. */
export interface RunTrace {
  readonly emit: (event: TraceEvent) => void
  /** Adds a line to the transcript (redacted, cut to the line limit, dropped past the line limit). */
  readonly line: (text: string) => void
  readonly tracePath: string | undefined
  readonly transcriptPath: string | undefined
  /** The transcript lines so far. */
  readonly transcript: () => ReadonlyArray<string>
}

/**
 * Creates `path` and its missing parents one at a time: Node's recursive mkdir never returns for a
 * path under /proc (it retries the parent forever at full CPU). Throws the first failure.
 */
export const makeFolders = (path: string): void => {
  const missing: Array<string> = []
  let current = path
  while (!existsSync(current)) {
    missing.unshift(current)
    const parent = dirname(current)
    if (parent === current) break
    current = parent
  }
  for (const folder of missing) mkdirSync(folder)
}

/**
 * Opens the trace of one run. Events and transcript lines are appended to their files as they happen,
 * so a crash keeps everything up to the step in flight.
 *
 * @example
 * ```ts
 * import { makeRunTrace, makeRedactor } from "@sextant/executor"
 * const trace = makeRunTrace("run-1", makeRedactor(task), { traceDirectory: ".sextant/traces" })
 * trace.emit({ type: "step-start", step: 0, tool: "navigate", args: { url }, attempt: 1 })
 * ```
 */
export const makeRunTrace = (runId: string, redactor: Redactor, options: TraceOptions = {}): RunTrace => {
  const maxLines = options.transcriptMaxLines ?? 500
  const maxChars = options.transcriptMaxLineChars ?? 500
  const directory = options.traceDirectory
  if (directory !== undefined) makeFolders(directory)
  const tracePath = directory === undefined ? undefined : join(directory, `${runId}.jsonl`)
  const transcriptPath = directory === undefined ? undefined : join(directory, `${runId}.transcript.txt`)
  const lines: Array<string> = []
  let dropped = false
  return {
    tracePath,
    transcriptPath,
    emit: (event) => {
      const record = redactor.value({ ...event, runId, at: new Date().toISOString() }) as TraceRecord
      if (tracePath !== undefined) appendFileSync(tracePath, `${JSON.stringify(record)}\n`)
      options.onEvent?.(record)
    },
    line: (text) => {
      if (lines.length >= maxLines) {
        if (!dropped && transcriptPath !== undefined) {
          appendFileSync(transcriptPath, `[transcript cut at ${maxLines} lines]\n`)
        }
        dropped = true
        return
      }
      const single = redactor.text(text).replace(/\s*\n\s*/g, " ⏎ ")
      const cut = single.length > maxChars ? `${single.slice(0, maxChars - 1)}…` : single
      lines.push(cut)
      if (transcriptPath !== undefined) appendFileSync(transcriptPath, `${cut}\n`)
    },
    transcript: () => [...lines],
  }
}

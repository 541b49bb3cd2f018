import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs"
import { dirname, join, resolve } from "node:path"
import {
  causeMessage,
  type Observation,
  type RunMetrics,
  type RunRecord,
  type RunSummary,
  Store,
  StoreError,
  StoreQueryFailed,
  type TokenUsage,
} from "@sextant/core"
import { Effect } from "effect"
import type { TraceRecord } from "./Trace.ts"

/** One row of a report's timeline: a step, a model call, a guardrail refusal or a replan. */
export type ReportEntry =
  | {
      readonly kind: "step"
      readonly step: number
      readonly tool: string
      readonly target: string
      /** The call's other arguments as compact JSON (secrets are placeholders in the trace). */
      readonly args?: string | undefined
      readonly ok: boolean
      readonly durationMs: number
      readonly retries: number
      readonly signals: ReadonlyArray<string>
      readonly tokens: number
      readonly message?: string | undefined
      readonly url?: string | undefined
      /** The screenshot taken after the step, as a `data:` URL so the report stays one file. */
      readonly screenshot?: string | undefined
      /** Why the screenshot due after the step was not taken (a page that could not be masked, …). */
      readonly screenshotSkipped?: string | undefined
    }
  | { readonly kind: "model"; readonly purpose: string; readonly tokens: TokenUsage }
  | { readonly kind: "guardrail"; readonly step: number; readonly tool: string; readonly message: string }
  | { readonly kind: "replan"; readonly mode: string; readonly message: string }

/** Everything a report shows, read from the store and the run's trace. Secrets are already placeholders there. */
export interface RunReportData {
  readonly runId: string
  readonly goal: string
  readonly startUrl?: string | undefined
  readonly mode: "plan" | "agent"
  readonly status: string
  readonly endReason?: string | undefined
  readonly startedAt: string
  readonly summary?: RunSummary | undefined
  /** The goal's parts whose checks did not hold, when the executor reports them. */
  readonly unmetParts: ReadonlyArray<unknown>
  readonly metrics?: RunMetrics | undefined
  readonly timeline: ReadonlyArray<ReportEntry>
  readonly records: ReadonlyArray<unknown>
}

/** Where a report looks for the run's trace: its recorded path, else `<traceDirectory>/<runId>.jsonl`. */
export interface RunReportOptions {
  readonly traceDirectory?: string | undefined
}

const TARGET_KEYS = ["target", "ref", "selector", "url", "text", "query", "name", "label"]

const targetOf = (args: unknown): string => {
  if (typeof args !== "object" || args === null) return ""
  const record = args as Record<string, unknown>
  for (const key of TARGET_KEYS) {
    const value = record[key]
    if (typeof value === "string" && value !== "") return value
  }
  const first = Object.values(record).find((value) => typeof value === "string")
  return typeof first === "string" ? first : ""
}

const argsMaxChars = 240

const otherArgs = (args: unknown, target: string): string | undefined => {
  if (typeof args !== "object" || args === null) return undefined
  const rest = Object.fromEntries(Object.entries(args).filter(([, value]) => value !== target))
  if (Object.keys(rest).length === 0) return undefined
  const text = JSON.stringify(rest)
  return text.length > argsMaxChars ? `${text.slice(0, argsMaxChars - 1)}…` : text
}

/**
 * The records of a run's trace file (`<traceDirectory>/<runId>.jsonl`), in order; none when the file
 * is missing. A line that does not parse (the last one of a run that was killed mid-write) is skipped.
 *
 * @example
 * ```ts
 * import { readRunTrace } from "@sextant/executor"
 * const steps = readRunTrace(".sextant/traces/run-1.jsonl").filter((record) => record.type === "step-end")
 * ```
 */
export const readRunTrace = (path: string | undefined): ReadonlyArray<TraceRecord> => {
  if (path === undefined || !existsSync(path)) return []
  return readFileSync(path, "utf8")
    .split("\n")
    .filter((line) => line.trim() !== "")
    .flatMap((line) => {
      try {
        return [JSON.parse(line) as TraceRecord]
      } catch {
        return []
      }
    })
}

const pngDataUrl = (path: string | undefined, traceDirectory: string | undefined): string | undefined => {
  if (path === undefined) return undefined
  const full = traceDirectory === undefined ? resolve(path) : resolve(traceDirectory, path)
  if (!existsSync(full)) return undefined
  return `data:image/png;base64,${readFileSync(full).toString("base64")}`
}

/** Builds the timeline from the trace, pairing each finished step with its observation's signals. */
const timelineOf = (
  trace: ReadonlyArray<TraceRecord>,
  observations: ReadonlyArray<Observation>,
  traceDirectory: string | undefined,
): ReadonlyArray<ReportEntry> => {
  const entries: Array<ReportEntry> = []
  const args = new Map<number, unknown>()
  let pendingTokens = 0
  let observed = 0
  for (const event of trace) {
    switch (event.type) {
      case "step-start":
        args.set(event.step, event.args)
        break
      case "llm-call":
        if (event.purpose === "decide") pendingTokens += event.tokens.total
        else entries.push({ kind: "model", purpose: event.purpose, tokens: event.tokens })
        break
      case "step-end": {
        const observation = observations[observed]
        const matches = observation !== undefined && observation.tool === event.tool
        if (matches) observed++
        const target = targetOf(args.get(event.step))
        entries.push({
          kind: "step",
          step: event.step,
          tool: event.tool,
          target,
          args: otherArgs(args.get(event.step), target),
          ok: event.ok,
          durationMs: event.durationMs,
          retries: Math.max(0, event.attempts - 1),
          signals: matches ? (observation.signals ?? []) : [],
          tokens: pendingTokens,
          message: event.message,
          url: event.url,
          screenshot: pngDataUrl(event.screenshot, traceDirectory),
          screenshotSkipped: event.screenshotSkipped,
        })
        pendingTokens = 0
        break
      }
      case "guardrail":
        entries.push({ kind: "guardrail", step: event.step, tool: event.tool, message: event.message })
        break
      case "replan":
        entries.push({ kind: "replan", mode: event.mode, message: event.message })
        break
      default:
        break
    }
  }
  return entries
}

/** The timeline when no trace was written: the steps' observations as the store kept them. */
const timelineFromObservations = (observations: ReadonlyArray<Observation>): ReadonlyArray<ReportEntry> =>
  observations.map((observation, index) => ({
    kind: "step",
    step: index,
    tool: observation.tool,
    target: "",
    ok: observation.ok,
    durationMs: observation.durationMs,
    retries: 0,
    signals: observation.signals ?? [],
    tokens: 0,
    message: observation.message,
    url: observation.url,
  }))

const unmetPartsOf = (summary: RunSummary | undefined): ReadonlyArray<unknown> => {
  const parts = (summary as { readonly unmetParts?: unknown } | undefined)?.unmetParts
  return Array.isArray(parts) ? parts : []
}

/**
 * Reads what a report of one run shows: the task and result from the store, the extracted records,
 * and the timeline from the run's JSONL trace (its screenshots inlined).
 *
 * @example
 * ```ts
 * import { loadRunReport, renderRunReport } from "@sextant/executor"
 * const html = renderRunReport(yield* loadRunReport(runId, { traceDirectory: ".sextant/traces" }))
 * ```
 */
export const loadRunReport = Effect.fn("Executor.loadRunReport")(function* (
  runId: string,
  options: RunReportOptions = {},
) {
  const store = yield* Store
  const run: RunRecord = yield* store.getRun(runId)
  const observations = yield* store.listObservations(runId)
  const records = yield* store.listRecords(runId)
  const tracePath =
    run.result?.tracePath ??
    (options.traceDirectory === undefined ? undefined : join(options.traceDirectory, `${runId}.jsonl`))
  const trace = readRunTrace(tracePath)
  const traceDirectory = tracePath === undefined ? options.traceDirectory : dirname(tracePath)
  const runEnd = [...trace].reverse().find((event) => event.type === "run-end")
  const data: RunReportData = {
    runId,
    goal: run.task.goal,
    startUrl: run.task.startUrl,
    mode: run.mode,
    status: run.result?.status ?? run.status,
    endReason: runEnd?.type === "run-end" ? runEnd.endReason : undefined,
    startedAt: run.startedAt,
    summary: run.result?.summary,
    unmetParts: unmetPartsOf(run.result?.summary),
    metrics: run.result?.metrics,
    timeline:
      trace.length > 0
        ? timelineOf(trace, observations, traceDirectory)
        : timelineFromObservations(observations),
    // A run whose tools returned records keeps them in the store; otherwise its output may be the list.
    records:
      records.length > 0
        ? records.map((record) => record.data)
        : Array.isArray(run.result?.output)
          ? run.result.output
          : [],
  }
  return data
})

const escapeHtml = (text: string): string =>
  text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;")

const cell = (value: unknown): string => {
  if (value === undefined || value === null) return ""
  return escapeHtml(typeof value === "string" ? value : (JSON.stringify(value) ?? String(value)))
}

const describePart = (part: unknown): string => {
  if (typeof part === "string") return part
  if (typeof part === "object" && part !== null) {
    // An unmet part as the executor reports it: { part, check, evidence }.
    const { part: name, check, evidence, seen, message } = part as Record<string, unknown>
    const found = evidence ?? seen
    const words = [name, check, found === undefined ? undefined : `saw ${String(found)}`, message].filter(
      (word) => typeof word === "string" && word !== "",
    )
    if (words.length > 0) return words.join(": ")
  }
  return JSON.stringify(part)
}

const recordsTable = (records: ReadonlyArray<unknown>, limit: number): string => {
  if (records.length === 0) return "<p class=muted>No records were extracted.</p>"
  const objects = records.map((record) =>
    typeof record === "object" && record !== null && !Array.isArray(record)
      ? (record as Record<string, unknown>)
      : { value: record },
  )
  const columns = [...new Set(objects.flatMap((record) => Object.keys(record)))]
  const shown = objects.slice(0, limit)
  const rows = shown
    .map((record) => `<tr>${columns.map((column) => `<td>${cell(record[column])}</td>`).join("")}</tr>`)
    .join("\n")
  const more =
    objects.length > limit ? `<p class=muted>${objects.length - limit} more records are not shown.</p>` : ""
  return `<table class=records><thead><tr>${columns.map((column) => `<th>${escapeHtml(column)}</th>`).join("")}</tr></thead><tbody>\n${rows}\n</tbody></table>${more}`
}

const timelineRows = (timeline: ReadonlyArray<ReportEntry>): string =>
  timeline
    .map((entry) => {
      switch (entry.kind) {
        case "step":
          return `<tr class="step ${entry.ok ? "ok" : "error"}"><td>${entry.step}</td><td><code>${escapeHtml(entry.tool)}</code></td><td>${cell(entry.target)}${entry.args === undefined ? "" : `<div class=muted><code>${cell(entry.args)}</code></div>`}</td><td class=num>${Math.round(entry.durationMs)} ms</td><td class=num>${entry.retries}</td><td>${entry.signals.map((signal) => `<span class=signal>${escapeHtml(signal)}</span>`).join(" ")}</td><td class=num>${entry.tokens === 0 ? "" : entry.tokens}</td><td>${entry.ok ? "ok" : `<strong>failed</strong>: ${cell(entry.message)}`}${entry.url === undefined ? "" : `<div class=muted>${cell(entry.url)}</div>`}</td><td>${entry.screenshot !== undefined ? `<a href="${entry.screenshot}"><img class=thumb alt="screenshot after step ${entry.step}" src="${entry.screenshot}"></a>` : entry.screenshotSkipped !== undefined ? `<span class=muted>no screenshot: ${cell(entry.screenshotSkipped)}</span>` : ""}</td></tr>`
        case "model":
          return `<tr class=model><td></td><td colspan=5>model call: ${escapeHtml(entry.purpose)}</td><td class=num>${entry.tokens.total}</td><td colspan=2 class=muted>${entry.tokens.prompt} prompt + ${entry.tokens.completion} completion</td></tr>`
        case "guardrail":
          return `<tr class=error><td>${entry.step}</td><td><code>${escapeHtml(entry.tool)}</code></td><td colspan=7><strong>guardrail</strong>: ${cell(entry.message)}</td></tr>`
        default:
          return `<tr class=replan><td></td><td colspan=8>replan (${escapeHtml(entry.mode)}): ${cell(entry.message)}</td></tr>`
      }
    })
    .join("\n")

const style = `
body{font:14px/1.45 system-ui,sans-serif;margin:2rem auto;max-width:1100px;padding:0 1rem;color:#1d2330}
h1{font-size:1.35rem;margin:0 0 .25rem}h2{font-size:1.05rem;margin:1.6rem 0 .5rem}
.status{display:inline-block;padding:.15rem .6rem;border-radius:1rem;font-weight:600;color:#fff}
.COMPLETED{background:#1f7a3a}.FAILED{background:#b3261e}.CANCELLED,.RUNNING,.WAITING,.PLANNING,.CREATED{background:#6b6f7a}
table{border-collapse:collapse;width:100%}th,td{border-bottom:1px solid #e3e5ea;padding:.35rem .5rem;text-align:left;vertical-align:top}
th{background:#f4f5f7;font-weight:600}.num{text-align:right;white-space:nowrap}
tr.error td{background:#fdecea}tr.model td{background:#f3f0fb;color:#4a3f73}tr.replan td{background:#fff7e0}
.signal{display:inline-block;background:#e8f0fe;color:#1a4fa3;border-radius:.3rem;padding:0 .35rem;margin:.1rem;font-size:.8rem}
.muted{color:#6b6f7a;font-size:.85rem}.thumb{width:160px;border:1px solid #d0d3da;border-radius:.25rem}
.unmet{background:#fdecea;border-left:4px solid #b3261e;padding:.5rem .8rem}
dl{display:grid;grid-template-columns:max-content 1fr;gap:.2rem 1rem}dt{color:#6b6f7a}dd{margin:0}
code{font-family:ui-monospace,monospace;font-size:.9em}
`

/**
 * Renders a run report as one self-contained HTML file: no scripts, no requests, screenshots inlined.
 *
 * @example
 * ```ts
 * import { renderRunReport } from "@sextant/executor"
 * writeFileSync("report.html", renderRunReport(data))
 * ```
 */
export const renderRunReport = (
  data: RunReportData,
  options: { readonly maxRecords?: number } = {},
): string => {
  const metrics = data.metrics
  const summary = data.summary
  const unmet =
    data.unmetParts.length === 0
      ? ""
      : `<div class=unmet><strong>Unmet parts</strong><ul>${data.unmetParts.map((part) => `<li>${escapeHtml(describePart(part))}</li>`).join("")}</ul></div>`
  const facts = [
    ["run", data.runId],
    ["mode", data.mode],
    ["started", data.startedAt],
    ...(data.startUrl === undefined ? [] : [["start URL", data.startUrl]]),
    ...(data.endReason === undefined ? [] : [["ended", data.endReason]]),
    ...(metrics === undefined
      ? []
      : [
          ["steps", String(metrics.steps)],
          ["retries / replans", `${metrics.retries} / ${metrics.replans}`],
          ["time", `${(metrics.durationMs / 1000).toFixed(1)} s`],
          ["model calls / tokens", `${metrics.llmCalls} / ${metrics.tokens.total}`],
        ]),
  ]
  return `<!doctype html>
<html lang=en>
<head>
<meta charset=utf-8>
<meta name=viewport content="width=device-width, initial-scale=1">
<title>Sextant run: ${escapeHtml(data.goal)}</title>
<style>${style}</style>
</head>
<body>
<header>
<p class=muted>Sextant run report</p>
<h1>${escapeHtml(data.goal)}</h1>
<p><span class="status ${escapeHtml(data.status)}">${escapeHtml(data.status)}</span> ${summary === undefined ? "" : escapeHtml(summary.summary)}</p>
${unmet}
<dl>${facts.map(([term, value]) => `<dt>${escapeHtml(term ?? "")}</dt><dd>${escapeHtml(value ?? "")}</dd>`).join("")}</dl>
${summary === undefined || summary.keyFindings.length === 0 ? "" : `<h2>Findings</h2><ul>${summary.keyFindings.map((finding) => `<li>${escapeHtml(finding)}</li>`).join("")}</ul>`}
${summary === undefined || summary.nextSuggestions.length === 0 ? "" : `<h2>Next</h2><ul>${summary.nextSuggestions.map((next) => `<li>${escapeHtml(next)}</li>`).join("")}</ul>`}
</header>
<main>
<h2>Timeline</h2>
<table class=timeline><thead><tr><th>#</th><th>tool</th><th>target</th><th>time</th><th>retries</th><th>signals</th><th>tokens</th><th>result</th><th>screenshot</th></tr></thead>
<tbody>
${timelineRows(data.timeline)}
</tbody></table>
<h2>Extracted records (${data.records.length})</h2>
${recordsTable(data.records, options.maxRecords ?? 500)}
</main>
</body>
</html>
`
}

/**
 * Writes the HTML report of a stored run to `path` (directories are made) and returns the absolute path.
 *
 * @example
 * ```ts
 * import { writeRunReport } from "@sextant/executor"
 * const path = yield* writeRunReport(runId, ".sextant/reports/run.html", { traceDirectory: ".sextant/traces" })
 * ```
 */
export const writeRunReport = Effect.fn("Executor.writeRunReport")(function* (
  runId: string,
  path: string,
  options: RunReportOptions = {},
) {
  const data = yield* loadRunReport(runId, options)
  const target = resolve(path)
  yield* Effect.try({
    try: () => {
      mkdirSync(dirname(target), { recursive: true })
      writeFileSync(target, renderRunReport(data))
    },
    catch: (cause) =>
      new StoreError({
        method: "writeRunReport",
        reason: new StoreQueryFailed({
          operation: `writing the report ${target}`,
          detail: causeMessage(cause),
        }),
        cause,
      }),
  })
  return target
})

import type { Writable } from "node:stream"
import { isCredentialParameter, isDriverError } from "@sextant/core"
import type { z } from "zod"

/** `startUrl` → `--start-url`: messages name the flag a person typed, not the field behind it. */
/**
 * Why `--input name=value` may not be given (to `sextant enqueue` when `queued`), or undefined: an input whose name says it holds a credential
 * (`password`, `api_key`, `token`, read as core's `isCredentialParameter` reads a URL parameter) would be
 * written in clear to the trace, the transcript, the store and every prompt, where a secret shows only as
 * `<secret:name>`.
 */
export const credentialInputProblem = (entry: string, queued = false): string | undefined => {
  const name = entry.split("=", 1)[0] ?? ""
  if (!isCredentialParameter(name)) return undefined
  const variable = `SEXTANT_SECRET_${name.toUpperCase()}`
  return queued
    ? `${name} is named like a credential, and an input travels in clear through Redis and into the trace, the transcript and the store: give it with --secret ${name}, and each worker reads its value from ${variable}`
    : `${name} is named like a credential, and an input is written in clear to the trace, the transcript and the store: give it with --secret ${name} (its value from ${variable}, or --secret ${name}=…), shown everywhere as <secret:${name}>`
}

export const flagOf = (field: string): string =>
  `--${field.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`)}`

/**
 * Writes one line per problem, each naming the flag (or `<argument>`) it is about, and one hint line
 * instead of the whole help. Returns the usage exit code, 2.
 */
export const usageError = (
  command: string,
  issues: ReadonlyArray<{ readonly field: string; readonly message: string }>,
  err: Writable,
  positional: ReadonlyArray<string> = [],
): number => {
  for (const issue of issues) {
    const name = positional.includes(issue.field) ? `<${issue.field}>` : flagOf(issue.field)
    err.write(`sextant ${command}: ${name}: ${issue.message}\n`)
  }
  err.write(`(run 'sextant ${command} --help' for the options)\n`)
  return 2
}

/** The issues of a failed zod parse, by top-level field. */
export const issuesOf = (error: z.ZodError): Array<{ field: string; message: string }> =>
  error.issues.map((issue) => ({ field: String(issue.path[0] ?? "arguments"), message: issue.message }))

const cell = (value: unknown, width: number): string => {
  const text =
    value === null || value === undefined
      ? ""
      : typeof value === "string"
        ? value
        : typeof value === "number" || typeof value === "boolean"
          ? String(value)
          : JSON.stringify(value)
  const flat = text.replace(/\s+/g, " ")
  return flat.length > width ? `${flat.slice(0, width - 1)}…` : flat
}

/** Options of {@link recordsTable}. */
export interface TableOptions {
  readonly maxRows?: number
  readonly maxColumnWidth?: number
}

/**
 * Records as a plain-text table: one column per field (in first-seen order), long cells cut with "…",
 * at most `maxRows` rows and a line saying how many more there are.
 */
export const recordsTable = (records: ReadonlyArray<unknown>, options: TableOptions = {}): string => {
  const maxRows = options.maxRows ?? 20
  const maxWidth = options.maxColumnWidth ?? 40
  const rows = records.map((record) =>
    record !== null && typeof record === "object" && !Array.isArray(record)
      ? (record as Record<string, unknown>)
      : { value: record },
  )
  const columns = [...new Set(rows.flatMap((row) => Object.keys(row)))]
  if (columns.length === 0) return "(no records)"
  const shown = rows.slice(0, maxRows)
  const widths = columns.map((column) =>
    Math.min(maxWidth, Math.max(column.length, ...shown.map((row) => cell(row[column], maxWidth).length))),
  )
  const line = (values: ReadonlyArray<string>) =>
    values
      .map((value, index) => value.padEnd(widths[index] ?? 0))
      .join("  ")
      .trimEnd()
  const lines = [
    line(columns.map((column, index) => cell(column, widths[index] ?? maxWidth))),
    line(widths.map((width) => "-".repeat(width))),
    ...shown.map((row) => line(columns.map((column, index) => cell(row[column], widths[index] ?? maxWidth)))),
  ]
  if (rows.length > shown.length) lines.push(`… ${rows.length - shown.length} more (--json prints them all)`)
  return lines.join("\n")
}

/**
 * A line on stderr every `everyMs` while nothing else was printed, so a person waiting on a model call
 * or a slow page sees that the run is alive and what it waits on.
 */
export const startProgress = (err: Writable, everyMs = 5_000, first = "starting the run") => {
  const started = Date.now()
  let last = Date.now()
  // What the run waits on, given the seconds since it began waiting on it.
  let doing: (seconds: number) => string = (seconds) => `${first} (${seconds} s)`
  const timer = setInterval(() => {
    if (Date.now() - last < everyMs) return
    err.write(`  … ${doing(Math.round((Date.now() - started) / 1000))}\n`)
    last = Date.now()
  }, 500)
  timer.unref()
  return {
    /**
     * Prints a line now and says what the run waits on next: a phrase (shown with the seconds since the
     * run started), or a function of the seconds since this wait began (shown as it words them).
     */
    say: (line: string | undefined, next?: string | ((seconds: number) => string)) => {
      if (line !== undefined) err.write(`${line}\n`)
      if (typeof next === "string") doing = (seconds) => `${next} (${seconds} s)`
      else if (next !== undefined) {
        const since = Date.now()
        doing = () => next(Math.round((Date.now() - since) / 1000))
      }
      last = Date.now()
    },
    stop: () => clearInterval(timer),
  }
}

/** The two ways a command's run is stopped from outside (see {@link withInterrupt}). */
export interface Interrupts {
  /** Aborted by Ctrl-C: the run stops after the step in flight and can be resumed. */
  readonly stop: AbortSignal
  /** Aborted by SIGTERM: the run is cut at once (the step in flight too). */
  readonly signal: AbortSignal
}

/**
 * Runs `body` with the signals Ctrl-C (SIGINT) and SIGTERM abort. Ctrl-C asks the run to stop after the
 * step in flight (a model call is cut at once), so it ends CANCELLED with every finished step stored
 * and `sextant resume` continues it; SIGTERM cuts it at once. The listeners stay for the whole body, so
 * the browser's own exit hook leaves the shutdown to the run (which closes the browser and prints its
 * summary); a second Ctrl-C or SIGTERM exits at once. Resolves the body's exit code, or 130 when it was
 * interrupted.
 */
export const withInterrupt = async (
  err: Writable,
  body: (interrupts: Interrupts) => Promise<number>,
): Promise<number> => {
  const stop = new AbortController()
  const cut = new AbortController()
  const onSignal = (signal: NodeJS.Signals) => {
    if (stop.signal.aborted || cut.signal.aborted) process.exit(130)
    if (signal === "SIGINT") {
      err.write("\nCtrl-C: stopping after the step in flight (Ctrl-C again quits at once)…\n")
      stop.abort(new Error("stopped by Ctrl-C"))
    } else {
      err.write(`\n${signal}: stopping the run and closing the browser…\n`)
      cut.abort(new Error(`interrupted by ${signal}`))
    }
  }
  process.on("SIGINT", onSignal)
  process.on("SIGTERM", onSignal)
  try {
    const code = await body({ stop: stop.signal, signal: cut.signal })
    return stop.signal.aborted || cut.signal.aborted ? 130 : code
  } finally {
    process.off("SIGINT", onSignal)
    process.off("SIGTERM", onSignal)
  }
}

/**
 * A grid that gave no session (nothing answers at the URL, no node offers Chrome, a bad value): one
 * line naming where the grid was given (`--grid <url>`, or `<config>: browser.grid <url>`) and what to
 * do, and the usage exit code, 2; undefined for any other error.
 */
export const gridProblem = (
  command: string,
  error: unknown,
  grid: string | undefined,
  err: Writable,
): number | undefined => {
  if (grid === undefined || !isDriverError(error) || error.method !== "connectGrid") return undefined
  err.write(`sextant ${command}: ${grid}: ${error.reason.message}\n`)
  return 2
}

/** Where the grid of a command was given, for {@link gridProblem}: the flag, else the config's field. */
export const gridSource = (
  flag: string | undefined,
  config: { readonly path?: string | undefined; readonly browser?: object | undefined } | undefined,
): string | undefined => {
  if (flag !== undefined) return `--grid ${flag}`
  const browser = config?.browser as { readonly grid?: unknown } | undefined
  return typeof browser?.grid === "string"
    ? `${config?.path ?? "the config"}: browser.grid ${browser.grid}`
    : undefined
}

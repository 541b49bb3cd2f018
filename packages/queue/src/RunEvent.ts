/**
 * What a worker reports of a run as it goes, one per trace event: small enough for a BullMQ progress
 * update, enough for a follower to print the run's steps. Never the page's data or a secret.
 *
 * @example
 * ```ts
 * const event: RunEvent = { type: "step-end", step: 3, tool: "click", ok: true, at: "2026-11-27T23:00:00.000Z" }
 * ```
 */
export interface RunEvent {
  /** The trace event's type: `run-start`, `plan`, `step-start`, `step-end`, `retry`, `replan`, `run-end`, … */
  readonly type: string
  readonly step?: number | undefined
  readonly tool?: string | undefined
  readonly ok?: boolean | undefined
  /** The run's status on `run-end`. */
  readonly status?: string | undefined
  /** A short message (a failure, a retry's reason, a run's end reason), cut to 300 characters. */
  readonly message?: string | undefined
  /** Who ran it: the worker's name. */
  readonly worker?: string | undefined
  readonly at: string
}

const cut = (value: unknown): string | undefined =>
  typeof value === "string" ? (value.length > 300 ? `${value.slice(0, 297)}...` : value) : undefined

/**
 * The {@link RunEvent} of one of the executor's trace events (anything with a `type`); `redact` is
 * applied to the message before it is cut, so a cut never leaves part of a secret behind.
 */
export const runEventOf = (
  event: unknown,
  worker: string,
  redact: (text: string) => string = (text) => text,
): RunEvent | undefined => {
  if (typeof event !== "object" || event === null) return undefined
  const record = event as Record<string, unknown>
  if (typeof record.type !== "string") return undefined
  const said = record.message ?? record.endReason
  const message = cut(typeof said === "string" ? redact(said) : said)
  return {
    type: record.type,
    ...(typeof record.step === "number" ? { step: record.step } : {}),
    ...(typeof record.tool === "string" ? { tool: record.tool } : {}),
    ...(typeof record.ok === "boolean" ? { ok: record.ok } : {}),
    ...(typeof record.status === "string" ? { status: record.status } : {}),
    ...(message === undefined ? {} : { message }),
    worker,
    at: new Date().toISOString(),
  }
}

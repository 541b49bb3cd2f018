import { z } from "zod"
import { causeMessage } from "./CauseMessage.ts"

/**
 * What a page change meant, from the semantic diff of two snapshots.
 */
export const Signal = z.enum([
  "ScreenLoaded",
  "FormSubmitted",
  "ResultsAppeared",
  "ErrorAppeared",
  "NavigationOccurred",
  "NoOp",
])
export type Signal = z.output<typeof Signal>

/** A typed error as recorded in an observation: tag, reason tag, message, retryable. */
export const ObservedError = z.object({
  tag: z.string(),
  reason: z.string(),
  message: z.string(),
  retryable: z.boolean(),
})
export type ObservedError = z.output<typeof ObservedError>

/**
 * What one tool call saw and did.
 *
 * @example
 * ```ts
 * import { Observation } from "@sextant/core"
 * Observation.parse({ tool: "navigate", ok: true, data: { url: "http://127.0.0.1/" }, durationMs: 120, at: new Date().toISOString() })
 * ```
 */
export const Observation = z.object({
  tool: z.string().min(1),
  ok: z.boolean(),
  data: z.unknown(),
  message: z.string().optional(),
  error: ObservedError.optional(),
  durationMs: z.number().nonnegative(),
  at: z.iso.datetime(),
  url: z.string().optional(),
  signals: z.array(Signal).optional(),
})
export type Observation = z.output<typeof Observation>

/** Turns any typed Sextant error (or anything thrown) into the `ObservedError` form. */
export const observeError = (error: unknown): ObservedError => {
  if (typeof error === "object" && error !== null) {
    const record = error as {
      _tag?: unknown
      reason?: { _tag?: unknown }
      message?: unknown
      isRetryable?: unknown
    }
    return {
      tag: typeof record._tag === "string" ? record._tag : "Error",
      reason: typeof record.reason?._tag === "string" ? record.reason._tag : "Unknown",
      message: causeMessage(error),
      retryable: record.isRetryable === true,
    }
  }
  return { tag: "Error", reason: "Unknown", message: causeMessage(error), retryable: false }
}

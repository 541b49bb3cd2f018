import { AgentTask, Plan, type RunRecord, RunResult, TaskState } from "@sextant/core"
import { z } from "zod"

// The same row checks as @sextant/memory's SqliteStore (adapters do not import each other): a stored
// JSON value is parsed and checked against its schema, and a row that fails is a `CorruptRow` naming the
// run and the row, turned into `StoreCorrupt` at the boundary.

/** A row that cannot be read back as what it should be. */
export class CorruptRow extends Error {
  readonly runId: string
  readonly row: string
  readonly detail: string
  constructor(runId: string, row: string, detail: string) {
    super(`${row} of run ${runId}: ${detail}`)
    this.runId = runId
    this.row = row
    this.detail = detail
  }
}

/**
 * Reads one stored JSON value and checks it against its schema. The parsed JSON is returned as stored
 * (the schema only checks it), so fields a caller added beyond the schema survive a round trip.
 */
export const decode = <T>(
  schema: z.ZodType,
  text: string | null | undefined,
  runId: string,
  row: string,
  asWritten: (value: unknown) => unknown = (value) => value,
): T | undefined => {
  if (text === null || text === undefined) return undefined
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch (error) {
    throw new CorruptRow(
      runId,
      row,
      `not valid JSON: ${error instanceof Error ? error.message : String(error)}`,
    )
  }
  const checked = schema.safeParse(asWritten(value))
  if (!checked.success) {
    const issue = checked.error.issues[0]
    const where = issue === undefined || issue.path.length === 0 ? "" : `${issue.path.join(".")}: `
    throw new CorruptRow(runId, row, `does not fit its schema (${where}${issue?.message ?? "invalid"})`)
  }
  return value as T
}

export const required = <T>(
  schema: z.ZodType,
  text: string | null | undefined,
  runId: string,
  row: string,
  asWritten?: (value: unknown) => unknown,
): T => {
  if (text === null || text === undefined) throw new CorruptRow(runId, row, "is empty")
  return decode<T>(schema, text, runId, row, asWritten) as T
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value)

// JSON drops a key whose value is undefined: an observation written with `data: undefined` comes back
// without `data`, which its schema requires. These put it back (as null) for the check only.
export const observationAsWritten = (value: unknown): unknown =>
  isRecord(value) && !("data" in value) ? { ...value, data: null } : value
export const stepAsWritten = (value: unknown): unknown =>
  isRecord(value) && value.observation !== undefined
    ? { ...value, observation: observationAsWritten(value.observation) }
    : value
const planAsWritten = (value: unknown): unknown =>
  isRecord(value) && Array.isArray(value.steps) ? { ...value, steps: value.steps.map(stepAsWritten) } : value
const resultAsWritten = (value: unknown): unknown =>
  isRecord(value)
    ? {
        ...value,
        ...(Array.isArray(value.observations)
          ? { observations: value.observations.map(observationAsWritten) }
          : {}),
        ...(value.plan === undefined ? {} : { plan: planAsWritten(value.plan) }),
      }
    : value

const RunMode = z.enum(["plan", "agent"])

export interface RunRow {
  run_id: string
  task: string
  status: string
  mode: string
  started_at: string
  updated_at: string
  plan: string | null
  result: string | null
}

export const toRunRecord = (row: RunRow): RunRecord => {
  const runId = row.run_id
  const status = TaskState.safeParse(row.status)
  if (!status.success)
    throw new CorruptRow(runId, "runs.status", `${JSON.stringify(row.status)} is not a run state`)
  const mode = RunMode.safeParse(row.mode)
  if (!mode.success)
    throw new CorruptRow(runId, "runs.mode", `${JSON.stringify(row.mode)} is not "plan" or "agent"`)
  return {
    runId,
    task: required<RunRecord["task"]>(AgentTask, row.task, runId, "runs.task"),
    status: status.data,
    mode: mode.data,
    startedAt: row.started_at,
    updatedAt: row.updated_at,
    plan: decode<RunRecord["plan"]>(Plan, row.plan, runId, "runs.plan", planAsWritten),
    result: decode<RunRecord["result"]>(RunResult, row.result, runId, "runs.result", resultAsWritten),
  }
}

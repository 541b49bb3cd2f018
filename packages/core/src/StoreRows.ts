import { z } from "zod"
import { AgentTask } from "./AgentTask.ts"
import { causeMessage } from "./CauseMessage.ts"
import { StoreCorrupt } from "./Errors.ts"
import { Plan } from "./Plan.ts"
import { RunResult } from "./RunResult.ts"
import type { CachedAction, FrontierEntry, RunRecord } from "./Store.ts"
import { TaskState } from "./TaskState.ts"

// The row checks every SQL store adapter shares (@sextant/memory's SQLite store, @sextant/postgres):
// a stored JSON value is parsed and checked against its schema, and a row that fails is a `CorruptRow`
// naming the run and the row, turned into a `StoreCorrupt` reason at the adapter's boundary. The store
// is an edge like any other: a row edited by hand or written by another version must fail as
// `StoreCorrupt`, not reach the executor as a half-shaped object.

/**
 * Thrown by the row readers below for a row that cannot be read back as what it should be. An adapter
 * catches it at its boundary and reports `corruptRowReason(error)`.
 */
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

/** The `StoreCorrupt` reason for a thrown `CorruptRow`; `undefined` for anything else. */
export const corruptRowReason = (error: unknown): StoreCorrupt | undefined =>
  error instanceof CorruptRow
    ? new StoreCorrupt({ runId: error.runId, row: error.row, detail: error.detail })
    : undefined

/**
 * Reads one stored JSON value and checks it against its schema; `undefined` for an empty (NULL) row.
 * The parsed JSON is returned as stored (the schema only checks it, after `asWritten`), so fields a
 * caller added beyond the schema survive a round trip. Throws `CorruptRow` for text that is not JSON or
 * does not fit the schema.
 */
export const decodeRowJson = <T>(
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
    throw new CorruptRow(runId, row, `not valid JSON: ${causeMessage(error)}`)
  }
  const checked = schema.safeParse(asWritten(value))
  if (!checked.success) {
    const issue = checked.error.issues[0]
    const where = issue === undefined || issue.path.length === 0 ? "" : `${issue.path.join(".")}: `
    throw new CorruptRow(runId, row, `does not fit its schema (${where}${issue?.message ?? "invalid"})`)
  }
  return value as T
}

/** `decodeRowJson` for a row that must not be empty: an empty one is a `CorruptRow` too. */
export const requireRowJson = <T>(
  schema: z.ZodType,
  text: string | null | undefined,
  runId: string,
  row: string,
  asWritten?: (value: unknown) => unknown,
): T => {
  if (text === null || text === undefined) throw new CorruptRow(runId, row, "is empty")
  return decodeRowJson<T>(schema, text, runId, row, asWritten) as T
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value)

// JSON drops a key whose value is undefined: an observation written with `data: undefined` comes back
// without `data`, which its schema requires. These put it back (as null) for the check only.

/** A stored observation as it was written (`data` back as null where JSON dropped it), for the schema check. */
export const observationAsWritten = (value: unknown): unknown =>
  isRecord(value) && !("data" in value) ? { ...value, data: null } : value
/** A stored step as it was written (its observation's `data` put back), for the schema check. */
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

/** A row of the `runs` table as SQL returns it (JSON columns as text). */
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

/** Reads a `runs` row back as a `RunRecord`, checking every column; throws `CorruptRow` for a bad one. */
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
    task: requireRowJson<RunRecord["task"]>(AgentTask, row.task, runId, "runs.task"),
    status: status.data,
    mode: mode.data,
    startedAt: row.started_at,
    updatedAt: row.updated_at,
    plan: decodeRowJson<RunRecord["plan"]>(Plan, row.plan, runId, "runs.plan", planAsWritten),
    result: decodeRowJson<RunRecord["result"]>(RunResult, row.result, runId, "runs.result", resultAsWritten),
  }
}

/** A row of the `frontier` table as SQL returns it (the columns a `FrontierEntry` needs). */
export interface FrontierRow {
  url: string
  depth: number
  parent: string | null
}

/** A `frontier` row as a `FrontierEntry` (no `parent` key for a seed URL). */
export const toFrontierEntry = (row: FrontierRow): FrontierEntry =>
  row.parent === null
    ? { url: row.url, depth: row.depth }
    : { url: row.url, depth: row.depth, parent: row.parent }

/** A row of the `action_cache` table as SQL returns it (JSON columns as text). */
export interface ActionRow {
  key: string
  instruction: string
  fingerprint: string
  action: string
  locators: string
  hits: number
  updated_at: string
}

/** An `action_cache` row as a `CachedAction`. */
export const toCachedAction = (row: ActionRow): CachedAction => ({
  key: row.key,
  instruction: row.instruction,
  fingerprint: row.fingerprint,
  action: JSON.parse(row.action),
  locators: JSON.parse(row.locators),
  hits: row.hits,
  updatedAt: row.updated_at,
})

/** One schema change of a SQL store. Versions count up from 1 and are never edited once released. */
export interface StoreMigration {
  readonly version: number
  readonly description: string
  readonly sql: string
}

/** The table in which a SQL store records each applied migration version. */
export const MIGRATIONS_TABLE_SQL =
  "CREATE TABLE IF NOT EXISTS migrations (version INTEGER PRIMARY KEY, description TEXT NOT NULL, applied_at TEXT NOT NULL)"

/** The schema version a database has once every one of `migrations` (oldest first) is applied. */
export const latestMigrationVersion = (migrations: ReadonlyArray<StoreMigration>): number =>
  migrations[migrations.length - 1]?.version ?? 0

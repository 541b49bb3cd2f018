import { randomUUID } from "node:crypto"
import type { DatabaseSync, SQLInputValue } from "node:sqlite"
import {
  type ActionRow,
  type CachedAction,
  causeMessage,
  corruptRowReason,
  decodeRowJson,
  type FrontierRow,
  type FrontierStats,
  Observation,
  observationAsWritten,
  type RunLease,
  type RunRow,
  requireRowJson,
  Step,
  Store,
  StoreBusy,
  type StoredRecord,
  StoreError,
  type StoreErrorReason,
  StoreLeaseHeld,
  StoreNotFound,
  StoreQueryFailed,
  type StoreShape,
  StoreUnavailable,
  stepAsWritten,
  toCachedAction,
  toFrontierEntry,
  toRunRecord,
} from "@sextant/core"
import { Clock, Effect, Layer } from "effect"
import { z } from "zod"
import { migrate, transaction } from "./internal/Migrations.ts"

/** Options of the SQLite store. */
export const SqliteStoreOptions = z.object({
  /** The database file; created with its folder's permissions if missing. `:memory:` keeps it in memory. */
  path: z.string().min(1, "give a file path or ':memory:'"),
  /** How long a write waits for another process's write to finish before failing with `StoreBusy`. */
  busyTimeoutMs: z.number().int().nonnegative().default(5_000),
})
export type SqliteStoreOptions = z.input<typeof SqliteStoreOptions>

/** A claim or renewal that found the run missing or held by someone else. */
class LeaseRefused extends Error {
  readonly reason: StoreLeaseHeld | StoreNotFound
  constructor(reason: StoreLeaseHeld | StoreNotFound) {
    super(reason.message)
    this.reason = reason
  }
}

const SQLITE_BUSY = 5
const SQLITE_LOCKED = 6

const toReason = (operation: string, error: unknown): StoreErrorReason => {
  const corrupt = corruptRowReason(error)
  if (corrupt !== undefined) return corrupt
  if (error instanceof LeaseRefused) return error.reason
  const sqlite = error as { errcode?: unknown; message?: unknown }
  const detail = typeof sqlite.message === "string" ? sqlite.message : String(error)
  if (typeof sqlite.errcode === "number") {
    const primary = sqlite.errcode & 0xff
    if (primary === SQLITE_BUSY || primary === SQLITE_LOCKED) return new StoreBusy({ detail })
  }
  return new StoreQueryFailed({ operation, detail })
}

const AnyJson = z.unknown()

interface LeaseRow {
  lease_owner: string | null
  lease_expires_at: number | null
}

const openDatabase = (options: z.output<typeof SqliteStoreOptions>): DatabaseSync => {
  // Loaded when a store opens rather than imported: a static import of node:sqlite fails at link time
  // on a Node without it, before the facade's version check could say which Node to install.
  const { DatabaseSync } = process.getBuiltinModule("node:sqlite")
  const database = new DatabaseSync(options.path)
  try {
    database.exec(`PRAGMA busy_timeout = ${options.busyTimeoutMs}`)
    if (options.path !== ":memory:") database.exec("PRAGMA journal_mode = WAL")
    // NORMAL is durable across a killed process in WAL mode; only a power loss can drop the last commits.
    database.exec("PRAGMA synchronous = NORMAL")
    database.exec("PRAGMA foreign_keys = ON")
    migrate(database)
    return database
  } catch (error) {
    database.close()
    throw error
  }
}

/**
 * Builds a `Store` over an open database. Each call is one statement or one `BEGIN IMMEDIATE`
 * transaction, committed before it returns, so a killed process loses at most the call in flight.
 */
const makeShape = (database: DatabaseSync): StoreShape => {
  // Identifies this store's claims in the frontier table, for debugging who held a URL.
  const owner = `${process.pid}:${randomUUID()}`

  const query =
    (method: string) =>
    <A>(body: (timestamp: string, millis: number) => A): Effect.Effect<A, StoreError> =>
      Effect.flatMap(Clock.currentTimeMillis, (millis) =>
        Effect.try({
          try: () => body(new Date(millis).toISOString(), millis),
          catch: (cause) => new StoreError({ method, reason: toReason(method, cause), cause }),
        }),
      )

  const statement = (sql: string) => database.prepare(sql)

  const statements = {
    saveRun: statement(`INSERT INTO runs (run_id, task, status, mode, started_at, updated_at, plan, result)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?)
      ON CONFLICT (run_id) DO UPDATE SET task = excluded.task, status = excluded.status, mode = excluded.mode,
        updated_at = excluded.updated_at, plan = excluded.plan, result = excluded.result`),
    getRun: statement("SELECT * FROM runs WHERE run_id = ?"),
    listRuns: statement("SELECT * FROM runs ORDER BY started_at, run_id"),
    listRunsByStatus: statement("SELECT * FROM runs WHERE status = ? ORDER BY started_at, run_id"),
    saveStep: statement(`INSERT INTO steps (run_id, step_index, step, updated_at) VALUES (?, ?, ?, ?)
      ON CONFLICT (run_id, step_index) DO UPDATE SET step = excluded.step, updated_at = excluded.updated_at`),
    // One statement decides a claim, so two processes claiming at once cannot both win.
    claimRun: statement(`UPDATE runs SET lease_owner = ?, lease_expires_at = ?
      WHERE run_id = ? AND (lease_owner IS NULL OR lease_owner = ? OR lease_expires_at <= ?)
      RETURNING lease_expires_at`),
    // A lapsed lease nobody else took may still be renewed: nobody else advanced the run meanwhile.
    renewRun: statement(`UPDATE runs SET lease_owner = ?, lease_expires_at = ?
      WHERE run_id = ? AND (lease_owner = ? OR lease_owner IS NULL)
      RETURNING lease_expires_at`),
    releaseRun: statement(
      "UPDATE runs SET lease_owner = NULL, lease_expires_at = NULL WHERE run_id = ? AND lease_owner = ?",
    ),
    leaseOf: statement("SELECT lease_owner, lease_expires_at FROM runs WHERE run_id = ?"),
    listSteps: statement("SELECT step_index, step FROM steps WHERE run_id = ? ORDER BY step_index"),
    appendObservation: statement(
      "INSERT INTO observations (run_id, step_index, observation, at) VALUES (?, ?, ?, ?)",
    ),
    listObservations: statement("SELECT id, observation FROM observations WHERE run_id = ? ORDER BY id"),
    appendRecord: statement(
      "INSERT OR IGNORE INTO records (run_id, key, source, data, created_at) VALUES (?, ?, ?, ?, ?)",
    ),
    listRecords: statement("SELECT key, source, data FROM records WHERE run_id = ? ORDER BY id"),
    frontierAdd: statement(`INSERT OR IGNORE INTO frontier (frontier, url, depth, parent, state, updated_at)
      VALUES (?, ?, ?, ?, 'pending', ?)`),
    frontierClaim: statement(`UPDATE frontier SET state = 'claimed', claimed_by = ?, updated_at = ?
      WHERE id IN (SELECT id FROM frontier WHERE frontier = ? AND state = 'pending' ORDER BY depth, id LIMIT ?)
      RETURNING url, depth, parent, id`),
    frontierComplete: statement(
      "UPDATE frontier SET state = ?, claimed_by = NULL, updated_at = ? WHERE frontier = ? AND url = ?",
    ),
    frontierRelease: statement(`UPDATE frontier SET state = 'pending', claimed_by = NULL, updated_at = ?
      WHERE frontier = ? AND state = 'claimed'`),
    frontierStats: statement(
      "SELECT state, COUNT(*) AS count FROM frontier WHERE frontier = ? GROUP BY state",
    ),
    getCachedAction: statement(`UPDATE action_cache SET hits = hits + 1 WHERE key = ?
      RETURNING key, instruction, fingerprint, action, locators, hits, updated_at`),
    putCachedAction:
      statement(`INSERT INTO action_cache (key, instruction, fingerprint, action, locators, hits, updated_at)
      VALUES (?, ?, ?, ?, ?, 0, ?)
      ON CONFLICT (key) DO UPDATE SET instruction = excluded.instruction, fingerprint = excluded.fingerprint,
        action = excluded.action, locators = excluded.locators, updated_at = excluded.updated_at,
        hits = CASE WHEN action_cache.fingerprint = excluded.fingerprint THEN action_cache.hits ELSE 0 END`),
  }

  const json = (value: unknown): string | null => (value === undefined ? null : JSON.stringify(value))

  /** Why a claim or renewal did not take: the run is missing, or someone else holds it. */
  const refusal = (runId: string): LeaseRefused => {
    const row = statements.leaseOf.get(runId) as LeaseRow | undefined
    if (row === undefined) return new LeaseRefused(new StoreNotFound({ what: "run", id: runId }))
    return new LeaseRefused(
      new StoreLeaseHeld({
        runId,
        owner: row.lease_owner ?? "nobody",
        expiresAt: new Date(row.lease_expires_at ?? 0).toISOString(),
      }),
    )
  }

  const lease =
    (method: "claimRun" | "renewRun") =>
    (runId: string, holder: string, ttlMs: number): Effect.Effect<RunLease, StoreError> =>
      query(method)((_timestamp, millis) =>
        transaction(database, () => {
          const expires = millis + Math.max(0, Math.round(ttlMs))
          const taken =
            method === "claimRun"
              ? statements.claimRun.get(holder, expires, runId, holder, millis)
              : statements.renewRun.get(holder, expires, runId, holder)
          if (taken === undefined) throw refusal(runId)
          return { runId, owner: holder, expiresAt: new Date(expires).toISOString() }
        }),
      )

  return {
    saveRun: (run) =>
      query("saveRun")((timestamp) => {
        statements.saveRun.run(
          run.runId,
          JSON.stringify(run.task),
          run.status,
          run.mode,
          run.startedAt,
          run.updatedAt ?? timestamp,
          json(run.plan),
          json(run.result),
        )
      }),
    getRun: (runId) =>
      Effect.flatMap(
        query("getRun")(() => statements.getRun.get(runId) as RunRow | undefined),
        (row) =>
          row === undefined
            ? Effect.fail(
                new StoreError({ method: "getRun", reason: new StoreNotFound({ what: "run", id: runId }) }),
              )
            : query("getRun")(() => toRunRecord(row)),
      ),
    listRuns: (filter) =>
      query("listRuns")(() => {
        const rows = (filter?.status === undefined
          ? statements.listRuns.all()
          : statements.listRunsByStatus.all(filter.status)) as unknown as ReadonlyArray<RunRow>
        return rows.map(toRunRecord)
      }),
    saveStep: (runId, step) =>
      query("saveStep")((timestamp) => {
        statements.saveStep.run(runId, step.index, JSON.stringify(step), timestamp)
      }),
    claimRun: lease("claimRun"),
    renewRun: lease("renewRun"),
    releaseRun: (runId, holder) =>
      query("releaseRun")(() => {
        statements.releaseRun.run(runId, holder)
      }),
    listSteps: (runId) =>
      query("listSteps")(() =>
        (
          statements.listSteps.all(runId) as unknown as ReadonlyArray<{ step_index: number; step: string }>
        ).map((row) =>
          requireRowJson<Step>(Step, row.step, runId, `steps[${row.step_index}]`, stepAsWritten),
        ),
      ),
    appendObservation: (runId, stepIndex, observation) =>
      query("appendObservation")(() => {
        statements.appendObservation.run(
          runId,
          stepIndex ?? null,
          JSON.stringify(observation),
          observation.at,
        )
      }),
    listObservations: (runId) =>
      query("listObservations")(() =>
        (
          statements.listObservations.all(runId) as unknown as ReadonlyArray<{
            id: number
            observation: string
          }>
        ).map((row) =>
          requireRowJson<Observation>(
            Observation,
            row.observation,
            runId,
            `observations[id ${row.id}]`,
            observationAsWritten,
          ),
        ),
      ),
    appendRecords: (runId, records) =>
      query("appendRecords")((timestamp) =>
        transaction(database, () => {
          let added = 0
          for (const record of records) {
            const data = JSON.stringify(record.data ?? null)
            const result = statements.appendRecord.run(runId, record.key, record.source, data, timestamp)
            added += Number(result.changes)
          }
          return added
        }),
      ),
    listRecords: (runId) =>
      query("listRecords")(() =>
        (
          statements.listRecords.all(runId) as unknown as ReadonlyArray<{
            key: string
            source: string
            data: string
          }>
        ).map(
          (row): StoredRecord => ({
            key: row.key,
            source: row.source,
            data: decodeRowJson(AnyJson, row.data, runId, `records[${JSON.stringify(row.key)}]`),
          }),
        ),
      ),
    frontierAdd: (frontier, entries) =>
      query("frontierAdd")((timestamp) =>
        transaction(database, () => {
          let added = 0
          for (const entry of entries) {
            const values: Array<SQLInputValue> = [
              frontier,
              entry.url,
              entry.depth,
              entry.parent ?? null,
              timestamp,
            ]
            added += Number(statements.frontierAdd.run(...values).changes)
          }
          return added
        }),
      ),
    frontierClaim: (frontier, limit) =>
      query("frontierClaim")((timestamp) =>
        transaction(database, () =>
          (
            statements.frontierClaim.all(owner, timestamp, frontier, limit) as unknown as Array<
              FrontierRow & { id: number }
            >
          )
            // RETURNING gives rows in no promised order; keep the frontier's breadth-first order.
            .sort((left, right) => left.depth - right.depth || left.id - right.id)
            .map(toFrontierEntry),
        ),
      ),
    frontierComplete: (frontier, url, ok) =>
      query("frontierComplete")((timestamp) => {
        statements.frontierComplete.run(ok ? "done" : "failed", timestamp, frontier, url)
      }),
    frontierRelease: (frontier) =>
      query("frontierRelease")((timestamp) =>
        Number(statements.frontierRelease.run(timestamp, frontier).changes),
      ),
    frontierStats: (frontier) =>
      query("frontierStats")(() => {
        const stats = { pending: 0, claimed: 0, done: 0, failed: 0 }
        for (const row of statements.frontierStats.all(frontier) as unknown as ReadonlyArray<{
          state: keyof FrontierStats
          count: number
        }>) {
          stats[row.state] = row.count
        }
        return stats
      }),
    getCachedAction: (key) =>
      query("getCachedAction")((): CachedAction | undefined => {
        const row = statements.getCachedAction.get(key) as ActionRow | undefined
        return row === undefined ? undefined : toCachedAction(row)
      }),
    putCachedAction: (action) =>
      query("putCachedAction")((timestamp) => {
        statements.putCachedAction.run(
          action.key,
          action.instruction,
          action.fingerprint,
          JSON.stringify(action.action ?? null),
          JSON.stringify(action.locators),
          timestamp,
        )
      }),
  }
}

/**
 * Opens (and migrates) the store in a Scope; closing the Scope closes the database.
 *
 * @example
 * ```ts
 * import { Effect } from "effect"
 * import { SqliteStore } from "@sextant/memory"
 * const program = Effect.scoped(Effect.gen(function* () {
 *   const store = yield* SqliteStore.make({ path: ".sextant/store.db" })
 *   yield* store.frontierAdd("shop", [{ url: "http://127.0.0.1:4000/products", depth: 0 }])
 * }))
 * ```
 */
export const make = Effect.fn("SqliteStore.make")(function* (options: SqliteStoreOptions) {
  const parsed = SqliteStoreOptions.safeParse(options)
  if (!parsed.success) {
    const issues = parsed.error.issues.map(
      (issue) => `${issue.path.join(".") || "options"}: ${issue.message}`,
    )
    return yield* new StoreError({
      method: "open",
      reason: new StoreUnavailable({ location: String(options?.path), detail: issues.join("; ") }),
    })
  }
  const settings = parsed.data
  const database = yield* Effect.acquireRelease(
    Effect.try({
      try: () => openDatabase(settings),
      catch: (cause) =>
        new StoreError({
          method: "open",
          reason: new StoreUnavailable({
            location: settings.path,
            detail: causeMessage(cause),
          }),
          cause,
        }),
    }),
    (database) => Effect.sync(() => database.isOpen && database.close()),
  )
  return Store.of(makeShape(database))
})

/**
 * The `Store` on one SQLite file (WAL, busy timeout, versioned schema). Several agents in one process,
 * or several processes, may share the file.
 *
 * @example
 * ```ts
 * import { Effect } from "effect"
 * import { Store } from "@sextant/core"
 * import { SqliteStore } from "@sextant/memory"
 * const stats = Store.use((store) => store.frontierStats("shop")).pipe(
 *   Effect.provide(SqliteStore.layer({ path: ".sextant/store.db" })),
 * )
 * ```
 */
export const layer = (options: SqliteStoreOptions): Layer.Layer<Store, StoreError> =>
  Layer.effect(Store, make(options))

/**
 * The same store in an in-memory SQLite database: the same code path as {@link layer}, gone when the
 * layer's Scope closes. For tests.
 *
 * @example
 * ```ts
 * import { SqliteStore } from "@sextant/memory"
 * const TestStore = SqliteStore.layerMemory
 * ```
 */
export const layerMemory: Layer.Layer<Store, StoreError> = Layer.effect(Store, make({ path: ":memory:" }))

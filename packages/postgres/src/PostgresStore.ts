import { randomUUID } from "node:crypto"
import { hostname } from "node:os"
import {
  type ActionRow,
  type CachedAction,
  causeMessage,
  corruptRowReason,
  decodeRowJson,
  type FrontierRow as FrontierRowColumns,
  type FrontierStats,
  hideUrlCredentials,
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
import pg from "pg"
import { z } from "zod"
import { migrate, quoteIdentifier } from "./internal/Migrations.ts"

/** Options of the PostgreSQL store. */
export const PostgresStoreOptions = z.object({
  /** `postgres://user:password@host:port/database` (or `postgresql://…`; query parameters such as `sslmode` pass on). */
  url: z
    .string()
    .trim()
    .refine((value) => /^postgres(ql)?:\/\/[^/]/.test(value) && URL.canParse(value), {
      message: "must be a PostgreSQL URL such as postgres://user:password@127.0.0.1:5432/sextant",
    }),
  /** The PostgreSQL schema holding Sextant's tables; created if missing. Several stores may share a database under different schemas. */
  schema: z
    .string()
    .regex(/^[a-z_][a-z0-9_]{0,62}$/, "must be a lower-case SQL identifier (letters, digits, _)")
    .default("sextant"),
  /** Connections this process keeps at most. */
  poolSize: z.number().int().positive().default(10),
  /** How long opening a connection may take before the store fails with `StoreUnavailable`. */
  connectTimeoutMs: z.number().int().positive().default(5_000),
  /** How long a statement waits for another writer's row lock before failing with `StoreBusy`. */
  busyTimeoutMs: z.number().int().nonnegative().default(5_000),
})
export type PostgresStoreOptions = z.input<typeof PostgresStoreOptions>

/**
 * The URL as messages show it: its password, and any query parameter named like a credential
 * (`?password=`, `?sslpassword=`, which `pg` reads too), replaced by `***` (core's `hideUrlCredentials`);
 * a text that is not a URL as `(an invalid URL)`.
 */
export const redactUrl = (url: string): string =>
  URL.canParse(url) ? hideUrlCredentials(url) : "(an invalid URL)"

/** A run that is missing, or whose lease someone else holds: the reason travels to the boundary as it is. */
class Refused extends Error {
  readonly reason: StoreLeaseHeld | StoreNotFound
  constructor(reason: StoreLeaseHeld | StoreNotFound) {
    super(reason.message)
    this.reason = reason
  }
}

/** SQLSTATEs that mean "another writer is in the way; try again": serialization, deadlock, lock wait, too many connections. */
const BUSY_CODES = new Set(["40001", "40P01", "55P03", "53300"])
/** Connection-level failures: the server is down, unreachable, or refused us. */
const UNAVAILABLE_CODES = new Set([
  "ECONNREFUSED",
  "ENOTFOUND",
  "EAI_AGAIN",
  "ETIMEDOUT",
  "EHOSTUNREACH",
  "ECONNRESET",
])

const describe = (error: unknown): string => {
  if (error instanceof AggregateError && error.errors.length > 0) return describe(error.errors[0])
  if (error instanceof Error) return error.message || String((error as { code?: unknown }).code ?? error.name)
  return causeMessage(error)
}

/** What happened when opening the store failed, and what to do about it. */
const unavailableDetail = (error: unknown): string => {
  const code = (error as { code?: unknown }).code
  const text = describe(error)
  if (code === "28P01" || code === "28000")
    return `${text}: check the user and password in the URL and the server's pg_hba.conf`
  if (code === "3D000") return `${text}: create the database (createdb) or fix the database name in the URL`
  if (code === "42501")
    return `${text}: grant the user CREATE on the database, or use a schema it may write to`
  if (isConnectionError(error))
    return `${text}: is the PostgreSQL server running and reachable at that address? (a local one for development: scripts/services start postgres)`
  return text
}

const isConnectionError = (error: unknown): boolean => {
  const code = (error as { code?: unknown }).code
  if (typeof code === "string" && UNAVAILABLE_CODES.has(code)) return true
  if (error instanceof AggregateError) return error.errors.some(isConnectionError)
  const text = describe(error)
  return /timeout exceeded when trying to connect|Connection terminated|connect ECONNREFUSED/i.test(text)
}

const toReason = (operation: string, location: string, error: unknown): StoreErrorReason => {
  const corrupt = corruptRowReason(error)
  if (corrupt !== undefined) return corrupt
  if (error instanceof Refused) return error.reason
  const code = (error as { code?: unknown }).code
  if (typeof code === "string" && BUSY_CODES.has(code)) return new StoreBusy({ detail: describe(error) })
  if (isConnectionError(error)) return new StoreUnavailable({ location, detail: unavailableDetail(error) })
  return new StoreQueryFailed({ operation, detail: describe(error) })
}

interface LeaseRow {
  lease_owner: string | null
  lease_expires_at: string | null
}

interface FrontierRow extends FrontierRowColumns {
  id: string
}

type Queryable = Pick<pg.Pool, "query">

/** Runs `body` inside BEGIN … COMMIT on one connection, rolling back when it throws. */
const transaction = async <A>(pool: pg.Pool, body: (client: pg.PoolClient) => Promise<A>): Promise<A> => {
  const client = await pool.connect()
  try {
    await client.query("BEGIN")
    const result = await body(client)
    await client.query("COMMIT")
    return result
  } catch (error) {
    await client.query("ROLLBACK").catch(() => undefined)
    throw error
  } finally {
    client.release()
  }
}

/** Orders text byte by byte, as SQLite does, whatever the database's collation. */
const ORDER_RUNS = `ORDER BY started_at COLLATE "C", run_id COLLATE "C"`

/**
 * Builds a `Store` over a connection pool. Each call is one statement or one transaction, committed
 * before it returns. Leases and frontier claims are decided by the database (row locks), so stores on
 * different machines sharing one database never both win a run or a URL.
 */
const makeShape = (pool: pg.Pool, location: string): StoreShape => {
  // Identifies this store's claims in the frontier table, for debugging who held a URL.
  const owner = `${hostname()}:${process.pid}:${randomUUID()}`

  const query =
    (method: string) =>
    <A>(
      body: (db: Queryable, timestamp: string, millis: number) => Promise<A>,
    ): Effect.Effect<A, StoreError> =>
      Effect.flatMap(Clock.currentTimeMillis, (millis) =>
        Effect.tryPromise({
          try: () => body(pool, new Date(millis).toISOString(), millis),
          catch: (cause) => new StoreError({ method, reason: toReason(method, location, cause), cause }),
        }),
      )

  const json = (value: unknown): string | null => (value === undefined ? null : JSON.stringify(value))

  /** Why a claim or renewal did not take: the run is missing, or someone else holds it. */
  const refusal = (runId: string, row: LeaseRow | undefined): Refused =>
    row === undefined
      ? new Refused(new StoreNotFound({ what: "run", id: runId }))
      : new Refused(
          new StoreLeaseHeld({
            runId,
            owner: row.lease_owner ?? "nobody",
            expiresAt: new Date(Number(row.lease_expires_at ?? 0)).toISOString(),
          }),
        )

  /**
   * Claim and renewal lock the run's row (`SELECT … FOR UPDATE`) and decide inside the transaction: a
   * second claimer, on any machine, waits for the first to commit and then sees its lease.
   */
  const lease =
    (method: "claimRun" | "renewRun") =>
    (runId: string, holder: string, ttlMs: number): Effect.Effect<RunLease, StoreError> =>
      query(method)((_db, _timestamp, millis) =>
        transaction(pool, async (client) => {
          const expires = millis + Math.max(0, Math.round(ttlMs))
          const current = (
            await client.query<LeaseRow>(
              "SELECT lease_owner, lease_expires_at FROM runs WHERE run_id = $1 FOR UPDATE",
              [runId],
            )
          ).rows[0]
          if (current === undefined) throw refusal(runId, undefined)
          const free =
            current.lease_owner === null ||
            current.lease_owner === holder ||
            // A lapsed lease nobody else took may still be renewed; only a claim takes over a lapsed one.
            (method === "claimRun" && Number(current.lease_expires_at ?? 0) <= millis)
          if (!free) throw refusal(runId, current)
          await client.query("UPDATE runs SET lease_owner = $1, lease_expires_at = $2 WHERE run_id = $3", [
            holder,
            expires,
            runId,
          ])
          return { runId, owner: holder, expiresAt: new Date(expires).toISOString() }
        }),
      )

  return {
    saveRun: (run) =>
      query("saveRun")(async (db, timestamp) => {
        await db.query(
          `INSERT INTO runs (run_id, task, status, mode, started_at, updated_at, plan, result)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
           ON CONFLICT (run_id) DO UPDATE SET task = excluded.task, status = excluded.status, mode = excluded.mode,
             updated_at = excluded.updated_at, plan = excluded.plan, result = excluded.result`,
          [
            run.runId,
            JSON.stringify(run.task),
            run.status,
            run.mode,
            run.startedAt,
            run.updatedAt ?? timestamp,
            json(run.plan),
            json(run.result),
          ],
        )
      }),
    getRun: (runId) =>
      query("getRun")(async (db) => {
        const row = (await db.query<RunRow>("SELECT * FROM runs WHERE run_id = $1", [runId])).rows[0]
        if (row === undefined) throw new Refused(new StoreNotFound({ what: "run", id: runId }))
        return toRunRecord(row)
      }),
    listRuns: (filter) =>
      query("listRuns")(async (db) => {
        const result =
          filter?.status === undefined
            ? await db.query<RunRow>(`SELECT * FROM runs ${ORDER_RUNS}`)
            : await db.query<RunRow>(`SELECT * FROM runs WHERE status = $1 ${ORDER_RUNS}`, [filter.status])
        return result.rows.map(toRunRecord)
      }),
    saveStep: (runId, step) =>
      query("saveStep")(async (db, timestamp) => {
        await db.query(
          `INSERT INTO steps (run_id, step_index, step, updated_at) VALUES ($1, $2, $3, $4)
           ON CONFLICT (run_id, step_index) DO UPDATE SET step = excluded.step, updated_at = excluded.updated_at`,
          [runId, step.index, JSON.stringify(step), timestamp],
        )
      }),
    claimRun: lease("claimRun"),
    renewRun: lease("renewRun"),
    releaseRun: (runId, holder) =>
      query("releaseRun")(async (db) => {
        await db.query(
          "UPDATE runs SET lease_owner = NULL, lease_expires_at = NULL WHERE run_id = $1 AND lease_owner = $2",
          [runId, holder],
        )
      }),
    listSteps: (runId) =>
      query("listSteps")(async (db) =>
        (
          await db.query<{ step_index: number; step: string }>(
            "SELECT step_index, step FROM steps WHERE run_id = $1 ORDER BY step_index",
            [runId],
          )
        ).rows.map((row) =>
          requireRowJson<Step>(Step, row.step, runId, `steps[${row.step_index}]`, stepAsWritten),
        ),
      ),
    appendObservation: (runId, stepIndex, observation) =>
      query("appendObservation")(async (db) => {
        await db.query(
          "INSERT INTO observations (run_id, step_index, observation, at) VALUES ($1, $2, $3, $4)",
          [runId, stepIndex ?? null, JSON.stringify(observation), observation.at],
        )
      }),
    listObservations: (runId) =>
      query("listObservations")(async (db) =>
        (
          await db.query<{ id: string; observation: string }>(
            "SELECT id, observation FROM observations WHERE run_id = $1 ORDER BY id",
            [runId],
          )
        ).rows.map((row) =>
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
      query("appendRecords")(async (db, timestamp) => {
        if (records.length === 0) return 0
        // One statement: a key another writer adds at the same moment is counted by exactly one of them.
        const result = await db.query(
          `INSERT INTO records (run_id, key, source, data, created_at)
           SELECT $1, r.key, r.source, r.data, $5
           FROM unnest($2::text[], $3::text[], $4::text[]) WITH ORDINALITY AS r(key, source, data, n)
           ORDER BY r.n
           ON CONFLICT (run_id, key) DO NOTHING`,
          [
            runId,
            records.map((record) => record.key),
            records.map((record) => record.source),
            records.map((record) => JSON.stringify(record.data ?? null)),
            timestamp,
          ],
        )
        return result.rowCount ?? 0
      }),
    listRecords: (runId) =>
      query("listRecords")(async (db) =>
        (
          await db.query<{ key: string; source: string; data: string }>(
            "SELECT key, source, data FROM records WHERE run_id = $1 ORDER BY id",
            [runId],
          )
        ).rows.map(
          (row): StoredRecord => ({
            key: row.key,
            source: row.source,
            data: decodeRowJson(z.unknown(), row.data, runId, `records[${JSON.stringify(row.key)}]`),
          }),
        ),
      ),
    frontierAdd: (frontier, entries) =>
      query("frontierAdd")(async (db, timestamp) => {
        if (entries.length === 0) return 0
        const result = await db.query(
          `INSERT INTO frontier (frontier, url, depth, parent, state, updated_at)
           SELECT $1, e.url, e.depth, e.parent, 'pending', $5
           FROM unnest($2::text[], $3::integer[], $4::text[]) WITH ORDINALITY AS e(url, depth, parent, n)
           ORDER BY e.n
           ON CONFLICT (frontier, url) DO NOTHING`,
          [
            frontier,
            entries.map((entry) => entry.url),
            entries.map((entry) => entry.depth),
            entries.map((entry) => entry.parent ?? null),
            timestamp,
          ],
        )
        return result.rowCount ?? 0
      }),
    frontierClaim: (frontier, limit) =>
      query("frontierClaim")(async (db, timestamp) => {
        // SKIP LOCKED: a URL another claimer is taking right now is left to it, never handed out twice.
        const result = await db.query<FrontierRow>(
          `UPDATE frontier SET state = 'claimed', claimed_by = $1, updated_at = $2
           WHERE id IN (
             SELECT id FROM frontier WHERE frontier = $3 AND state = 'pending'
             ORDER BY depth, id LIMIT $4 FOR UPDATE SKIP LOCKED
           ) AND state = 'pending'
           RETURNING id, url, depth, parent`,
          [owner, timestamp, frontier, Math.max(0, Math.floor(limit))],
        )
        // RETURNING gives rows in no promised order; keep the frontier's breadth-first order.
        return result.rows
          .sort((left, right) => left.depth - right.depth || Number(left.id) - Number(right.id))
          .map(toFrontierEntry)
      }),
    frontierComplete: (frontier, url, ok) =>
      query("frontierComplete")(async (db, timestamp) => {
        await db.query(
          "UPDATE frontier SET state = $1, claimed_by = NULL, updated_at = $2 WHERE frontier = $3 AND url = $4",
          [ok ? "done" : "failed", timestamp, frontier, url],
        )
      }),
    frontierRelease: (frontier) =>
      query("frontierRelease")(
        async (db, timestamp) =>
          (
            await db.query(
              `UPDATE frontier SET state = 'pending', claimed_by = NULL, updated_at = $1
               WHERE frontier = $2 AND state = 'claimed'`,
              [timestamp, frontier],
            )
          ).rowCount ?? 0,
      ),
    frontierStats: (frontier) =>
      query("frontierStats")(async (db) => {
        const stats: { -readonly [K in keyof FrontierStats]: number } = {
          pending: 0,
          claimed: 0,
          done: 0,
          failed: 0,
        }
        const rows = await db.query<{ state: keyof FrontierStats; count: string }>(
          "SELECT state, COUNT(*) AS count FROM frontier WHERE frontier = $1 GROUP BY state",
          [frontier],
        )
        for (const row of rows.rows) stats[row.state] = Number(row.count)
        return stats
      }),
    getCachedAction: (key) =>
      query("getCachedAction")(async (db): Promise<CachedAction | undefined> => {
        const row = (
          await db.query<ActionRow>(
            `UPDATE action_cache SET hits = hits + 1 WHERE key = $1
             RETURNING key, instruction, fingerprint, action, locators, hits, updated_at`,
            [key],
          )
        ).rows[0]
        return row === undefined ? undefined : toCachedAction(row)
      }),
    putCachedAction: (action) =>
      query("putCachedAction")(async (db, timestamp) => {
        await db.query(
          `INSERT INTO action_cache (key, instruction, fingerprint, action, locators, hits, updated_at)
           VALUES ($1, $2, $3, $4, $5, 0, $6)
           ON CONFLICT (key) DO UPDATE SET instruction = excluded.instruction, fingerprint = excluded.fingerprint,
             action = excluded.action, locators = excluded.locators, updated_at = excluded.updated_at,
             hits = CASE WHEN action_cache.fingerprint = excluded.fingerprint THEN action_cache.hits ELSE 0 END`,
          [
            action.key,
            action.instruction,
            action.fingerprint,
            JSON.stringify(action.action ?? null),
            JSON.stringify(action.locators),
            timestamp,
          ],
        )
      }),
  }
}

/** `options` checked, or a `StoreUnavailable` naming each bad field and what it must be. */
const parseOptions = (
  options: PostgresStoreOptions,
): Effect.Effect<z.output<typeof PostgresStoreOptions>, StoreError> => {
  const parsed = PostgresStoreOptions.safeParse(options)
  if (parsed.success) return Effect.succeed(parsed.data)
  const issues = parsed.error.issues.map((issue) => `${issue.path.join(".") || "options"}: ${issue.message}`)
  const url = typeof options?.url === "string" ? redactUrl(options.url) : String(options?.url)
  return Effect.fail(
    new StoreError({
      method: "open",
      reason: new StoreUnavailable({ location: url, detail: issues.join("; ") }),
    }),
  )
}

/**
 * Connects (a pool of `poolSize`), creates the schema and applies its migrations, in a Scope; closing the
 * Scope closes the pool. An unreachable server or a refused login fails here, with `StoreUnavailable`
 * saying what to check.
 *
 * @example
 * ```ts
 * import { Effect } from "effect"
 * import { PostgresStore } from "@sextant/postgres"
 * const program = Effect.scoped(Effect.gen(function* () {
 *   const store = yield* PostgresStore.make({ url: "postgres://sextant@127.0.0.1:5432/sextant" })
 *   yield* store.frontierAdd("shop", [{ url: "http://127.0.0.1:4000/products", depth: 0 }])
 * }))
 * ```
 */
export const make = Effect.fn("PostgresStore.make")(function* (options: PostgresStoreOptions) {
  const settings = yield* parseOptions(options)
  const location = redactUrl(settings.url)
  const pool = yield* Effect.acquireRelease(
    Effect.sync(() => {
      const created = new pg.Pool({
        connectionString: settings.url,
        max: settings.poolSize,
        connectionTimeoutMillis: settings.connectTimeoutMs,
        // Every connection works in Sextant's schema, and waits at most busyTimeoutMs for a row lock.
        options: `-c search_path=${quoteIdentifier(settings.schema)} -c lock_timeout=${settings.busyTimeoutMs}`,
        application_name: "sextant",
      })
      // An idle connection the server dropped is reported here; the next query opens a new one.
      created.on("error", () => undefined)
      return created
    }),
    (pool) => Effect.promise(() => pool.end().catch(() => undefined)),
  )
  yield* Effect.tryPromise({
    try: async () => {
      const client = await pool.connect()
      try {
        await migrate(client, settings.schema)
      } finally {
        client.release()
      }
    },
    catch: (cause) =>
      new StoreError({
        method: "open",
        reason: new StoreUnavailable({ location, detail: unavailableDetail(cause) }),
        cause,
      }),
  })
  return Store.of(makeShape(pool, location))
})

/**
 * The `Store` on PostgreSQL: every agent, on any machine, that opens the same database and schema shares
 * runs, records, frontiers and the action cache, and run leases and frontier claims are decided by the
 * database, so exactly one claimer wins each run and each URL.
 *
 * @example
 * ```ts
 * import { Effect } from "effect"
 * import { Store } from "@sextant/core"
 * import { PostgresStore } from "@sextant/postgres"
 * const runs = Store.use((store) => store.listRuns()).pipe(
 *   Effect.provide(PostgresStore.layer({ url: process.env.SEXTANT_POSTGRES_URL! })),
 * )
 * ```
 */
export const layer = (options: PostgresStoreOptions): Layer.Layer<Store, StoreError> =>
  Layer.effect(Store, make(options))

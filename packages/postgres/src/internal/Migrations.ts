import { latestMigrationVersion, MIGRATIONS_TABLE_SQL, type StoreMigration } from "@sextant/core"
import type { PoolClient } from "pg"

/** One schema change. Versions count up from 1 and are never edited once released. */
export type Migration = StoreMigration

/**
 * Every schema change, oldest first. The schema records each applied version in its `migrations`
 * table, so opening an older database applies only what it lacks. JSON values are stored as text, as
 * written, and checked against their schema when read (a damaged row is a `StoreCorrupt`).
 */
export const MIGRATIONS: ReadonlyArray<Migration> = [
  {
    version: 1,
    description: "runs with leases, steps, observations, records, the crawl frontier and the action cache",
    sql: `
CREATE TABLE runs (
  run_id TEXT PRIMARY KEY,
  task TEXT NOT NULL,
  status TEXT NOT NULL,
  mode TEXT NOT NULL,
  started_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  plan TEXT,
  result TEXT,
  lease_owner TEXT,
  lease_expires_at BIGINT
);
CREATE INDEX runs_status ON runs (status);
CREATE TABLE steps (
  run_id TEXT NOT NULL,
  step_index INTEGER NOT NULL,
  step TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  PRIMARY KEY (run_id, step_index)
);
CREATE TABLE observations (
  id BIGSERIAL PRIMARY KEY,
  run_id TEXT NOT NULL,
  step_index INTEGER,
  observation TEXT NOT NULL,
  at TEXT NOT NULL
);
CREATE INDEX observations_run ON observations (run_id, id);
CREATE TABLE records (
  id BIGSERIAL PRIMARY KEY,
  run_id TEXT NOT NULL,
  key TEXT NOT NULL,
  source TEXT NOT NULL,
  data TEXT NOT NULL,
  created_at TEXT NOT NULL,
  UNIQUE (run_id, key)
);
CREATE TABLE frontier (
  id BIGSERIAL PRIMARY KEY,
  frontier TEXT NOT NULL,
  url TEXT NOT NULL,
  depth INTEGER NOT NULL,
  parent TEXT,
  state TEXT NOT NULL CHECK (state IN ('pending', 'claimed', 'done', 'failed')),
  claimed_by TEXT,
  updated_at TEXT NOT NULL,
  UNIQUE (frontier, url)
);
CREATE INDEX frontier_state ON frontier (frontier, state, depth, id);
CREATE TABLE action_cache (
  key TEXT PRIMARY KEY,
  instruction TEXT NOT NULL,
  fingerprint TEXT NOT NULL,
  action TEXT NOT NULL,
  locators TEXT NOT NULL,
  hits INTEGER NOT NULL DEFAULT 0,
  updated_at TEXT NOT NULL
);
`,
  },
]

/** The schema version a fully migrated database has. */
export const LATEST_VERSION = latestMigrationVersion(MIGRATIONS)

/** A schema name as a quoted SQL identifier. */
export const quoteIdentifier = (name: string): string => `"${name.replaceAll('"', '""')}"`

/**
 * Creates `schema` when missing and applies the migrations it lacks, in one transaction under an
 * advisory lock: several processes opening one new database at once apply each migration once.
 * Returns the version reached.
 */
export const migrate = async (
  client: PoolClient,
  schema: string,
  migrations: ReadonlyArray<Migration> = MIGRATIONS,
  now: () => string = () => new Date().toISOString(),
): Promise<number> => {
  const quoted = quoteIdentifier(schema)
  await client.query("BEGIN")
  try {
    await client.query("SELECT pg_advisory_xact_lock(7405, hashtext($1))", [schema])
    await client.query(`CREATE SCHEMA IF NOT EXISTS ${quoted}`)
    await client.query(`SET LOCAL search_path TO ${quoted}`)
    await client.query(MIGRATIONS_TABLE_SQL)
    const current = await client.query<{ version: number | null }>(
      "SELECT MAX(version) AS version FROM migrations",
    )
    let version = current.rows[0]?.version ?? 0
    for (const migration of migrations) {
      if (migration.version <= version) continue
      await client.query(migration.sql)
      await client.query("INSERT INTO migrations (version, description, applied_at) VALUES ($1, $2, $3)", [
        migration.version,
        migration.description,
        now(),
      ])
      version = migration.version
    }
    await client.query("COMMIT")
    return version
  } catch (error) {
    await client.query("ROLLBACK").catch(() => undefined)
    throw error
  }
}

import type { DatabaseSync } from "node:sqlite"
import { latestMigrationVersion, MIGRATIONS_TABLE_SQL, type StoreMigration } from "@sextant/core"

/** One schema change. Versions count up from 1 and are never edited once released. */
export type Migration = StoreMigration

/**
 * Every schema change, oldest first. The database records each applied version in `migrations`,
 * so opening an older file applies only what it lacks.
 */
export const MIGRATIONS: ReadonlyArray<Migration> = [
  {
    version: 1,
    description: "runs, steps, observations, records and the crawl frontier",
    sql: `
CREATE TABLE runs (
  run_id TEXT PRIMARY KEY,
  task TEXT NOT NULL,
  status TEXT NOT NULL,
  mode TEXT NOT NULL,
  started_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  plan TEXT,
  result TEXT
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
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  run_id TEXT NOT NULL,
  step_index INTEGER,
  observation TEXT NOT NULL,
  at TEXT NOT NULL
);
CREATE INDEX observations_run ON observations (run_id, id);
CREATE TABLE records (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  run_id TEXT NOT NULL,
  key TEXT NOT NULL,
  source TEXT NOT NULL,
  data TEXT NOT NULL,
  created_at TEXT NOT NULL,
  UNIQUE (run_id, key)
);
CREATE TABLE frontier (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  frontier TEXT NOT NULL,
  url TEXT NOT NULL,
  depth INTEGER NOT NULL,
  parent TEXT,
  state TEXT NOT NULL CHECK (state IN ('pending', 'claimed', 'done', 'failed')),
  updated_at TEXT NOT NULL,
  UNIQUE (frontier, url)
);
CREATE INDEX frontier_state ON frontier (frontier, state, depth, id);
`,
  },
  {
    version: 2,
    description: "action cache and frontier claim owners",
    sql: `
CREATE TABLE action_cache (
  key TEXT PRIMARY KEY,
  instruction TEXT NOT NULL,
  fingerprint TEXT NOT NULL,
  action TEXT NOT NULL,
  locators TEXT NOT NULL,
  hits INTEGER NOT NULL DEFAULT 0,
  updated_at TEXT NOT NULL
);
ALTER TABLE frontier ADD COLUMN claimed_by TEXT;
`,
  },
  {
    version: 3,
    description: "run leases: the owner advancing a run and when its claim lapses",
    sql: `
ALTER TABLE runs ADD COLUMN lease_owner TEXT;
ALTER TABLE runs ADD COLUMN lease_expires_at INTEGER;
`,
  },
]

/** The schema version a fully migrated database has. */
export const LATEST_VERSION = latestMigrationVersion(MIGRATIONS)

/** Runs `body` inside `BEGIN IMMEDIATE … COMMIT`, rolling back when it throws. */
export const transaction = <A>(database: DatabaseSync, body: () => A): A => {
  database.exec("BEGIN IMMEDIATE")
  try {
    const result = body()
    database.exec("COMMIT")
    return result
  } catch (error) {
    if (database.isTransaction) database.exec("ROLLBACK")
    throw error
  }
}

/** The highest applied version, 0 for a new database. */
export const currentVersion = (database: DatabaseSync): number => {
  database.exec(MIGRATIONS_TABLE_SQL)
  const row = database.prepare("SELECT MAX(version) AS version FROM migrations").get() as
    | { version: number | null }
    | undefined
  return row?.version ?? 0
}

/**
 * Applies the migrations the database lacks, each in its own transaction, and returns the version
 * reached. Two processes opening one new file at once are safe: `BEGIN IMMEDIATE` serialises them and
 * each re-reads the version inside its transaction.
 */
export const migrate = (
  database: DatabaseSync,
  migrations: ReadonlyArray<Migration> = MIGRATIONS,
  now: () => string = () => new Date().toISOString(),
): number => {
  currentVersion(database)
  for (const migration of migrations) {
    transaction(database, () => {
      if (currentVersion(database) >= migration.version) return
      database.exec(migration.sql)
      database
        .prepare("INSERT INTO migrations (version, description, applied_at) VALUES (?, ?, ?)")
        .run(migration.version, migration.description, now())
    })
  }
  return currentVersion(database)
}

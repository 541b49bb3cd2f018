/**
 * @sextant/postgres — the Sextant `Store` on PostgreSQL, shared by agents on many machines.
 */

export * as PostgresStore from "./PostgresStore.ts"

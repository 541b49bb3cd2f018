import { assert, describe, it } from "@effect/vitest"
import { Store } from "@sextant/core"
import { startPostgres } from "@sextant/testing"
import { storeContract } from "@sextant/testing/store-contract"
import { Effect } from "effect"
import pg from "pg"
import { afterAll } from "vitest"
import { PostgresStore } from "../src/index.ts"
import { LATEST_VERSION } from "../src/internal/Migrations.ts"

// One server for the file; every test uses unique run ids and frontier names (or its own schema).
const server = await startPostgres()
afterAll(() => server.stop())

const sql = async <R extends pg.QueryResultRow>(text: string, values: ReadonlyArray<unknown> = []) => {
  const client = new pg.Client({ connectionString: server.url })
  await client.connect()
  try {
    return (await client.query<R>(text, [...values])).rows
  } finally {
    await client.end()
  }
}

storeContract("PostgreSQL", PostgresStore.layer({ url: server.url }), {
  // A second pool on the same database: another machine, as far as PostgreSQL can tell.
  twin: PostgresStore.layer({ url: server.url }),
  damageTask: async (runId) => {
    await sql("UPDATE sextant.runs SET task = '{not json' WHERE run_id = $1", [runId])
  },
})

describe("PostgresStore", () => {
  it.effect(
    "creates its schema once, recording each migration, when many stores open a new database at once",
    () =>
      Effect.gen(function* () {
        const schema = "fresh_open"
        const open = Store.use((store) => store.frontierStats("x")).pipe(
          Effect.provide(PostgresStore.layer({ url: server.url, schema })),
        )
        yield* Effect.all(
          Array.from({ length: 5 }, () => open),
          { concurrency: "unbounded" },
        )
        const versions = yield* Effect.promise(() =>
          sql<{ version: number }>(`SELECT version FROM ${schema}.migrations ORDER BY version`),
        )
        assert.deepStrictEqual(
          versions.map((row) => row.version),
          [LATEST_VERSION],
        )
      }),
  )

  it.effect("keeps stores under different schemas of one database apart", () =>
    Effect.gen(function* () {
      const write = (schema: string, key: string) =>
        Store.use((store) =>
          store.appendRecords("run-1", [{ key, source: "http://127.0.0.1/", data: { schema } }]),
        ).pipe(Effect.provide(PostgresStore.layer({ url: server.url, schema })))
      yield* write("tenant_a", "a")
      yield* write("tenant_b", "b")
      const read = (schema: string) =>
        Store.use((store) => store.listRecords("run-1")).pipe(
          Effect.provide(PostgresStore.layer({ url: server.url, schema })),
        )
      assert.deepStrictEqual(
        (yield* read("tenant_a")).map((record) => record.key),
        ["a"],
      )
      assert.deepStrictEqual(
        (yield* read("tenant_b")).map((record) => record.key),
        ["b"],
      )
    }),
  )

  it.effect("fails with StoreUnavailable naming the database when it does not exist", () =>
    Effect.gen(function* () {
      const url = server.url.replace(/\/sextant$/, "/no_such_db")
      const error = yield* Effect.flip(
        Store.use((store) => store.listRuns()).pipe(Effect.provide(PostgresStore.layer({ url }))),
      )
      assert.strictEqual(error.reason._tag, "StoreUnavailable")
      assert.include(error.message, "no_such_db")
      assert.include(error.message, "createdb")
    }),
  )
})

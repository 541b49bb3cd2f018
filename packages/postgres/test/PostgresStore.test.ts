import { assert, describe, it } from "@effect/vitest"
import { Store } from "@sextant/core"
import { freePort } from "@sextant/testing"
import { Effect } from "effect"
import { PostgresStore } from "../src/index.ts"

// No server needed: these are the failures before a server answers.
describe("PostgresStore without a server", () => {
  it.effect("rejects a URL that is not a PostgreSQL URL, naming the field and the expected form", () =>
    Effect.gen(function* () {
      const error = yield* Effect.flip(
        Store.use((store) => store.listRuns()).pipe(
          Effect.provide(PostgresStore.layer({ url: "mysql://root@127.0.0.1/db" })),
        ),
      )
      assert.strictEqual(error.reason._tag, "StoreUnavailable")
      assert.include(error.message, "url: must be a PostgreSQL URL such as postgres://")
    }),
  )

  it.effect("rejects a schema that is not a plain SQL identifier", () =>
    Effect.gen(function* () {
      const error = yield* Effect.flip(
        Store.use((store) => store.listRuns()).pipe(
          Effect.provide(
            PostgresStore.layer({ url: "postgres://127.0.0.1/db", schema: 'x"; drop table runs; --' }),
          ),
        ),
      )
      assert.include(error.message, "schema: must be a lower-case SQL identifier")
    }),
  )

  it.live(
    "fails with StoreUnavailable saying to start a server when nothing listens there, hiding the password",
    () =>
      Effect.gen(function* () {
        const port = yield* Effect.promise(() => freePort())
        const error = yield* Effect.flip(
          Store.use((store) => store.listRuns()).pipe(
            Effect.provide(
              PostgresStore.layer({ url: `postgres://sextant:hunter2@127.0.0.1:${port}/sextant` }),
            ),
          ),
        )
        assert.strictEqual(error.reason._tag, "StoreUnavailable")
        assert.include(error.message, `127.0.0.1:${port}`)
        assert.include(error.message, "is the PostgreSQL server running")
        assert.notInclude(error.message, "hunter2")
        assert.include(error.message, "sextant:***@")
      }),
  )
})

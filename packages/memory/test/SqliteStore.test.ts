import { spawn } from "node:child_process"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { DatabaseSync } from "node:sqlite"
import { assert, describe, it } from "@effect/vitest"
import { Store } from "@sextant/core"
import { MemoryStore } from "@sextant/testing"
import { storeContract } from "@sextant/testing/store-contract"
import { Effect } from "effect"
import { afterAll } from "vitest"
import { LATEST_VERSION, MIGRATIONS, migrate } from "../src/internal/Migrations.ts"
import * as SqliteStore from "../src/SqliteStore.ts"

const folder = mkdtempSync(join(tmpdir(), "sextant-store-"))
afterAll(() => rmSync(folder, { recursive: true, force: true }))

storeContract("in-memory SQLite", SqliteStore.layerMemory)
const contractFile = join(folder, "contract.db")
storeContract("SQLite file", SqliteStore.layer({ path: contractFile }), {
  // Another connection to the same file, as a second process would open it.
  twin: SqliteStore.layer({ path: contractFile }),
  damageTask: async (runId) => {
    const database = new DatabaseSync(contractFile)
    database.prepare("UPDATE runs SET task = '{not json' WHERE run_id = ?").run(runId)
    database.close()
  },
})
// The fake users test their agents with must behave as the real store does.
storeContract("the in-memory fake of @sextant/testing", MemoryStore.layerTest)

describe("SqliteStore on a file", () => {
  it.effect("keeps what was written after the store is closed and opened again", () =>
    Effect.gen(function* () {
      const path = join(folder, "reopen.db")
      const write = Store.use((store) =>
        store.appendRecords("run-1", [{ key: "k", source: "http://127.0.0.1/", data: { n: 1 } }]),
      )
      yield* write.pipe(Effect.provide(SqliteStore.layer({ path })))
      const records = yield* Store.use((store) => store.listRecords("run-1")).pipe(
        Effect.provide(SqliteStore.layer({ path })),
      )
      assert.deepStrictEqual(records, [{ key: "k", source: "http://127.0.0.1/", data: { n: 1 } }])
    }),
  )

  it.effect("uses write-ahead logging and a busy timeout", () =>
    Effect.gen(function* () {
      const path = join(folder, "pragmas.db")
      yield* Store.use((store) => store.frontierStats("x")).pipe(
        Effect.provide(SqliteStore.layer({ path, busyTimeoutMs: 1234 })),
      )
      const database = new DatabaseSync(path)
      const mode = database.prepare("PRAGMA journal_mode").get() as { journal_mode: string }
      database.close()
      assert.strictEqual(mode.journal_mode, "wal")
    }),
  )

  it.effect("upgrades a database made by an older version, keeping its data", () =>
    Effect.gen(function* () {
      const path = join(folder, "old.db")
      const old = new DatabaseSync(path)
      assert.strictEqual(migrate(old, MIGRATIONS.slice(0, 1)), 1)
      old
        .prepare(
          "INSERT INTO frontier (frontier, url, depth, parent, state, updated_at) VALUES ('shop', 'http://127.0.0.1/a', 0, NULL, 'pending', 'then')",
        )
        .run()
      old.close()

      const claimed = yield* Store.use((store) =>
        Effect.gen(function* () {
          yield* store.putCachedAction({
            key: "k",
            instruction: "click next",
            fingerprint: "f",
            action: {},
            locators: [],
          })
          return yield* store.frontierClaim("shop", 5)
        }),
      ).pipe(Effect.provide(SqliteStore.layer({ path })))
      assert.deepStrictEqual(claimed, [{ url: "http://127.0.0.1/a", depth: 0 }])

      const database = new DatabaseSync(path)
      const versions = database.prepare("SELECT version FROM migrations ORDER BY version").all()
      database.close()
      assert.deepStrictEqual(
        versions.map((row) => row.version),
        MIGRATIONS.map((migration) => migration.version),
      )
      assert.strictEqual(LATEST_VERSION, 3)
    }),
  )

  it.effect("fails with StoreUnavailable when the file cannot be opened", () =>
    Effect.gen(function* () {
      const error = yield* Effect.flip(
        Store.use((store) => store.frontierStats("x")).pipe(
          Effect.provide(SqliteStore.layer({ path: join(folder, "missing-folder", "store.db") })),
        ),
      )
      assert.strictEqual(error.reason._tag, "StoreUnavailable")
      assert.include(error.message, "missing-folder")
    }),
  )

  it.effect("lets fibers of one process share a store without losing writes", () =>
    Effect.gen(function* () {
      const store = yield* Store
      const urls = Array.from({ length: 40 }, (_, index) => ({ url: `http://127.0.0.1/${index}`, depth: 0 }))
      yield* store.frontierAdd("fibers", urls)
      const claimed = yield* Effect.forEach(
        [1, 2, 3, 4],
        () =>
          Effect.gen(function* () {
            const mine: Array<string> = []
            while (true) {
              const batch = yield* store.frontierClaim("fibers", 2)
              if (batch.length === 0) return mine
              for (const entry of batch) {
                mine.push(entry.url)
                yield* Effect.yieldNow
                yield* store.frontierComplete("fibers", entry.url, true)
              }
            }
          }),
        { concurrency: "unbounded" },
      )
      const all = claimed.flat()
      assert.strictEqual(all.length, 40)
      assert.strictEqual(new Set(all).size, 40)
      assert.isTrue(claimed.every((mine) => mine.length > 0))
      assert.deepStrictEqual(yield* store.frontierStats("fibers"), {
        pending: 0,
        claimed: 0,
        done: 40,
        failed: 0,
      })
    }).pipe(Effect.provide(SqliteStore.layer({ path: join(folder, "fibers.db") }))),
  )

  it("lets two processes claim from one frontier at once without claiming a URL twice", async () => {
    const path = join(folder, "processes.db")
    const urls = Array.from({ length: 300 }, (_, index) => ({
      url: `http://127.0.0.1/item/${index}`,
      depth: 0,
    }))
    await Effect.runPromise(
      Store.use((store) => store.frontierAdd("shared", urls)).pipe(
        Effect.provide(SqliteStore.layer({ path })),
      ),
    )
    const worker = join(import.meta.dirname, "fixtures", "frontierWorker.ts")
    const start = (name: string) => {
      const child = spawn(
        process.execPath,
        ["--conditions=sextant-source", worker, path, "shared", "run", name],
        {
          cwd: import.meta.dirname,
          stdio: ["pipe", "pipe", "pipe"],
        },
      )
      let stdout = ""
      let stderr = ""
      child.stdout.on("data", (chunk) => {
        stdout += chunk
      })
      const ready = new Promise<void>((resolve) =>
        child.stderr.on("data", (chunk) => {
          stderr += chunk
          if (stderr.includes("ready")) resolve()
        }),
      )
      const done = new Promise<{ stdout: string }>((resolve, reject) =>
        child.on("exit", (code) =>
          code === 0 ? resolve({ stdout }) : reject(new Error(`${name}: ${stderr}`)),
        ),
      )
      return { child, ready, done }
    }
    const workers = [start("first"), start("second")]
    await Promise.all(workers.map((running) => running.ready))
    for (const running of workers) running.child.stdin.end("go\n")
    const [first, second] = (await Promise.all(workers.map((running) => running.done))) as [
      { stdout: string },
      { stdout: string },
    ]
    const firstClaims = JSON.parse(first.stdout) as Array<string>
    const secondClaims = JSON.parse(second.stdout) as Array<string>
    assert.isAbove(firstClaims.length, 0)
    assert.isAbove(secondClaims.length, 0)
    const all = [...firstClaims, ...secondClaims]
    assert.strictEqual(all.length, 300)
    assert.strictEqual(new Set(all).size, 300)

    const [records, stats] = await Effect.runPromise(
      Store.use((store) => Effect.all([store.listRecords("run"), store.frontierStats("shared")])).pipe(
        Effect.provide(SqliteStore.layer({ path })),
      ),
    )
    assert.strictEqual(records.length, 300)
    assert.deepStrictEqual(
      new Set(records.map((record) => (record.data as { worker: string }).worker)),
      new Set(["first", "second"]),
    )
    assert.deepStrictEqual(stats, { pending: 0, claimed: 0, done: 300, failed: 0 })
  })
})

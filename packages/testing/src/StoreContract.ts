import { assert, describe, it } from "@effect/vitest"
import { type AgentTask, type Observation, type RunRecord, Store, type StoreError } from "@sextant/core"
import { Clock, Context, Effect, Exit, Layer } from "effect"
import { TestClock } from "effect/testing"

let counter = 0
/** A name no other test of the suite uses, so tests sharing one store stay independent. */
const unique = (prefix: string): string => `${prefix}-${++counter}-${Math.random().toString(36).slice(2, 8)}`

const task = (id: string): AgentTask => ({
  id,
  goal: "list the products",
  startUrl: "http://127.0.0.1:4000/products",
  inputs: {},
  secretInputs: [],
  constraints: {
    maxSteps: 40,
    maxDurationMs: 300_000,
    stepTimeoutMs: 30_000,
    allowNavigation: true,
    allowFormSubmission: false,
    blockedUrlPatterns: [],
    allowedUploadDirs: [],
    quotas: { navigations: 20, clicks: 100, submissions: 2 },
  },
  createdAt: "2026-11-22T10:00:00.000Z",
})

const run = (runId: string, status: RunRecord["status"] = "RUNNING"): RunRecord => ({
  runId,
  task: task(runId),
  status,
  mode: "plan",
  startedAt: "2026-11-22T10:00:00.000Z",
  updatedAt: "2026-11-22T10:00:01.000Z",
})

const observation = (tool: string, at: string): Observation => ({
  tool,
  ok: true,
  data: { tool },
  durationMs: 12,
  at,
})

/** What a store can offer the contract beyond its layer. */
export interface StoreContractOptions {
  /**
   * A second, independent store on the same database (another connection, as another machine would
   * have). With it, the suite races two instances for the same run and the same frontier URLs and
   * checks that exactly one wins each.
   */
  readonly twin?: Layer.Layer<Store, StoreError>
  /**
   * Overwrites the stored task of `runId` with text that is not JSON, straight in the database. With it,
   * the suite checks that reading the run fails with `StoreCorrupt` naming the run and the row.
   */
  readonly damageTask?: (runId: string) => Promise<void>
}

/**
 * The behaviour every `Store` implementation must have, as a vitest suite (`@effect/vitest`). Each test
 * builds `store` afresh and uses unique run ids and frontier names, so one database may serve the whole
 * suite. Import it from `@sextant/testing/store-contract` (it needs vitest; the main entry does not).
 *
 * @example
 * ```ts
 * import { storeContract } from "@sextant/testing/store-contract"
 * import { SqliteStore } from "@sextant/memory"
 * storeContract("SQLite file", SqliteStore.layer({ path }), { twin: SqliteStore.layer({ path }) })
 * ```
 */
export const storeContract = (
  name: string,
  store: Layer.Layer<Store, StoreError>,
  options: StoreContractOptions = {},
): void => {
  describe(`Store contract: ${name}`, () => {
    const test = <A, E>(title: string, body: () => Effect.Effect<A, E, Store>) =>
      it.effect(title, () => body().pipe(Effect.provide(store)))

    test("saves a run, updates it in place and reads it back", () =>
      Effect.gen(function* () {
        const store = yield* Store
        const runId = unique("run")
        yield* store.saveRun(run(runId))
        yield* store.saveRun({ ...run(runId, "COMPLETED"), updatedAt: "2026-11-22T10:05:00.000Z" })
        const saved = yield* store.getRun(runId)
        assert.strictEqual(saved.status, "COMPLETED")
        assert.strictEqual(saved.updatedAt, "2026-11-22T10:05:00.000Z")
        assert.deepStrictEqual(saved.task, task(runId))
        const completed = yield* store.listRuns({ status: "COMPLETED" })
        assert.isTrue(completed.some((record) => record.runId === runId))
        const running = yield* store.listRuns({ status: "RUNNING" })
        assert.isFalse(running.some((record) => record.runId === runId))
      }))

    test("fails with StoreNotFound for a run it does not have", () =>
      Effect.gen(function* () {
        const store = yield* Store
        const exit = yield* Effect.exit(store.getRun("no-such-run"))
        assert.isTrue(Exit.isFailure(exit))
        const error = yield* Effect.flip(store.getRun("no-such-run"))
        assert.strictEqual(error.reason._tag, "StoreNotFound")
        assert.include(error.message, "no-such-run")
      }))

    test("reads back a run, its steps and observations whose data was undefined when written", () =>
      Effect.gen(function* () {
        const store = yield* Store
        const runId = unique("run")
        const bare: Observation = {
          tool: "wait",
          ok: true,
          data: undefined,
          durationMs: 1,
          at: "2026-11-22T10:00:02.000Z",
        }
        const step = {
          index: 0,
          tool: "wait",
          args: {},
          successCriteria: [],
          state: "succeeded" as const,
          attempts: 1,
        }
        yield* store.saveRun({
          ...run(runId),
          plan: { taskId: runId, revision: 0, status: "running", steps: [{ ...step, observation: bare }] },
        })
        yield* store.saveStep(runId, { ...step, observation: bare })
        yield* store.appendObservation(runId, 0, bare)
        assert.strictEqual((yield* store.getRun(runId)).plan?.steps[0]?.observation?.tool, "wait")
        assert.strictEqual((yield* store.listSteps(runId))[0]?.observation?.tool, "wait")
        assert.strictEqual((yield* store.listObservations(runId))[0]?.tool, "wait")
      }))

    test("leases a run to one owner until it expires, and names the holder to anyone else", () =>
      Effect.gen(function* () {
        const store = yield* Store
        const runId = unique("run")
        yield* store.saveRun(run(runId))
        const lease = yield* store.claimRun(runId, "host-a:100:aaaa", 30_000)
        assert.strictEqual(lease.owner, "host-a:100:aaaa")
        assert.strictEqual(Date.parse(lease.expiresAt), (yield* Clock.currentTimeMillis) + 30_000)
        const refused = yield* Effect.flip(store.claimRun(runId, "host-b:200:bbbb", 30_000))
        assert.strictEqual(refused.reason._tag, "StoreLeaseHeld")
        assert.include(refused.message, "host-a:100:aaaa")
        assert.include(refused.message, lease.expiresAt)
        assert.isTrue(refused.isRetryable)
        // Claiming again as the holder extends the lease; saving the run keeps it.
        yield* TestClock.adjust(10_000)
        yield* store.saveRun(run(runId, "RUNNING"))
        const again = yield* store.claimRun(runId, "host-a:100:aaaa", 30_000)
        assert.strictEqual(Date.parse(again.expiresAt), (yield* Clock.currentTimeMillis) + 30_000)
        const stillRefused = yield* Effect.flip(store.claimRun(runId, "host-b:200:bbbb", 30_000))
        assert.include(stillRefused.message, again.expiresAt)
        // The holder died: once its lease lapses, another owner takes the run over.
        yield* TestClock.adjust(30_000)
        const takeover = yield* store.claimRun(runId, "host-b:200:bbbb", 30_000)
        assert.strictEqual(takeover.owner, "host-b:200:bbbb")
        const lost = yield* Effect.flip(store.renewRun(runId, "host-a:100:aaaa", 30_000))
        assert.strictEqual(lost.reason._tag, "StoreLeaseHeld")
        assert.include(lost.message, "host-b:200:bbbb")
      }))

    test("renews a held lease and frees a released one at once", () =>
      Effect.gen(function* () {
        const store = yield* Store
        const runId = unique("run")
        yield* store.saveRun(run(runId))
        yield* store.claimRun(runId, "owner-1", 1_000)
        yield* TestClock.adjust(900)
        const renewed = yield* store.renewRun(runId, "owner-1", 1_000)
        assert.strictEqual(Date.parse(renewed.expiresAt), (yield* Clock.currentTimeMillis) + 1_000)
        yield* TestClock.adjust(900)
        // Renewed, so not expired yet: a second owner is still refused.
        assert.strictEqual(
          (yield* Effect.flip(store.claimRun(runId, "owner-2", 1_000))).reason._tag,
          "StoreLeaseHeld",
        )
        // Releasing someone else's lease does nothing.
        yield* store.releaseRun(runId, "owner-2")
        assert.strictEqual(
          (yield* Effect.flip(store.claimRun(runId, "owner-2", 1_000))).reason._tag,
          "StoreLeaseHeld",
        )
        yield* store.releaseRun(runId, "owner-1")
        const next = yield* store.claimRun(runId, "owner-2", 1_000)
        assert.strictEqual(next.owner, "owner-2")
      }))

    test("gives a run to exactly one of many owners claiming at once", () =>
      Effect.gen(function* () {
        const store = yield* Store
        const runId = unique("run")
        yield* store.saveRun(run(runId))
        const owners = Array.from({ length: 8 }, (_, index) => `owner-${index}`)
        const claims = yield* Effect.forEach(
          owners,
          (owner) => Effect.result(store.claimRun(runId, owner, 60_000)),
          {
            concurrency: "unbounded",
          },
        )
        const winners = claims.filter((claim) => claim._tag === "Success")
        assert.strictEqual(winners.length, 1)
        for (const claim of claims) {
          if (claim._tag === "Failure") assert.strictEqual(claim.failure.reason._tag, "StoreLeaseHeld")
        }
      }))

    test("refuses to lease a run it does not have", () =>
      Effect.gen(function* () {
        const store = yield* Store
        const error = yield* Effect.flip(store.claimRun(unique("missing"), "owner-1", 1_000))
        assert.strictEqual(error.reason._tag, "StoreNotFound")
      }))

    test("keeps one row per step index, the latest write winning, in index order", () =>
      Effect.gen(function* () {
        const store = yield* Store
        const runId = unique("run")
        const step = (index: number, state: "pending" | "succeeded") => ({
          index,
          tool: "navigate",
          args: { url: `http://127.0.0.1/${index}` },
          successCriteria: [],
          state,
          attempts: 0,
        })
        yield* store.saveStep(runId, step(1, "pending"))
        yield* store.saveStep(runId, step(0, "pending"))
        yield* store.saveStep(runId, step(1, "succeeded"))
        const steps = yield* store.listSteps(runId)
        assert.deepStrictEqual(
          steps.map((saved) => [saved.index, saved.state]),
          [
            [0, "pending"],
            [1, "succeeded"],
          ],
        )
      }))

    test("appends observations in the order they happened", () =>
      Effect.gen(function* () {
        const store = yield* Store
        const runId = unique("run")
        yield* store.appendObservation(runId, 0, observation("navigate", "2026-11-22T10:00:00.000Z"))
        yield* store.appendObservation(runId, undefined, observation("look", "2026-11-22T10:00:01.000Z"))
        yield* store.appendObservation(runId, 1, observation("click", "2026-11-22T10:00:02.000Z"))
        const observations = yield* store.listObservations(runId)
        assert.deepStrictEqual(
          observations.map((saved) => saved.tool),
          ["navigate", "look", "click"],
        )
        assert.deepStrictEqual(observations[0], observation("navigate", "2026-11-22T10:00:00.000Z"))
      }))

    test("keeps one record per run and key and counts only new ones", () =>
      Effect.gen(function* () {
        const store = yield* Store
        const runId = unique("run")
        const other = unique("run")
        const first = yield* store.appendRecords(runId, [
          { key: "1", source: "http://127.0.0.1/p1", data: { name: "Brass Sextant" } },
          { key: "2", source: "http://127.0.0.1/p1", data: { name: "Brass Compass" } },
        ])
        const second = yield* store.appendRecords(runId, [
          { key: "2", source: "http://127.0.0.1/p2", data: { name: "changed" } },
          { key: "3", source: "http://127.0.0.1/p2", data: { name: "Brass Telescope" } },
        ])
        const elsewhere = yield* store.appendRecords(other, [
          { key: "1", source: "http://127.0.0.1/p1", data: { name: "Brass Sextant" } },
        ])
        assert.deepStrictEqual([first, second, elsewhere], [2, 1, 1])
        const records = yield* store.listRecords(runId)
        assert.deepStrictEqual(
          records.map((record) => [record.key, (record.data as { name: string }).name]),
          [
            ["1", "Brass Sextant"],
            ["2", "Brass Compass"],
            ["3", "Brass Telescope"],
          ],
        )
      }))

    test("adds each frontier URL once and claims pending URLs breadth first", () =>
      Effect.gen(function* () {
        const store = yield* Store
        const frontier = unique("frontier")
        const added = yield* store.frontierAdd(frontier, [
          { url: "http://127.0.0.1/a", depth: 0 },
          { url: "http://127.0.0.1/b", depth: 1, parent: "http://127.0.0.1/a" },
          { url: "http://127.0.0.1/a", depth: 0 },
        ])
        const again = yield* store.frontierAdd(frontier, [
          { url: "http://127.0.0.1/b", depth: 1 },
          { url: "http://127.0.0.1/c", depth: 1, parent: "http://127.0.0.1/a" },
        ])
        assert.deepStrictEqual([added, again], [2, 1])
        const first = yield* store.frontierClaim(frontier, 2)
        assert.deepStrictEqual(first, [
          { url: "http://127.0.0.1/a", depth: 0 },
          { url: "http://127.0.0.1/b", depth: 1, parent: "http://127.0.0.1/a" },
        ])
        const second = yield* store.frontierClaim(frontier, 5)
        assert.deepStrictEqual(
          second.map((entry) => entry.url),
          ["http://127.0.0.1/c"],
        )
        assert.deepStrictEqual(yield* store.frontierClaim(frontier, 5), [])
      }))

    test("tracks completion and releases claimed-but-unfinished URLs", () =>
      Effect.gen(function* () {
        const store = yield* Store
        const frontier = unique("frontier")
        yield* store.frontierAdd(
          frontier,
          ["a", "b", "c", "d"].map((path) => ({ url: `http://127.0.0.1/${path}`, depth: 0 })),
        )
        const claimed = yield* store.frontierClaim(frontier, 3)
        yield* store.frontierComplete(frontier, claimed[0]!.url, true)
        yield* store.frontierComplete(frontier, claimed[1]!.url, false)
        assert.deepStrictEqual(yield* store.frontierStats(frontier), {
          pending: 1,
          claimed: 1,
          done: 1,
          failed: 1,
        })
        assert.strictEqual(yield* store.frontierRelease(frontier), 1)
        assert.deepStrictEqual(yield* store.frontierStats(frontier), {
          pending: 2,
          claimed: 0,
          done: 1,
          failed: 1,
        })
        const reclaimed = yield* store.frontierClaim(frontier, 10)
        assert.deepStrictEqual(
          reclaimed.map((entry) => entry.url).sort(),
          [claimed[2]!.url, "http://127.0.0.1/d"].sort(),
        )
        assert.deepStrictEqual(yield* store.frontierStats(unique("frontier")), {
          pending: 0,
          claimed: 0,
          done: 0,
          failed: 0,
        })
      }))

    test("remembers cached actions, counting hits until the page fingerprint changes", () =>
      Effect.gen(function* () {
        const store = yield* Store
        const key = unique("action")
        assert.isUndefined(yield* store.getCachedAction(key))
        const action = {
          key,
          instruction: "click the login button",
          fingerprint: "f1",
          action: { tool: "click", args: { target: "#login-btn" } },
          locators: ["#login-btn", "button[type=submit]"],
        }
        yield* store.putCachedAction(action)
        const first = yield* store.getCachedAction(key)
        const second = yield* store.getCachedAction(key)
        assert.deepStrictEqual({ ...second!, updatedAt: "" }, { ...action, hits: 2, updatedAt: "" })
        assert.strictEqual(first?.hits, 1)
        yield* store.putCachedAction({ ...action, fingerprint: "f2" })
        assert.strictEqual((yield* store.getCachedAction(key))?.hits, 1)
      }))

    const { twin, damageTask } = options
    if (twin !== undefined) {
      /** Both stores at once, each built on its own (its own connection to the shared database). */
      const both = Effect.gen(function* () {
        const first = Context.get(yield* Layer.build(store), Store)
        const second = Context.get(yield* Layer.build(twin), Store)
        return [first, second] as const
      })

      it.effect("gives a run to exactly one owner when two store instances claim it at once", () =>
        Effect.scoped(
          Effect.gen(function* () {
            const [first, second] = yield* both
            for (let round = 0; round < 5; round++) {
              const runId = unique("raced-run")
              yield* first.saveRun(run(runId))
              const claims = yield* Effect.forEach(
                Array.from({ length: 8 }, (_, index) => index),
                (index) =>
                  Effect.result(
                    (index % 2 === 0 ? first : second).claimRun(
                      runId,
                      `machine-${index % 2}:owner-${index}`,
                      60_000,
                    ),
                  ),
                { concurrency: "unbounded" },
              )
              const winners = claims.flatMap((claim) =>
                claim._tag === "Success" ? [claim.success.owner] : [],
              )
              assert.strictEqual(winners.length, 1, `round ${round}: ${winners.length} owners won`)
              for (const claim of claims) {
                if (claim._tag === "Failure") {
                  assert.strictEqual(claim.failure.reason._tag, "StoreLeaseHeld")
                  assert.include(claim.failure.message, winners[0]!)
                }
              }
              // Both instances see the same holder.
              const held = yield* Effect.flip(second.claimRun(runId, "someone-else", 1_000))
              assert.include(held.message, winners[0]!)
            }
          }),
        ),
      )

      it.effect("hands each frontier URL to exactly one of two store instances claiming at once", () =>
        Effect.scoped(
          Effect.gen(function* () {
            const [first, second] = yield* both
            const frontier = unique("raced-frontier")
            const urls = Array.from({ length: 60 }, (_, index) => `http://127.0.0.1/item/${index}`)
            yield* first.frontierAdd(
              frontier,
              urls.map((url) => ({ url, depth: 0 })),
            )
            const drain = (instance: typeof first) =>
              Effect.gen(function* () {
                const mine: Array<string> = []
                for (;;) {
                  const batch = yield* instance.frontierClaim(frontier, 3)
                  if (batch.length === 0) return mine
                  for (const entry of batch) {
                    mine.push(entry.url)
                    yield* instance.frontierComplete(frontier, entry.url, true)
                  }
                }
              })
            const claimed = yield* Effect.all([drain(first), drain(second), drain(first), drain(second)], {
              concurrency: "unbounded",
            })
            const all = claimed.flat()
            assert.strictEqual(all.length, urls.length, "every URL claimed once, none twice")
            assert.deepStrictEqual([...new Set(all)].sort(), [...urls].sort())
            assert.deepStrictEqual(yield* second.frontierStats(frontier), {
              pending: 0,
              claimed: 0,
              done: urls.length,
              failed: 0,
            })
          }),
        ),
      )

      it.effect("counts a record two store instances add at once as new only once", () =>
        Effect.scoped(
          Effect.gen(function* () {
            const [first, second] = yield* both
            const runId = unique("raced-records")
            const records = Array.from({ length: 20 }, (_, index) => ({
              key: String(index),
              source: "http://127.0.0.1/",
              data: { index },
            }))
            const added = yield* Effect.all(
              [first.appendRecords(runId, records), second.appendRecords(runId, records)],
              { concurrency: "unbounded" },
            )
            assert.strictEqual(added[0] + added[1], 20)
            assert.strictEqual((yield* first.listRecords(runId)).length, 20)
          }),
        ),
      )
    }

    if (damageTask !== undefined) {
      test("fails with StoreCorrupt naming the run and the row when a stored row is damaged", () =>
        Effect.gen(function* () {
          const store = yield* Store
          const runId = unique("damaged-run")
          yield* store.saveRun(run(runId))
          yield* Effect.tryPromise(() => damageTask(runId))
          const error = yield* Effect.flip(store.getRun(runId))
          assert.strictEqual(error.reason._tag, "StoreCorrupt")
          assert.include(error.message, runId)
          assert.include(error.message, "runs.task")
          const listed = yield* Effect.flip(store.listRuns())
          assert.strictEqual(listed.reason._tag, "StoreCorrupt")
          // Saving the run again rewrites the row, so the other tests sharing the database can list runs.
          yield* store.saveRun(run(runId))
          assert.strictEqual((yield* store.getRun(runId)).runId, runId)
        }))
    }
  })
}

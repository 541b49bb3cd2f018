import {
  type CachedAction,
  type FrontierEntry,
  type Observation,
  type RunLease,
  type RunRecord,
  type Step,
  Store,
  type StoredRecord,
  StoreError,
  StoreLeaseHeld,
  StoreNotFound,
  type StoreShape,
} from "@sextant/core"
import { Clock, Effect, Layer } from "effect"

interface FrontierState {
  readonly entries: Map<string, FrontierEntry & { state: "pending" | "claimed" | "done" | "failed" }>
}

/**
 * A `Store` kept in process memory, with the same semantics as the SQLite one: steps replace by index,
 * records deduplicate by key, frontiers keep each URL once. For tests; nothing survives the process.
 *
 * @example
 * ```ts
 * import { makeMemoryStore } from "@sextant/testing"
 * const store = makeMemoryStore()
 * ```
 */
export const makeMemoryStore = (): StoreShape => {
  const runs = new Map<string, RunRecord>()
  const steps = new Map<string, Map<number, Step>>()
  const observations = new Map<string, Array<Observation>>()
  const records = new Map<string, Map<string, StoredRecord>>()
  const frontiers = new Map<string, FrontierState>()
  const cache = new Map<string, CachedAction>()
  const leases = new Map<string, { owner: string; expiresAt: number }>()

  // Each lease operation reads and writes the map in one synchronous step, so it is as atomic as the
  // SQLite store's single UPDATE: two fibers claiming at once cannot both win.
  const lease =
    (method: "claimRun" | "renewRun") =>
    (runId: string, owner: string, ttlMs: number): Effect.Effect<RunLease, StoreError> =>
      Effect.flatMap(Clock.currentTimeMillis, (now) =>
        Effect.suspend(() => {
          if (!runs.has(runId)) {
            return Effect.fail(
              new StoreError({ method, reason: new StoreNotFound({ what: "run", id: runId }) }),
            )
          }
          const held = leases.get(runId)
          const free =
            held === undefined || held.owner === owner || (method === "claimRun" && held.expiresAt <= now)
          if (!free) {
            return Effect.fail(
              new StoreError({
                method,
                reason: new StoreLeaseHeld({
                  runId,
                  owner: held.owner,
                  expiresAt: new Date(held.expiresAt).toISOString(),
                }),
              }),
            )
          }
          const expiresAt = now + Math.max(0, Math.round(ttlMs))
          leases.set(runId, { owner, expiresAt })
          return Effect.succeed({ runId, owner, expiresAt: new Date(expiresAt).toISOString() })
        }),
      )

  const frontier = (name: string): FrontierState => {
    let state = frontiers.get(name)
    if (state === undefined) {
      state = { entries: new Map() }
      frontiers.set(name, state)
    }
    return state
  }

  return {
    saveRun: (run) => Effect.sync(() => void runs.set(run.runId, structuredClone(run))),
    getRun: (runId) =>
      Effect.suspend(() => {
        const run = runs.get(runId)
        return run === undefined
          ? Effect.fail(
              new StoreError({ method: "getRun", reason: new StoreNotFound({ what: "run", id: runId }) }),
            )
          : Effect.succeed(structuredClone(run))
      }),
    listRuns: (filter) =>
      Effect.sync(() =>
        [...runs.values()].filter((run) => filter?.status === undefined || run.status === filter.status),
      ),
    claimRun: lease("claimRun"),
    renewRun: lease("renewRun"),
    releaseRun: (runId, owner) =>
      Effect.sync(() => {
        if (leases.get(runId)?.owner === owner) leases.delete(runId)
      }),
    saveStep: (runId, step) =>
      Effect.sync(() => {
        const byIndex = steps.get(runId) ?? new Map<number, Step>()
        byIndex.set(step.index, structuredClone(step))
        steps.set(runId, byIndex)
      }),
    listSteps: (runId) =>
      Effect.sync(() => [...(steps.get(runId)?.values() ?? [])].sort((a, b) => a.index - b.index)),
    appendObservation: (runId, _stepIndex, observation) =>
      Effect.sync(() => {
        const list = observations.get(runId) ?? []
        list.push(structuredClone(observation))
        observations.set(runId, list)
      }),
    listObservations: (runId) => Effect.sync(() => [...(observations.get(runId) ?? [])]),
    appendRecords: (runId, incoming) =>
      Effect.sync(() => {
        const byKey = records.get(runId) ?? new Map<string, StoredRecord>()
        records.set(runId, byKey)
        let added = 0
        for (const record of incoming) {
          if (byKey.has(record.key)) continue
          byKey.set(record.key, structuredClone(record))
          added++
        }
        return added
      }),
    listRecords: (runId) => Effect.sync(() => [...(records.get(runId)?.values() ?? [])]),
    frontierAdd: (name, entries) =>
      Effect.sync(() => {
        const state = frontier(name)
        let added = 0
        for (const entry of entries) {
          if (state.entries.has(entry.url)) continue
          state.entries.set(entry.url, { ...entry, state: "pending" })
          added++
        }
        return added
      }),
    frontierClaim: (name, limit) =>
      Effect.sync(() => {
        // Breadth first like the SQLite store: the shallowest pending URLs, in the order they were added.
        const pending = [...frontier(name).entries.values()]
          .filter((entry) => entry.state === "pending")
          .sort((left, right) => left.depth - right.depth)
          .slice(0, limit)
        return pending.map((entry): FrontierEntry => {
          entry.state = "claimed"
          return entry.parent === undefined
            ? { url: entry.url, depth: entry.depth }
            : { url: entry.url, depth: entry.depth, parent: entry.parent }
        })
      }),
    frontierComplete: (name, url, ok) =>
      Effect.sync(() => {
        const entry = frontier(name).entries.get(url)
        if (entry !== undefined) entry.state = ok ? "done" : "failed"
      }),
    frontierRelease: (name) =>
      Effect.sync(() => {
        let released = 0
        for (const entry of frontier(name).entries.values()) {
          if (entry.state === "claimed") {
            entry.state = "pending"
            released++
          }
        }
        return released
      }),
    frontierStats: (name) =>
      Effect.sync(() => {
        const counts = { pending: 0, claimed: 0, done: 0, failed: 0 }
        for (const entry of frontier(name).entries.values()) counts[entry.state]++
        return counts
      }),
    // Like the SQLite store: every read is a hit; a write keeps the hits unless the fingerprint changed.
    getCachedAction: (key) =>
      Effect.sync(() => {
        const cached = cache.get(key)
        if (cached === undefined) return undefined
        const hit = { ...cached, hits: cached.hits + 1 }
        cache.set(key, hit)
        return structuredClone(hit)
      }),
    putCachedAction: (action) =>
      Effect.sync(() => {
        const previous = cache.get(action.key)
        cache.set(action.key, {
          ...structuredClone(action),
          hits: previous?.fingerprint === action.fingerprint ? previous.hits : 0,
          updatedAt: new Date().toISOString(),
        })
      }),
  }
}

/**
 * The in-memory store as a layer; each build starts empty.
 *
 * @example
 * ```ts
 * import { MemoryStore } from "@sextant/testing"
 * program.pipe(Effect.provide(MemoryStore.layerTest))
 * ```
 */
export const MemoryStore: { readonly layerTest: Layer.Layer<Store>; readonly make: () => StoreShape } = {
  layerTest: Layer.sync(Store, makeMemoryStore),
  make: makeMemoryStore,
}

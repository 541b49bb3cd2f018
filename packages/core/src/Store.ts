import { Context, type Effect } from "effect"
import type { AgentTask } from "./AgentTask.ts"
import type { StoreError } from "./Errors.ts"
import type { Observation } from "./Observation.ts"
import type { Plan, Step } from "./Plan.ts"
import type { RunResult } from "./RunResult.ts"
import type { TaskState } from "./TaskState.ts"

/** A run as the store keeps it. */
export interface RunRecord {
  readonly runId: string
  readonly task: AgentTask
  readonly status: TaskState
  readonly mode: "plan" | "agent"
  readonly startedAt: string
  readonly updatedAt: string
  readonly plan?: Plan | undefined
  readonly result?: RunResult | undefined
}

/** An extracted record, deduplicated per run by `key`. */
export interface StoredRecord {
  readonly key: string
  readonly source: string
  readonly data: unknown
}

/** A URL in a crawl frontier. */
export interface FrontierEntry {
  readonly url: string
  readonly depth: number
  readonly parent?: string | undefined
}

export interface FrontierStats {
  readonly pending: number
  readonly claimed: number
  readonly done: number
  readonly failed: number
}

/** A resolved action remembered for deterministic replay. */
export interface CachedAction {
  readonly key: string
  readonly instruction: string
  readonly fingerprint: string
  readonly action: unknown
  readonly locators: ReadonlyArray<unknown>
  readonly hits: number
  readonly updatedAt: string
}

/** A run's lease: who may advance the run, and until when unless renewed. */
export interface RunLease {
  readonly runId: string
  readonly owner: string
  /** When the lease lapses unless renewed (ISO 8601). */
  readonly expiresAt: string
}

/**
 * Durable state of runs: written step by step so a crash loses at most the step in flight.
 * Implemented on SQLite by `@sextant/memory` (and in memory for tests).
 */
export interface StoreShape {
  readonly saveRun: (run: RunRecord) => Effect.Effect<void, StoreError>
  readonly getRun: (runId: string) => Effect.Effect<RunRecord, StoreError>
  readonly listRuns: (filter?: {
    readonly status?: TaskState
  }) => Effect.Effect<ReadonlyArray<RunRecord>, StoreError>
  readonly saveStep: (runId: string, step: Step) => Effect.Effect<void, StoreError>
  /**
   * Takes the run's lease for `owner` for `ttlMs`, in one atomic step: it succeeds only when the run is
   * unclaimed, its lease has expired, or `owner` already holds it. Otherwise it fails with
   * `StoreLeaseHeld` naming the holder and the expiry; a run not in the store fails with `StoreNotFound`.
   * The lease is how exactly one process advances a run at a time.
   *
   * @example
   * ```ts
   * const lease = yield* store.claimRun("run-7", "worker-1:4711:ab12", 30_000)
   * lease.expiresAt // "2026-11-27T20:00:30.000Z"
   * ```
   */
  readonly claimRun: (runId: string, owner: string, ttlMs: number) => Effect.Effect<RunLease, StoreError>
  /**
   * Extends a lease `owner` still holds by `ttlMs` from now (also after it lapsed, as long as nobody
   * else claimed the run since). Fails with `StoreLeaseHeld` when another owner took the run over.
   */
  readonly renewRun: (runId: string, owner: string, ttlMs: number) => Effect.Effect<RunLease, StoreError>
  /** Gives the run's lease up when `owner` holds it; does nothing otherwise. */
  readonly releaseRun: (runId: string, owner: string) => Effect.Effect<void, StoreError>
  readonly listSteps: (runId: string) => Effect.Effect<ReadonlyArray<Step>, StoreError>
  readonly appendObservation: (
    runId: string,
    stepIndex: number | undefined,
    observation: Observation,
  ) => Effect.Effect<void, StoreError>
  readonly listObservations: (runId: string) => Effect.Effect<ReadonlyArray<Observation>, StoreError>
  /** Adds records; a record whose key the run already has is ignored. Returns how many were new. */
  readonly appendRecords: (
    runId: string,
    records: ReadonlyArray<StoredRecord>,
  ) => Effect.Effect<number, StoreError>
  readonly listRecords: (runId: string) => Effect.Effect<ReadonlyArray<StoredRecord>, StoreError>
  /** Adds URLs not seen before in this frontier. Returns how many were new. */
  readonly frontierAdd: (
    frontier: string,
    entries: ReadonlyArray<FrontierEntry>,
  ) => Effect.Effect<number, StoreError>
  /** Claims up to `limit` pending URLs for this process. */
  readonly frontierClaim: (
    frontier: string,
    limit: number,
  ) => Effect.Effect<ReadonlyArray<FrontierEntry>, StoreError>
  readonly frontierComplete: (frontier: string, url: string, ok: boolean) => Effect.Effect<void, StoreError>
  /** Returns claimed-but-unfinished URLs to pending (after a crash). Returns how many. */
  readonly frontierRelease: (frontier: string) => Effect.Effect<number, StoreError>
  readonly frontierStats: (frontier: string) => Effect.Effect<FrontierStats, StoreError>
  readonly getCachedAction: (key: string) => Effect.Effect<CachedAction | undefined, StoreError>
  readonly putCachedAction: (
    action: Omit<CachedAction, "hits" | "updatedAt">,
  ) => Effect.Effect<void, StoreError>
}

/** The `Store` service. */
export class Store extends Context.Service<Store, StoreShape>()("@sextant/core/Store") {}

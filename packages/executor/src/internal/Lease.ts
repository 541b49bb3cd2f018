import { hostname } from "node:os"
import type { StoreError, StoreShape } from "@sextant/core"
import { Effect } from "effect"

/** How long a run's lease lasts between renewals unless `leaseTtlMs` says otherwise. */
export const DEFAULT_LEASE_TTL_MS = 30_000

/** This process's name for its leases: `hostname:pid:random`, so a refusal says who holds a run. */
export const makeLeaseOwner = (): string =>
  `${hostname()}:${process.pid}:${crypto.randomUUID().replaceAll("-", "").slice(0, 8)}`

/** Whether the run's lease was taken over while the run went on (the holder stalled past its expiry). */
export interface LeaseState {
  lost: boolean
}

/**
 * Runs `body` holding the run's lease: claimed before it starts (a run someone else holds fails with
 * `StoreLeaseHeld` naming the holder and the expiry), renewed every third of the lease's life by a
 * fiber of the body's scope, released when the body ends however it ends. A crashed process renews
 * nothing, so its lease lapses and a later resume may take the run over.
 *
 * When a renewal finds that another owner took the run (this process stalled past the expiry), the body
 * is interrupted with that `StoreLeaseHeld` error: from then on only the new holder advances the run.
 */
export const withRunLease = <A, E, R>(
  store: StoreShape,
  runId: string,
  options: { readonly leaseOwner?: string | undefined; readonly leaseTtlMs?: number | undefined },
  body: (lease: LeaseState) => Effect.Effect<A, E, R>,
): Effect.Effect<A, E | StoreError, R> =>
  Effect.scoped(
    Effect.gen(function* () {
      const owner = options.leaseOwner ?? makeLeaseOwner()
      const ttl = options.leaseTtlMs ?? DEFAULT_LEASE_TTL_MS
      yield* Effect.acquireRelease(store.claimRun(runId, owner, ttl), () =>
        store.releaseRun(runId, owner).pipe(Effect.ignore),
      )
      const lease: LeaseState = { lost: false }
      const renew = store.renewRun(runId, owner, ttl).pipe(
        // A busy store is tried again at the next tick; only a takeover ends the run.
        Effect.catchIf(
          (error) => error.reason._tag !== "StoreLeaseHeld",
          () => Effect.void,
        ),
        Effect.tapError(() =>
          Effect.sync(() => {
            lease.lost = true
          }),
        ),
        Effect.delay(Math.max(1, Math.floor(ttl / 3))),
        Effect.forever,
      )
      return yield* Effect.raceFirst(body(lease), renew)
    }),
  )

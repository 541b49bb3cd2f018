import { Data } from "effect"

/** The errors of the `Store` boundary: `StoreError` and its reasons. */

/** Marks a real `StoreError`: the guards check it, not the `_tag` any plain object can carry. */
export const StoreErrorTypeId: unique symbol = Symbol.for("@sextant/core/StoreError")
export type StoreErrorTypeId = typeof StoreErrorTypeId

/** The store could not be opened or migrated. */
export class StoreUnavailable extends Data.TaggedClass("StoreUnavailable")<{
  readonly location: string
  readonly detail: string
}> {
  readonly isRetryable = false
  get message(): string {
    // A database URL (postgres://…) or a file path: the advice fits the kind of location.
    const advice = this.location.includes("://")
      ? "check the URL and that the database server is running and reachable"
      : "check the path and its permissions"
    return `the store at ${this.location} cannot be used (${this.detail}): ${advice}`
  }
}

/** Another writer holds the store; retrying shortly usually succeeds. */
export class StoreBusy extends Data.TaggedClass("StoreBusy")<{ readonly detail: string }> {
  readonly isRetryable = true
  get message(): string {
    return `the store is busy (${this.detail})`
  }
}

/** A read or write failed. */
export class StoreQueryFailed extends Data.TaggedClass("StoreQueryFailed")<{
  readonly operation: string
  readonly detail: string
}> {
  readonly isRetryable = false
  get message(): string {
    return `store ${this.operation} failed: ${this.detail}`
  }
}

/** The thing asked for is not in the store. */
export class StoreNotFound extends Data.TaggedClass("StoreNotFound")<{
  readonly what: string
  readonly id: string
}> {
  readonly isRetryable = false
  get message(): string {
    return `no ${this.what} ${JSON.stringify(this.id)} in the store`
  }
}

/**
 * Another process holds the run's lease: it is running (or resuming) that run now. Retryable: once the
 * holder releases the run, or its lease expires because it died, a later claim succeeds.
 */
export class StoreLeaseHeld extends Data.TaggedClass("StoreLeaseHeld")<{
  readonly runId: string
  /** Who holds the lease (`hostname:pid:random` for the executor's own owners). */
  readonly owner: string
  /** When the lease lapses unless its holder renews it (ISO 8601). */
  readonly expiresAt: string
}> {
  readonly isRetryable = true
  get message(): string {
    return `run ${JSON.stringify(this.runId)} is held by ${this.owner} until ${this.expiresAt}: another process is running it; wait for it to finish, or resume after ${this.expiresAt} if that process died`
  }
}

/**
 * A stored row cannot be read back as what it should be: its JSON is not valid, or it no longer fits
 * its schema (the file was edited, damaged, or written by an incompatible version).
 */
export class StoreCorrupt extends Data.TaggedClass("StoreCorrupt")<{
  /** The run the row belongs to (or the key of the row for rows outside a run). */
  readonly runId: string
  /** Which row and field, e.g. `runs.task`, `steps[3]`, `observations[12]`. */
  readonly row: string
  readonly detail: string
}> {
  readonly isRetryable = false
  get message(): string {
    return `run ${JSON.stringify(this.runId)} has a damaged row ${this.row} (${this.detail}): the store was edited or damaged; restore it from a backup or start the run again under a new id`
  }
}

export type StoreErrorReason =
  | StoreUnavailable
  | StoreBusy
  | StoreQueryFailed
  | StoreNotFound
  | StoreLeaseHeld
  | StoreCorrupt

/** The error of every `Store` operation. */
export class StoreError extends Data.TaggedError("StoreError")<{
  readonly method: string
  readonly reason: StoreErrorReason
  readonly cause?: unknown
}> {
  readonly [StoreErrorTypeId]: StoreErrorTypeId = StoreErrorTypeId
  get isRetryable(): boolean {
    return this.reason.isRetryable
  }
  override get message(): string {
    return `Store.${this.method}: ${this.reason.message}`
  }
}

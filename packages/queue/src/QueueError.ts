import { Data } from "effect"

/** A queue URL that is not `redis://host:port[/db]` (or `rediss://`). */
export class InvalidQueueUrl extends Data.TaggedClass("InvalidQueueUrl")<{
  readonly url: string
  readonly detail: string
}> {
  readonly isRetryable = false
  get message(): string {
    return `${JSON.stringify(this.url)} is not a Redis URL (${this.detail}): write redis://host:6379`
  }
}

/** Redis did not answer at the queue URL. */
export class QueueUnavailable extends Data.TaggedClass("QueueUnavailable")<{
  readonly url: string
  readonly detail: string
}> {
  readonly isRetryable = true
  get message(): string {
    return `no Redis answers at ${this.url} (${this.detail}): start redis-server there, or give the URL of one that runs`
  }
}

/** A task (or a limit) that does not fit its schema. */
export class InvalidQueueInput extends Data.TaggedClass("InvalidQueueInput")<{
  readonly what: string
  readonly issues: ReadonlyArray<string>
}> {
  readonly isRetryable = false
  get message(): string {
    return `${this.what} is not valid: ${this.issues.join("; ")}`
  }
}

/** A job id the queue does not have. */
export class JobNotFound extends Data.TaggedClass("JobNotFound")<{
  readonly runId: string
}> {
  readonly isRetryable = false
  get message(): string {
    return `the queue has no job for run ${JSON.stringify(this.runId)}: 'sextant runs --queue URL' lists them`
  }
}

export type QueueErrorReason = InvalidQueueUrl | QueueUnavailable | InvalidQueueInput | JobNotFound

/**
 * The error of every `@sextant/queue` operation, with a tagged `reason` that knows whether it is retryable.
 *
 * @example
 * ```ts
 * try { await openTaskQueue({ url: "http://nope" }) } catch (error) {
 *   if (isQueueError(error)) console.error(error.reason._tag) // "InvalidQueueUrl"
 * }
 * ```
 */
export class QueueError extends Data.TaggedError("QueueError")<{
  readonly method: string
  readonly reason: QueueErrorReason
  readonly cause?: unknown
}> {
  get isRetryable(): boolean {
    return this.reason.isRetryable
  }
  override get message(): string {
    return `${this.method}: ${this.reason.message}`
  }
}

/** True for a {@link QueueError}. */
export const isQueueError = (value: unknown): value is QueueError =>
  value instanceof QueueError || (value as { _tag?: unknown } | null)?._tag === "QueueError"

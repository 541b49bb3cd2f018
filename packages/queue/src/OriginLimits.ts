import type { Redis } from "ioredis"
import { InvalidQueueInput, QueueError } from "./QueueError.ts"

/**
 * How many runs may start on one origin per window, for every worker of the queue together.
 *
 * @example
 * ```ts
 * const limit: OriginLimit = { origin: "https://shop.example", max: 2, windowMs: 1_000 }
 * ```
 */
export interface OriginLimit {
  /** `scheme://host[:port]`, as `new URL(startUrl).origin` gives it. */
  readonly origin: string
  readonly max: number
  readonly windowMs: number
}

const LIMIT = /^(?<origin>.+)=(?<max>\d+)\/(?<amount>\d+)?(?<unit>ms|s|m)$/

/**
 * Reads a limit written `origin=max/window`, e.g. `http://127.0.0.1:4000=2/1s` (units `ms`, `s`, `m`;
 * `3/500ms`, `10/m`). Throws a {@link QueueError} (`InvalidQueueInput`) that shows the expected form.
 *
 * @example
 * ```ts
 * parseOriginLimit("https://shop.example=2/1s") // { origin: "https://shop.example", max: 2, windowMs: 1000 }
 * ```
 */
export const parseOriginLimit = (text: string): OriginLimit => {
  const invalid = (issue: string) =>
    new QueueError({
      method: "parseOriginLimit",
      reason: new InvalidQueueInput({
        what: "rate limit",
        issues: [
          `${JSON.stringify(text)}: ${issue} (write origin=max/window, e.g. https://shop.example=2/1s)`,
        ],
      }),
    })
  const match = LIMIT.exec(text.trim())
  if (match?.groups === undefined) throw invalid("not in the form origin=max/window")
  const { origin = "", max = "", amount, unit } = match.groups
  let parsed: URL
  try {
    parsed = new URL(origin)
  } catch {
    throw invalid(`${JSON.stringify(origin)} is not an origin`)
  }
  if (!["http:", "https:"].includes(parsed.protocol) || parsed.origin !== origin.replace(/\/$/, ""))
    throw invalid(`${JSON.stringify(origin)} is not an http(s) origin (scheme://host[:port], no path)`)
  const count = Number(max)
  const windowMs = Number(amount ?? "1") * (unit === "m" ? 60_000 : unit === "s" ? 1_000 : 1)
  if (!Number.isSafeInteger(count) || count < 1) throw invalid("max must be at least 1")
  if (windowMs < 10 || windowMs > 86_400_000) throw invalid("the window must be 10 ms to 24 h")
  return { origin: parsed.origin, max: count, windowMs }
}

/** Whether a run may start now, or when to try again. */
export type TokenAnswer = { readonly granted: true } | { readonly granted: false; readonly retryInMs: number }

/**
 * A fixed-window counter per origin in Redis, shared by every worker that uses the same Redis and queue
 * name: the first start of a window sets its key with the window's expiry, each start increments it, and
 * a start past `max` is refused until the key expires. INCR is atomic, so two workers never both take the
 * last start of a window.
 */
export const takeOriginToken = async (
  redis: Redis,
  queueName: string,
  limit: OriginLimit,
  now = Date.now(),
): Promise<TokenAnswer> => {
  const window = Math.floor(now / limit.windowMs)
  const key = `sextant:${queueName}:origin-starts:${limit.origin}:${window}`
  const replies = await redis
    .multi()
    .incr(key)
    .pexpire(key, limit.windowMs * 2)
    .exec()
  const count = Number(replies?.[0]?.[1] ?? Number.POSITIVE_INFINITY)
  if (count <= limit.max) return { granted: true }
  return { granted: false, retryInMs: (window + 1) * limit.windowMs - now }
}

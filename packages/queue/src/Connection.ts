import { Redis } from "ioredis"
import { InvalidQueueUrl, QueueError, QueueUnavailable } from "./QueueError.ts"

/** How long opening a queue waits for Redis to answer before it reports it unavailable. */
export const DEFAULT_CONNECT_TIMEOUT_MS = 5_000

/**
 * Checks a queue URL: `redis://[user:password@]host[:port][/db]` or `rediss://…` (TLS). Returns it
 * parsed; throws a {@link QueueError} (`InvalidQueueUrl`) saying what is wrong.
 *
 * @example
 * ```ts
 * parseQueueUrl("redis://127.0.0.1:6379").port // "6379"
 * ```
 */
export const parseQueueUrl = (url: string, method = "queue"): URL => {
  const invalid = (detail: string) => new QueueError({ method, reason: new InvalidQueueUrl({ url, detail }) })
  if (/^[^/:@]+:\d+$/.test(url)) throw invalid("it has no redis:// scheme")
  let parsed: URL
  try {
    parsed = new URL(url)
  } catch {
    throw invalid("it is not a URL")
  }
  if (parsed.protocol !== "redis:" && parsed.protocol !== "rediss:")
    throw invalid(`the scheme is ${parsed.protocol.replace(/:$/, "")}, not redis or rediss`)
  if (parsed.hostname === "") throw invalid("it names no host")
  const database = parsed.pathname.replace(/^\//, "")
  if (database !== "" && !/^\d{1,2}$/.test(database))
    throw invalid(`the path must be a database number, got /${database}`)
  return parsed
}

/**
 * Opens an ioredis connection for BullMQ (`maxRetriesPerRequest: null`, as its workers need) and waits
 * until Redis answers a PING, so a wrong URL fails at once with `QueueUnavailable` instead of hanging.
 */
export const connectRedis = async (
  url: string,
  method: string,
  timeoutMs = DEFAULT_CONNECT_TIMEOUT_MS,
): Promise<Redis> => {
  parseQueueUrl(url, method)
  const redis = new Redis(url, {
    maxRetriesPerRequest: null,
    lazyConnect: true,
    connectTimeout: timeoutMs,
    // Reconnect with a short backoff once connected; the first connection's failure is reported below.
    retryStrategy: (times) => Math.min(times * 200, 2_000),
  })
  // ioredis reports connection trouble as events; without a listener Node would print them.
  redis.on("error", () => undefined)
  try {
    await Promise.race([
      redis.connect().then(() => redis.ping()),
      new Promise((_, reject) =>
        setTimeout(() => reject(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs),
      ),
    ])
    return redis
  } catch (error) {
    redis.disconnect()
    throw new QueueError({
      method,
      reason: new QueueUnavailable({
        url: redacted(url),
        detail: error instanceof Error ? error.message : String(error),
      }),
      cause: error,
    })
  }
}

/** The URL without its password, for messages. */
export const redacted = (url: string): string => {
  try {
    const parsed = new URL(url)
    if (parsed.password !== "") parsed.password = "***"
    return parsed.toString().replace(/\/$/, "")
  } catch {
    return url
  }
}

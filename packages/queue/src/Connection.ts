import { hideUrlCredentials } from "@sextant/core"
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
  // A mistyped URL is the one a message quotes: never with its password.
  const invalid = (detail: string) =>
    new QueueError({ method, reason: new InvalidQueueUrl({ url: hideUrlCredentials(url), detail }) })
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
  let connected = false
  const redis = new Redis(url, {
    maxRetriesPerRequest: null,
    lazyConnect: true,
    connectTimeout: timeoutMs,
    // Reconnect with a short backoff once connected; a first connection that fails is reported at once.
    retryStrategy: (times) => (connected ? Math.min(times * 200, 2_000) : null),
  })
  // ioredis reports connection trouble as events; without a listener Node would print them.
  let lastError: Error | undefined
  redis.on("error", (error: Error) => {
    lastError = error
  })
  let timer: ReturnType<typeof setTimeout> | undefined
  try {
    await Promise.race([
      redis.connect().then(async () => {
        await redis.ping()
        connected = true
      }),
      new Promise((_, reject) => {
        timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs)
      }),
    ])
    clearTimeout(timer)
    return redis
  } catch (error) {
    clearTimeout(timer)
    redis.disconnect()
    throw new QueueError({
      method,
      reason: new QueueUnavailable({
        url: redacted(url),
        // ioredis rejects with "Connection is closed"; the socket's own error says why.
        detail: (lastError ?? (error instanceof Error ? error : new Error(String(error)))).message,
      }),
      cause: error,
    })
  }
}

/** The URL without its password or a credential query parameter (`?password=`), for messages. */
export const redacted = (url: string): string => hideUrlCredentials(url).replace(/\/$/, "")

import { createServer } from "node:net"
import { describe, expect, it } from "vitest"
import { openTaskQueue, parseOriginLimit, parseQueueUrl, startTaskWorker } from "../src/index.ts"

const reasonOf = async (promise: Promise<unknown>) => {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught as { _tag: string; reason: { _tag: string }; message: string },
  )
  if (error === undefined) throw new Error("expected a rejection")
  return error
}

describe("queue URLs", () => {
  it("takes redis and rediss URLs with a host, an optional port and a database number", () => {
    expect(parseQueueUrl("redis://127.0.0.1:6379").port).toBe("6379")
    expect(parseQueueUrl("rediss://user:secret@cache.example:6380/2").hostname).toBe("cache.example")
  })

  it.each([
    ["http://127.0.0.1:6379", /scheme is http, not redis/],
    ["127.0.0.1:6379", /it has no redis:\/\/ scheme/],
    ["not a url", /it is not a URL/],
    ["redis://127.0.0.1:6379/queue", /database number, got \/queue/],
  ])("refuses %s, saying why and what to write", (url, why) => {
    expect(() => parseQueueUrl(url)).toThrow(why)
    expect(() => parseQueueUrl(url)).toThrow(/write redis:\/\/host:6379/)
  })

  it("reports a Redis that does not answer as QueueUnavailable, without the password", async () => {
    const server = createServer()
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
    const { port } = server.address() as { port: number }
    await new Promise<void>((resolve) => server.close(() => resolve()))
    const started = Date.now()
    const error = await reasonOf(openTaskQueue({ url: `redis://:hunter2@127.0.0.1:${port}` }))
    expect(error._tag).toBe("QueueError")
    expect(error.reason._tag).toBe("QueueUnavailable")
    expect(error.message).toMatch(
      new RegExp(`no Redis answers at redis://:\\*\\*\\*@127\\.0\\.0\\.1:${port}`),
    )
    expect(error.message).not.toContain("hunter2")
    expect(Date.now() - started).toBeLessThan(6_000)
  })

  it("refuses a worker concurrency below 1 before connecting", async () => {
    const error = await reasonOf(
      startTaskWorker({
        url: "redis://127.0.0.1:1",
        concurrency: 0,
        runner: { run: () => Promise.reject(new Error("not run")) },
      }),
    )
    expect(error.reason._tag).toBe("InvalidQueueInput")
    expect(error.message).toMatch(/concurrency: must be at least 1, got 0/)
  })
})

describe("origin limits", () => {
  it.each([
    ["https://shop.example=2/1s", { origin: "https://shop.example", max: 2, windowMs: 1_000 }],
    ["http://127.0.0.1:4000=3/500ms", { origin: "http://127.0.0.1:4000", max: 3, windowMs: 500 }],
    ["https://shop.example=10/m", { origin: "https://shop.example", max: 10, windowMs: 60_000 }],
  ])("reads %s", (text, limit) => {
    expect(parseOriginLimit(text)).toEqual(limit)
  })

  it.each([
    ["https://shop.example", /not in the form origin=max\/window/],
    ["https://shop.example/cart=2/1s", /not an http\(s\) origin/],
    ["ftp://shop.example=2/1s", /not an http\(s\) origin/],
    ["https://shop.example=0/1s", /max must be at least 1/],
    ["https://shop.example=2/5ms", /the window must be 10 ms to 24 h/],
  ])("refuses %s, showing the form to write", (text, why) => {
    expect(() => parseOriginLimit(text)).toThrow(why)
    expect(() => parseOriginLimit(text)).toThrow(
      /write origin=max\/window, e\.g\. https:\/\/shop\.example=2\/1s/,
    )
  })
})

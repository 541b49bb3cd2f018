import { openTaskQueue } from "@sextant/queue"
import { freePort } from "@sextant/testing"
import { describe, expect, it } from "vitest"
import { createAgent, isStoreError } from "../src/index.ts"
import { runMain } from "./support/Main.ts"

/**
 * The password of a store's or a queue's connection URL, where a careless user puts it: in the query
 * (`?password=`, which `pg` and ioredis both read) or in a URL with a typo. Every message, the CLI's
 * stderr and its `--json` output must show `***` in its place. None of these needs a server: the store's
 * port is closed, and the queue URL is refused before any connection.
 */

const PG_PASSWORD = "pg-hunter2-in-query"
const REDIS_PASSWORD = "redis-hunter2-typo"

describe("a PostgreSQL store URL with the password in its query", () => {
  it("fails to open with a StoreError that shows password=*** and never the password", async () => {
    const port = await freePort()
    const url =
      `postgres://sextant@127.0.0.1:${port}/sextant?sslmode=disable&password=${PG_PASSWORD}` as const
    const agent = createAgent({ store: url, traceDirectory: false })
    const error = await agent.runs().then(
      () => undefined,
      (rejection: unknown) => rejection,
    )
    await agent.close()
    expect(isStoreError(error)).toBe(true)
    const message = (error as Error).message
    expect(message).toContain(`postgres://sextant@127.0.0.1:${port}/sextant?sslmode=disable&password=***`)
    expect(message).not.toContain(PG_PASSWORD)
  })

  it("is never printed by sextant runs, as text or as --json", async () => {
    const port = await freePort()
    const url = `postgresql://sextant@127.0.0.1:${port}/sextant?password=${PG_PASSWORD}`
    for (const json of [[], ["--json"]]) {
      const run = await runMain(["runs", "--store", url, ...json])
      expect(run.code).not.toBe(0)
      expect(`${run.stdout}${run.stderr}`).toContain("password=***")
      expect(`${run.stdout}${run.stderr}`).not.toContain(PG_PASSWORD)
    }
  })
})

describe("a queue URL with a typo and the password in its user part", () => {
  it("is refused by sextant enqueue with a message that shows *** and never the password", async () => {
    const url = `redis://:${REDIS_PASSWORD}@127.0.0.1:6379/tasks`
    const run = await runMain(["enqueue", "--queue", url, "--goal", "look at the products"])
    expect(run.code).toBe(2)
    const said = `${run.stdout}${run.stderr}`
    expect(said).toContain('"redis://:***@127.0.0.1:6379/tasks" is not a Redis URL')
    expect(said).not.toContain(REDIS_PASSWORD)
  })

  it("is refused by openTaskQueue, even one no URL parser reads (a port out of range), without the password", async () => {
    for (const url of [
      `redis://:${REDIS_PASSWORD}@127.0.0.1:6379/tasks`,
      `redis://:${REDIS_PASSWORD}@127.0.0.1:99999`,
    ]) {
      const error = await openTaskQueue({ url }).then(
        () => undefined,
        (rejection: unknown) => rejection,
      )
      expect((error as Error).message).toContain("is not a Redis URL")
      expect((error as Error).message).toContain("redis://:***@127.0.0.1:")
      expect((error as Error).message).not.toContain(REDIS_PASSWORD)
    }
  })
})

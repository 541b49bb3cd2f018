import { type RunningService, startRedis } from "@sextant/testing"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { runMain } from "./support/Main.ts"

/**
 * The password of a queue URL that works: Redis runs without `requirepass`, so its `default` user takes
 * any password (`redis://default:<password>@…`), and the CLI's own lines that name the queue must show
 * `***` for it. The default set's HostileConnectionUrls checks the URLs no server answers.
 */

const PASSWORD = "redis-hunter2-in-userinfo"
let redis: RunningService

beforeAll(async () => {
  redis = await startRedis()
})
afterAll(async () => {
  await redis?.stop()
})

describe("sextant runs --queue with a password in the URL", () => {
  it("says the queue is empty naming it with *** for the password", async () => {
    const port = new URL(redis.url).port
    const url = `redis://default:${PASSWORD}@127.0.0.1:${port}`
    const run = await runMain(["runs", "--queue", url, "--queue-name", "hostile-urls"])
    expect(run.stderr).toBe("")
    expect(run.code).toBe(0)
    expect(run.stdout).toContain(`no runs in the queue at redis://default:***@127.0.0.1:${port}`)
    expect(`${run.stdout}${run.stderr}`).not.toContain(PASSWORD)
  }, 30_000)
})

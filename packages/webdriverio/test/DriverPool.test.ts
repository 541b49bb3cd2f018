import { Effect, Exit, Scope } from "effect"
import { describe, expect, it } from "vitest"
import { createDriverPool, openDriverPool } from "../src/index.ts"
import { browserProcess, isRunning } from "../src/internal/Processes.ts"
import { pgrep } from "./support/Processes.ts"

/** Waits until the process `pid`, just sent SIGKILL, has ended (as the pool's health check sees it). */
const diedWithin = async (pid: number, limitMs = 5_000) => {
  for (let waited = 0; isRunning(pid) && waited < limitMs; waited += 10)
    await new Promise((resolve) => setTimeout(resolve, 10))
  expect(isRunning(pid), `process ${pid} still running ${limitMs} ms after SIGKILL`).toBe(false)
}

describe("createDriverPool", () => {
  it("replaces a session whose Chromium was killed and leaves no process after close", async () => {
    const scope = await Effect.runPromise(Scope.make())
    const pool = await Effect.runPromise(Scope.provide(createDriverPool({ size: 1 }), scope))
    const first = await Effect.runPromise(Effect.scoped(Effect.map(pool.acquire, ({ session }) => session)))
    const firstProfile = first.profileDir!
    const chromium = browserProcess(firstProfile)
    expect(chromium).toBeTypeOf("number")
    process.kill(chromium!, "SIGKILL")
    // The signal lands asynchronously: until the kernel has ended Chromium the pool sees a running
    // browser and rightly hands its session out. The acquire this test is about comes after it died.
    await diedWithin(chromium!)

    const second = await Effect.runPromise(
      Effect.scoped(
        Effect.flatMap(pool.acquire, ({ session, driver }) =>
          Effect.map(driver.navigate("data:text/html,<title>alive</title>"), (result) => ({
            session,
            result,
          })),
        ),
      ),
    )
    expect(second.result.title).toBe("alive")
    expect(second.session.profileDir).not.toBe(firstProfile)
    expect(await Effect.runPromise(pool.replaced)).toBe(1)
    expect(await Effect.runPromise(pool.alive)).toBe(1)
    expect(pgrep(firstProfile)).toEqual([])

    await Effect.runPromise(Scope.close(scope, Exit.void))
    expect(pgrep(second.session.profileDir!)).toEqual([])
  }, 90_000)

  it("hands out at most size sessions at once and reuses released ones (Promise form)", async () => {
    const pool = await openDriverPool({ size: 2 })
    try {
      const a = await pool.acquire()
      const b = await pool.acquire()
      expect(a.session.profileDir).not.toBe(b.session.profileDir)
      let thirdGot = false
      const third = pool.acquire().then((lease) => {
        thirdGot = true
        return lease
      })
      await new Promise((resolve) => setTimeout(resolve, 300))
      expect(thirdGot).toBe(false)
      await a.release()
      const c = await third
      expect(c.session.profileDir).toBe(a.session.profileDir)
      await b.release()
      await c.release()
    } finally {
      await pool.close()
    }
  }, 90_000)

  it("runs its warm browsers on one ChromeDriver, replaces a killed ChromeDriver at the next acquire, and leaves no process after close", async () => {
    const scope = await Effect.runPromise(Scope.make())
    const profiles: Array<string> = []
    const drivers: Array<number> = []
    try {
      const pool = await Effect.runPromise(Scope.provide(createDriverPool({ size: 2, warm: 2 }), scope))
      expect(await Effect.runPromise(pool.alive)).toBe(2)
      const both = await Effect.runPromise(
        Effect.scoped(
          Effect.gen(function* () {
            const one = yield* pool.acquire
            const two = yield* pool.acquire
            return [one.session, two.session] as const
          }),
        ),
      )
      expect(both[0].profileDir).not.toBe(both[1].profileDir)
      expect(both[1].chromedriverPid).toBe(both[0].chromedriverPid)
      profiles.push(both[0].profileDir!, both[1].profileDir!)
      drivers.push(both[0].chromedriverPid!)
      process.kill(both[0].chromedriverPid!, "SIGKILL")
      // As above: the acquire this test is about comes after ChromeDriver is really gone.
      await diedWithin(both[0].chromedriverPid!)

      const after = await Effect.runPromise(
        Effect.scoped(
          Effect.flatMap(pool.acquire, ({ session, driver }) =>
            Effect.map(driver.navigate("data:text/html,<title>after</title>"), (result) => ({
              session,
              title: result.title,
            })),
          ),
        ),
      )
      expect(after.title).toBe("after")
      expect(after.session.chromedriverPid).not.toBe(both[0].chromedriverPid)
      profiles.push(after.session.profileDir!)
      drivers.push(after.session.chromedriverPid!)
      expect(await Effect.runPromise(pool.chromedriverRestarts)).toBe(1)
      expect(await Effect.runPromise(pool.replaced)).toBeGreaterThanOrEqual(1)
    } finally {
      await Effect.runPromise(Scope.close(scope, Exit.void))
    }
    for (const profile of profiles) expect(pgrep(profile)).toEqual([])
    for (const pid of drivers) expect(isRunning(pid)).toBe(false)
  }, 120_000)

  it("asks a slot idle past recheckAfterMs for its URL and replaces a browser that stopped answering", async () => {
    const scope = await Effect.runPromise(Scope.make())
    let stopped: number | undefined
    try {
      const pool = await Effect.runPromise(
        Scope.provide(
          createDriverPool({ size: 1, warm: 1, recheckAfterMs: 0, healthTimeoutMs: 1_000 }),
          scope,
        ),
      )
      const first = await Effect.runPromise(Effect.scoped(Effect.map(pool.acquire, ({ session }) => session)))
      // The slot makes the next holder's context after the release; let it finish before the browser hangs.
      await new Promise((resolve) => setTimeout(resolve, 2_000))
      stopped = browserProcess(first.profileDir!)
      expect(stopped).toBeTypeOf("number")
      process.kill(stopped!, "SIGSTOP")

      const second = await Effect.runPromise(
        Effect.scoped(
          Effect.flatMap(pool.acquire, ({ session, driver }) =>
            Effect.map(driver.navigate("data:text/html,<title>answers</title>"), (result) => ({
              session,
              title: result.title,
            })),
          ),
        ),
      )
      expect(second.title).toBe("answers")
      expect(second.session.profileDir).not.toBe(first.profileDir)
      expect(await Effect.runPromise(pool.replaced)).toBe(1)
      expect(pgrep(first.profileDir!)).toEqual([])
    } finally {
      if (stopped !== undefined && isRunning(stopped)) process.kill(stopped, "SIGKILL")
      await Effect.runPromise(Scope.close(scope, Exit.void))
    }
  }, 120_000)
})

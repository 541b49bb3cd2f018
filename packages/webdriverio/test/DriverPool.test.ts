import { Effect, Exit, Scope } from "effect"
import { describe, expect, it } from "vitest"
import { createDriverPool, openDriverPool } from "../src/index.ts"
import { browserProcess } from "../src/internal/Processes.ts"
import { pgrep } from "./support/Processes.ts"

describe("createDriverPool", () => {
  it("replaces a session whose Chromium was killed and leaves no process after close", async () => {
    const scope = await Effect.runPromise(Scope.make())
    const pool = await Effect.runPromise(Scope.provide(createDriverPool({ size: 1 }), scope))
    const first = await Effect.runPromise(Effect.scoped(Effect.map(pool.acquire, ({ session }) => session)))
    const firstProfile = first.profileDir!
    const chromium = browserProcess(firstProfile)
    expect(chromium).toBeTypeOf("number")
    process.kill(chromium!, "SIGKILL")

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
})

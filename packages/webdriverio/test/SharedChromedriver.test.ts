import { DriverError } from "@sextant/core"
import { Effect, Exit, Scope } from "effect"
import { describe, expect, it } from "vitest"
import { launch, makeDriver, startSharedChromedriver } from "../src/index.ts"
import { isRunning } from "../src/internal/Processes.ts"
import { failure } from "./support/Failure.ts"
import { pgrep } from "./support/Processes.ts"

const run = <A, E>(effect: Effect.Effect<A, E, Scope.Scope>, scope: Scope.Scope) =>
  Effect.runPromise(Scope.provide(effect, scope))

const page = (title: string) => `data:text/html,<title>${title}</title>`

describe("startSharedChromedriver", () => {
  it("serves several sessions from one ChromeDriver process and ends only a session's own Chromium when it closes", async () => {
    const outer = await Effect.runPromise(Scope.make())
    try {
      const chromedriver = await run(startSharedChromedriver(), outer)
      const firstScope = await Effect.runPromise(Scope.make())
      const first = await run(launch({ chromedriver }), firstScope)
      const second = await run(launch({ chromedriver }), outer)
      expect(first.chromedriverPid).toBeTypeOf("number")
      expect(second.chromedriverPid).toBe(first.chromedriverPid)
      expect(second.profileDir).not.toBe(first.profileDir)
      // Each session drives its own browser through the one ChromeDriver.
      const firstDriver = await run(makeDriver(first), firstScope)
      const secondDriver = await run(makeDriver(second), outer)
      expect((await Effect.runPromise(firstDriver.navigate(page("first")))).title).toBe("first")
      expect((await Effect.runPromise(secondDriver.navigate(page("second")))).title).toBe("second")

      await Effect.runPromise(Scope.close(firstScope, Exit.void))
      expect(pgrep(first.profileDir!)).toEqual([])
      expect(isRunning(first.chromedriverPid!)).toBe(true)
      expect((await Effect.runPromise(secondDriver.navigate(page("still")))).title).toBe("still")
      expect(await Effect.runPromise(chromedriver.restarts)).toBe(0)
    } finally {
      await Effect.runPromise(Scope.close(outer, Exit.void))
    }
  }, 90_000)

  // The driver pool kills a browser that stopped answering while no command waits on it, then closes
  // its session: the shared ChromeDriver must forget that session rather than keep it for the rest of
  // its life. Only ChromeDriver's own session list is asked: any command on the session itself would
  // make ChromeDriver find the browser gone and drop the session on its own.
  it("forgets the session of a Chromium killed while no command waited, once the session closes", async () => {
    const outer = await Effect.runPromise(Scope.make())
    try {
      const chromedriver = await run(startSharedChromedriver(), outer)
      const sessionScope = await Effect.runPromise(Scope.make())
      const session = await run(launch({ chromedriver }), sessionScope)
      const id = session.browser.sessionId
      const listed = async () => {
        const response = await fetch(`http://127.0.0.1:${session.browser.options.port}/sessions`)
        const answer = (await response.json()) as { value: Array<{ id: string }> }
        return answer.value.map((entry) => entry.id)
      }
      expect(await listed()).toContain(id)
      process.kill(session.browserPid!, "SIGKILL")
      for (let waited = 0; isRunning(session.browserPid!) && waited < 2_000; waited += 10)
        await new Promise((resolve) => setTimeout(resolve, 10))
      expect(session.crashed?.()).toMatch(/^Chromium \(pid \d+\) exited/)
      await Effect.runPromise(Scope.close(sessionScope, Exit.void))
      expect(await listed()).not.toContain(id)
      expect(isRunning(session.chromedriverPid!)).toBe(true)
    } finally {
      await Effect.runPromise(Scope.close(outer, Exit.void))
    }
  }, 90_000)

  it("fails a session's next call as DriverCrashed naming the dead ChromeDriver, and the next launch starts a new one", async () => {
    const outer = await Effect.runPromise(Scope.make())
    const pids: Array<number> = []
    const profiles: Array<string> = []
    try {
      const chromedriver = await run(startSharedChromedriver(), outer)
      const before = await run(launch({ chromedriver }), outer)
      profiles.push(before.profileDir!)
      pids.push(before.chromedriverPid!)
      const driver = await run(makeDriver(before), outer)
      process.kill(before.chromedriverPid!, "SIGKILL")
      // The signal lands asynchronously: until the kernel has ended the process a navigation, which
      // goes to Chromium's own DevTools socket and needs no ChromeDriver, can still succeed. "The
      // next call" is the first one sent after ChromeDriver is really gone.
      for (let waited = 0; isRunning(before.chromedriverPid!) && waited < 2_000; waited += 10)
        await new Promise((resolve) => setTimeout(resolve, 10))
      expect(isRunning(before.chromedriverPid!)).toBe(false)

      const { error: failed } = await failure(
        driver.navigate(page("dead")),
        "navigate to fail after the shared ChromeDriver was killed",
      )
      expect(failed).toBeInstanceOf(DriverError)
      expect(failed.reason._tag).toBe("DriverCrashed")
      expect(failed.message).toContain(`the shared ChromeDriver (pid ${before.chromedriverPid}) exited`)

      const after = await run(launch({ chromedriver }), outer)
      profiles.push(after.profileDir!)
      pids.push(after.chromedriverPid!)
      expect(after.chromedriverPid).not.toBe(before.chromedriverPid)
      const again = await run(makeDriver(after), outer)
      expect((await Effect.runPromise(again.navigate(page("replaced")))).title).toBe("replaced")
      expect(await Effect.runPromise(chromedriver.restarts)).toBe(1)
    } finally {
      await Effect.runPromise(Scope.close(outer, Exit.void))
    }
    // The scope's close ends every Chromium and the ChromeDriver it runs now.
    for (const profile of profiles) expect(pgrep(profile)).toEqual([])
    for (const pid of pids) expect(isRunning(pid)).toBe(false)
  }, 90_000)
})

import { readFileSync } from "node:fs"
import { type DriverError, TabOrigins } from "@sextant/core"
import {
  type AttackerOrigin,
  type FixtureSite,
  startAttackerOrigin,
  startFixtureSite,
} from "@sextant/fixture-site"
import { Effect, Exit, Scope } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type DriverSession, launch, makeDriver } from "../src/index.ts"
import { BROWSER_ENDPOINT, type DevtoolsEvent, devtoolsSockets } from "../src/internal/DevtoolsSocket.ts"
import { processesMentioning } from "../src/internal/Processes.ts"
import { failure } from "./support/Failure.ts"

/**
 * Tabs that turn against the run, in real headless Chromium: a tab whose renderer dies (out of
 * memory, killed) and pop-ups a page opens on another origin.
 */

let site: FixtureSite
let attacker: AttackerOrigin
beforeAll(async () => {
  site = await startFixtureSite({ port: 0 })
  attacker = await startAttackerOrigin()
})
afterAll(async () => {
  await attacker?.close()
  await site?.close()
})

const openDriver = async (options: Parameters<typeof makeDriver>[1] = {}, bidi = false) => {
  const scope = await Effect.runPromise(Scope.make())
  const session = await Effect.runPromise(Scope.provide(launch({ bidi }), scope))
  const driver = await Effect.runPromise(Scope.provide(makeDriver(session, options), scope))
  return { session, driver, close: () => Effect.runPromise(Scope.close(scope, Exit.void)) }
}

/**
 * Crashes the renderer of the tab `handle` as an out-of-memory page would (DevTools `Page.crash`),
 * and answers once the browser reported the tab crashed (`Target.targetCrashed`). Sending Page.crash
 * takes a socket of its own (an HTTP look-up, a WebSocket handshake) while a call sent right after it
 * goes on the driver's open channel: on a loaded machine that call reached the still-live renderer
 * and was answered, so a test crashes the tab first and then makes the call it expects to fail.
 */
const crashTab = async (session: DriverSession, handle: string): Promise<void> => {
  const sockets = devtoolsSockets(session.browser)
  try {
    const reported = new Promise<void>((resolve) =>
      sockets.listen(BROWSER_ENDPOINT, (event: DevtoolsEvent) => {
        if (event.method === "Target.targetCrashed" && event.params.targetId === handle) resolve()
      }),
    )
    // Answered once the browser reports targets (their crashes included) on this socket.
    expect(
      await sockets.send(BROWSER_ENDPOINT, "Target.setDiscoverTargets", { discover: true }),
    ).toBeDefined()
    // Page.crash never answers: the renderer is gone before it could.
    void sockets.send(handle, "Page.crash", {})
    const timedOut = new Promise<"timed out">((resolve) =>
      setTimeout(() => resolve("timed out"), 20_000).unref(),
    )
    expect(
      await Promise.race([reported, timedOut]),
      `the browser's report that tab ${handle} crashed`,
    ).toBeUndefined()
  } finally {
    sockets.close()
  }
}

/** Kills every renderer process of the session's Chromium, found by its `--type=renderer` command line. */
const killRenderers = (profileDir: string): ReadonlyArray<number> =>
  processesMentioning(`--user-data-dir=${profileDir}`).filter((pid) => {
    try {
      const killed = readFileSync(`/proc/${pid}/cmdline`, "utf8").includes("--type=renderer")
      if (killed) process.kill(pid, "SIGKILL")
      return killed
    } catch {
      return false
    }
  })

describe("a tab whose renderer crashed", () => {
  it("fails the call in flight as DriverCrashed saying the tab crashed within seconds, and every later call at once", async () => {
    const { session, driver, close } = await openDriver({ commandTimeoutMs: 30_000, waitTimeoutMs: 30_000 })
    try {
      await Effect.runPromise(driver.navigate(`${site.url}/login`))
      const tab = (await Effect.runPromise(driver.tabs)).find((entry) => entry.active)!.handle
      // A wait that would hold for 30 s: the crash must end it, not its limit.
      const crashed = new Promise((resolve) => setTimeout(resolve, 500)).then(() => crashTab(session, tab))
      const { error, elapsedMs } = await failure(
        driver.waitFor({ text: "never on this page" }),
        "a wait for text that is never on the page to fail once its tab crashed",
      )
      await crashed
      expect(error.reason._tag).toBe("DriverCrashed")
      expect(error.reason._tag === "DriverCrashed" ? error.reason.tab : undefined).toBe(tab)
      expect(error.message).toContain("the tab crashed")
      expect(error.message).not.toContain("wait longer")
      // The wait's own limit is 30 s: a third of it tells the crash apart from the limit on a loaded machine.
      expect(elapsedMs).toBeLessThan(10_000)
      for (const [name, call] of [
        ["look", driver.look()],
        ["navigate", driver.navigate(`${site.url}/`)],
        ["currentUrl", driver.currentUrl],
      ] as const) {
        const next = await failure(
          call as Effect.Effect<unknown, DriverError>,
          `${name} to fail on the crashed tab`,
        )
        expect(next.error.message).toContain("the tab crashed")
        // Each call would otherwise wait its 30 s command limit on the dead tab.
        expect(next.elapsedMs).toBeLessThan(5_000)
      }
    } finally {
      await close()
    }
  }, 90_000)

  for (const bidi of [false, true]) {
    it(`continues in a new tab of the same browser context after recoverTab, with the crashed tab closed (${bidi ? "BiDi" : "Classic and DevTools"})`, async () => {
      const { session, driver, close } = await openDriver({}, bidi)
      try {
        await Effect.runPromise(driver.navigate(`${site.url}/login`))
        await Effect.runPromise(driver.evaluate("document.cookie = 'kept=yes; path=/'"))
        const crashed = (await Effect.runPromise(driver.tabs)).find((entry) => entry.active)!.handle
        // With BiDi, ChromeDriver's BiDi mapper runs in a renderer of its own: killing every renderer
        // would end the session's BiDi channel too, so there the tab's own renderer is crashed.
        if (bidi) await crashTab(session, crashed)
        else expect(killRenderers(session.profileDir!).length).toBeGreaterThan(0)
        const { error, elapsedMs } = await failure(
          driver.look(),
          `look to fail after the tab's renderer was ${bidi ? "crashed" : "killed"}`,
        )
        expect(error.message).toContain("the tab crashed")
        // A look on a dead tab would otherwise wait out the 30 s command limit.
        expect(elapsedMs).toBeLessThan(10_000)

        const fresh = await Effect.runPromise(driver.recoverTab!)
        expect(fresh.handle).not.toBe(crashed)
        await Effect.runPromise(driver.navigate(`${site.url}/login`))
        const snapshot = await Effect.runPromise(driver.look())
        expect(snapshot.url).toBe(`${site.url}/login`)
        // The same browser context: the cookie the crashed tab's page set is still there.
        expect(await Effect.runPromise(driver.evaluate("return document.cookie"))).toContain("kept=yes")
        const tabs = await Effect.runPromise(driver.tabs)
        expect(tabs.map((entry) => entry.handle)).toEqual([fresh.handle])
      } finally {
        await close()
      }
    }, 90_000)
  }
})

describe("pop-ups to another origin", () => {
  it("are closed before they send anything when TabOrigins leaves their origin out, and each is reported", async () => {
    const { driver, close } = await openDriver()
    const since = attacker.requests.length
    const closed: Array<string> = []
    try {
      await Effect.runPromise(
        driver
          .navigate(`${site.url}/hostile/popups?to=${encodeURIComponent(attacker.url)}`)
          .pipe(
            Effect.provideService(TabOrigins, { popups: [site.url], onClosed: (url) => closed.push(url) }),
          ),
      )
      // The page opens its five windows one after another as it loads.
      const deadline = Date.now() + 10_000
      while (closed.length < 5 && Date.now() < deadline)
        await new Promise((resolve) => setTimeout(resolve, 50))
      await new Promise((resolve) => setTimeout(resolve, 500))
      expect(closed).toEqual([0, 1, 2, 3, 4].map((index) => `${attacker.url}/popup?index=${index}`))
      expect(attacker.requests.slice(since).map((request) => request.url)).toEqual([])
      const tabs = await Effect.runPromise(driver.tabs)
      expect(tabs.map((tab) => new URL(tab.url).origin)).toEqual([site.url])
    } finally {
      await close()
    }
  }, 90_000)

  it("load as before on an allowed origin", async () => {
    const { driver, close } = await openDriver()
    const since = attacker.requests.length
    try {
      await Effect.runPromise(
        driver
          .navigate(`${site.url}/hostile/popups?to=${encodeURIComponent(attacker.url)}`)
          .pipe(Effect.provideService(TabOrigins, { popups: [site.url, attacker.url] })),
      )
      const deadline = Date.now() + 10_000
      const popups = () =>
        attacker.requests.slice(since).filter((request) => request.url.startsWith("/popup"))
      while (popups().length < 5 && Date.now() < deadline)
        await new Promise((resolve) => setTimeout(resolve, 50))
      expect(popups()).toHaveLength(5)
    } finally {
      await close()
    }
  }, 90_000)
})

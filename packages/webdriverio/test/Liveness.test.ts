import { type ChildProcess, spawn } from "node:child_process"
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs"
import { createServer, type ServerResponse } from "node:http"
import type { AddressInfo } from "node:net"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import type { DriverError } from "@sextant/core"
import { type FixtureSite, startFixtureSite } from "@sextant/fixture-site"
import { Effect, Exit, Scope } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { launch, makeDriver } from "../src/index.ts"
import { isRunning, OWNER_ENV, processesMentioning, reapOrphans } from "../src/internal/Processes.ts"
import { failure } from "./support/Failure.ts"

const CHILD = fileURLToPath(new URL("./fixtures/DriveAndClose.ts", import.meta.url))

let site: FixtureSite
beforeAll(async () => {
  site = await startFixtureSite({ port: 0, seed: 0 })
})
afterAll(async () => {
  await site?.close()
})

const openDriver = async (options: Parameters<typeof makeDriver>[1] = {}) => {
  const scope = await Effect.runPromise(Scope.make())
  const session = await Effect.runPromise(Scope.provide(launch({}), scope))
  const driver = await Effect.runPromise(Scope.provide(makeDriver(session, options), scope))
  return { session, driver, close: () => Effect.runPromise(Scope.close(scope, Exit.void)) }
}

describe("a dead driver or browser", () => {
  it("fails the next call as DriverCrashed naming Chromium, within seconds, when Chromium is killed", async () => {
    const { session, driver, close } = await openDriver()
    try {
      await Effect.runPromise(driver.navigate(`${site.url}/login`))
      process.kill(session.browserPid!, "SIGKILL")
      for (const [name, call] of [
        ["look", driver.look()],
        ["currentUrl", driver.currentUrl],
        ["navigate", driver.navigate(`${site.url}/`)],
      ] as const) {
        const { error, elapsedMs } = await failure(
          call as Effect.Effect<unknown, DriverError>,
          `${name} to fail after Chromium was killed`,
        )
        expect(error.reason._tag).toBe("DriverCrashed")
        expect(error.message).toContain(`Chromium (pid ${session.browserPid}) exited`)
        expect(elapsedMs).toBeLessThan(3_000)
      }
    } finally {
      await close()
    }
    expect(processesMentioning(`--user-data-dir=${session.profileDir}`)).toEqual([])
  })

  it("fails the next call as DriverCrashed naming ChromeDriver, within seconds, when ChromeDriver is killed", async () => {
    const { session, driver, close } = await openDriver()
    try {
      await Effect.runPromise(driver.navigate(`${site.url}/login`))
      process.kill(session.chromedriverPid!, "SIGKILL")
      // The signal lands asynchronously: until the kernel has ended the process a look, which goes to
      // Chromium's own DevTools socket and needs no ChromeDriver, can still succeed. "The next call"
      // is the first one sent after ChromeDriver is really gone.
      for (let waited = 0; isRunning(session.chromedriverPid!) && waited < 2_000; waited += 10)
        await new Promise((resolve) => setTimeout(resolve, 10))
      expect(isRunning(session.chromedriverPid!)).toBe(false)
      for (const [name, call] of [
        ["look", driver.look()],
        ["act", driver.act({ selector: "button" }, "click")],
        ["currentUrl", driver.currentUrl],
      ] as const) {
        const { error, elapsedMs } = await failure(
          call as Effect.Effect<unknown, DriverError>,
          `${name} to fail after ChromeDriver was killed`,
        )
        expect(error.reason._tag).toBe("DriverCrashed")
        expect(error.message).toContain(`ChromeDriver (pid ${session.chromedriverPid}) exited`)
        expect(elapsedMs).toBeLessThan(3_000)
      }
    } finally {
      await close()
    }
    expect(processesMentioning(`--user-data-dir=${session.profileDir}`)).toEqual([])
  })

  it("detects Chromium dying while a call waits on it, instead of waiting out the call's limit", async () => {
    // A page that never answers, and says when it was asked: Chromium is killed once the navigation is
    // really waiting on it.
    let asked: () => void = () => {}
    const waiting = new Promise<void>((resolve) => (asked = resolve))
    const held: Array<ServerResponse> = []
    const never = createServer((_request, response) => {
      held.push(response)
      asked()
    })
    await new Promise<void>((resolve) => never.listen(0, "127.0.0.1", resolve))
    const { port } = never.address() as AddressInfo
    const { session, driver, close } = await openDriver({ navigationTimeoutMs: 60_000 })
    try {
      let killedAt = 0
      void waiting.then(() => {
        killedAt = Date.now()
        process.kill(session.browserPid!, "SIGKILL")
      })
      const { error } = await failure(
        driver.navigate(`http://127.0.0.1:${port}/never`),
        "a navigation to a page that never answers to fail once Chromium was killed",
      )
      expect(killedAt).toBeGreaterThan(0)
      expect(error.reason._tag).toBe("DriverCrashed")
      expect(error.message).toContain("Chromium")
      // The call's limit is 60 s: seen well before it, however loaded the machine.
      expect(Date.now() - killedAt).toBeLessThan(20_000)
    } finally {
      await close()
      for (const response of held) response.destroy()
      await new Promise((resolve) => never.close(resolve))
    }
  })
})

describe("deadlines", () => {
  it("ends a call the page never answers at the call's own limit, naming that limit", async () => {
    const { driver, close } = await openDriver({ navigationTimeoutMs: 1_000, commandTimeoutMs: 1_000 })
    try {
      const { error, elapsedMs } = await failure(
        driver.navigate(`${site.url}/faults/never`),
        "a navigation to a page that never answers to fail at its limit",
      )
      expect(error.reason._tag).toBe("Timeout")
      expect(error.message).toContain("1000 ms")
      // Its own limit, not the default 30 s; given room for a loaded machine.
      expect(elapsedMs).toBeGreaterThanOrEqual(1_000)
      expect(elapsedMs).toBeLessThan(10_000)
    } finally {
      await close()
    }
  })
})

// A child Node process drives a browser and closes it; nothing it opened may keep it alive.
const runChild = (args: ReadonlyArray<string>, env: NodeJS.ProcessEnv = process.env) => {
  const child = spawn(process.execPath, ["--conditions=sextant-source", CHILD, ...args], {
    stdio: ["ignore", "pipe", "pipe"],
    env,
  })
  let output = ""
  child.stdout.on("data", (chunk) => (output += String(chunk)))
  child.stderr.on("data", (chunk) => (output += String(chunk)))
  const exited = new Promise<{ code: number | null; at: number }>((resolve) =>
    child.on("exit", (code) => resolve({ code, at: Date.now() })),
  )
  return { child, exited, output: () => output }
}

const lines = (output: string): Array<Record<string, unknown>> =>
  output
    .split("\n")
    .filter((line) => line.startsWith("{"))
    .map((line) => JSON.parse(line) as Record<string, unknown>)

const killIfAlive = (child: ChildProcess) => {
  if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL")
}

describe("close() leaves nothing behind", () => {
  for (const [scenario, path] of [
    ["plain", "/login"],
    ["alert", "/faults/alert?text=left+open"],
    ["never", "/faults/never"],
    ["killed-browser", "/login"],
  ] as const) {
    it(`lets the Node process exit by itself right after close, after ${scenario === "plain" ? "a plain page" : scenario === "alert" ? "an alert on load" : scenario === "never" ? "a page that never loads" : "a killed browser"}`, async () => {
      const { child, exited, output } = runChild([`${site.url}${path}`, scenario])
      const timer = setTimeout(() => killIfAlive(child), 100_000)
      const { code, at } = await exited
      clearTimeout(timer)
      const said = lines(output())
      const closedAt = said.find((line) => "closedAt" in line)?.closedAt as number | undefined
      expect(closedAt, output()).toBeTypeOf("number")
      expect(code, output()).toBe(0)
      // Only process teardown is left once the scope closed: no timer, socket or child holds Node.
      expect(at - closedAt!).toBeLessThan(5_000)
      const profileDir = said.find((line) => "profileDir" in line)?.profileDir as string
      expect(processesMentioning(profileDir)).toEqual([])
      expect(existsSync(profileDir)).toBe(false)
      // What is timed is the exit after close (above); starting a child Node, its browser and the page
      // before that took over 40 s on a 2-core machine at load 15–20, so the kill waits 100 s.
    }, 120_000)
  }
})

// Processes started for the Node process `pid` (ChromeDriver, Chromium, its crash handler), by the
// owner they carry in their environment.
const ownedBy = (pid: number): ReadonlyArray<number> =>
  readdirSync("/proc")
    .filter((entry) => /^\d+$/.test(entry))
    .filter((entry) => {
      try {
        return readFileSync(`/proc/${entry}/environ`, "utf8")
          .split("\0")
          .some((line) => line.startsWith(`${OWNER_ENV}=${pid}:`))
      } catch {
        return false
      }
    })
    .map(Number)

// The watchdog of the launch whose profile is `profileDir`, and what it runs (its `grep`s, its `rm`):
// every process whose environment names that profile, with its state and command line.
const watchdogOf = (profileDir: string): ReadonlyArray<string> =>
  readdirSync("/proc")
    .filter((entry) => /^\d+$/.test(entry))
    .flatMap((entry) => {
      try {
        const named = readFileSync(`/proc/${entry}/environ`, "utf8")
          .split("\0")
          .includes(`SEXTANT_WATCH_PROFILE=${profileDir}`)
        if (!named) return []
        const state = /^State:\s*(.*)$/m.exec(readFileSync(`/proc/${entry}/status`, "utf8"))?.[1] ?? "?"
        const command = readFileSync(`/proc/${entry}/cmdline`, "utf8").replaceAll("\0", " ").slice(0, 80)
        return [`${entry} (${state}) ${command}`]
      } catch {
        return []
      }
    })

// Waits until the child said where its browser runs.
const heldBrowser = async (output: () => string) => {
  const deadline = Date.now() + 60_000
  while (!output().includes("profileDir") && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  return lines(output()).find((line) => "profileDir" in line) as {
    profileDir: string
    chromedriverPid: number
    browserPid: number
  }
}

describe("orphaned browsers", () => {
  it("ends the ChromeDriver, Chromium and profile of a Node process killed with SIGKILL within seconds, without a new launch (watchdog)", async () => {
    // The child's profile goes into a folder of its own: a launch elsewhere on the machine (another
    // test file's, or anyone's) reaps orphaned processes by their owner, but only looks for profiles in
    // its own temporary folder, so only the launch's watchdog can remove this one.
    const folder = mkdtempSync(join(process.env.TMPDIR ?? "/tmp", "sextant-watchdog-test-"))
    const { child, exited, output } = runChild(["about:blank", "hold"], { ...process.env, TMPDIR: folder })
    try {
      const held = await heldBrowser(output)
      expect(held, output()).toBeDefined()
      expect(held.profileDir.startsWith(folder)).toBe(true)
      expect(isRunning(held.browserPid)).toBe(true)
      expect(processesMentioning(held.profileDir).length).toBeGreaterThan(0)
      expect(ownedBy(child.pid!)).toContain(held.chromedriverPid)
      child.kill("SIGKILL")
      await exited
      const killedAt = Date.now()
      // Nobody launches anything here. The watchdog's last act is removing the profile (with an `rm`
      // whose command line names the folder, so the browser's processes are told by Chromium's
      // `--user-data-dir` and by the owner in their environment): it has done all it does once the
      // folder is gone. The wait is long because a loaded machine is slow to run it; a watchdog that
      // does not act fails it all the same.
      const browserLeft = () => [
        ...processesMentioning(`--user-data-dir=${held.profileDir}`),
        ...ownedBy(child.pid!),
      ]
      // Asked every 200 ms: each ask reads every process's command line and environment, CPU a
      // loaded machine needs for the watchdog itself.
      while ((browserLeft().length > 0 || existsSync(held.profileDir)) && Date.now() - killedAt < 60_000) {
        await new Promise((resolve) => setTimeout(resolve, 200))
      }
      const tookMs = Date.now() - killedAt
      expect(browserLeft()).toEqual([])
      expect(isRunning(held.chromedriverPid)).toBe(false)
      expect(isRunning(held.browserPid)).toBe(false)
      const profileLeft = existsSync(held.profileDir)
        ? `still there after ${tookMs} ms; the watchdog: ${JSON.stringify(watchdogOf(held.profileDir))}; in the profile: ${JSON.stringify(readdirSync(held.profileDir))}`
        : ""
      expect(existsSync(held.profileDir), profileLeft).toBe(false)
      console.log(
        `watchdog ended the orphaned browser and removed its profile ${tookMs} ms after the SIGKILL`,
      )
    } finally {
      killIfAlive(child)
      rmSync(folder, { recursive: true, force: true })
    }
  }, 120_000)

  it("ends every helper of an orphaned browser too, even one a loaded machine leaves unscheduled, so none outlives the watchdog to write into the removed profile (watchdog)", async () => {
    const folder = mkdtempSync(join(process.env.TMPDIR ?? "/tmp", "sextant-watchdog-test-"))
    const { child, exited, output } = runChild(["about:blank", "hold"], { ...process.env, TMPDIR: folder })
    let browserLeft = (): ReadonlyArray<number> => []
    try {
      const held = await heldBrowser(output)
      expect(held, output()).toBeDefined()
      browserLeft = () => [
        ...processesMentioning(`--user-data-dir=${held.profileDir}`),
        ...ownedBy(child.pid!),
      ]
      // The network service, held stopped as a loaded machine may leave it unscheduled: when it runs
      // after the browser died, it can write its state and the cache index into the profile on its way
      // out (left behind under load: `Default/Network Persistent State`, `Default/Cache/…/the-real-index`).
      const stopped = processesMentioning(`--user-data-dir=${held.profileDir}`).filter((pid) => {
        try {
          return readFileSync(`/proc/${pid}/cmdline`, "utf8").includes("network.mojom.NetworkService")
        } catch {
          return false
        }
      })
      expect(stopped).toHaveLength(1)
      for (const pid of stopped) process.kill(pid, "SIGSTOP")
      child.kill("SIGKILL")
      await exited
      const killedAt = Date.now()
      while ((browserLeft().length > 0 || existsSync(held.profileDir)) && Date.now() - killedAt < 30_000) {
        await new Promise((resolve) => setTimeout(resolve, 200))
      }
      // A helper the watchdog missed would wait here, stopped, and write into the profile once it runs.
      expect(browserLeft()).toEqual([])
      expect(existsSync(held.profileDir)).toBe(false)
    } finally {
      killIfAlive(child)
      for (const pid of browserLeft()) {
        try {
          process.kill(pid, "SIGKILL")
        } catch {
          // Gone since.
        }
      }
      rmSync(folder, { recursive: true, force: true })
    }
  }, 120_000)

  it("reaps the ChromeDriver, Chromium and profile of a Node process killed with SIGKILL, and nothing of a live owner", async () => {
    const live = await openDriver()
    const { child, exited, output } = runChild(["about:blank", "hold-unwatched"])
    try {
      const deadline = Date.now() + 30_000
      while (!output().includes("profileDir") && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 50))
      }
      const held = lines(output()).find((line) => "profileDir" in line) as {
        profileDir: string
        chromedriverPid: number
        browserPid: number
      }
      child.kill("SIGKILL")
      await exited
      // SIGKILL gave the child no chance to clean up: its browser lives on.
      expect(isRunning(held.browserPid)).toBe(true)
      expect(isRunning(held.chromedriverPid)).toBe(true)

      const reaped = reapOrphans()
      expect(reaped.processes).toEqual(expect.arrayContaining([held.chromedriverPid, held.browserPid]))
      expect(reaped.profiles).toContain(held.profileDir)
      // SIGKILLed processes end when the kernel gets to them: slow on a loaded machine.
      const settleBy = Date.now() + 15_000
      while (processesMentioning(held.profileDir).length > 0 && Date.now() < settleBy) {
        await new Promise((resolve) => setTimeout(resolve, 50))
      }
      expect(processesMentioning(held.profileDir)).toEqual([])
      expect(isRunning(held.chromedriverPid)).toBe(false)
      expect(existsSync(held.profileDir)).toBe(false)
      // The browser of this (live) process was left alone.
      expect(reaped.processes).not.toContain(live.session.browserPid)
      expect(isRunning(live.session.browserPid!)).toBe(true)
      expect(await Effect.runPromise(live.driver.currentUrl)).toBe("about:blank")
    } finally {
      killIfAlive(child)
      await live.close()
    }
    // Two browsers start here (the test's own and the child's), each slow on a loaded machine.
  }, 60_000)

  it("leaves profile folders that carry no owner, or a live owner, alone", () => {
    const folder = mkdtempSync(join(process.env.TMPDIR ?? "/tmp", "sextant-reap-test-"))
    try {
      const foreign = mkdtempSync(join(folder, "sextant-chromium-"))
      const mine = mkdtempSync(join(folder, `sextant-chromium-${process.pid}-0-`))
      const reaped = reapOrphans(folder)
      // pid with a wrong start time is not this process: that owner is gone.
      expect(reaped.profiles).toEqual([mine])
      expect(existsSync(foreign)).toBe(true)
    } finally {
      rmSync(folder, { recursive: true, force: true })
    }
  })
})

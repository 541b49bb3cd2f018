import { type ChildProcess, spawn } from "node:child_process"
import { readdirSync, readFileSync, rmSync } from "node:fs"
import { createServer } from "node:net"
import { DriverCrashed, DriverError } from "@sextant/core"
import { Effect } from "effect"

/** A ChromeDriver this process started. */
export interface StartedChromedriver {
  readonly process: ChildProcess
  readonly port: number
}

/** A free TCP port on 127.0.0.1, for a server started right after. */
export const freePort = (): Promise<number> =>
  new Promise((resolve, reject) => {
    const server = createServer()
    server.once("error", reject)
    server.listen(0, "127.0.0.1", () => {
      const address = server.address()
      const port = typeof address === "object" && address !== null ? address.port : 0
      server.close(() => resolve(port))
    })
  })

/** Ids of every process whose command line names `marker` (the session's profile directory). */
export const processesMentioning = (marker: string): ReadonlyArray<number> => {
  const found: Array<number> = []
  let entries: ReadonlyArray<string> = []
  try {
    entries = readdirSync("/proc")
  } catch {
    return found
  }
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue
    try {
      const commandLine = readFileSync(`/proc/${entry}/cmdline`, "utf8")
      if (commandLine.includes(marker)) found.push(Number(entry))
    } catch {
      // The process ended while we looked.
    }
  }
  return found
}

/** The Chromium browser process (not a renderer or helper) started with `profileDir`. */
export const browserProcess = (profileDir: string): number | undefined =>
  processesMentioning(`--user-data-dir=${profileDir}`).find((pid) => {
    try {
      return !readFileSync(`/proc/${pid}/cmdline`, "utf8").includes("--type=")
    } catch {
      return false
    }
  })

const kill = (pid: number): void => {
  try {
    process.kill(pid, "SIGKILL")
  } catch {
    // Already gone.
  }
}

// Processes and profiles still to end if Node exits without closing its scopes (Ctrl-C, a crash):
// the exit hook runs synchronously, so nothing outlives the process that started it.
const live = new Map<ChildProcess, string>()
let hooked = false
const endAllNow = () => {
  for (const [child, profileDir] of live) stopProcesses(child, profileDir)
}
const hookExit = () => {
  if (hooked) return
  hooked = true
  process.once("exit", endAllNow)
  for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) {
    const onSignal = () => {
      // Another listener means the application shuts down gracefully and closes its scopes itself.
      if (process.listenerCount(signal) > 1) return
      endAllNow()
      process.off(signal, onSignal)
      process.kill(process.pid, signal)
    }
    process.on(signal, onSignal)
  }
}

/**
 * Ends ChromeDriver, then any Chromium process started with the profile, then removes the profile.
 * Chromium is found by its `--user-data-dir`, so a ChromeDriver that died first leaves nothing behind.
 */
export const stopProcesses = (child: ChildProcess, profileDir: string): void => {
  live.delete(child)
  if (child.exitCode === null && child.pid !== undefined) kill(child.pid)
  // Chromium may still be forking helpers while it dies: look again until none is left.
  const deadline = Date.now() + stopTimeoutMs
  for (;;) {
    const left = processesMentioning(`--user-data-dir=${profileDir}`)
    if (left.length === 0 || Date.now() >= deadline) break
    for (const pid of left) kill(pid)
    pause(20)
  }
  rmSync(profileDir, { recursive: true, force: true })
}

/** How long closing keeps looking for Chromium processes of a profile. */
const stopTimeoutMs = 3_000

// A synchronous pause: stopping also runs in the process exit hook, where nothing async can wait.
const pause = (ms: number): void => {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms)
}

const waitReady = async (port: number, child: ChildProcess, timeoutMs: number): Promise<void> => {
  const deadline = Date.now() + timeoutMs
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`ChromeDriver exited with code ${child.exitCode}`)
    try {
      const response = await fetch(`http://127.0.0.1:${port}/status`)
      const body = (await response.json()) as { value?: { ready?: boolean } }
      if (body.value?.ready === true) return
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 25))
  }
  throw new Error(`ChromeDriver did not answer on port ${port} within ${timeoutMs} ms`)
}

/** Starts ChromeDriver on a free 127.0.0.1 port and waits until it answers `/status`. */
export const startChromedriver = (
  binary: string,
  profileDir: string,
  timeoutMs: number,
): Effect.Effect<StartedChromedriver, DriverError> =>
  Effect.tryPromise({
    try: async () => {
      const port = await freePort()
      const child = spawn(binary, [`--port=${port}`, "--allowed-ips=127.0.0.1"], { stdio: "ignore" })
      hookExit()
      live.set(child, profileDir)
      try {
        await Promise.race([
          waitReady(port, child, timeoutMs),
          new Promise<never>((_, reject) => child.once("error", reject)),
        ])
      } catch (error) {
        stopProcesses(child, profileDir)
        throw error
      }
      return { process: child, port }
    },
    catch: (cause) =>
      new DriverError({
        method: "launch",
        reason: new DriverCrashed({
          detail: `ChromeDriver at ${binary} did not start: ${cause instanceof Error ? cause.message : String(cause)}`,
        }),
        cause,
      }),
  })

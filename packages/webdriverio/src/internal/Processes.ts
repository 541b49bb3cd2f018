import { type ChildProcess, spawn } from "node:child_process"
import { readdirSync, readFileSync, rmSync } from "node:fs"
import { createServer } from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { causeMessage, DriverCrashed, DriverError } from "@sextant/core"
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

/**
 * The environment variable ChromeDriver is started with; Chromium and its helpers (crashpad
 * included) inherit it. Its value names the Node process that owns them — `<pid>:<start time>` —
 * so a later process can tell a browser whose owner died from one whose owner still runs.
 */
export const OWNER_ENV = "SEXTANT_BROWSER_OWNER"

/** The prefix of every profile folder Sextant creates in the temp folder. */
export const PROFILE_PREFIX = "sextant-chromium-"

// The fields of /proc/<pid>/stat after the command name (state first, field 3), or undefined when
// the process is gone or there is no /proc.
const statFields = (pid: number): ReadonlyArray<string> | undefined => {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8")
    return stat.slice(stat.lastIndexOf(")") + 2).split(" ")
  } catch {
    return undefined
  }
}

// The start time of a process in clock ticks since boot (field 22 of /proc/<pid>/stat): with the
// pid it names one process even after the pid is reused.
const startTime = (pid: number): string | undefined => {
  const fields = statFields(pid)
  return fields === undefined || fields[0] === "Z" ? undefined : fields[19]
}

// The parent process id (field 4 of /proc/<pid>/stat).
const parentOf = (pid: number): number | undefined => {
  const parent = Number(statFields(pid)?.[1])
  return Number.isInteger(parent) && parent > 0 ? parent : undefined
}

/** True while the process runs (a zombie waiting for its parent counts as dead). */
export const isRunning = (pid: number): boolean => startTime(pid) !== undefined

/**
 * One process, named so a reused pid cannot pass for it: `<pid>:<start time>` while it runs, undefined
 * when it does not (or where there is no `/proc` to read the start time from).
 */
export const processIdentity = (pid: number): string | undefined => {
  const started = startTime(pid)
  return started === undefined ? undefined : `${pid}:${started}`
}

/** True while the process {@link processIdentity} named still runs: the same pid with the same start time. */
export const isSameProcess = (identity: string): boolean => {
  const [pid, started] = identity.split(":")
  return pid !== undefined && /^\d+$/.test(pid) && startTime(Number(pid)) === started
}

/**
 * Sends `signal` to the process {@link processIdentity} named, only while it is still that process:
 * never to another process the kernel gave its pid to after it ended. True when the signal was sent.
 */
export const signalSameProcess = (identity: string, signal: NodeJS.Signals): boolean => {
  if (!isSameProcess(identity)) return false
  try {
    process.kill(Number(identity.split(":")[0]), signal)
    return true
  } catch {
    return false
  }
}

/** This Node process as an owner: its {@link processIdentity} (`<pid>:0` where `/proc` cannot say). */
export const ownerId = (): string => processIdentity(process.pid) ?? `${process.pid}:0`

/** A new profile folder whose name carries this process as its owner. */
export const profileFolderPrefix = (): string =>
  join(tmpdir(), `${PROFILE_PREFIX}${ownerId().replace(":", "-")}-`)

const ownerOfProcess = (pid: number): string | undefined => {
  try {
    const environment = readFileSync(`/proc/${pid}/environ`, "utf8")
    const entry = environment.split("\0").find((line) => line.startsWith(`${OWNER_ENV}=`))
    return entry?.slice(OWNER_ENV.length + 1)
  } catch {
    return undefined
  }
}

/** What {@link reapOrphans} ended. */
export interface Reaped {
  /** Ids of the ChromeDriver, Chromium and crashpad processes ended. */
  readonly processes: ReadonlyArray<number>
  /** Profile folders removed. */
  readonly profiles: ReadonlyArray<string>
}

/**
 * Ends every ChromeDriver, Chromium and crashpad process Sextant started for a Node process that
 * is gone (killed with SIGKILL, say), and removes those owners' profile folders. Only processes
 * carrying {@link OWNER_ENV} and folders named with an owner are touched, and never one whose
 * owner still runs: browsers of other live Sextant processes, or anyone else's, are left alone.
 */
export const reapOrphans = (temporaryFolder: string = tmpdir()): Reaped => {
  const processes: Array<number> = []
  let entries: ReadonlyArray<string> = []
  try {
    entries = readdirSync("/proc")
  } catch {
    entries = []
  }
  const pids = entries.filter((entry) => /^\d+$/.test(entry)).map(Number)
  const orphans = new Set(
    pids.filter((pid) => {
      const owner = ownerOfProcess(pid)
      return owner !== undefined && !isSameProcess(owner)
    }),
  )
  // Chromium's helpers (renderers, the network service) may no longer show the owner in their
  // environment, which Chromium rewrites for their titles; they are ended with the tree they belong to.
  const parents = new Map(pids.map((pid) => [pid, parentOf(pid)]))
  const inTree = (pid: number): boolean => {
    for (let at: number | undefined = pid, hops = 0; at !== undefined && hops < 64; hops++) {
      if (orphans.has(at)) return true
      at = parents.get(at)
    }
    return false
  }
  for (const pid of pids) {
    if (!inTree(pid)) continue
    kill(pid)
    processes.push(pid)
  }
  // A killed Chromium may still write its profile for a moment: profiles go once its processes have.
  const deadline = Date.now() + stopTimeoutMs
  while (processes.some((pid) => isRunning(pid)) && Date.now() < deadline) pause(20)
  const profiles: Array<string> = []
  let folders: ReadonlyArray<string> = []
  try {
    folders = readdirSync(temporaryFolder)
  } catch {
    folders = []
  }
  for (const folder of folders) {
    const owner = new RegExp(`^${PROFILE_PREFIX}(\\d+)-(\\d+)-`).exec(folder)
    if (owner === null || isSameProcess(`${owner[1]}:${owner[2]}`)) continue
    const path = join(temporaryFolder, folder)
    rmSync(path, { recursive: true, force: true })
    profiles.push(path)
  }
  return { processes, profiles }
}

let swept = false
/** Runs {@link reapOrphans} once per Node process, before its first launch. */
export const sweepOnce = (): Reaped | undefined => {
  if (swept) return undefined
  swept = true
  return reapOrphans()
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
// the exit hook runs synchronously, so nothing outlives the process that started it. A shared
// ChromeDriver has no profile of its own.
const live = new Map<ChildProcess, string | undefined>()
let hooked = false
// Browsers of sessions on a shared ChromeDriver, by profile: no ChromeDriver of their own ends them.
const liveBrowsers = new Set<string>()
const endAllNow = () => {
  for (const profileDir of liveBrowsers) stopBrowser(profileDir)
  for (const [child, profileDir] of live) stopProcesses(child, profileDir)
}

/**
 * Ends the browser of `profileDir` if Node exits before the session closes; the answer stops that
 * (call it once the browser was ended another way).
 */
export const trackBrowser = (profileDir: string): (() => void) => {
  hookExit()
  liveBrowsers.add(profileDir)
  return () => {
    liveBrowsers.delete(profileDir)
  }
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
 * Without a profile (a shared ChromeDriver) only ChromeDriver is ended.
 */
export const stopProcesses = (child: ChildProcess, profileDir: string | undefined): void => {
  live.delete(child)
  if (child.exitCode === null && child.pid !== undefined) kill(child.pid)
  if (profileDir !== undefined) stopBrowser(profileDir)
}

/**
 * Ends every Chromium process started with the profile, then removes the profile: a session's
 * browser, when its ChromeDriver is shared and keeps running.
 */
export const stopBrowser = (profileDir: string): void => {
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

/**
 * Starts ChromeDriver on a free 127.0.0.1 port and waits until it answers `/status`. `profileDir` is
 * the profile of the one session it serves (ended with it), or undefined for a shared ChromeDriver.
 */
export const startChromedriver = (
  binary: string,
  profileDir: string | undefined,
  timeoutMs: number,
): Effect.Effect<StartedChromedriver, DriverError> =>
  Effect.tryPromise({
    try: async () => {
      const port = await freePort()
      const child = spawn(binary, [`--port=${port}`, "--allowed-ips=127.0.0.1"], {
        stdio: "ignore",
        env: { ...process.env, [OWNER_ENV]: ownerId() },
      })
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
          detail: `ChromeDriver at ${binary} did not start: ${causeMessage(cause)}`,
        }),
        cause,
      }),
  })

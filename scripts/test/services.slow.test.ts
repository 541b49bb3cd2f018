import { spawn } from "node:child_process"
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs"
import { createConnection } from "node:net"
import { tmpdir } from "node:os"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"
import { afterAll, describe, expect, it } from "vitest"

const root = join(dirname(fileURLToPath(import.meta.url)), "..", "..")
const stateDir = mkdtempSync(join(tmpdir(), "sextant-services-state-"))

/** Runs scripts/services with its state under a temp folder (the workspace is already installed). */
const services = (
  ...args: ReadonlyArray<string>
): Promise<{ code: number | null; stdout: string; stderr: string }> =>
  new Promise((resolve, reject) => {
    const child = spawn(join(root, "scripts", "services"), [...args], {
      env: { ...process.env, SEXTANT_SKIP_INSTALL: "1", SEXTANT_SERVICES_DIR: stateDir },
    })
    let stdout = ""
    let stderr = ""
    child.stdout.on("data", (chunk) => {
      stdout += String(chunk)
    })
    child.stderr.on("data", (chunk) => {
      stderr += String(chunk)
    })
    child.once("error", reject)
    child.once("close", (code) => resolve({ code, stdout, stderr }))
  })

afterAll(async () => {
  await services("stop")
  rmSync(stateDir, { recursive: true, force: true })
})

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0)
    return true
  } catch {
    return false
  }
}

const redisPing = (url: string): Promise<string> =>
  new Promise((resolve, reject) => {
    const { hostname, port } = new URL(url)
    const socket = createConnection({ host: hostname, port: Number(port) })
    socket.once("error", reject)
    socket.once("connect", () => socket.write("PING\r\n"))
    socket.once("data", (chunk) => {
      socket.end()
      resolve(chunk.toString("utf8").trim())
    })
  })

/** PostgreSQL's startup handshake answered with an authentication request: the server speaks the protocol. */
const postgresAnswers = (url: string): Promise<boolean> =>
  new Promise((resolve, reject) => {
    const parsed = new URL(url)
    const socket = createConnection({ host: parsed.hostname, port: Number(parsed.port) })
    socket.once("error", reject)
    socket.once("connect", () => {
      const body = Buffer.from(`user\0${parsed.username}\0database\0${parsed.pathname.slice(1)}\0\0`)
      const header = Buffer.alloc(8)
      header.writeInt32BE(body.length + 8, 0)
      header.writeInt32BE(196608, 4) // protocol 3.0
      socket.write(Buffer.concat([header, body]))
    })
    socket.once("data", (chunk) => {
      socket.destroy()
      // 'R' is an authentication message (AuthenticationOk under trust), 'E' an error.
      resolve(String.fromCharCode(chunk[0] ?? 0) === "R")
    })
  })

describe("scripts/services", () => {
  it("starts Redis, PostgreSQL and a two-node grid, prints their URLs, reports them, and stop leaves no process", async () => {
    const started = await services("start", "redis", "postgres", "grid")
    expect(started.code, started.stderr).toBe(0)
    const env = Object.fromEntries(
      started.stdout
        .trim()
        .split("\n")
        .map((line) => [line.slice(0, line.indexOf("=")), line.slice(line.indexOf("=") + 1)]),
    )
    expect(Object.keys(env).sort()).toEqual(["SEXTANT_GRID_URL", "SEXTANT_POSTGRES_URL", "SEXTANT_REDIS_URL"])
    expect(readFileSync(join(stateDir, "env"), "utf8")).toContain(
      `SEXTANT_POSTGRES_URL=${env.SEXTANT_POSTGRES_URL}`,
    )

    expect(await redisPing(env.SEXTANT_REDIS_URL!)).toBe("+PONG")
    expect(await postgresAnswers(env.SEXTANT_POSTGRES_URL!)).toBe(true)
    const status = (await (await fetch(`${env.SEXTANT_GRID_URL}/status`)).json()) as {
      value: { ready: boolean; nodes: ReadonlyArray<{ availability: string }> }
    }
    expect(status.value.ready).toBe(true)
    expect(status.value.nodes.map((node) => node.availability)).toEqual(["UP", "UP"])

    // Starting again finds them running and starts nothing new.
    const again = await services("start", "redis")
    expect(again.stdout.trim()).toBe(`SEXTANT_REDIS_URL=${env.SEXTANT_REDIS_URL}`)
    expect(again.stderr).toContain("already running")

    const listed = await services("status")
    expect(listed.stdout).toMatch(/^redis\trunning\t/m)
    expect(listed.stdout).toMatch(/^postgres\trunning\t/m)
    expect(listed.stdout).toMatch(/^grid\trunning\t/m)

    const pids = ["redis", "postgres", "grid"].flatMap(
      (name) =>
        (JSON.parse(readFileSync(join(stateDir, `${name}.json`), "utf8")) as { pids: Array<number> }).pids,
    )
    const dirs = ["redis", "postgres", "grid"].map(
      (name) => (JSON.parse(readFileSync(join(stateDir, `${name}.json`), "utf8")) as { dir: string }).dir,
    )
    expect(pids.length).toBe(5) // redis, postgres, the hub and two nodes
    expect(pids.every(alive)).toBe(true)

    const stopped = await services("stop")
    expect(stopped.code, stopped.stderr).toBe(0)
    expect(pids.filter(alive)).toEqual([])
    expect(dirs.filter((dir) => existsSync(dir))).toEqual([])
    const after = await services("status")
    expect(after.stdout).toBe("redis\tstopped\npostgres\tstopped\ngrid\tstopped\n")
  }, 240_000)

  it("refuses a service it does not know", async () => {
    const result = await services("start", "mongodb")
    expect(result.code).toBe(2)
    expect(result.stderr).toContain("unknown service mongodb: choose from redis, postgres, grid")
  })
})

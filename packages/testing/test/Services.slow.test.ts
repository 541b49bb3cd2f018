import { execFileSync } from "node:child_process"
import { existsSync } from "node:fs"
import { createConnection } from "node:net"
import pg from "pg"
import { describe, expect, it } from "vitest"
import { processTree, startGrid, startPostgres, startRedis } from "../src/index.ts"

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

interface Status {
  readonly value: {
    readonly ready: boolean
    readonly nodes: ReadonlyArray<{
      readonly id: string
      readonly uri: string
      readonly availability: string
    }>
  }
}

describe("services started for tests", () => {
  it("startRedis answers PING on 127.0.0.1, and stop leaves no process and no directory", async () => {
    const redis = await startRedis()
    expect(redis.url).toMatch(/^redis:\/\/127\.0\.0\.1:\d+$/)
    expect(await redisPing(redis.url)).toBe("+PONG")
    const tree = processTree(redis.pids)
    expect(tree.length).toBeGreaterThan(0)
    await redis.stop()
    expect(tree.filter(alive)).toEqual([])
    expect(existsSync(redis.dir)).toBe(false)
    await expect(redisPing(redis.url)).rejects.toThrow(/ECONNREFUSED/)
  })

  it("startPostgres answers `select 1` on its database, and stop leaves no process and no directory", async () => {
    const postgres = await startPostgres()
    expect(postgres.url).toMatch(/^postgres:\/\/postgres@127\.0\.0\.1:\d+\/sextant$/)
    const client = new pg.Client({ connectionString: postgres.url })
    await client.connect()
    const result = await client.query<{ one: number; db: string }>(
      "select 1 as one, current_database() as db",
    )
    await client.end()
    expect(result.rows).toEqual([{ one: 1, db: "sextant" }])
    // The postmaster and its background workers (checkpointer, walwriter, ...).
    const tree = processTree(postgres.pids)
    expect(tree.length).toBeGreaterThan(1)
    await postgres.stop()
    expect(tree.filter(alive)).toEqual([])
    expect(existsSync(postgres.dir)).toBe(false)
  })

  it("startGrid registers two nodes ready at the hub that run the system Chromium, a killed node's process is gone, and stop leaves no process", async () => {
    const grid = await startGrid({ nodes: 2 })
    const status = (await (await fetch(`${grid.url}/status`)).json()) as Status
    expect(status.value.ready).toBe(true)
    expect(status.value.nodes.map((node) => node.availability)).toEqual(["UP", "UP"])
    expect(status.value.nodes.map((node) => node.id).sort()).toEqual(grid.nodes.map((node) => node.id).sort())
    expect(new Set(grid.nodes.map((node) => node.url)).size).toBe(2)

    // A WebDriver session through the hub runs the system Chromium headless, with nothing downloaded.
    const json = { "content-type": "application/json; charset=utf-8" }
    const created = (await (
      await fetch(`${grid.url}/session`, {
        method: "POST",
        headers: json,
        body: JSON.stringify({ capabilities: { alwaysMatch: { browserName: "chrome" } } }),
      })
    ).json()) as { value: { sessionId: string; capabilities: { browserVersion: string } } }
    const session = `${grid.url}/session/${created.value.sessionId}`
    const chromiumVersion = execFileSync("/usr/bin/chromium", ["--version"], { encoding: "utf8" })
    expect(chromiumVersion).toContain(created.value.capabilities.browserVersion)
    await fetch(`${session}/url`, {
      method: "POST",
      headers: json,
      body: JSON.stringify({ url: "data:text/html,<title>through the grid</title>" }),
    })
    expect(((await (await fetch(`${session}/title`)).json()) as { value: string }).value).toBe(
      "through the grid",
    )
    await fetch(session, { method: "DELETE" })

    const tree = processTree(grid.pids)
    expect(tree.length).toBeGreaterThanOrEqual(3)
    const [victim] = grid.nodes
    if (victim === undefined) throw new Error("no node")
    await victim.kill()
    expect(alive(victim.pid)).toBe(false)
    // The hub notices within a few health checks (3 s apart) and marks the node DOWN or drops it.
    await expect
      .poll(
        async () => {
          const after = (await (await fetch(`${grid.url}/status`)).json()) as Status
          return after.value.nodes.find((node) => node.id === victim.id)?.availability ?? "GONE"
        },
        { timeout: 30_000, interval: 500 },
      )
      .not.toBe("UP")

    await grid.stop()
    expect(tree.filter(alive)).toEqual([])
    expect(existsSync(grid.dir)).toBe(false)
  }, 180_000)
})

import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import type { DriverError } from "@sextant/core"
import { type FixtureSite, startFixtureSite } from "@sextant/fixture-site"
import { descendantPids, type RunningGrid, startGrid } from "@sextant/testing"
import { Effect } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { connectGrid, createDriverPool, type GridOptions, makeDriver } from "../src/index.ts"

// The driver on sessions of a Selenium Grid 4 (a hub and two nodes, one session each, on the system
// Chromium and ChromeDriver): what reaches through the grid, and what fails honestly.

let grid: RunningGrid
let site: FixtureSite
let server: Server
let base = ""
beforeAll(async () => {
  grid = await startGrid({ nodes: 2, sessionsPerNode: 1 })
  site = await startFixtureSite({ port: 0 })
  server = createServer((request, response) => {
    response
      .writeHead(200, { "content-type": "text/html" })
      .end(
        request.url === "/alert"
          ? `<script>alert("from the grid")</script><button onclick="document.title = 'pressed'">Press</button>`
          : "<p>plain</p>",
      )
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
}, 180_000)
afterAll(async () => {
  server?.closeAllConnections()
  await new Promise((resolve) => server?.close(resolve))
  await site?.close()
  await grid?.stop()
})

const onGrid = <A, E>(
  use: (
    driver: Effect.Success<ReturnType<typeof makeDriver>>,
    session: Effect.Success<ReturnType<typeof connectGrid>>,
  ) => Effect.Effect<A, E>,
  options: Omit<GridOptions, "url"> = {},
  driverOptions: Parameters<typeof makeDriver>[1] = {},
) =>
  Effect.runPromise(
    Effect.scoped(
      Effect.gen(function* () {
        const session = yield* connectGrid({ url: grid.url, ...options })
        const driver = yield* makeDriver(session, driverOptions)
        return yield* use(driver, session)
      }),
    ),
  )

const reasonOf = (error: DriverError) => error.reason._tag

describe("connectGrid", () => {
  it("opens a headless Chromium session on a node, knows which, and drives the fixture site", {
    timeout: 90_000,
  }, async () => {
    const answer = await onGrid((driver, session) =>
      Effect.gen(function* () {
        yield* driver.navigate(`${site.url}/login`)
        const snapshot = yield* driver.look()
        const viewport = yield* driver.evaluate("return [window.innerWidth, window.innerHeight]")
        return { node: session.grid?.node, tree: snapshot.tree, viewport }
      }),
    )
    expect(grid.nodes.map((node) => node.id)).toContain(answer.node?.id)
    expect(answer.tree).toMatch(/textbox "Email"/)
    expect(answer.viewport).toEqual([1280, 800])
  })

  it("reports a dialog the page opens and answers it, over the grid's BiDi channel", {
    timeout: 90_000,
  }, async () => {
    const answer = await onGrid((driver) =>
      Effect.gen(function* () {
        const opened = yield* Effect.flip(driver.navigate(`${base}/alert`))
        const dialog = yield* driver.dialog
        yield* driver.respondToDialog(true)
        yield* driver.act({ selector: "button" }, "click")
        return { opened: reasonOf(opened), dialog, title: yield* driver.title }
      }),
    )
    expect(answer.opened).toBe("DialogOpen")
    expect(answer.dialog).toMatchObject({ type: "alert", text: "from the grid" })
    expect(answer.title).toBe("pressed")
  })

  it("records the page's JSON calls (recordTraffic) through the grid", { timeout: 90_000 }, async () => {
    const exchanges = await onGrid(
      (driver) =>
        Effect.gen(function* () {
          yield* driver.navigate(`${site.url}/products/3`)
          yield* driver.act({ selector: "#add-to-cart" }, "click")
          const take = driver.takeRecording
          if (take === undefined) return []
          return (yield* take).exchanges
        }),
      {},
      { recordTraffic: true },
    )
    expect(exchanges).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ method: "POST", url: `${site.url}/api/cart`, status: 200 }),
      ]),
    )
  })

  it("guardSecrets refuses on a grid session, saying why, rather than guard nothing", {
    timeout: 90_000,
  }, async () => {
    const refused = await onGrid((driver) =>
      Effect.flip(
        Effect.scoped(
          driver.guardSecrets?.({ values: ["x"], origins: [site.url] }) ?? Effect.die("no guard"),
        ),
      ),
    )
    expect(reasonOf(refused)).toBe("InvalidArgument")
    expect(refused.message).toContain(`the Selenium Grid at ${grid.url} keeps on its node`)
    expect(refused.message).toContain("requests of a grid session cannot be guarded")
  })

  it("createDriverPool({ grid }) hands out sessions on both nodes", { timeout: 120_000 }, async () => {
    const nodes = await Effect.runPromise(
      Effect.scoped(
        Effect.gen(function* () {
          const pool = yield* createDriverPool({ size: 2, grid: { url: grid.url } })
          return yield* Effect.all(
            [0, 1].map(() => Effect.map(pool.acquire, ({ session }) => session.grid?.node?.id)),
            { concurrency: 2 },
          )
        }),
      ),
    )
    expect([...nodes].sort()).toEqual(grid.nodes.map((node) => node.id).sort())
  })

  it("a Classic session whose node is killed fails the next calls as DriverCrashed naming the node, within seconds", {
    timeout: 120_000,
  }, async () => {
    const answer = await onGrid(
      (driver, session) =>
        Effect.gen(function* () {
          yield* driver.navigate(`${base}/plain`)
          const node = grid.nodes.find((candidate) => candidate.id === session.grid?.node?.id)
          if (node === undefined) return yield* Effect.die("the session's node is not one of the grid's")
          const below = descendantPids(node.pid)
          yield* Effect.promise(() => node.kill())
          // Its ChromeDriver and Chromium, orphaned by the kill, are ended too (this test started them).
          for (const pid of below) {
            try {
              process.kill(pid, "SIGKILL")
            } catch {
              // already gone
            }
          }
          const started = Date.now()
          const looked = yield* Effect.flip(driver.look())
          const took = Date.now() - started
          const again = yield* Effect.flip(driver.currentUrl)
          // The node is started again for the tests after this one.
          yield* Effect.promise(() => grid.addNode())
          return { looked, took, again, node: node.id }
        }),
      { bidi: false },
    )
    expect(reasonOf(answer.looked)).toBe("DriverCrashed")
    expect(answer.looked.message).toContain(`on the Selenium Grid node`)
    expect(answer.looked.message).toContain(`(id ${answer.node}) no longer answers`)
    expect(answer.took).toBeLessThan(10_000)
    expect(reasonOf(answer.again)).toBe("DriverCrashed")
  })
})

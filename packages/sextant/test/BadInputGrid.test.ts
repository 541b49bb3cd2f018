import { mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { isAgentError, isDriverError } from "@sextant/core"
import { type LoopbackServer, startLoopbackServer } from "@sextant/testing"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { createAgent } from "../src/index.ts"
import { lookAt } from "../src/internal/LookCommand.ts"
import { runGoal } from "../src/internal/RunCommand.ts"
import { ConfigError, loadConfig } from "../src/SextantConfig.ts"
import { sink } from "./support/Sink.ts"

// A grid that cannot give a session — a value that is no URL, nothing listening, a server that is no
// grid, a grid without a node that offers Chrome — fails at once, naming --grid (or
// options.browser.grid) and what to do: never a wait in the grid's queue, a stack trace or a launch of
// the local Chromium instead.

/** A server answering `/status` with `body` (JSON when an object), as a grid's hub would. */
const statusServer = (status: number, body: unknown) =>
  startLoopbackServer((request, response) => {
    if (request.url !== "/status") {
      response.writeHead(404).end()
      return
    }
    response
      .writeHead(status, { "content-type": typeof body === "string" ? "text/html" : "application/json" })
      .end(typeof body === "string" ? body : JSON.stringify(body))
  })

const slot = (browserName: string) => ({ stereotype: { browserName, platformName: "linux" }, session: null })

let closedPort: string
let noNodes: LoopbackServer
let firefoxOnly: LoopbackServer
let chromeDown: LoopbackServer
let notAGrid: LoopbackServer
beforeAll(async () => {
  const gone = await startLoopbackServer(() => {})
  closedPort = gone.url
  await gone.close()
  noNodes = await statusServer(200, {
    value: { ready: false, message: "Selenium Grid not ready.", nodes: [] },
  })
  firefoxOnly = await statusServer(200, {
    value: {
      ready: true,
      nodes: [{ id: "n1", uri: "http://10.0.0.7:5555", availability: "UP", slots: [slot("firefox")] }],
    },
  })
  chromeDown = await statusServer(200, {
    value: {
      ready: false,
      nodes: [{ id: "n2", uri: "http://10.0.0.8:5555", availability: "DOWN", slots: [slot("chrome")] }],
    },
  })
  notAGrid = await statusServer(404, "<h1>Not Found</h1>")
})
afterAll(async () => {
  await Promise.all([noNodes, firefoxOnly, chromeDown, notAGrid].map((server) => server?.close()))
})

const base = {
  goal: "open the page",
  startUrl: "http://127.0.0.1:9/start",
  mode: "plan",
  input: [],
  secret: [],
  allowSubmit: false,
  allowedOrigin: [],
  store: ":memory:",
  traceDir: "/tmp",
  json: false,
  headless: true,
}

describe("sextant run --grid", () => {
  // The servers start in beforeAll: each case reads their URLs when it runs.
  const cases: ReadonlyArray<readonly [string, () => string, (grid: string) => ReadonlyArray<string>]> = [
    [
      "a value that is no URL",
      () => "grid.internal:4444",
      () => ["--grid: must be the Selenium Grid's http or https URL, e.g. --grid http://127.0.0.1:4444"],
    ],
    [
      "a port nothing listens on",
      () => closedPort,
      (grid) => [`--grid ${grid}: `, `no Selenium Grid answers at ${grid}`, "ECONNREFUSED", "start the grid"],
    ],
    [
      "a server that is no Selenium Grid",
      () => notAGrid.url,
      (grid) => [
        `--grid ${grid}: `,
        "is not a Selenium Grid 4 (GET /status answered HTTP 404",
        "hub or router",
      ],
    ],
    [
      "a grid with no node",
      () => noNodes.url,
      (grid) => [`--grid ${grid}: `, "has no node that is up", "start a node with Chromium and ChromeDriver"],
    ],
    [
      "a grid whose only node offers Firefox",
      () => firefoxOnly.url,
      (grid) => [`--grid ${grid}: `, "has no node that offers Chrome (its nodes offer: firefox)"],
    ],
    [
      "a grid whose Chrome node is down",
      () => chromeDown.url,
      (grid) => [`--grid ${grid}: `, "has no node that is up"],
    ],
  ]
  for (const [name, grid, expected] of cases) {
    it(`${name}: exit 2, naming --grid and what to do`, async () => {
      const out = sink()
      const err = sink()
      const started = Date.now()
      const code = await runGoal({ ...base, grid: grid() }, out.stream, err.stream)
      expect(code, err.text()).toBe(2)
      for (const part of expected(grid())) expect(err.text()).toContain(part)
      expect(err.text()).not.toMatch(/\n\s+at /)
      // Answered from the grid's status, not after a session request waited in its queue.
      expect(Date.now() - started).toBeLessThan(10_000)
    })
  }

  it("--chromedriver with --grid: exit 2 naming --chromedriver (the nodes run their own)", async () => {
    const err = sink()
    const code = await runGoal(
      { ...base, grid: firefoxOnly.url, chromedriver: "/usr/bin/chromedriver" },
      sink().stream,
      err.stream,
    )
    expect(code).toBe(2)
    expect(err.text()).toContain("sextant run: --chromedriver: a grid's nodes run their own ChromeDriver")
  })

  it("sextant look --grid with a grid without a Chrome node: exit 2 naming --grid", async () => {
    const err = sink()
    const code = await lookAt(
      { url: "http://127.0.0.1:9/", interactive: false, json: false, headless: true, grid: firefoxOnly.url },
      sink().stream,
      err.stream,
    )
    expect(code).toBe(2)
    expect(err.text()).toContain(`sextant look: --grid ${firefoxOnly.url}: `)
    expect(err.text()).toContain("has no node that offers Chrome")
  })
})

describe("createAgent({ browser: { grid } })", () => {
  it("a grid that is no URL throws when the agent is created, naming options.browser.grid", () => {
    let thrown: unknown
    try {
      createAgent({ browser: { grid: "grid.internal:4444" }, store: "memory" })
    } catch (error) {
      thrown = error
    }
    expect(isAgentError(thrown)).toBe(true)
    expect(String((thrown as Error).message)).toContain(
      "options.browser.grid: must be the grid's http or https URL",
    )
  })

  it("a grid without a Chrome node rejects the run with a DriverError from connectGrid saying what to do", async () => {
    await using agent = createAgent({
      browser: { grid: firefoxOnly.url },
      store: "memory",
      traceDirectory: false,
    })
    const failure = await agent.run({ goal: "open the page", startUrl: "http://127.0.0.1:9/" }).then(
      () => undefined,
      (error: unknown) => error,
    )
    expect(isDriverError(failure)).toBe(true)
    expect(isDriverError(failure) && failure.method).toBe("connectGrid")
    expect(String((failure as Error).message)).toContain(
      `the Selenium Grid at ${firefoxOnly.url} has no node that offers Chrome (its nodes offer: firefox): start a node with Chromium and ChromeDriver`,
    )
  })
})

describe("browser: { grid } in sextant.config.ts", () => {
  let folder: string
  beforeAll(() => {
    folder = mkdtempSync(join(tmpdir(), "sextant-grid-config-"))
  })
  afterAll(() => {
    rmSync(folder, { recursive: true, force: true })
  })
  const configFile = (name: string, body: string) => {
    const file = join(folder, `${name}.config.ts`)
    writeFileSync(file, `export default ${body}\n`)
    return file
  }

  it("a grid that is no URL is a ConfigError naming browser.grid, not zod's bare Invalid input", async () => {
    const file = configFile("bad-grid", `{ browser: { grid: "grid.internal:4444" } }`)
    const failure = await loadConfig(file).then(
      () => undefined,
      (error: unknown) => error,
    )
    expect(failure).toBeInstanceOf(ConfigError)
    expect((failure as ConfigError).issues).toEqual([
      "browser.grid: must be the grid's http or https URL, e.g. http://127.0.0.1:4444",
    ])
  })

  it("a grid from the config that has no Chrome node: exit 2 naming the config's browser.grid", async () => {
    const file = configFile("firefox-grid", `{ browser: { grid: ${JSON.stringify(firefoxOnly.url)} } }`)
    const err = sink()
    const code = await runGoal({ ...base, config: file }, sink().stream, err.stream)
    expect(code, err.text()).toBe(2)
    expect(err.text()).toContain(`sextant run: ${file}: browser.grid ${firefoxOnly.url}: `)
    expect(err.text()).toContain("has no node that offers Chrome")
  })

  it("--chromedriver with a grid from the config: exit 2 naming --chromedriver", async () => {
    const file = configFile("grid-chromedriver", `{ browser: { grid: ${JSON.stringify(firefoxOnly.url)} } }`)
    const err = sink()
    const code = await runGoal(
      { ...base, config: file, chromedriver: "/usr/bin/chromedriver" },
      sink().stream,
      err.stream,
    )
    expect(code).toBe(2)
    expect(err.text()).toContain("--chromedriver: a grid's nodes run their own ChromeDriver")
  })
})

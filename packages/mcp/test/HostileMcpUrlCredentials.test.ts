import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { type FixtureSite, startFixtureSite } from "@sextant/fixture-site"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type HttpMcpServer, serveHttp } from "../src/index.ts"
import { connectClient, textOf } from "./support/HttpClient.ts"

/**
 * An MCP client that opens a page through a URL carrying a password (the fixture site's staff pages
 * behind HTTP Basic, `http://alice:wonderland@…/staff`), then asks for a run from there, on a server
 * that writes traces: the run's trace holds what the run did, never the client's earlier `go` and the
 * password in its URL.
 */

const PASSWORD = "wonderland"
let site: FixtureSite
let directory: string
const servers: Array<HttpMcpServer> = []

beforeAll(async () => {
  site = await startFixtureSite({ port: 0, seed: 3 })
  directory = mkdtempSync(join(tmpdir(), "sextant-mcp-url-"))
}, 60_000)

afterAll(async () => {
  await Promise.all(servers.map((server) => server.close()))
  await site?.close()
  rmSync(directory, { recursive: true, force: true })
})

/** Every file under `folder`, as one text. */
const written = (folder: string): string =>
  readdirSync(folder, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => readFileSync(join(entry.parentPath, entry.name), "utf8"))
    .join("\n")

describe("go to a URL with a password in it, then a run", () => {
  it("answers the page without the password, and the run's trace holds its own steps only, without it", async () => {
    const traceDirectory = join(directory, "go-then-run")
    const server = await serveHttp({ shareBrowser: true, traceDirectory })
    servers.push(server)
    const { call } = await connectClient(server)
    const went = await call("go", {
      url: `${site.url.replace("http://", `http://alice:${PASSWORD}@`)}/staff`,
    })
    expect(textOf(went)).toContain("Staff room")
    // The answer names the page it reached without repeating the password the URL carried.
    expect(textOf(went)).toContain(`${site.url.replace("http://", "http://alice:***@")}/staff`)
    expect(textOf(went)).not.toContain(PASSWORD)
    const ran = await call("run", { goal: "click Rota" })
    expect(textOf(ran)).toMatch(/^COMPLETED/)
    const trace = written(traceDirectory)
    // The run did its work: its trace records the click that opened the rota.
    expect(trace).toMatch(/\/staff\/rota/)
    const leaking = trace.split("\n").filter((line) => line.includes(PASSWORD))
    expect(leaking).toEqual([])
  }, 120_000)
})

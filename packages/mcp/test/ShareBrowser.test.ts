import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { sharedBrowserStatus } from "@sextant/webdriverio"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type HttpMcpServer, serveHttp } from "../src/index.ts"
import { connectClient, textOf } from "./support/HttpClient.ts"

/**
 * `shareBrowser`: MCP sessions over HTTP one after the other take turns on the process's one shared
 * Chromium, and a session finds nothing of the one before it (no cookie, no storage).
 */

let site: { url: string; server: Server }
let server: HttpMcpServer | undefined

beforeAll(async () => {
  const http = createServer((_, response) => {
    response.writeHead(200, { "content-type": "text/html; charset=utf-8" })
    response.end("<!doctype html><title>Shared</title><h1>Shared</h1>")
  })
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", () => resolve()))
  site = { url: `http://127.0.0.1:${(http.address() as AddressInfo).port}`, server: http }
})

afterAll(async () => {
  await server?.close()
  site?.server.closeAllConnections()
  await new Promise<void>((resolve) => (site ? site.server.close(() => resolve()) : resolve()))
})

describe("shareBrowser", () => {
  it("runs sessions one after the other on one Chromium, each without the cookies and storage of the one before", async () => {
    server = await serveHttp({
      shareBrowser: true,
      allowEval: true,
      constraints: { allowedOrigins: [site.url] },
    })
    const session = async (js: string) => {
      const { client, transport, call } = await connectClient(server!)
      expect((await call("go", { url: `${site.url}/` })).isError).toBeUndefined()
      const answer = await call("eval", { js })
      expect(answer.isError, textOf(answer)).toBeUndefined()
      const processes = server!.browserProcesses()
      await transport.terminateSession()
      await client.close()
      return { text: textOf(answer), processes }
    }
    const first = await session(
      "document.cookie = 'left=1; max-age=3600'; localStorage.setItem('left', '1'); return document.cookie",
    )
    expect(first.text).toContain("left=1")
    const launched = sharedBrowserStatus().launched
    const second = await session("return JSON.stringify([document.cookie, localStorage.getItem('left')])")
    expect(second.text).toContain(JSON.stringify(["", null]))
    // The same Chromium, handed on: no launch for the second session.
    expect(sharedBrowserStatus().launched).toBe(launched)
    expect(second.processes.at(-1)).toBe(first.processes.at(-1))
    expect(server.browserProcesses()).toEqual([])
  }, 60_000)
})

import { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js"
import { afterAll, describe, expect, it } from "vitest"
import { type HttpMcpServer, serveHttp } from "../src/index.ts"

let server: HttpMcpServer | undefined
afterAll(async () => {
  await server?.close()
})

describe("the Streamable HTTP transport", () => {
  it("listens on 127.0.0.1, gives each client its own session and forgets it when the client ends it", async () => {
    server = await serveHttp({ allowEval: true }, { port: 0 })
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/)
    const transport = new StreamableHTTPClientTransport(new URL(server.url), {
      requestInit: { headers: { Authorization: `Bearer ${server.token}` } },
    })
    const client = new Client({ name: "sextant-test", version: "0.0.0" })
    await client.connect(transport)
    const { tools } = await client.listTools()
    expect(tools.map((tool) => tool.name)).toContain("eval")
    expect(server.clients()).toBe(1)
    await transport.terminateSession()
    await client.close()
    expect(server.clients()).toBe(0)
  })

  it("answers a request without a session that is not an initialize with 404", async () => {
    server ??= await serveHttp({}, { port: 0 })
    const response = await fetch(server.url, {
      method: "GET",
      headers: {
        "mcp-session-id": "no-such-session",
        accept: "text/event-stream",
        authorization: `Bearer ${server.token}`,
      },
    })
    expect(response.status).toBe(404)
    expect(await response.text()).toContain("unknown session")
  })
})

import { spawn } from "node:child_process"
import { request as httpRequest } from "node:http"
import { fileURLToPath } from "node:url"
import { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type HttpMcpServer, serveHttp, tokenVariable } from "../src/index.ts"

/**
 * Requests a web page (DNS rebinding, a cross-site POST) or another local program could send to the
 * HTTP server: each is refused before it reaches a session, and only a request that names this server,
 * comes from no foreign origin and carries the token gets an MCP session.
 */

const initialize = JSON.stringify({
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "hostile", version: "0" } },
})

/** A raw POST with exactly these headers (node:http, so `Host` can be set as an attacker's page would have it). */
const post = (url: string, headers: Record<string, string>) =>
  new Promise<{ status: number; body: string }>((resolve, reject) => {
    const target = new URL(url)
    const sent = httpRequest(
      {
        host: target.hostname,
        port: target.port,
        path: target.pathname,
        method: "POST",
        headers: {
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
          ...headers,
        },
      },
      (response) => {
        let body = ""
        response.setEncoding("utf8")
        response.on("data", (chunk: string) => {
          body += chunk
        })
        response.on("end", () => resolve({ status: response.statusCode ?? 0, body }))
      },
    )
    sent.on("error", reject)
    sent.end(initialize)
  })

const connectClient = async (url: string, headers: Record<string, string>) => {
  const transport = new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } })
  const client = new Client({ name: "sextant-test", version: "0.0.0" })
  await client.connect(transport)
  return { client, transport }
}

let server: HttpMcpServer
let host: string
beforeAll(async () => {
  server = await serveHttp({}, { port: 0, allowedHosts: ["mcp.proxy.test:8443"] })
  host = new URL(server.url).host
})
afterAll(async () => {
  await server?.close()
})

describe("the HTTP server refuses requests a web page or another program could send", () => {
  it("makes a random token at start", () => {
    expect(server.tokenSource).toBe("generated")
    expect(server.token).toMatch(/^[A-Za-z0-9_-]{43}$/)
  })

  it("refuses a request whose Host is another name (DNS rebinding) with 403, before any session", async () => {
    const refused = await post(server.url, {
      host: "attacker.example",
      authorization: `Bearer ${server.token}`,
    })
    expect(refused.status).toBe(403)
    const error = JSON.parse(refused.body) as { jsonrpc: string; error: { message: string } }
    expect(error.jsonrpc).toBe("2.0")
    expect(error.error.message).toContain('Host "attacker.example" is not this server')
    expect(error.error.message).toContain("--allowed-host")
    expect(server.clients()).toBe(0)
  })

  it("refuses the server's own port behind another host name", async () => {
    const refused = await post(server.url, {
      host: `attacker.example:${new URL(server.url).port}`,
      authorization: `Bearer ${server.token}`,
    })
    expect(refused.status).toBe(403)
  })

  it("refuses a request from a web page on another origin with 403", async () => {
    const refused = await post(server.url, {
      host,
      origin: "http://attacker.example",
      authorization: `Bearer ${server.token}`,
    })
    expect(refused.status).toBe(403)
    expect(refused.body).toContain('Origin \\"http://attacker.example\\" may not use this server')
    expect(refused.body).toContain("--allowed-origin-header")
    expect(server.clients()).toBe(0)
  })

  it("refuses a request without the token, or with a wrong one, with 401 saying where the token is", async () => {
    const missing = await post(server.url, { host })
    expect(missing.status).toBe(401)
    expect(missing.body).toContain("no bearer token: send Authorization: Bearer <token>")
    expect(missing.body).toContain(tokenVariable)
    const wrong = await post(server.url, { host, authorization: `Bearer ${server.token.slice(0, -1)}x` })
    expect(wrong.status).toBe(401)
    expect(wrong.body).toContain("wrong bearer token")
    const basic = await post(server.url, { host, authorization: `Basic ${server.token}` })
    expect(basic.status).toBe(401)
    expect(server.clients()).toBe(0)
  })

  it("serves the SDK client that sends the token to 127.0.0.1, and one behind an allowed host", async () => {
    const { client, transport } = await connectClient(server.url, {
      Authorization: `Bearer ${server.token}`,
    })
    const { tools } = await client.listTools()
    expect(tools.map((tool) => tool.name)).toContain("look")
    expect(server.clients()).toBe(1)
    await transport.terminateSession()
    await client.close()
    expect(server.clients()).toBe(0)
    const proxied = await post(server.url, {
      host: "mcp.proxy.test:8443",
      authorization: `Bearer ${server.token}`,
    })
    expect(proxied.status).toBe(200)
  })

  it("serves a browser page on the server's own origin (localhost) that sends the token", async () => {
    const allowed = await post(server.url, {
      host: `localhost:${new URL(server.url).port}`,
      origin: `http://localhost:${new URL(server.url).port}`,
      authorization: `Bearer ${server.token}`,
    })
    expect(allowed.status).toBe(200)
  })

  it("checks the token on every request of a session, not only on initialize", async () => {
    const { client, transport } = await connectClient(server.url, {
      Authorization: `Bearer ${server.token}`,
    })
    const sessionId = transport.sessionId
    expect(sessionId).toBeTypeOf("string")
    const list = JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/list", params: {} })
    const response = await fetch(server.url, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        "mcp-session-id": sessionId!,
        "mcp-protocol-version": "2025-06-18",
      },
      body: list,
    })
    expect(response.status).toBe(401)
    await transport.terminateSession()
    await client.close()
  })
})

describe("a token and origins given by the user", () => {
  it("takes the token from SEXTANT_MCP_TOKEN and an extra Origin from the options", async () => {
    const token = "a-token-the-user-chose-0123456789"
    process.env[tokenVariable] = token
    const own = await serveHttp({}, { allowedOriginHeaders: ["http://localhost:6274"] }).finally(() => {
      delete process.env[tokenVariable]
    })
    try {
      expect(own.token).toBe(token)
      expect(own.tokenSource).toBe("environment")
      const ownHost = new URL(own.url).host
      const accepted = await post(own.url, {
        host: ownHost,
        origin: "http://localhost:6274",
        authorization: `Bearer ${token}`,
      })
      expect(accepted.status).toBe(200)
      const refused = await post(own.url, {
        host: ownHost,
        origin: "http://localhost:6275",
        authorization: `Bearer ${token}`,
      })
      expect(refused.status).toBe(403)
    } finally {
      await own.close()
    }
  })

  it("refuses a token too short to be secret", async () => {
    await expect(serveHttp({}, { token: "short" })).rejects.toThrow(
      "token: use a token of at least 16 characters",
    )
  })
})

describe("sextant mcp --http", () => {
  it("prints the URL and a fresh token once on stderr, and serves only a client that sends it", async () => {
    const bin = fileURLToPath(new URL("../src/bin.ts", import.meta.url))
    const environment = { ...process.env }
    delete environment[tokenVariable]
    const child = spawn(process.execPath, ["--conditions=sextant-source", bin, "--http"], {
      env: environment,
      stdio: ["ignore", "ignore", "pipe"],
    })
    try {
      let stderr = ""
      child.stderr.setEncoding("utf8")
      const printed = await new Promise<{ url: string; token: string }>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no token printed:\n${stderr}`)), 20_000)
        child.stderr.on("data", (chunk: string) => {
          stderr += chunk
          const url = /Sextant MCP server on (\S+)/.exec(stderr)?.[1]
          const token = /Authorization: Bearer (\S+)/.exec(stderr)?.[1]
          if (url !== undefined && token !== undefined) {
            clearTimeout(timer)
            resolve({ url, token })
          }
        })
      })
      expect(printed.token).toMatch(/^[A-Za-z0-9_-]{43}$/)
      const refused = await post(printed.url, { host: new URL(printed.url).host })
      expect(refused.status).toBe(401)
      const { client, transport } = await connectClient(printed.url, {
        Authorization: `Bearer ${printed.token}`,
      })
      expect((await client.listTools()).tools.length).toBeGreaterThan(0)
      await transport.terminateSession()
      await client.close()
      expect(stderr.match(new RegExp(printed.token, "g"))).toHaveLength(1)
    } finally {
      child.kill("SIGTERM")
    }
  }, 30_000)
})

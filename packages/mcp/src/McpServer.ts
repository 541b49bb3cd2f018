import { randomUUID } from "node:crypto"
import { createServer as createHttpServer, type Server as HttpServer } from "node:http"
import type { AddressInfo } from "node:net"
import { Server } from "@modelcontextprotocol/sdk/server/index.js"
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js"
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js"
import { CallToolRequestSchema, ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js"
import { makeRulePlanner, type PlannerShape } from "@sextant/planner"
import { type ClientSession, makeClientSession, readSecrets } from "./internal/ClientSession.ts"
import { ServerOptions, type ServerOptionsInput } from "./ServerOptions.ts"
import { listTools, serverTools } from "./ToolList.ts"

/** What the server is told besides its options: who plans `run` goals (the rule planner by default). */
export interface ServerServices {
  readonly planner?: PlannerShape | undefined
}

/** A server bound to one client: the SDK server, and `close` for the client's browser. */
export interface ClientServer {
  readonly server: Server
  readonly session: ClientSession
  readonly close: () => Promise<void>
}

const version = "0.0.0"

/** Checks the options; a mistake names the field (`constraints.quotas.clicks: …`). */
export const decodeServerOptions = (input: ServerOptionsInput): ServerOptions => {
  const parsed = ServerOptions.safeParse(input)
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!
    throw new TypeError(`${issue.path.join(".") || "options"}: ${issue.message}`)
  }
  readSecrets(parsed.data)
  return parsed.data
}

/**
 * Builds the MCP server for one client: the tool list (small on purpose, see `listTools`), argument
 * checks that name the field, and one browser session launched on the first call that needs it.
 *
 * @example
 * ```ts
 * import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js"
 * import { createClientServer } from "@sextant/mcp"
 * const { server, close } = createClientServer({ constraints: { allowedOrigins: ["http://127.0.0.1:4000"] } })
 * server.onclose = () => void close()
 * await server.connect(new StdioServerTransport())
 * ```
 */
export const createClientServer = (
  input: ServerOptionsInput = {},
  services: ServerServices = {},
): ClientServer => {
  const options = decodeServerOptions(input)
  const session = makeClientSession(options, services.planner ?? makeRulePlanner())
  const tools = new Map(serverTools(options).map((tool) => [tool.name, tool]))
  const listed = listTools(options)
  const server = new Server(
    { name: "sextant", version },
    {
      capabilities: { tools: {} },
      instructions: "look gives refs; act on them. Answers list what changed and what is next.",
    },
  )
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: [...listed] }))
  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    const tool = tools.get(request.params.name)
    if (tool === undefined) {
      return {
        content: [
          {
            type: "text",
            text: `no tool ${JSON.stringify(request.params.name)}: use one of ${[...tools.keys()].join(", ")}`,
          },
        ],
        isError: true,
      }
    }
    const parsed = tool.input.safeParse(request.params.arguments ?? {})
    if (!parsed.success) {
      const issues = parsed.error.issues.map(
        (issue) =>
          `${issue.path.length === 0 ? "arguments" : issue.path.join(".")}: ${issue.message}${
            issue.code === "unrecognized_keys" ? ` (${issue.keys.join(", ")})` : ""
          }`,
      )
      return {
        content: [{ type: "text", text: `${tool.name}: invalid arguments: ${issues.join("; ")}` }],
        isError: true,
      }
    }
    const answer = await tool.handle(session, parsed.data)
    return { content: [...answer.content], ...(answer.isError === true ? { isError: true } : {}) }
  })
  let closing: Promise<void> | undefined
  const close = () => {
    closing ??= session.close()
    return closing
  }
  return { server, session, close }
}

/**
 * Serves one client over stdin/stdout; resolves when the client goes, after its browser is closed.
 *
 * @example
 * ```ts
 * import { serveStdio } from "@sextant/mcp"
 * await serveStdio({ constraints: { allowFormSubmission: true }, secrets: ["password"] })
 * ```
 */
export const serveStdio = async (
  input: ServerOptionsInput = {},
  services: ServerServices = {},
): Promise<void> => {
  const { server, close } = createClientServer(input, services)
  const transport = new StdioServerTransport()
  // The client going (stdin ends, the transport closes) or a stop signal all end the session the same
  // way: the browser and every process it started are closed before the server returns.
  const gone = new Promise<void>((resolve) => {
    server.onclose = () => resolve()
    process.stdin.once("end", () => resolve())
    process.once("SIGTERM", () => resolve())
    process.once("SIGINT", () => resolve())
  })
  await server.connect(transport)
  await gone
  await close()
  await server.close().catch(() => undefined)
}

/** A running Streamable HTTP server. */
export interface HttpMcpServer {
  /** The MCP endpoint, `http://127.0.0.1:PORT/mcp`. */
  readonly url: string
  /** Clients connected now. */
  readonly clients: () => number
  /** Stops listening and closes every client's browser. */
  readonly close: () => Promise<void>
}

/**
 * Serves clients over Streamable HTTP on 127.0.0.1 only, one MCP session (and one browser) per client;
 * a session ends, and its browser closes, when the client sends DELETE or the server stops.
 *
 * @example
 * ```ts
 * import { serveHttp } from "@sextant/mcp"
 * const server = await serveHttp({}, { port: 0 })
 * console.log(server.url) // http://127.0.0.1:PORT/mcp
 * ```
 */
export const serveHttp = async (
  input: ServerOptionsInput = {},
  listen: { readonly port?: number } = {},
  services: ServerServices = {},
): Promise<HttpMcpServer> => {
  decodeServerOptions(input)
  const clients = new Map<string, { transport: StreamableHTTPServerTransport; client: ClientServer }>()
  const end = async (id: string) => {
    const entry = clients.get(id)
    if (entry === undefined) return
    clients.delete(id)
    await entry.client.close()
  }
  const http: HttpServer = createHttpServer((request, response) => {
    void (async () => {
      if (new URL(request.url ?? "/", "http://127.0.0.1").pathname !== "/mcp") {
        response.writeHead(404, { "content-type": "text/plain" }).end("the MCP endpoint is /mcp\n")
        return
      }
      const id = request.headers["mcp-session-id"]
      const known = typeof id === "string" ? clients.get(id) : undefined
      if (known !== undefined) {
        await known.transport.handleRequest(request, response)
        return
      }
      if (request.method !== "POST" || id !== undefined) {
        response.writeHead(404, { "content-type": "application/json" }).end(
          JSON.stringify({
            jsonrpc: "2.0",
            error: { code: -32001, message: "unknown session: initialize a new one" },
            id: null,
          }),
        )
        return
      }
      const client = createClientServer(input, services)
      const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        onsessioninitialized: (sessionId) => {
          clients.set(sessionId, { transport, client })
        },
      })
      transport.onclose = () => {
        if (transport.sessionId !== undefined) void end(transport.sessionId)
        else void client.close()
      }
      await client.server.connect(transport)
      await transport.handleRequest(request, response)
    })().catch((error: unknown) => {
      if (!response.headersSent) response.writeHead(500, { "content-type": "text/plain" })
      response.end(`${error instanceof Error ? error.message : String(error)}\n`)
    })
  })
  await new Promise<void>((resolve, reject) => {
    http.once("error", reject)
    http.listen(listen.port ?? 0, "127.0.0.1", () => resolve())
  })
  const { port } = http.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    clients: () => clients.size,
    close: async () => {
      await Promise.all([...clients.keys()].map(end))
      http.closeAllConnections()
      await new Promise<void>((resolve) => http.close(() => resolve()))
    },
  }
}

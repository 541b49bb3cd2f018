import { createHash, randomBytes, randomUUID, timingSafeEqual } from "node:crypto"
import {
  createServer as createHttpServer,
  type Server as HttpServer,
  type IncomingMessage,
  type ServerResponse,
} from "node:http"
import type { AddressInfo } from "node:net"
import { Server } from "@modelcontextprotocol/sdk/server/index.js"
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js"
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js"
import { CallToolRequestSchema, ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js"
import { causeMessage } from "@sextant/core"
import {
  makeRulePlanner,
  makeRuleStepPolicy,
  type PlannerShape,
  type StepPolicyShape,
} from "@sextant/planner"
import { HttpOptions, type HttpOptionsInput, tokenVariable } from "./HttpOptions.ts"
import { type ClientSession, makeClientSession, readSecrets, takeNotices } from "./internal/ClientSession.ts"
import { ServerOptions, type ServerOptionsInput } from "./ServerOptions.ts"
import { listTools, serverTools } from "./ToolList.ts"

/**
 * What the server is told besides its options: who decides the steps of `run` goals. By default the
 * rules decide one step at a time on the page they see (`makeRuleStepPolicy`); a `stepPolicy` (a
 * model's, `makeLlmStepPolicy`) does the same with its own decisions; a `planner` alone makes a whole
 * plan before the run instead.
 */
export interface ServerServices {
  readonly planner?: PlannerShape | undefined
  readonly stepPolicy?: StepPolicyShape | undefined
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
  const session = makeClientSession(
    options,
    services.planner ?? makeRulePlanner(),
    services.stepPolicy ??
      (services.planner === undefined
        ? makeRuleStepPolicy({ loginTool: true, pickDateTool: true })
        : undefined),
  )
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
    // A request the guard blocked during this call (or since the last one) is told in this answer.
    const notices = await takeNotices(session)
    const failed = answer.isError === true || notices.some((notice) => notice.blocked)
    return {
      content: [
        ...answer.content,
        ...notices.map((notice) => ({ type: "text" as const, text: session.redactor.text(notice.text) })),
      ],
      ...(failed ? { isError: true } : {}),
    }
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
  /** The bearer token every request must carry (`Authorization: Bearer <token>`). */
  readonly token: string
  /** Where the token came from: given in the options, read from `SEXTANT_MCP_TOKEN`, or generated at start. */
  readonly tokenSource: "options" | "environment" | "generated"
  /** Clients connected now. */
  readonly clients: () => number
  /** Process ids of the ChromeDriver and Chromium of every open session's browser. */
  readonly browserProcesses: () => ReadonlyArray<number>
  /** Stops listening and closes every client's browser. */
  readonly close: () => Promise<void>
}

/** Checks the HTTP options; a mistake names the field (`idleTimeoutMs: …`). */
export const decodeHttpOptions = (input: HttpOptionsInput): HttpOptions => {
  const parsed = HttpOptions.safeParse(input)
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!
    throw new TypeError(`${issue.path.join(".") || "options"}: ${issue.message}`)
  }
  return parsed.data
}

/** Equal strings, compared in time that does not depend on where they differ (hashes have one length). */
const sameSecret = (given: string, expected: string): boolean =>
  timingSafeEqual(createHash("sha256").update(given).digest(), createHash("sha256").update(expected).digest())

/** A refusal as a one-line JSON-RPC error that says what to do. */
const refuse = (response: ServerResponse, status: 401 | 403 | 404, message: string): void => {
  response
    .writeHead(status, {
      "content-type": "application/json",
      ...(status === 401 ? { "www-authenticate": 'Bearer realm="sextant-mcp"' } : {}),
    })
    .end(`${JSON.stringify({ jsonrpc: "2.0", error: { code: -32001, message }, id: null })}\n`)
}

/**
 * Serves clients over Streamable HTTP on 127.0.0.1 only, one MCP session (and one browser) per client.
 * Every request must name this server in `Host`, come from no browser origin or an allowed one
 * (`Origin`), and carry the bearer token; anything else is refused with 403 or 401 before it reaches a
 * session. A session ends, and its browser closes, when the client sends DELETE, when it has been idle
 * for `idleTimeoutMs`, or when the server stops.
 *
 * @example
 * ```ts
 * import { serveHttp } from "@sextant/mcp"
 * const server = await serveHttp({}, { port: 0 })
 * console.log(server.url, server.token) // connect with Authorization: Bearer <token>
 * ```
 */
export const serveHttp = async (
  input: ServerOptionsInput = {},
  listen: HttpOptionsInput = {},
  services: ServerServices = {},
): Promise<HttpMcpServer> => {
  decodeServerOptions(input)
  const http = decodeHttpOptions(listen)
  const fromEnvironment = process.env[tokenVariable]
  if (http.token === undefined && fromEnvironment !== undefined && fromEnvironment.length < 16)
    throw new TypeError(`${tokenVariable}: use a token of at least 16 characters`)
  const token = http.token ?? fromEnvironment ?? randomBytes(32).toString("base64url")
  const tokenSource =
    http.token !== undefined ? "options" : fromEnvironment !== undefined ? "environment" : "generated"

  interface Entry {
    readonly transport: StreamableHTTPServerTransport
    readonly client: ClientServer
    timer: ReturnType<typeof setTimeout> | undefined
    /** Requests in flight other than the GET stream: a session running a long `run` is not idle. */
    busy: number
  }
  const clients = new Map<string, Entry>()
  const end = async (id: string) => {
    const entry = clients.get(id)
    if (entry === undefined) return
    clients.delete(id)
    clearTimeout(entry.timer)
    await entry.client.close()
    await entry.transport.close().catch(() => undefined)
  }
  const arm = (id: string, entry: Entry) => {
    clearTimeout(entry.timer)
    entry.timer = undefined
    if (entry.busy > 0 || !clients.has(id)) return
    entry.timer = setTimeout(() => void end(id), http.idleTimeoutMs)
    entry.timer.unref()
  }
  /** Counts a request of a session as activity until its response is done. */
  const track = (id: string, entry: Entry, request: IncomingMessage, response: ServerResponse) => {
    clearTimeout(entry.timer)
    entry.timer = undefined
    if (request.method === "GET") {
      arm(id, entry)
      return
    }
    entry.busy++
    response.once("close", () => {
      entry.busy--
      arm(id, entry)
    })
  }

  let hosts: ReadonlyArray<string> = []
  let origins: ReadonlyArray<string> = []
  /** Lets a request through (true), or answers it with 403 or 401 saying what to do (false). */
  const gate = (request: IncomingMessage, response: ServerResponse): boolean => {
    const host = (request.headers.host ?? "").toLowerCase()
    if (!hosts.includes(host)) {
      refuse(
        response,
        403,
        `Host ${JSON.stringify(request.headers.host ?? "")} is not this server: connect to ${url}, or start the server with --allowed-host ${request.headers.host ?? "<host:port>"} (option allowedHosts) if a proxy forwards to it`,
      )
      return false
    }
    const origin = request.headers.origin
    if (origin !== undefined && !origins.includes(origin)) {
      refuse(
        response,
        403,
        `Origin ${JSON.stringify(origin)} may not use this server: only its own origin and ones given with --allowed-origin-header (option allowedOriginHeaders) may`,
      )
      return false
    }
    const authorization = request.headers.authorization ?? ""
    const bearer = /^Bearer\s+(\S+)\s*$/i.exec(authorization)?.[1]
    if (bearer === undefined || !sameSecret(bearer, token)) {
      refuse(
        response,
        401,
        `${bearer === undefined ? "no bearer token" : "wrong bearer token"}: send Authorization: Bearer <token>, the token sextant mcp printed on stderr at start (or set ${tokenVariable} for the server and the client)`,
      )
      return false
    }
    return true
  }

  const server: HttpServer = createHttpServer((request, response) => {
    void (async () => {
      if (!gate(request, response)) return
      if (new URL(request.url ?? "/", "http://127.0.0.1").pathname !== "/mcp") {
        response.writeHead(404, { "content-type": "text/plain" }).end("the MCP endpoint is /mcp\n")
        return
      }
      const id = request.headers["mcp-session-id"]
      const known = typeof id === "string" ? clients.get(id) : undefined
      if (known !== undefined && typeof id === "string") {
        track(id, known, request, response)
        await known.transport.handleRequest(request, response)
        return
      }
      if (request.method !== "POST" || id !== undefined) {
        refuse(response, 404, "unknown session: initialize a new one")
        return
      }
      const client = createClientServer(input, services)
      const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        onsessioninitialized: (sessionId) => {
          const entry: Entry = { transport, client, timer: undefined, busy: 0 }
          clients.set(sessionId, entry)
          track(sessionId, entry, request, response)
        },
        // The gate above has already checked both; the SDK checks them again on every request it handles.
        allowedHosts: [...hosts],
        allowedOrigins: [...origins],
        enableDnsRebindingProtection: true,
      })
      transport.onclose = () => {
        if (transport.sessionId !== undefined) void end(transport.sessionId)
        else void client.close()
      }
      await client.server.connect(transport)
      await transport.handleRequest(request, response)
      if (transport.sessionId === undefined) await client.close()
    })().catch((error: unknown) => {
      if (!response.headersSent) response.writeHead(500, { "content-type": "text/plain" })
      response.end(`${causeMessage(error)}\n`)
    })
  })
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject)
    server.listen(http.port, "127.0.0.1", () => resolve())
  })
  const { port } = server.address() as AddressInfo
  const url = `http://127.0.0.1:${port}/mcp`
  hosts = [
    `127.0.0.1:${port}`,
    `localhost:${port}`,
    `[::1]:${port}`,
    ...http.allowedHosts.map((host) => host.toLowerCase()),
  ]
  origins = [
    `http://127.0.0.1:${port}`,
    `http://localhost:${port}`,
    `http://[::1]:${port}`,
    ...http.allowedOriginHeaders,
  ]
  return {
    url,
    token,
    tokenSource,
    clients: () => clients.size,
    browserProcesses: () => [...clients.values()].flatMap((entry) => entry.client.session.browserProcesses()),
    close: async () => {
      await Promise.all([...clients.keys()].map(end))
      server.closeAllConnections()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    },
  }
}

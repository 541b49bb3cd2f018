import { randomUUID } from "node:crypto"
import type { IncomingMessage, ServerResponse } from "node:http"
import { Effect, type Scope } from "effect"
import { startLoopbackServer } from "../LoopbackServer.ts"
import { completionTokens, promptTokens } from "./internal/Tokens.ts"
import type { ScriptedReply } from "./Reply.ts"

/** One request the server received, as the client sent it. */
export interface RecordedRequest {
  /** 0 for the first request to /chat/completions, counting up. */
  readonly index: number
  readonly method: string
  readonly path: string
  readonly headers: Readonly<Record<string, string | ReadonlyArray<string> | undefined>>
  /** The parsed JSON body (`undefined` when it did not parse). */
  readonly body: Record<string, unknown> | undefined
  readonly model: string | undefined
  readonly messages: ReadonlyArray<{ readonly role: string; readonly content: unknown }>
  /** All message text joined with newlines, for `expect(request.text).toContain("…")`. */
  readonly text: string
  /** How many image parts the messages carried. */
  readonly images: number
  readonly stream: boolean
  /** The request's `response_format`, when it asked for one. */
  readonly responseFormat: unknown
  readonly receivedAt: number
  /** The HTTP status the server answered with (0 until it answered). */
  status: number
  /** True when the client hung up before the answer was sent (a timeout or a cancellation). */
  aborted: boolean
}

/** A reply chosen by code: look at the request (and its position) and answer. */
export type ReplyFunction = (request: RecordedRequest) => ScriptedReply | Promise<ScriptedReply>

export interface OpenAiServerOptions {
  /** The replies, in order (one per chat call), or a function of each request. */
  readonly replies?: ReadonlyArray<ScriptedReply> | ReplyFunction
  /** The model name the server reports (default `sextant-test-model`). */
  readonly model?: string
  /** When set, requests without `Authorization: Bearer <apiKey>` get 401. */
  readonly apiKey?: string
  /** Port to listen on (default 0: any free port). The host is always 127.0.0.1. */
  readonly port?: number
  /** Characters per streamed chunk (default 16). */
  readonly streamChunkSize?: number
}

/** A running scripted server. */
export interface OpenAiServer {
  /** The base URL to give an OpenAI client, ending in `/v1`. */
  readonly baseURL: string
  readonly port: number
  /** Every chat request received, in order. */
  readonly requests: ReadonlyArray<RecordedRequest>
  /** Queues more replies (only when the server was started with a list). */
  readonly push: (...replies: ReadonlyArray<ScriptedReply>) => void
  /** Replies still queued. */
  readonly remaining: () => number
  /** Stops the server and drops open connections. */
  readonly close: () => Promise<void>
  readonly [Symbol.asyncDispose]: () => Promise<void>
}

const textOf = (content: unknown): { readonly text: string; readonly images: number } => {
  if (typeof content === "string") return { text: content, images: 0 }
  if (!Array.isArray(content)) return { text: "", images: 0 }
  const texts: Array<string> = []
  let images = 0
  for (const part of content as ReadonlyArray<{ type?: unknown; text?: unknown }>) {
    if (part.type === "text" && typeof part.text === "string") texts.push(part.text)
    else if (part.type === "image_url") images++
  }
  return { text: texts.join("\n"), images }
}

const readBody = (request: IncomingMessage): Promise<string> =>
  new Promise((resolve, reject) => {
    const chunks: Array<Buffer> = []
    request.on("data", (chunk: Buffer) => chunks.push(chunk))
    request.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")))
    request.on("error", reject)
  })

const sendJson = (
  response: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
) => {
  response.writeHead(status, { "content-type": "application/json", ...headers })
  response.end(JSON.stringify(body))
}

const errorBody = (message: string, type: string, code: string | null = null) => ({
  error: { message, type, param: null, code },
})

/** Waits `ms`, or less when the client hangs up first. */
const waitUnlessClosed = (response: ServerResponse, ms: number): Promise<void> =>
  new Promise((resolve) => {
    if (ms <= 0) return resolve()
    const timer = setTimeout(done, ms)
    response.once("close", done)
    function done() {
      clearTimeout(timer)
      response.off("close", done)
      resolve()
    }
  })

/**
 * Starts a real OpenAI-compatible HTTP server on 127.0.0.1 with scripted replies, for tests that drive
 * the real `openai` SDK (or any OpenAI-compatible client) without a real model.
 *
 * - `POST /v1/chat/completions`, JSON and streaming (SSE, with `stream_options.include_usage`), with
 *   `usage` counted with the o200k tokenizer (3 tokens of framing per message, 3 to prime the reply,
 *   85 per image).
 * - `GET /v1/models` lists the configured model.
 * - Every chat request is recorded in `requests` (parsed body, joined message text, whether the client
 *   hung up), so tests can assert what the prompt contained.
 * - Replies come from a queue (`replies: [...]`) or a function of the request. An empty queue answers
 *   400 `script_exhausted`, so a test that makes more calls than it scripted fails loudly.
 *
 * @example
 * ```ts
 * import OpenAI from "openai"
 * import { Reply, startOpenAiServer } from "@sextant/testing"
 * await using server = await startOpenAiServer({ replies: [Reply.json({ ok: true })] })
 * const client = new OpenAI({ baseURL: server.baseURL, apiKey: "test" })
 * const completion = await client.chat.completions.create({ model: "m", messages: [{ role: "user", content: "hi" }] })
 * completion.choices[0]?.message.content // '{"ok":true}'
 * server.requests[0]?.text // "hi"
 * ```
 */
export const startOpenAiServer = async (options: OpenAiServerOptions = {}): Promise<OpenAiServer> => {
  const model = options.model ?? "sextant-test-model"
  const chunkSize = options.streamChunkSize ?? 16
  const script = options.replies
  const queue: Array<ScriptedReply> = typeof script === "function" ? [] : [...(script ?? [])]
  const requests: Array<RecordedRequest> = []

  const nextReply = async (recorded: RecordedRequest): Promise<ScriptedReply> => {
    if (typeof script === "function") return script(recorded)
    const reply = queue.shift()
    if (reply !== undefined) return reply
    return {
      kind: "error",
      status: 400,
      type: "script_exhausted",
      message: `the scripted server has no reply left for chat request #${recorded.index}: add more replies to startOpenAiServer`,
    }
  }

  const answerChat = async (request: IncomingMessage, response: ServerResponse, path: string) => {
    const raw = await readBody(request)
    let body: Record<string, unknown> | undefined
    try {
      const parsed: unknown = JSON.parse(raw)
      body = typeof parsed === "object" && parsed !== null ? (parsed as Record<string, unknown>) : undefined
    } catch {
      body = undefined
    }
    const messages = Array.isArray(body?.messages)
      ? (body.messages as ReadonlyArray<{ role: string; content: unknown }>)
      : []
    const parts = messages.map((message) => textOf(message.content))
    const recorded: RecordedRequest = {
      index: requests.length,
      method: request.method ?? "POST",
      path,
      headers: { ...request.headers },
      body,
      model: typeof body?.model === "string" ? body.model : undefined,
      messages,
      text: parts.map((part) => part.text).join("\n"),
      images: parts.reduce((sum, part) => sum + part.images, 0),
      stream: body?.stream === true,
      responseFormat: body?.response_format,
      receivedAt: Date.now(),
      status: 0,
      aborted: false,
    }
    requests.push(recorded)
    response.on("close", () => {
      if (!response.writableFinished) recorded.aborted = true
    })

    if (options.apiKey !== undefined && request.headers.authorization !== `Bearer ${options.apiKey}`) {
      recorded.status = 401
      return sendJson(
        response,
        401,
        errorBody("Incorrect API key provided", "invalid_request_error", "invalid_api_key"),
      )
    }
    if (body === undefined || messages.length === 0) {
      recorded.status = 400
      return sendJson(
        response,
        400,
        errorBody("the body must be JSON with a non-empty 'messages' list", "invalid_request_error"),
      )
    }

    const reply = await nextReply(recorded)
    await waitUnlessClosed(response, reply.delayMs ?? 0)
    if (response.destroyed || response.writableEnded) return

    if (reply.kind === "error") {
      recorded.status = reply.status
      const headers: Record<string, string> =
        reply.retryAfterSeconds === undefined ? {} : { "retry-after": String(reply.retryAfterSeconds) }
      return sendJson(response, reply.status, errorBody(reply.message, reply.type ?? "api_error"), headers)
    }
    if (reply.kind === "raw") {
      recorded.status = 200
      response.writeHead(200, { "content-type": reply.contentType ?? "application/json" })
      return response.end(reply.body)
    }

    const prompt = reply.usage?.prompt ?? promptTokens(messages)
    const completion = reply.usage?.completion ?? completionTokens(reply.content)
    const usage = { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion }
    const id = `chatcmpl-${randomUUID()}`
    const created = Math.floor(Date.now() / 1000)
    const finishReason = reply.finishReason ?? "stop"
    const modelName = recorded.model ?? model
    recorded.status = 200

    if (!recorded.stream) {
      return sendJson(response, 200, {
        id,
        object: "chat.completion",
        created,
        model: modelName,
        choices: [
          {
            index: 0,
            message: { role: "assistant", content: reply.content, refusal: null },
            finish_reason: finishReason,
            logprobs: null,
          },
        ],
        ...(reply.omitUsage === true ? {} : { usage }),
      })
    }

    response.writeHead(200, {
      "content-type": "text/event-stream",
      "cache-control": "no-cache",
      connection: "keep-alive",
    })
    const chunk = (choices: ReadonlyArray<unknown>, extra: Record<string, unknown> = {}) =>
      response.write(
        `data: ${JSON.stringify({ id, object: "chat.completion.chunk", created, model: modelName, choices, ...extra })}\n\n`,
      )
    chunk([{ index: 0, delta: { role: "assistant", content: "" }, finish_reason: null }])
    for (let start = 0; start < reply.content.length; start += chunkSize) {
      chunk([
        { index: 0, delta: { content: reply.content.slice(start, start + chunkSize) }, finish_reason: null },
      ])
    }
    chunk([{ index: 0, delta: {}, finish_reason: finishReason }])
    const streamOptions = body.stream_options as { include_usage?: unknown } | undefined
    if (streamOptions?.include_usage === true && reply.omitUsage !== true) chunk([], { usage })
    response.end("data: [DONE]\n\n")
  }

  const server = await startLoopbackServer(
    (request, response) => {
      const path = new URL(request.url ?? "/", "http://127.0.0.1").pathname.replace(/\/+$/, "")
      const handle = async () => {
        if (request.method === "POST" && (path === "/v1/chat/completions" || path === "/chat/completions")) {
          return answerChat(request, response, path)
        }
        if (request.method === "GET" && (path === "/v1/models" || path === "/models")) {
          return sendJson(response, 200, {
            object: "list",
            data: [{ id: model, object: "model", created: 0, owned_by: "sextant-testing" }],
          })
        }
        sendJson(response, 404, errorBody(`no route for ${request.method} ${path}`, "invalid_request_error"))
      }
      handle().catch((error: unknown) => {
        if (!response.headersSent) sendJson(response, 500, errorBody(String(error), "server_error"))
        else response.destroy()
      })
    },
    options.port === undefined ? {} : { port: options.port },
  )
  const { port, close } = server
  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    port,
    requests,
    push: (...replies) => {
      if (typeof script === "function") {
        throw new TypeError("push: this server answers with a reply function, not a queue")
      }
      queue.push(...replies)
    },
    remaining: () => queue.length,
    close,
    [Symbol.asyncDispose]: close,
  }
}

/**
 * The scripted server as a scoped Effect resource: it closes when the scope does.
 *
 * @example
 * ```ts
 * import { Effect } from "effect"
 * import { Reply, openAiServer } from "@sextant/testing"
 * const program = Effect.scoped(Effect.gen(function* () {
 *   const server = yield* openAiServer({ replies: [Reply.text("hello")] })
 *   return server.baseURL
 * }))
 * ```
 */
export const openAiServer = (
  options: OpenAiServerOptions = {},
): Effect.Effect<OpenAiServer, never, Scope.Scope> =>
  Effect.acquireRelease(Effect.orDie(Effect.tryPromise(() => startOpenAiServer(options))), (server) =>
    Effect.orDie(Effect.tryPromise(() => server.close())),
  )

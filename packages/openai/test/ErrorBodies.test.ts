import { createServer, type Server, type Socket } from "node:net"
import { describe, expect, it } from "@effect/vitest"
import type { LlmError } from "@sextant/core"
import { type LoopbackServer, startLoopbackServer } from "@sextant/testing"
import { Effect } from "effect"
import { type ModelAttempt, make, type OpenAiOptionsInput } from "../src/index.ts"
import { summarizeBody } from "../src/internal/errors.ts"

const hello = { messages: [{ role: "user" as const, content: "Say hello" }] }

// A web server's own 404 page, as a wrong base URL (a missing /v1, another port) gets it.
const NOT_FOUND_PAGE = `<!DOCTYPE html>
<html><head><meta charset="utf-8"><title>404 Not Found &ndash; nginx</title>
<style>body { font-family: sans-serif }</style></head>
<body><h1>Not Found</h1><p>The requested URL was not found on this server.</p>${"<p>filler</p>".repeat(400)}</body></html>`

/** An HTTP server answering every request with `status`, `body` and `contentType`. */
const answering = (status: number, body: string, contentType: string) =>
  Effect.acquireRelease(
    Effect.promise(() =>
      startLoopbackServer((_request, response) => {
        response.writeHead(status, { "content-type": contentType })
        response.end(body)
      }),
    ),
    (server: LoopbackServer) => Effect.promise(() => server.close()),
  )

/** A TCP server that accepts connections and never answers: a hung model endpoint. */
const silent = Effect.acquireRelease(
  Effect.promise(
    () =>
      new Promise<{ server: Server; sockets: Set<Socket>; url: string }>((resolve) => {
        const sockets = new Set<Socket>()
        const server = createServer((socket) => {
          sockets.add(socket)
          socket.on("close", () => sockets.delete(socket))
        })
        server.listen(0, "127.0.0.1", () => {
          const address = server.address() as { port: number }
          resolve({ server, sockets, url: `http://127.0.0.1:${address.port}/v1` })
        })
      }),
  ),
  ({ server, sockets }) =>
    Effect.promise(
      () =>
        new Promise<void>((resolve) => {
          for (const socket of sockets) socket.destroy()
          server.close(() => resolve())
        }),
    ),
)

const failure = (options: OpenAiOptionsInput) =>
  Effect.flatMap(make({ retryBaseDelayMs: 10, ...options }), (model) => Effect.flip(model.generate(hello)))

describe("summarizeBody", () => {
  it("gives an HTML page's title, its entities read", () => {
    expect(summarizeBody(NOT_FOUND_PAGE)).toBe("404 Not Found – nginx")
  })

  it("gives an HTML page without a title its first text, without scripts or styles", () => {
    expect(
      summarizeBody(
        "<html><head><style>p{}</style><script>var x = 1</script></head><body><h1>Bad Gateway</h1><p>upstream down</p></body></html>",
      ),
    ).toBe("Bad Gateway upstream down")
  })

  it("cuts a long plain body to one line of 160 characters", () => {
    const summary = summarizeBody(`no such route\n${"x".repeat(500)}`)
    expect(summary).not.toContain("\n")
    expect(summary).toHaveLength(160)
    expect(summary.startsWith("no such route x")).toBe(true)
    expect(summary.endsWith("…")).toBe(true)
  })

  it("says an empty body is empty", () => {
    expect(summarizeBody("  ")).toBe("an empty body")
  })
})

describe("model endpoint errors through the openai SDK", () => {
  it.live("a 404 HTML page is one line: its title, and a hint that names the base URL", () =>
    Effect.gen(function* () {
      const server = yield* answering(404, NOT_FOUND_PAGE, "text/html")
      const baseURL = `${server.url}/v2`
      const error = yield* failure({ baseURL, apiKey: "key", model: "gpt-4o-mini" })
      expect(error.reason._tag).toBe("LlmRequestRejected")
      expect(error.message).toBe(
        `LanguageModel.generate: the model endpoint rejected the request with HTTP 404 (404 Not Found – nginx): check the base URL ${baseURL}: nothing answers at ${baseURL}/chat/completions (OpenAI-compatible servers usually end in /v1)`,
      )
      expect(error.message).not.toContain("<")
    }).pipe(Effect.scoped),
  )

  it.live("a 404 in JSON (an unknown model) names the model", () =>
    Effect.gen(function* () {
      const server = yield* answering(
        404,
        JSON.stringify({
          error: {
            message: "The model `gpt-9` does not exist",
            type: "invalid_request_error",
            code: "model_not_found",
          },
        }),
        "application/json",
      )
      const error = yield* failure({ baseURL: `${server.url}/v1`, apiKey: "key", model: "gpt-9" })
      expect(error.message).toContain("(invalid_request_error: The model `gpt-9` does not exist)")
      expect(error.message).toContain(
        `check the model name gpt-9: the endpoint ${server.url}/v1 does not know it`,
      )
    }).pipe(Effect.scoped),
  )

  it.live("a 401 names the variable the key came from", () =>
    Effect.gen(function* () {
      const server = yield* answering(
        401,
        JSON.stringify({ error: { message: "Invalid API key", type: "invalid_api_key" } }),
        "application/json",
      )
      const error = yield* failure({
        baseURL: `${server.url}/v1`,
        apiKey: "wrong",
        model: "llama",
        apiKeyVariable: "GROQ_API_KEY",
      })
      expect(error.message).toContain(
        `(invalid_api_key: Invalid API key): check the API key in GROQ_API_KEY (the endpoint ${server.url}/v1 refused it)`,
      )
    }).pipe(Effect.scoped),
  )

  it.live(
    "an endpoint that never answers fails after 1 + maxRetries attempts of timeoutMs, each one heard",
    () =>
      Effect.gen(function* () {
        const endpoint = yield* silent
        const heard: Array<ModelAttempt> = []
        const started = Date.now()
        const error: LlmError = yield* failure({
          baseURL: endpoint.url,
          apiKey: "key",
          model: "slow",
          timeoutMs: 300,
          maxRetries: 1,
          onAttempt: (attempt) => heard.push(attempt),
        })
        const elapsed = Date.now() - started
        expect(error.reason._tag).toBe("Timeout")
        expect(error.message).toBe(
          `LanguageModel.generate: the model call did not finish within 300 ms: check that ${endpoint.url} is up and serves the model slow, or raise the timeout (timeoutMs, SEXTANT_LLM_TIMEOUT_MS) or use a faster model`,
        )
        expect(heard.map(({ phase, attempt, attempts }) => `${phase} ${attempt}/${attempts}`)).toEqual([
          "start 1/2",
          "failed 1/2",
          "start 2/2",
          "failed 2/2",
        ])
        expect(heard.every((attempt) => attempt.baseURL === endpoint.url && attempt.timeoutMs === 300)).toBe(
          true,
        )
        expect(elapsed).toBeGreaterThanOrEqual(600)
        expect(elapsed).toBeLessThan(5_000)
      }).pipe(Effect.scoped),
  )
})

import { afterEach, describe, expect, it } from "@effect/vitest"
import { countTokens } from "gpt-tokenizer/encoding/o200k_base"
import OpenAI, { APIConnectionTimeoutError, type APIError, InternalServerError, RateLimitError } from "openai"
import { type OpenAiServer, Reply, type ScriptedReply, startOpenAiServer } from "../../src/index.ts"

const servers: Array<OpenAiServer> = []
const start = async (
  replies: ReadonlyArray<ScriptedReply> | Parameters<typeof startOpenAiServer>[0] = [],
) => {
  const server = await startOpenAiServer(Array.isArray(replies) ? { replies } : (replies as object))
  servers.push(server)
  return server
}
const clientOf = (server: OpenAiServer, options: { timeout?: number } = {}) =>
  new OpenAI({ baseURL: server.baseURL, apiKey: "test-key", maxRetries: 0, ...options })

afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()))
})

describe("startOpenAiServer", () => {
  it("answers a chat completion with the scripted text and counts tokens with o200k", async () => {
    const server = await start([Reply.json({ answer: 42 })])
    const completion = await clientOf(server).chat.completions.create({
      model: "gpt-test",
      messages: [
        { role: "system", content: "You are terse." },
        { role: "user", content: "What is six times seven?" },
      ],
    })
    expect(completion.choices[0]?.message.content).toBe('{"answer":42}')
    expect(completion.model).toBe("gpt-test")
    const expectedPrompt =
      3 +
      (3 + countTokens("system") + countTokens("You are terse.")) +
      (3 + countTokens("user") + countTokens("What is six times seven?"))
    expect(completion.usage).toEqual({
      prompt_tokens: expectedPrompt,
      completion_tokens: countTokens('{"answer":42}'),
      total_tokens: expectedPrompt + countTokens('{"answer":42}'),
    })
  })

  it("records every request so tests can assert what the prompt contained", async () => {
    const server = await start([Reply.text("one"), Reply.text("two")])
    const client = clientOf(server)
    await client.chat.completions.create({
      model: "m",
      messages: [{ role: "user", content: "first prompt" }],
    })
    await client.chat.completions.create({
      model: "m",
      messages: [
        {
          role: "user",
          content: [
            { type: "text", text: "look at this" },
            { type: "image_url", image_url: { url: "data:image/png;base64,iVBORw0KGgo=" } },
          ],
        },
      ],
      response_format: { type: "json_object" },
    })
    expect(server.requests.map((request) => request.text)).toEqual(["first prompt", "look at this"])
    expect(server.requests[1]?.images).toBe(1)
    expect(server.requests[1]?.responseFormat).toEqual({ type: "json_object" })
    expect(server.requests[0]?.headers.authorization).toBe("Bearer test-key")
    expect(server.remaining()).toBe(0)
  })

  it("streams the reply as server-sent events with a final usage chunk", async () => {
    const content = "a streamed answer that spans several chunks"
    const server = await start({ replies: [Reply.text(content)], streamChunkSize: 5 })
    const stream = await clientOf(server).chat.completions.create({
      model: "m",
      messages: [{ role: "user", content: "stream please" }],
      stream: true,
      stream_options: { include_usage: true },
    })
    let text = ""
    let deltas = 0
    let usage: OpenAI.CompletionUsage | undefined
    for await (const chunk of stream) {
      const delta = chunk.choices[0]?.delta.content
      if (delta) {
        text += delta
        deltas++
      }
      if (chunk.usage) usage = chunk.usage
    }
    expect(text).toBe(content)
    expect(deltas).toBe(Math.ceil(content.length / 5))
    expect(usage?.completion_tokens).toBe(countTokens(content))
    expect(server.requests[0]?.stream).toBe(true)
  })

  it("lists the configured model", async () => {
    const server = await start({ model: "local-llama" })
    const models = await clientOf(server).models.list()
    expect(models.data.map((entry) => entry.id)).toEqual(["local-llama"])
  })

  it("answers 429 with Retry-After and 5xx when scripted", async () => {
    const server = await start([Reply.rateLimited(7), Reply.serverError(503)])
    const client = clientOf(server)
    const ask = () =>
      client.chat.completions.create({ model: "m", messages: [{ role: "user", content: "x" }] })
    const limited = await ask().catch((error: unknown) => error)
    expect(limited).toBeInstanceOf(RateLimitError)
    expect((limited as RateLimitError).headers.get("retry-after")).toBe("7")
    const failed = await ask().catch((error: unknown) => error)
    expect(failed).toBeInstanceOf(InternalServerError)
    expect((failed as InternalServerError).status).toBe(503)
  })

  it("delays a reply past the client timeout and records that the client hung up", async () => {
    const server = await start([Reply.delayed(2_000, Reply.text("too late"))])
    const error = await clientOf(server, { timeout: 200 })
      .chat.completions.create({ model: "m", messages: [{ role: "user", content: "x" }] })
      .catch((caught: unknown) => caught)
    // The reply would have come (and the call succeeded) had the client waited past its 200 ms.
    expect(error).toBeInstanceOf(APIConnectionTimeoutError)
    await expect.poll(() => server.requests[0]?.aborted).toBe(true)
  })

  it("sends malformed JSON and fenced JSON verbatim", async () => {
    const server = await start([Reply.malformed(), Reply.fenced({ steps: [] })])
    const client = clientOf(server)
    const ask = async () =>
      (await client.chat.completions.create({ model: "m", messages: [{ role: "user", content: "x" }] }))
        .choices[0]?.message.content ?? ""
    const malformed = await ask()
    expect(() => JSON.parse(malformed)).toThrow()
    const fenced = await ask()
    expect(fenced).toContain('```json\n{\n  "steps": []\n}\n```')
  })

  it("answers with a function of the request", async () => {
    const server = await start({
      replies: (request) => Reply.text(`echo #${request.index}: ${request.text}`),
    })
    const client = clientOf(server)
    const first = await client.chat.completions.create({
      model: "m",
      messages: [{ role: "user", content: "ping" }],
    })
    const second = await client.chat.completions.create({
      model: "m",
      messages: [{ role: "user", content: "pong" }],
    })
    expect(first.choices[0]?.message.content).toBe("echo #0: ping")
    expect(second.choices[0]?.message.content).toBe("echo #1: pong")
  })

  it("fails loudly when the script runs out and when the key is wrong", async () => {
    const exhausted = await start([])
    const error = (await clientOf(exhausted)
      .chat.completions.create({ model: "m", messages: [{ role: "user", content: "x" }] })
      .catch((caught: unknown) => caught)) as APIError
    expect(error.status).toBe(400)
    expect(error.message).toContain("no reply left for chat request #0")

    const guarded = await start({ replies: [Reply.text("secret")], apiKey: "right-key" })
    const rejected = (await clientOf(guarded)
      .chat.completions.create({ model: "m", messages: [{ role: "user", content: "x" }] })
      .catch((caught: unknown) => caught)) as APIError
    expect(rejected.status).toBe(401)
  })

  it("stops listening on close", async () => {
    const server = await start([Reply.text("x")])
    await server.close()
    const error = await clientOf(server)
      .models.list()
      .catch((caught: unknown) => caught)
    expect(error).toBeInstanceOf(OpenAI.APIConnectionError)
  })
})

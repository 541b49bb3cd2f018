import { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js"
import type { HttpMcpServer } from "../../src/index.ts"

/** A tool's answer as the SDK client hands it over: text blocks, or an image block's base64 `data`. */
export type Answer = { content: Array<{ type: string; text?: string; data?: string }>; isError?: boolean }

/** The text blocks of an answer, one per line. */
export const textOf = (answer: Answer): string => answer.content.map((block) => block.text ?? "").join("\n")

/**
 * An MCP SDK client connected to `server` over streamable HTTP with its bearer token, `call` for one
 * tool call, and `refOf` for the ref of the first outline line a fresh interactive look shows matching
 * `pattern` (it throws with the whole outline when none does).
 */
export const connectClient = async (server: HttpMcpServer) => {
  const transport = new StreamableHTTPClientTransport(new URL(server.url), {
    requestInit: { headers: { Authorization: `Bearer ${server.token}` } },
  })
  const client = new Client({ name: "sextant-test", version: "0.0.0" })
  await client.connect(transport)
  const call = async (name: string, args: Record<string, unknown> = {}) =>
    (await client.callTool({ name, arguments: args })) as Answer
  const refOf = async (pattern: RegExp) => {
    const looked = textOf(await call("look", { mode: "interactive" }))
    const ref = looked
      .split("\n")
      .find((line) => pattern.test(line))
      ?.match(/^(e\d+) /)?.[1]
    if (ref === undefined) throw new Error(`no ${pattern} in the outline:\n${looked}`)
    return ref
  }
  return { client, transport, call, refOf }
}

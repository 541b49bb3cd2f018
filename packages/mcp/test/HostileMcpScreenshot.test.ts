import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest"
import { type HttpMcpServer, serveHttp } from "../src/index.ts"
import { connectClient, textOf } from "./support/HttpClient.ts"

/**
 * `screenshot` hands the MCP client (the model) an image, which the redactor cannot read. A page that
 * shows a typed secret as text (a "show password" field, a plain text field, a greeting that echoes it)
 * must not put it in that image. Two secrets of the same length go into two identical fields that the
 * page echoes into two identical buttons: drawn masked, each pair renders to the same pixels; drawn as
 * text, the different characters make the images differ.
 */

// Same length, no character in common: as text they can never render to the same pixels.
const FIRST = "hunter2-swordfish"
const SECOND = "QWXZVB7@KMPLNRJGY"

const field =
  "width:260px;height:28px;padding:2px;margin:0;border:1px solid #000;outline:none;caret-color:transparent;font:16px monospace;color:#000;background:#fff"
const echo =
  "width:260px;height:28px;padding:2px;margin:0;border:1px solid #000;outline:none;font:16px monospace;color:#000;background:#fff;text-align:left"

const page = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Tokens</title></head><body>
<h1>Tokens</h1>
<input type="password" id="first" aria-label="First token" style="position:absolute;left:10px;top:100px;${field}">
<button type="button" id="first-echo" style="position:absolute;left:10px;top:150px;${echo}">First echo</button>
<input type="password" id="second" aria-label="Second token" style="position:absolute;left:10px;top:200px;${field}">
<button type="button" id="second-echo" style="position:absolute;left:10px;top:250px;${echo}">Second echo</button>
<script>
// Once something is typed, the page shows it: the field turns to text (a "show password" toggle)
// and a greeting echoes it.
for (const id of ["first", "second"]) {
  document.getElementById(id).addEventListener("input", (event) => {
    event.target.type = "text"
    document.getElementById(id + "-echo").textContent = event.target.value
  })
}
</script></body></html>`

// The same page, locking its styles down once something is typed: nothing can be drawn masked on it.
const lockedPage = page.replace(
  "</script></body>",
  `document.getElementById("first").addEventListener("input", () => {
  CSSStyleDeclaration.prototype.setProperty = function () {
    throw new TypeError("styles are locked on this page")
  }
})
</script></body>`,
)

// The same page, making styles a silent no-op once something is typed: no error, and nothing masked.
const noopPage = page.replace(
  "</script></body>",
  `document.getElementById("first").addEventListener("input", () => {
  CSSStyleDeclaration.prototype.setProperty = function () {}
})
</script></body>`,
)

let site: { url: string; server: Server }
const servers: Array<HttpMcpServer> = []

beforeAll(async () => {
  const server = createServer((request, response) => {
    response.writeHead(200, { "content-type": "text/html; charset=utf-8", "cache-control": "no-store" })
    response.end(request.url === "/locked" ? lockedPage : request.url === "/noop" ? noopPage : page)
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()))
  site = { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server }
}, 60_000)

afterAll(async () => {
  await Promise.all(servers.map((server) => server.close()))
  site?.server.closeAllConnections()
  await new Promise<void>((resolve) => (site ? site.server.close(() => resolve()) : resolve()))
})

// Each test's servers close when it ends, giving the worker's shared Chromium back for the next one.
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()))
})

/** A server whose session takes the worker's shared Chromium (`shareBrowser`), and a client on it. */
const connect = async () => {
  const server = await serveHttp({
    shareBrowser: true,
    secrets: ["first", "second"],
    secretValues: { first: FIRST, second: SECOND },
    constraints: { allowedOrigins: [site.url] },
    secretOrigins: [site.url],
  })
  servers.push(server)
  const { call, refOf } = await connectClient(server)
  /** The PNG of one ref, as base64. */
  const shot = async (ref: string) => {
    const answer = await call("screenshot", { ref })
    expect(answer.isError, textOf(answer)).toBeUndefined()
    const image = answer.content.find((block) => block.type === "image")?.data
    expect(image?.length ?? 0).toBeGreaterThan(100)
    return image!
  }
  return { call, refOf, shot }
}

describe("screenshot in a session with secrets", () => {
  it("draws a typed secret masked, in its field and where the page echoes it as text", async () => {
    const { call, refOf, shot } = await connect()
    expect((await call("go", { url: site.url })).isError).toBeUndefined()
    const first = await refOf(/^e\d+ (textbox|password) First token/)
    const second = await refOf(/^e\d+ (textbox|password) Second token/)
    const typedFirst = await call("act", { ref: first, op: "input", value: "<secret:first>" })
    expect(typedFirst.isError, textOf(typedFirst)).toBeUndefined()
    const typedSecond = await call("act", { ref: second, op: "input", value: "<secret:second>" })
    expect(typedSecond.isError, textOf(typedSecond)).toBeUndefined()
    const firstEcho = await refOf(/^e\d+ button/)
    const looked = textOf(await call("look", { mode: "interactive" }))
    const echoes = looked
      .split("\n")
      .filter((line) => / button /.test(line))
      .map((line) => line.match(/^(e\d+) /)?.[1])
    expect(echoes).toHaveLength(2)
    expect(echoes[0]).toBe(firstEcho)

    // Each field holds a different secret: only masked do they draw the same.
    expect(await shot(first)).toBe(await shot(second))
    // Each button's text is a different secret the page echoed: only masked do they draw the same.
    expect(await shot(echoes[0]!)).toBe(await shot(echoes[1]!))
    // The answers themselves never carry a secret.
    expect(looked).not.toContain(FIRST)
    expect(looked).not.toContain(SECOND)
  }, 90_000)
})

describe("screenshot in a session with secrets, of a page that cannot be masked", () => {
  it("answers an error saying why and what to do, and no image", async () => {
    const { call, refOf } = await connect()
    expect((await call("go", { url: `${site.url}/locked` })).isError).toBeUndefined()
    const first = await refOf(/^e\d+ (textbox|password) First token/)
    const typed = await call("act", { ref: first, op: "input", value: "<secret:first>" })
    expect(typed.isError, textOf(typed)).toBeUndefined()
    // The page does show the secret: its field turned to text and the button echoes it.
    expect(textOf(await call("look", { mode: "interactive" }))).toContain("<secret:first>")

    const answer = await call("screenshot", {})
    expect(answer.isError).toBe(true)
    expect(answer.content.filter((block) => block.type === "image")).toEqual([])
    expect(textOf(answer)).toContain("no screenshot taken")
    expect(textOf(answer)).toContain("styles are locked on this page")
    expect(textOf(answer)).toContain("read the page with look instead")
    expect(textOf(answer)).not.toContain(FIRST)
  }, 90_000)
})

describe("screenshot of a page that silently undoes the masking", () => {
  it("takes no image when a masked field still draws its text, and says so", async () => {
    const { call, refOf } = await connect()
    expect((await call("go", { url: `${site.url}/noop` })).isError).toBeUndefined()
    const first = await refOf(/^e\d+ (textbox|password) First token/)
    const typed = await call("act", { ref: first, op: "input", value: "<secret:first>" })
    expect(typed.isError, textOf(typed)).toBeUndefined()
    const answer = await call("screenshot", {})
    expect(answer.isError).toBe(true)
    expect(answer.content.filter((block) => block.type === "image")).toEqual([])
    expect(textOf(answer)).toContain("still draw their text")
    expect(textOf(answer)).not.toContain(FIRST)
  }, 90_000)
})

describe("screenshot in a session with no secrets", () => {
  it("draws a value typed into a plain text field masked all the same", async () => {
    const server = await serveHttp({ shareBrowser: true, constraints: { allowedOrigins: [site.url] } })
    servers.push(server)
    const { call, refOf } = await connectClient(server)
    expect((await call("go", { url: site.url })).isError).toBeUndefined()
    const first = await refOf(/^e\d+ (textbox|password) First token/)
    const second = await refOf(/^e\d+ (textbox|password) Second token/)
    // The page turns each field to a plain text field once something is typed into it.
    expect((await call("act", { ref: first, op: "input", value: FIRST })).isError).toBeUndefined()
    expect((await call("act", { ref: second, op: "input", value: SECOND })).isError).toBeUndefined()
    const image = async (ref: string) => {
      const answer = await call("screenshot", { ref })
      expect(answer.isError, textOf(answer)).toBeUndefined()
      return answer.content.find((block) => block.type === "image")?.data
    }
    // Each field holds a different value: only masked do they draw the same.
    expect(await image(first)).toBe(await image(second))
  }, 90_000)
})

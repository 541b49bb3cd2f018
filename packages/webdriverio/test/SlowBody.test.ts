import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { launchPageAgent, type PageAgent } from "../src/index.ts"

// A suggestion box that renders from response.json() of an answer whose headers come at once and
// whose body comes 400 ms later: the fetch itself resolves long before the page can render.
const PAGE = `<!doctype html><title>Slow body</title>
<label>Find <input id="q"></label><ul id="list" role="listbox" aria-label="Suggestions"></ul>
<script>
document.getElementById("q").addEventListener("input", (event) => {
  fetch("/suggest?q=" + encodeURIComponent(event.target.value))
    .then((response) => response.json())
    .then((body) => {
      document.getElementById("list").replaceChildren(...body.map((name) => {
        const item = document.createElement("li")
        item.setAttribute("role", "option")
        item.textContent = name
        return item
      }))
    })
})
</script>`

let server: Server
let url: string
let agent: PageAgent

beforeAll(async () => {
  server = createServer((request, response) => {
    if (request.url?.startsWith("/suggest")) {
      response.writeHead(200, { "content-type": "application/json" })
      response.flushHeaders()
      setTimeout(() => response.end(JSON.stringify(["Oak desk", "Oak shelf"])), 400)
      return
    }
    response.writeHead(200, { "content-type": "text/html" }).end(PAGE)
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  agent = await launchPageAgent()
})

afterAll(async () => {
  await agent?.close()
  server?.closeAllConnections()
  await new Promise((resolve) => server?.close(resolve))
})

describe("an act waits for the page to read a response body", () => {
  it("answers with the options a page rendered from a body that arrived 400 ms after its headers", async () => {
    await agent.go(url)
    const page = await agent.look()
    if (!("tree" in page)) throw new Error(`look failed: ${page.error}`)
    const box = page.actions.find((action) => action.role === "textbox" && action.name === "Find")
    expect(box).toBeDefined()
    const typed = await agent.act(box!.ref, "input", "oak")
    expect(typed.ok).toBe(true)
    if (!typed.ok) return
    expect(typed.actions.filter((action) => action.role === "option").map((action) => action.name)).toEqual([
      "Oak desk",
      "Oak shelf",
    ])
  })
})

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

// A terms box whose page takes over the wheel and scrolls the box itself 1.1 s later, as a busy
// compositor or a page's own smooth scrolling can: the box has not moved when the wheel command answers.
const LATE_SCROLL = `<!doctype html><title>Late scroll</title>
<section id="terms" aria-label="Terms" tabindex="0" style="height:120px;overflow:auto">
${Array.from({ length: 60 }, (_, index) => `<p>Term ${index + 1}</p>`).join("")}</section>
<script>
const terms = document.getElementById("terms")
terms.addEventListener("wheel", (event) => {
  event.preventDefault()
  setTimeout(() => { terms.scrollTop = terms.scrollHeight }, 1100)
}, { passive: false })
</script>`

// A page that keeps inserting rows while it loads and after.
const BUSY = `<!doctype html><title>Busy rows</title><button id="add">Add row</button><ul id="rows"></ul>
<script>
const rows = document.getElementById("rows")
for (let index = 0; index < 200; index++) rows.append(Object.assign(document.createElement("li"), { textContent: "Row " + index }))
document.getElementById("add").addEventListener("click", () => rows.append(Object.assign(document.createElement("li"), { textContent: "Added" })))
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
    response
      .writeHead(200, { "content-type": "text/html" })
      .end(request.url === "/late-scroll" ? LATE_SCROLL : request.url === "/busy" ? BUSY : PAGE)
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

describe("an act answers once its effect is in", () => {
  it("does not watch the DOM changes a page makes while it loads, only those after an action starts", async () => {
    await agent.go(`${url}/busy`)
    const count = async () => {
      const answer = await agent.eval("return globalThis.__sextant.actor.state.mutations")
      if (!answer.ok) throw new Error(`eval failed: ${answer.error}`)
      return answer.result
    }
    expect(await count()).toBe(0)
    const page = await agent.look()
    if (!("tree" in page)) throw new Error(`look failed: ${page.error}`)
    const add = page.actions.find((action) => action.role === "button" && action.name === "Add row")
    const clicked = await agent.act(add!.ref, "click")
    expect(clicked.ok).toBe(true)
    expect(await count()).toBeGreaterThan(0)
  })

  it("does not wait for a click's input in a document the click already navigated away from", async () => {
    await agent.go(`${url}/busy`)
    // The settle that goes out beside a click waits for the click's mouseup in the document the
    // click was prepared in. A link on the same site can load before that call arrives; the new
    // document never sees the mouseup, so it must not wait for it.
    const settledIn = async (doc: string) => {
      const answer = await agent.eval(
        `return (() => {
  const started = performance.now()
  return globalThis.__sextant.actor
    .settle({ inputs: 1e9, inputWaitMs: 1500, doc: ${doc}, quietMs: 10, settleMs: 200 })
    .then(() => performance.now() - started)
})()`,
      )
      if (!answer.ok) throw new Error(`eval failed: ${answer.error}`)
      return answer.result as number
    }
    expect(await settledIn(JSON.stringify("a-document-before-this-one"))).toBeLessThan(1000)
    // In the document it was prepared in, the same call still waits for its input.
    expect(await settledIn("globalThis.__sextant.actor.state.doc")).toBeGreaterThanOrEqual(1400)
  })

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

  it("answers a scroll inside a box once the box has moved, however late it starts to move", async () => {
    await agent.go(`${url}/late-scroll`)
    const scrolled = await agent.act("#terms", "scroll", "bottom")
    expect(scrolled.ok).toBe(true)
    const atEnd = await agent.eval(
      "const box = document.getElementById('terms'); return box.scrollTop + box.clientHeight >= box.scrollHeight - 1",
    )
    expect(atEnd).toMatchObject({ ok: true, result: true })
  })
})

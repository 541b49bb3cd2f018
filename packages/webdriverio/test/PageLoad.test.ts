import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import type { BrowserDriverShape } from "@sextant/core"
import { Effect, Exit, Scope } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type DriverSession, fromBrowser, launch, makeDriver } from "../src/index.ts"
import { devtoolsSocketEvent } from "../src/internal/DevtoolsSocket.ts"
import { countMessages, type MessageCounts } from "./support/Messages.ts"

/** Pages served over HTTP, as a real site loads: `/<name>` answers `PAGES[name]` with its status. */
const PAGES: Record<string, { readonly status: number; readonly body: string }> = {
  // A page that talks: a console message and a request of its own while it loads.
  busy: {
    status: 200,
    body: `<title>Busy</title><script>console.log("loading"); fetch("/missing")</script><p>Busy</p>`,
  },
  // A page that replaces itself before it has loaded.
  hop: { status: 200, body: `<title>Hop</title><script>location.replace("/landing")</script>` },
  landing: { status: 200, body: `<title>Landing</title><p>Landed</p>` },
  gone: { status: 404, body: `<title>Gone</title><p>Not here</p>` },
  // A page whose script renames it while it loads.
  renamed: { status: 200, body: `<title>Old name</title><script>document.title = "New name"</script>` },
  // A page that keeps its main thread busy for 3 s right after its load event.
  "busy-after-load": {
    status: 200,
    body: `<title>Busy after load</title><script>addEventListener("load", () => setTimeout(() => {
  const end = Date.now() + 3000
  while (Date.now() < end) {}
}, 0))</script>`,
  },
  // A document that never finishes loading: its image never answers.
  stalled: { status: 200, body: `<title>Stalled</title><img src="/hang">` },
}

let server: Server
let base = ""
let scope: Scope.Closeable
let session: DriverSession
let driver: BrowserDriverShape
const counts = { requestEvents: 0, consoleEvents: 0 }
let messages: MessageCounts

beforeAll(async () => {
  server = createServer((request, response) => {
    const name = (request.url ?? "/").slice(1).split(/[?#]/)[0] ?? ""
    if (name === "hang") return
    // A server that takes 3.5 s to answer, longer than the hang watch's two probes.
    if (name === "slow") {
      setTimeout(() => {
        response
          .writeHead(200, { "content-type": "text/html" })
          .end("<title>Slow</title><p>Answered late</p>")
      }, 3_500)
      return
    }
    const page = PAGES[name]
    response
      .writeHead(page?.status ?? 404, { "content-type": "text/html" })
      .end(page?.body ?? "<p>missing</p>")
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  scope = await Effect.runPromise(Scope.make())
  session = await Effect.runPromise(Scope.provide(launch({}), scope))
  messages = countMessages(session.browser)
  session.browser.on("network.beforeRequestSent" as never, () => {
    counts.requestEvents += 1
  })
  session.browser.on("log.entryAdded" as never, () => {
    counts.consoleEvents += 1
  })
  driver = await Effect.runPromise(Scope.provide(makeDriver(session), scope))
}, 60_000)

afterAll(async () => {
  if (scope !== undefined) await Effect.runPromise(Scope.close(scope, Exit.void))
  server?.closeAllConnections()
  await new Promise((resolve) => server?.close(resolve))
})

const run = <A, E>(effect: Effect.Effect<A, E>) => Effect.runPromise(effect)

describe("navigate on the tab's own DevTools socket", () => {
  it("loads a page with socket messages only, no WebDriver command", async () => {
    await run(driver.navigate(`${base}/landing`))
    const before = { ...counts, ...messages }
    const result = await run(driver.navigate(`${base}/busy`))
    expect(result).toMatchObject({ url: `${base}/busy`, title: "Busy", status: 200 })
    expect(messages.socket - before.socket).toBeGreaterThan(0)
    expect(messages.http - before.http).toBe(0)
    expect(messages.bidi - before.bidi).toBe(0)
  })

  it("switches Page events on once per tab, and the Network domain only until the document has answered", async () => {
    await run(driver.navigate(`${base}/landing`))
    const methods: Array<string> = []
    const heard = (event: { readonly method: string }) => methods.push(event.method)
    session.browser.on(devtoolsSocketEvent as never, heard as never)
    try {
      await run(driver.navigate(`${base}/busy`))
    } finally {
      session.browser.off(devtoolsSocketEvent as never, heard as never)
    }
    // Network goes off when the document answers, before the page's own requests and its load.
    expect(methods).toEqual([
      "Network.enable",
      "Page.navigate",
      "Network.disable",
      "Page.getNavigationHistory",
    ])
  })

  it("hears no request or console events of the pages it loads", async () => {
    const before = { ...counts }
    await run(driver.navigate(`${base}/busy`))
    // The page's console message and its fetch would each have been one event.
    await new Promise((resolve) => setTimeout(resolve, 200))
    expect(counts.requestEvents - before.requestEvents).toBe(0)
    expect(counts.consoleEvents - before.consoleEvents).toBe(0)
  })

  it("waits for a server that answers after 3.5 s: a tab waiting on the server is not a hung tab", async () => {
    await run(driver.navigate("about:blank"))
    const result = await run(driver.navigate(`${base}/slow`))
    expect(result).toMatchObject({ url: `${base}/slow`, title: "Slow", status: 200 })
    // And the tab still answers afterwards: it was not closed as hung.
    expect((await run(driver.look())).title).toBe("Slow")
  }, 30_000)

  it("follows a page that replaces itself while loading to the page that loads", async () => {
    const result = await run(driver.navigate(`${base}/hop`))
    expect(result).toMatchObject({ url: `${base}/landing`, title: "Landing", status: 200 })
  })

  it("reads a status that is not retried, such as 404, and keeps the page", async () => {
    const result = await run(driver.navigate(`${base}/gone`))
    expect(result).toMatchObject({ title: "Gone", status: 404 })
  })

  it("answers the title a script gave the page while it loaded", async () => {
    const result = await run(driver.navigate(`${base}/renamed`))
    expect(result).toMatchObject({ url: `${base}/renamed`, title: "New name", status: 200 })
  })

  it("answers once the page has loaded, without waiting for the work the page does after it", async () => {
    const started = Date.now()
    const result = await run(driver.navigate(`${base}/busy-after-load`))
    expect(result).toMatchObject({ title: "Busy after load", status: 200 })
    // The page's main thread is busy for 3 s from its load event: a call into it would wait that long.
    expect(Date.now() - started).toBeLessThan(2_000)
    expect(await run(driver.evaluate("return document.title"))).toBe("Busy after load")
  })

  it("answers a move within the page at once, on the same document", async () => {
    await run(driver.navigate(`${base}/landing`))
    await run(driver.evaluate("window.sameDocument = true"))
    const result = await run(driver.navigate(`${base}/landing#part`))
    expect(result.url).toBe(`${base}/landing#part`)
    expect(await run(driver.evaluate("return window.sameDocument === true"))).toBe(true)
  })

  it("fails a page that never loads with Timeout at the navigation's limit, and loads the next page", async () => {
    const started = Date.now()
    const error = await run(Effect.flip(driver.navigate(`${base}/stalled`, { timeoutMs: 1_000 })))
    expect(error.reason._tag).toBe("Timeout")
    expect(Date.now() - started).toBeLessThan(5_000)
    const next = await run(driver.navigate(`${base}/landing`))
    expect(next.title).toBe("Landing")
  })

  it("installs the page script on the first call in a document, not on every load", async () => {
    await run(driver.navigate(`${base}/landing`))
    // The actor is in (preloaded); the perception runtime's look is not, until the first call.
    expect(await run(driver.evaluate("return typeof globalThis.__sextant.look"))).toBe("undefined")
    expect(await run(driver.evaluate("return typeof globalThis.__sextant.actor"))).toBe("object")
    const snapshot = await run(driver.look())
    expect(snapshot.tree).toContain("Landed")
  })
})

describe("a browser Sextant does not own", () => {
  it("keeps WebdriverIO's request and console events, and still loads on the socket", async () => {
    const wrappedScope = await Effect.runPromise(Scope.make())
    try {
      const launched = await Effect.runPromise(Scope.provide(launch({ bidi: true }), wrappedScope))
      let requestEvents = 0
      launched.browser.on("network.beforeRequestSent" as never, () => {
        requestEvents += 1
      })
      const wrapped = await Effect.runPromise(
        Scope.provide(makeDriver(fromBrowser(launched.browser)), wrappedScope),
      )
      const result = await run(wrapped.navigate(`${base}/busy`))
      expect(result).toMatchObject({ title: "Busy", status: 200 })
      expect(requestEvents).toBeGreaterThan(0)
    } finally {
      await Effect.runPromise(Scope.close(wrappedScope, Exit.void))
    }
  }, 60_000)
})

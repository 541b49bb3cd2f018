import { type ChildProcess, spawn } from "node:child_process"
import type { IncomingMessage, ServerResponse } from "node:http"
import { type LoopbackServer, startLoopbackServer } from "@sextant/testing"
import { Effect, Exit, Scope } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { connect, defaultChromeArgs } from "../src/index.ts"
import { freePort } from "./support/Processes.ts"

/**
 * A real ChromeDriver behind a loopback proxy that stands for a grid's router: it forwards every
 * command, and on demand holds a session's DELETE without answering (a node that hangs) or answers a
 * session's commands with the router's "cannot reach the node" error while the session still runs.
 */
let chromedriver: ChildProcess
let driverPort: number
let proxy: LoopbackServer
const behaviour = { holdDelete: false, nodeUnreachable: false }
const heldDeletes: Array<{ readonly path: string; closed: boolean }> = []
const forwardedDeletes: Array<string> = []

const bodyOf = (request: IncomingMessage) =>
  new Promise<Buffer>((resolve) => {
    const chunks: Array<Buffer> = []
    request.on("data", (chunk: Buffer) => chunks.push(chunk))
    request.on("end", () => resolve(Buffer.concat(chunks)))
  })

const proxyTo = async (request: IncomingMessage, response: ServerResponse) => {
  const path = request.url ?? "/"
  const isDelete = request.method === "DELETE" && /^\/session\/[^/]+$/.test(path)
  if (isDelete && behaviour.holdDelete) {
    const held = { path, closed: false }
    heldDeletes.push(held)
    response.on("close", () => {
      held.closed = true
    })
    return
  }
  if (behaviour.nodeUnreachable && /^\/session\/[^/]+\//.test(path)) {
    response.writeHead(500, { "content-type": "application/json" })
    response.end(
      JSON.stringify({
        value: {
          error: "unknown error",
          message: "Unable to execute request for an existing session: the node could not be reached",
          stacktrace: "",
        },
      }),
    )
    return
  }
  if (isDelete) forwardedDeletes.push(path)
  const body = await bodyOf(request)
  const answer = await fetch(`http://127.0.0.1:${driverPort}${path}`, {
    method: request.method ?? "GET",
    headers: { "content-type": "application/json" },
    ...(body.length === 0 ? {} : { body: new Uint8Array(body) }),
  })
  response.writeHead(answer.status, { "content-type": "application/json" })
  response.end(Buffer.from(await answer.arrayBuffer()))
}

const sessionsOnChromedriver = async (): Promise<ReadonlyArray<string>> => {
  const answer = (await (await fetch(`http://127.0.0.1:${driverPort}/sessions`)).json()) as {
    value: Array<{ id: string }>
  }
  return answer.value.map((entry) => entry.id)
}

const endOnChromedriver = (sessionId: string) =>
  fetch(`http://127.0.0.1:${driverPort}/session/${sessionId}`, { method: "DELETE" }).then(
    () => undefined,
    () => undefined,
  )

const open = (scope: Scope.Closeable) =>
  Effect.runPromise(
    Scope.provide(
      connect({
        port: proxy.port,
        bidi: false,
        capabilities: {
          browserName: "chrome",
          "goog:chromeOptions": { binary: "/usr/bin/chromium", args: [...defaultChromeArgs] },
        },
      }),
      scope,
    ),
  )

beforeAll(async () => {
  driverPort = await freePort()
  chromedriver = spawn("/usr/bin/chromedriver", [`--port=${driverPort}`], { stdio: "ignore" })
  for (let attempt = 0; attempt < 100; attempt++) {
    const ready = await fetch(`http://127.0.0.1:${driverPort}/status`).then(
      (response) => response.ok,
      () => false,
    )
    if (ready) break
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  proxy = await startLoopbackServer((request, response) => {
    proxyTo(request, response).catch(() => {
      if (!response.headersSent) response.writeHead(502)
      response.end()
    })
  })
}, 30_000)

afterAll(async () => {
  await proxy?.close()
  chromedriver?.kill("SIGKILL")
})

describe("ending a connected session", () => {
  it("aborts a DELETE the remote end does not answer within the time limit, leaving no request open", async () => {
    const scope = await Effect.runPromise(Scope.make())
    const session = await open(scope)
    const sessionId = session.browser.sessionId
    try {
      behaviour.holdDelete = true
      const started = Date.now()
      await Effect.runPromise(Scope.close(scope, Exit.void))
      expect(Date.now() - started).toBeLessThan(8_000)
      expect(heldDeletes.map((held) => held.path)).toEqual([`/session/${sessionId}`])
      // The client gave up on the request: its connection is closed, not left waiting for an answer.
      for (let waited = 0; !heldDeletes[0]?.closed && waited < 1_000; waited += 20)
        await new Promise((resolve) => setTimeout(resolve, 20))
      expect(heldDeletes[0]?.closed).toBe(true)
    } finally {
      behaviour.holdDelete = false
      await endOnChromedriver(sessionId)
    }
  }, 60_000)

  it("still asks the remote end to end a session a probe found lost, so a grid does not keep it running", async () => {
    const scope = await Effect.runPromise(Scope.make())
    const session = await open(scope)
    const sessionId = session.browser.sessionId
    try {
      behaviour.nodeUnreachable = true
      expect(await session.probe?.()).toContain("unknown error")
      behaviour.nodeUnreachable = false
      await Effect.runPromise(Scope.close(scope, Exit.void))
      expect(forwardedDeletes).toContain(`/session/${sessionId}`)
      expect(await sessionsOnChromedriver()).not.toContain(sessionId)
    } finally {
      behaviour.nodeUnreachable = false
      await endOnChromedriver(sessionId)
    }
  }, 60_000)
})

import { request } from "node:http"
import { describe, expect, it } from "vitest"
import { startLoopbackServer } from "../src/index.ts"

describe("startLoopbackServer", () => {
  it("serves on 127.0.0.1 at a free port and answers with the handler", async () => {
    const server = await startLoopbackServer((_request, response) => response.end("hello"))
    try {
      expect(server.url).toBe(`http://127.0.0.1:${server.port}`)
      expect(server.port).toBeGreaterThan(0)
      expect(await (await fetch(server.url)).text()).toBe("hello")
    } finally {
      await server.close()
    }
    await expect(fetch(server.url)).rejects.toThrow()
  })

  it("closes promptly with a keep-alive connection still open, and closing twice is one close", async () => {
    const server = await startLoopbackServer((_request, response) => response.end("ok"))
    const agentSocketOpen = await new Promise<boolean>((resolve) => {
      const call = request(server.url, { headers: { connection: "keep-alive" } }, (response) => {
        response.resume()
        response.on("end", () => resolve(!call.socket?.destroyed))
      })
      call.end()
    })
    expect(agentSocketOpen).toBe(true)
    const started = performance.now()
    const first = server.close()
    expect(server.close()).toBe(first)
    await first
    // A close that waited for the open keep-alive socket would end only when Node's keepAliveTimeout
    // (5 s) closes it; half of that tells the two apart on a loaded machine.
    expect(performance.now() - started).toBeLessThan(2_500)
  })

  it("rejects when the port is taken", async () => {
    const server = await startLoopbackServer((_request, response) => response.end())
    try {
      await expect(startLoopbackServer(() => {}, { port: server.port })).rejects.toThrow(/EADDRINUSE/)
    } finally {
      await server.close()
    }
  })
})

import { createServer, type RequestListener } from "node:http"
import type { AddressInfo } from "node:net"

/** An HTTP server on 127.0.0.1 and how to stop it. */
export interface LoopbackServer {
  /** `http://127.0.0.1:<port>`, with no trailing slash. */
  readonly url: string
  readonly port: number
  /** Stops listening and ends open connections; calling it again returns the same promise. */
  readonly close: () => Promise<void>
}

/**
 * Starts an HTTP server on 127.0.0.1 only (port 0 picks a free one), for pages and endpoints a test needs
 * that the fixture site does not have. `close()` ends keep-alive connections too, so a test never waits
 * on a browser's idle socket.
 *
 * @example
 * ```ts
 * import { startLoopbackServer } from "@sextant/testing"
 * const server = await startLoopbackServer((request, response) => response.end("<h1>Hello</h1>"))
 * await fetch(server.url)
 * await server.close()
 * ```
 */
export const startLoopbackServer = async (
  handler: RequestListener,
  options: { readonly port?: number } = {},
): Promise<LoopbackServer> => {
  const server = createServer(handler)
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject)
    server.listen(options.port ?? 0, "127.0.0.1", () => {
      server.off("error", reject)
      resolve()
    })
  })
  const port = (server.address() as AddressInfo).port
  let closed: Promise<void> | undefined
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    close: () => {
      closed ??= new Promise<void>((resolve) => {
        server.close(() => resolve())
        server.closeAllConnections()
      })
      return closed
    },
  }
}

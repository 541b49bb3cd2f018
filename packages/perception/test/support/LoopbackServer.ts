import { createServer, type RequestListener } from "node:http"
import type { AddressInfo } from "node:net"

/*
 * An HTTP server on 127.0.0.1 for perception's browser tests. Perception keeps its own (as
 * `@sextant/testing`'s `startLoopbackServer`): `@sextant/testing` depends on perception (its fake
 * driver runs perception's page functions), so perception's tests cannot depend on it back.
 */

/** An HTTP server on 127.0.0.1 and how to stop it. */
export interface LoopbackServer {
  /** `http://127.0.0.1:<port>`, with no trailing slash. */
  readonly url: string
  readonly port: number
  /** Stops listening and ends open connections; calling it again returns the same promise. */
  readonly close: () => Promise<void>
}

/** Starts a server on 127.0.0.1 (port 0 picks a free one); `close()` ends keep-alive connections too. */
export const startLoopbackServer = async (handler: RequestListener): Promise<LoopbackServer> => {
  const server = createServer(handler)
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject)
    server.listen(0, "127.0.0.1", () => {
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

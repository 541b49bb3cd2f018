import { readFile } from "node:fs/promises"
import { createServer } from "node:http"
import type { AddressInfo } from "node:net"
import { join } from "node:path"

/** Serves `test/pages/<name>.html` on 127.0.0.1 (port 0) for browser tests. */
export interface PageServer {
  readonly url: string
  readonly close: () => Promise<void>
}

const pagesDirectory = join(import.meta.dirname, "..", "pages")

export const startPageServer = async (): Promise<PageServer> => {
  const server = createServer((request, response) => {
    const name = (request.url ?? "/").split("?")[0]!.replace(/^\//, "")
    if (!/^[a-z-]+\.html$/.test(name)) {
      response
        .writeHead(404, { "content-type": "text/html" })
        .end("<title>Not found</title><h1>Not found</h1>")
      return
    }
    readFile(join(pagesDirectory, name), "utf8").then(
      (body) => response.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(body),
      () => response.writeHead(404, { "content-type": "text/html" }).end("<h1>Not found</h1>"),
    )
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}

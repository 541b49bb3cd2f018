import { readFile } from "node:fs/promises"
import { join } from "node:path"
import { type LoopbackServer, startLoopbackServer } from "@sextant/testing"

/** Serves `test/pages/<name>.html` on 127.0.0.1 (port 0) for browser tests. */
export type PageServer = LoopbackServer

const pagesDirectory = join(import.meta.dirname, "..", "pages")

export const startPageServer = (): Promise<PageServer> =>
  startLoopbackServer((request, response) => {
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

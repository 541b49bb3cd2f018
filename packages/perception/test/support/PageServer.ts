import { readFile } from "node:fs/promises"
import { join } from "node:path"
import { type LoopbackServer, startLoopbackServer } from "./LoopbackServer.ts"

/** Serves `test/pages/<name>.html`, and `/inline?html=…`, on 127.0.0.1 (port 0) for browser tests. */
export type PageServer = LoopbackServer

const pagesDirectory = join(import.meta.dirname, "..", "pages")

export const startPageServer = (): Promise<PageServer> =>
  startLoopbackServer((request, response) => {
    const url = new URL(request.url ?? "/", "http://127.0.0.1")
    // `/inline?html=…` serves the page the test wrote, so a minimal page per defect needs no file.
    if (url.pathname === "/inline") {
      response
        .writeHead(200, { "content-type": "text/html; charset=utf-8" })
        .end(url.searchParams.get("html") ?? "")
      return
    }
    const name = url.pathname.replace(/^\//, "")
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

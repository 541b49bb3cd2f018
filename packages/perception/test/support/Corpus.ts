import { existsSync } from "node:fs"
import { readdir, readFile } from "node:fs/promises"
import { join } from "node:path"
import { type LoopbackServer, startLoopbackServer } from "./LoopbackServer.ts"

const repositoryRoot = join(import.meta.dirname, "..", "..", "..", "..")

/**
 * The 170 real pages beside the clone (`../shared/corpus/real-pages`, or where `SEXTANT_CORPUS`
 * says); absent outside the team's machines.
 */
export const sharedCorpus =
  process.env.SEXTANT_CORPUS || join(repositoryRoot, "..", "shared", "corpus", "real-pages")

/** The real pages vendored into the repository for the always-on test (`fixtures/real-pages`). */
export const vendoredCorpus = join(repositoryRoot, "fixtures", "real-pages")

/**
 * Chromium switches that make every host but 127.0.0.1 unresolvable: a saved page's remote scripts,
 * styles and frames fail at once, as they would offline, so a run is repeatable.
 */
export const OFFLINE_ARGS: ReadonlyArray<string> = [
  "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1",
]

/** The `.html` files of a corpus folder, sorted; empty when the folder is absent. */
export const corpusPages = async (folder: string): Promise<ReadonlyArray<string>> =>
  existsSync(folder) ? (await readdir(folder)).filter((name) => name.endsWith(".html")).sort() : []

/** Serves the files of one corpus folder by name on 127.0.0.1 (port 0); anything else is a 404. */
export const serveCorpus = (folder: string): Promise<LoopbackServer> =>
  startLoopbackServer((request, response) => {
    const name = decodeURIComponent((request.url ?? "/").split("?")[0]!.replace(/^\//, ""))
    if (!/^[\w.-]+\.html$/.test(name)) {
      response.writeHead(404, { "content-type": "text/plain" }).end("not found")
      return
    }
    readFile(join(folder, name)).then(
      (body) => response.writeHead(200, { "content-type": "text/html" }).end(body),
      () => response.writeHead(404, { "content-type": "text/plain" }).end("not found"),
    )
  })

// Explorer benchmark: time per page to load, look at and analyse real saved pages served from
// 127.0.0.1, and whether each got a page model. Every 8th page of the shared corpus, 20 pages.
// Run: node --conditions=sextant-source packages/explorer/bench/ExplorerBench.ts [--corpus DIR] [--pages 20]
import { readdir, readFile } from "node:fs/promises"
import { createServer } from "node:http"
import type { AddressInfo } from "node:net"
import { join, resolve } from "node:path"
import { performance } from "node:perf_hooks"
import { parseArgs } from "node:util"
import { WebdriverioDriver } from "@sextant/webdriverio"
import { Effect, ManagedRuntime } from "effect"
import { explore } from "../src/index.ts"

const { values } = parseArgs({
  options: { corpus: { type: "string" }, pages: { type: "string", default: "20" } },
  strict: true,
})
const corpus = resolve(values.corpus ?? join(import.meta.dirname, "../../../../shared/corpus/real-pages"))
const count = Number(values.pages)
if (!Number.isInteger(count) || count < 1)
  throw new Error(`--pages must be a positive integer, got ${values.pages}`)

const files = (await readdir(corpus))
  .filter((name) => name.endsWith(".html"))
  .sort()
  .filter((_, index) => index % 8 === 0)
  .slice(0, count)

// Only the corpus folder is served; anything else (the pages' own images, scripts) answers 404 at once.
const server = createServer((request, response) => {
  const name = decodeURIComponent(new URL(request.url ?? "/", "http://127.0.0.1").pathname.slice(1))
  if (!files.includes(name)) {
    response.writeHead(404).end()
    return
  }
  readFile(join(corpus, name)).then(
    (body) => response.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(body),
    () => response.writeHead(500).end(),
  )
})
await new Promise<void>((done) => server.listen(0, "127.0.0.1", done))
const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`

// Every host but 127.0.0.1 is unresolvable, so a saved page's remote scripts, styles and frames fail
// at once, as the page-view corpus bench does, instead of waiting on DNS that cannot answer here.
const runtime = ManagedRuntime.make(
  WebdriverioDriver.layer({ args: ["--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1"] }),
)
interface Row {
  readonly page: string
  readonly ms: number
  readonly category: string
  readonly forms: number
  readonly fields: number
  readonly links: number
  readonly error?: string
}
const rows: Array<Row> = []
try {
  await runtime.runPromise(Effect.void)
  for (const file of files) {
    const started = performance.now()
    const map = await runtime.runPromise(
      explore(`${base}/${encodeURIComponent(file)}`, { maxDepth: 0, maxPages: 1 }),
    )
    const ms = performance.now() - started
    const page = map.pages[0]
    rows.push(
      page === undefined
        ? {
            page: file,
            ms,
            category: "-",
            forms: 0,
            fields: 0,
            links: 0,
            error: map.skipped[0]?.reason ?? "no page",
          }
        : {
            page: file,
            ms,
            category: page.model.category,
            forms: page.model.forms.length,
            fields: page.model.forms.reduce((sum, form) => sum + form.fields.length, 0),
            links: page.model.navigationTargets.length,
          },
    )
    process.stderr.write(`[explorer bench] ${file}: ${Math.round(ms)} ms\n`)
  }
} finally {
  await runtime.dispose()
  server.close()
}

const sorted = rows.map((row) => row.ms).sort((a, b) => a - b)
const quantile = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0
const modelled = rows.filter((row) => row.error === undefined).length
console.log("| Page | Time (ms) | Category | Forms | Fields | Same-origin links |")
console.log("| --- | ---: | --- | ---: | ---: | ---: |")
for (const row of rows)
  console.log(
    `| ${row.page} | ${Math.round(row.ms)} | ${row.error === undefined ? row.category : `failed: ${row.error.slice(0, 80)}`} | ${row.forms} | ${row.fields} | ${row.links} |`,
  )
console.log(
  `\n${rows.length} pages, ${modelled} with a page model; time per page (navigate + look + analyse): median ${Math.round(quantile(0.5))} ms, p90 ${Math.round(quantile(0.9))} ms, max ${Math.round(sorted.at(-1) ?? 0)} ms`,
)
process.exitCode = modelled === rows.length ? 0 : 1

import { execFile, spawn } from "node:child_process"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { DatabaseSync } from "node:sqlite"
import { promisify } from "node:util"
import { assert, describe, it } from "@effect/vitest"
import { Store } from "@sextant/core"
import { SqliteStore } from "@sextant/memory"
import { Effect, Layer } from "effect"
import { afterAll } from "vitest"
import { type CrawledPage, crawl, crawlTool, submitUrls } from "../../src/session/Crawl.ts"
import * as FetchHttpSession from "../../src/session/FetchHttpSession.ts"
import { byId, type ExtractedProduct, expectedProducts, useFixtureSite } from "./Shop.ts"

const folder = mkdtempSync(join(tmpdir(), "sextant-crawl-"))
afterAll(() => rmSync(folder, { recursive: true, force: true }))

const layers = Layer.merge(
  FetchHttpSession.layer({ requestsPerSecondPerHost: 1_000 }),
  SqliteStore.layerMemory,
)

// Seed-independent: a product is a list item with a price cell, a rating cell and a link to its page;
// the heading comes first in every card.
const productsFromLists = ({ page }: CrawledPage) =>
  page.lists
    .flatMap((list) => list.items)
    .flatMap((item) => {
      const price = item.cells.find((cell) => /^\$\d+\.\d\d$/.test(cell))
      const rating = item.cells.find((cell) => /^\d\.\d$/.test(cell))
      const link = item.links.find((url) => /\/products\/\d+$/.test(url))
      if (price === undefined || rating === undefined || link === undefined) return []
      const id = Number(/(\d+)$/.exec(link)![1])
      return [{ key: String(id), source: page.url, data: { id, name: item.cells[0], price, rating } }]
    })

describe("submitUrls", () => {
  it.effect("adds each URL once, drops fragments and skips what the policy forbids", () =>
    Effect.gen(function* () {
      const first = yield* submitUrls("f", [
        "http://127.0.0.1:4000/a#top",
        "http://127.0.0.1:4000/a",
        "/relative",
      ])
      assert.strictEqual(first.added, 1)
      assert.deepStrictEqual(first.skipped, [{ url: "/relative", why: "not an absolute http(s) URL" }])
      const children = yield* submitUrls("f", ["/b", "http://127.0.0.1:4000/a", "http://elsewhere.test/c"], {
        depth: 1,
        parent: "http://127.0.0.1:4000/a",
      })
      assert.strictEqual(children.added, 1)
      assert.match(
        children.skipped[0]!.why,
        /origin http:\/\/elsewhere\.test is not http:\/\/127\.0\.0\.1:4000/,
      )
      const deep = yield* submitUrls("f", ["http://127.0.0.1:4000/deep"], { depth: 4, maxDepth: 3 })
      assert.deepStrictEqual(deep, {
        added: 0,
        skipped: [{ url: "http://127.0.0.1:4000/deep", why: "deeper than maxDepth 3" }],
      })
      const store = yield* Store
      const claimed = yield* store.frontierClaim("f", 10)
      assert.deepStrictEqual(claimed, [
        { url: "http://127.0.0.1:4000/a", depth: 0 },
        { url: "http://127.0.0.1:4000/b", depth: 1, parent: "http://127.0.0.1:4000/a" },
      ])
    }).pipe(Effect.provide(SqliteStore.layerMemory)),
  )
})

for (const seed of [0, 7]) {
  describe(`crawl + loadAndParse on the fixture shop with seed ${seed}`, () => {
    const site = useFixtureSite(seed)

    it.live("walks the 5 listing pages and stores each of the 60 products once", () =>
      Effect.gen(function* () {
        const options = {
          frontier: "shop",
          runId: "products",
          startUrls: [`${site().url}/products?page=1`],
          followPattern: /\/products\?page=\d+$/,
          extract: productsFromLists,
        }
        const summary = yield* crawl(options)
        assert.deepStrictEqual(summary.frontier, { pending: 0, claimed: 0, done: 5, failed: 0 })
        assert.strictEqual(summary.recordsAdded, 60)
        const store = yield* Store
        const records = yield* store.listRecords("products")
        assert.deepStrictEqual(
          byId(records.map((record) => record.data as ExtractedProduct)),
          expectedProducts,
        )
        const again = yield* crawl(options)
        assert.deepStrictEqual([again.pagesLoaded, again.recordsAdded], [0, 0])
      }).pipe(Effect.provide(layers)),
    )
  })
}

describe("crawl failures and limits", () => {
  const site = useFixtureSite(0)

  it.live("marks a page that keeps failing as failed and carries on", () =>
    Effect.gen(function* () {
      const summary = yield* crawl({
        frontier: "failing",
        runId: "failing",
        startUrls: [
          `${site().url}/flaky?key=crawl-${Math.random()}&fail=20`,
          `${site().url}/products?page=3`,
        ],
        maxDepth: 0,
      })
      assert.deepStrictEqual(summary.frontier, { pending: 0, claimed: 0, done: 1, failed: 1 })
      assert.strictEqual(summary.pagesFailed, 1)
    }).pipe(
      Effect.provide(
        Layer.merge(FetchHttpSession.layer({ maxRetries: 1, retryBaseDelayMs: 10 }), SqliteStore.layerMemory),
      ),
    ),
  )

  it.live("stops after maxPages, leaving the rest pending for the next call", () =>
    Effect.gen(function* () {
      const first = yield* crawl({
        frontier: "limited",
        runId: "limited",
        startUrls: [`${site().url}/products?page=1`],
        followPattern: /\/products\?page=\d+$/,
        maxPages: 2,
        concurrency: 1,
      })
      assert.strictEqual(first.pagesLoaded, 2)
      assert.strictEqual(first.frontier.pending, 3)
      const rest = yield* crawl({
        frontier: "limited",
        runId: "limited",
        followPattern: /\/products\?page=\d+$/,
      })
      assert.deepStrictEqual(rest.frontier, { pending: 0, claimed: 0, done: 5, failed: 0 })
    }).pipe(Effect.provide(layers)),
  )

  it("rejects an invalid pattern or selector in the tool input, naming the field", () => {
    const bad = crawlTool.input.safeParse({
      frontier: "x",
      runId: "x",
      followPattern: "(",
      extract: { itemSelector: "[[", fields: {} },
    })
    assert.isFalse(bad.success)
    const paths = bad.error!.issues.map((issue) => issue.path.join("."))
    assert.includeMembers(paths, ["followPattern", "extract.itemSelector"])
  })
})

describe("crawl after a crash", () => {
  const site = useFixtureSite(3)

  const script = join(import.meta.dirname, "fixtures", "crawlProcess.ts")
  const countRecords = (path: string): number => {
    try {
      const database = new DatabaseSync(path, { readOnly: true })
      try {
        return (database.prepare("SELECT COUNT(*) AS count FROM records").get() as { count: number }).count
      } finally {
        database.close()
      }
    } catch {
      return 0
    }
  }

  it("finishes with every product exactly once when a SIGKILLed crawl is started again", async () => {
    const path = join(folder, "killed.db")
    const child = spawn(process.execPath, ["--conditions=sextant-source", script, path, site().url], {
      cwd: import.meta.dirname,
      stdio: ["ignore", "pipe", "pipe"],
    })
    const exited = new Promise<NodeJS.Signals | null>((resolve) =>
      child.on("exit", (_, signal) => resolve(signal)),
    )
    let atKill = 0
    while (atKill < 15) {
      await new Promise((resolve) => setTimeout(resolve, 25))
      atKill = countRecords(path)
      if (child.exitCode !== null) break
    }
    child.kill("SIGKILL")
    assert.strictEqual(await exited, "SIGKILL")
    assert.isAtLeast(atKill, 15)
    const afterKill = countRecords(path)
    assert.isBelow(afterKill, 60, "the crawl was killed before it finished")

    const { stdout } = await promisify(execFile)(
      process.execPath,
      ["--conditions=sextant-source", script, path, site().url],
      { cwd: import.meta.dirname },
    )
    const summary = JSON.parse(stdout) as { pagesLoaded: number; frontier: Record<string, number> }
    assert.deepStrictEqual(summary.frontier, { pending: 0, claimed: 0, done: 65, failed: 0 })
    assert.isBelow(summary.pagesLoaded, 65, "the second crawl resumed instead of starting over")

    const records = await Effect.runPromise(
      Store.use((store) => store.listRecords("products")).pipe(Effect.provide(SqliteStore.layer({ path }))),
    )
    const products = records.map((record) => {
      const data = record.data as { id: string; name: string; price: string; rating: string }
      return { id: Number(data.id), name: data.name, price: data.price, rating: data.rating }
    })
    assert.strictEqual(records.length, 60)
    assert.strictEqual(new Set(records.map((record) => record.key)).size, 60)
    assert.deepStrictEqual(byId(products), expectedProducts)
  })
})

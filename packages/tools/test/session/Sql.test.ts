import { assert, describe, it } from "@effect/vitest"
import { FIXTURE_PRODUCTS } from "@sextant/fixture-site"
import { Effect, Fiber } from "effect"
import { TestClock } from "effect/testing"
import * as FetchHttpSession from "../../src/session/FetchHttpSession.ts"
import { sql, sqlTool } from "../../src/session/Sql.ts"
import { byId, expectedProducts, useFixtureSite } from "./Shop.ts"

const sessionLayer = FetchHttpSession.layer({ requestsPerSecondPerHost: 1_000 })

// Seed-independent: cards carry data-product-id for every seed (the fixture's stable hook); the name is
// the card's heading; price and rating are paragraphs in seed-dependent order, told apart by their text.
const productQuery = (base: string) =>
  [1, 2, 3, 4, 5]
    .map(
      (page) => `SELECT dom_attr(html, '[data-product-id]', 'data-product-id') AS id,
        dom_text(html, 'h2') AS name,
        dom_match(html, 'p', '^\\$[0-9]+[.][0-9]{2}$') AS price,
        dom_match(html, 'p', '^[0-9][.][0-9]$') AS rating
      FROM load_and_select('${base}/products?page=${page}', '[data-product-id]')`,
    )
    .join("\nUNION ALL\n")

for (const seed of [0, 7]) {
  describe(`sql on the fixture shop with seed ${seed}`, () => {
    const site = useFixtureSite(seed)

    it.live("extracts all 60 products with name, price and rating from the 5 listing pages", () =>
      Effect.gen(function* () {
        const result = yield* sql(productQuery(site().url))
        assert.strictEqual(result.rowCount, 60)
        assert.deepStrictEqual(result.columns, ["id", "name", "price", "rating"])
        assert.strictEqual(result.pages.length, 5)
        const products = result.rows.map((row) => ({
          id: Number(row.id),
          name: String(row.name),
          price: String(row.price),
          rating: String(row.rating),
        }))
        assert.deepStrictEqual(byId(products), expectedProducts)
      }).pipe(Effect.provide(sessionLayer)),
    )

    it.live("filters, orders and aggregates in SQL", () =>
      Effect.gen(function* () {
        const result = yield* sql(`SELECT COUNT(*) AS cards, MIN([index]) AS first, MAX([index]) AS last
          FROM load_and_select('${site().url}/products?page=2', '[data-product-id]')
          WHERE text LIKE '%Brass%' OR text LIKE '%Oak%'`)
        const onPage = FIXTURE_PRODUCTS.slice(12, 24).filter((product) => /Brass|Oak/.test(product.name))
        assert.strictEqual(result.rows[0]?.cards, onPage.length)
        const links = yield* sql(`SELECT dom_attr(html, 'a', 'href') AS href, dom_all_text(html, 'p') AS facts
          FROM load_and_select('${site().url}/products?page=1', '[data-product-id]') ORDER BY href LIMIT 2`)
        assert.deepStrictEqual(
          links.rows.map((row) => row.href),
          ["/products/1", "/products/10"],
        )
        assert.lengthOf(links.rows[0]?.facts as Array<string>, 2)
      }).pipe(Effect.provide(sessionLayer)),
    )
  })
}

describe("sql refuses what it should not run", () => {
  const site = useFixtureSite(0)
  const reasonOf = (query: string) =>
    Effect.map(Effect.flip(sql(query)), (error) => [
      error._tag,
      (error as { reason: { _tag: string } }).reason._tag,
    ])

  it.live("reports a syntax error, a second statement, writes, pragmas and other row sources", () =>
    Effect.gen(function* () {
      assert.deepStrictEqual(yield* reasonOf("SELEC name FROM x"), ["SqlError", "SqlSyntax"])
      // Not SQLite: alasql's INTO and inline JavaScript no longer parse at all.
      assert.deepStrictEqual(yield* reasonOf("SELECT 1 AS a INTO CSV('/tmp/out.csv')"), [
        "SqlError",
        "SqlSyntax",
      ])
      assert.deepStrictEqual(yield* reasonOf("SELECT ``process.exit(1)`` AS a"), ["SqlError", "SqlSyntax"])
      assert.deepStrictEqual(yield* reasonOf("SELECT 1 AS a; SELECT 2 AS b"), ["SqlError", "SqlNotAllowed"])
      assert.deepStrictEqual(yield* reasonOf("DROP TABLE products"), ["SqlError", "SqlNotAllowed"])
      assert.deepStrictEqual(yield* reasonOf("ATTACH DATABASE '/tmp/x.db' AS x"), [
        "SqlError",
        "SqlNotAllowed",
      ])
      assert.deepStrictEqual(yield* reasonOf("PRAGMA table_list"), ["SqlError", "SqlNotAllowed"])
      assert.deepStrictEqual(yield* reasonOf("SELECT * FROM FILE('/etc/passwd')"), [
        "SqlError",
        "SqlNotAllowed",
      ])
      assert.deepStrictEqual(yield* reasonOf("SELECT * FROM pragma_table_list()"), [
        "SqlError",
        "SqlNotAllowed",
      ])
      assert.deepStrictEqual(yield* reasonOf("SELECT * FROM load_and_select(UPPER('http://x'), 'a')"), [
        "SqlError",
        "SqlNotAllowed",
      ])
      // Hidden in a scalar subquery, SQLite's own authorizer still refuses it.
      assert.deepStrictEqual(yield* reasonOf("SELECT load_extension('/tmp/evil.so') AS a"), [
        "SqlError",
        "SqlNotAllowed",
      ])
    }).pipe(Effect.provide(sessionLayer)),
  )

  it.live("reads dom_all_text arrays with SQLite's json_each", () =>
    Effect.gen(function* () {
      const result = yield* sql(`SELECT facts.value AS fact
        FROM load_and_select('${site().url}/products?page=1', '[data-product-id]') AS card,
          json_each(dom_all_text(card.html, 'p')) AS facts
        WHERE card.[index] = 0`)
      assert.strictEqual(result.rowCount, 2)
      assert.isTrue(result.rows.some((row) => /^\$[0-9]+[.][0-9]{2}$/.test(String(row.fact))))
    }).pipe(Effect.provide(sessionLayer)),
  )

  it.effect("stops a heavy query when the step's time runs out, without blocking the agent", () =>
    Effect.gen(function* () {
      const query = yield* Effect.forkChild(
        sql(
          "WITH RECURSIVE counter(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM counter) SELECT COUNT(*) AS n FROM counter",
        ).pipe(Effect.timeoutOption("300 millis")),
      )
      // The query never ends; it runs off the agent's thread, so this fiber goes on and moves the clock.
      yield* Effect.promise(() => new Promise((resolve) => setTimeout(resolve, 100)))
      assert.isUndefined(query.pollUnsafe())
      yield* TestClock.adjust(300)
      const outcome = yield* Fiber.join(query)
      assert.isTrue(outcome._tag === "None")
    }).pipe(Effect.provide(sessionLayer)),
  )

  it.live("refuses row sources that are not plain absolute http(s) URLs, before loading anything", () =>
    Effect.gen(function* () {
      for (const url of ["http:127.0.0.1:9/x", "javascript:alert(1)", "file:///etc/passwd", "/products"]) {
        const error = yield* Effect.flip(sql(`SELECT text FROM load_and_select('${url}', 'p')`))
        assert.strictEqual(error._tag, "SqlError")
        assert.strictEqual((error as { reason: { _tag: string } }).reason._tag, "SqlNotAllowed", url)
        assert.include(error.message, "load_and_select")
      }
    }).pipe(Effect.provide(sessionLayer)),
  )

  it.live("names a bad CSS selector", () =>
    Effect.gen(function* () {
      const error = yield* Effect.flip(sql(`SELECT * FROM load_and_select('${site().url}/products', '[[')`))
      assert.strictEqual(error._tag, "SqlError")
      assert.include(error.message, '"[[" is not a valid CSS selector')
    }).pipe(Effect.provide(sessionLayer)),
  )

  it("describes the row source and DOM functions to a model", () => {
    for (const name of ["load_and_select", "dom_text", "dom_attr", "dom_all_text", "dom_match"]) {
      assert.include(sqlTool.description, name)
    }
    assert.isTrue(sqlTool.effects.reads && sqlTool.effects.idempotent)
    assert.isFalse(sqlTool.input.safeParse({ query: "" }).success)
  })
})

import { assert, describe, it } from "@effect/vitest"
import { FIXTURE_PRODUCTS, type FixtureSite, formatPrice, startFixtureSite } from "@sextant/fixture-site"
import { Effect } from "effect"
import { afterAll, beforeAll } from "vitest"
import * as FetchHttpSession from "../../src/session/FetchHttpSession.ts"
import { loadAndParse, loadAndParseTool, parsePage } from "../../src/session/LoadAndParse.ts"

let site: FixtureSite
beforeAll(async () => {
  site = await startFixtureSite({ port: 0, seed: 7 })
})
afterAll(() => site?.close())

const sessionLayer = FetchHttpSession.layer({ requestsPerSecondPerHost: 1_000 })

describe("loadAndParse on the fixture site", () => {
  it.live("reads a product page's title, headings, absolute links, main text and spec table", () =>
    Effect.gen(function* () {
      const product = FIXTURE_PRODUCTS[4]!
      const page = yield* loadAndParse(`${site.url}/products/${product.id}`)
      assert.strictEqual(page.status, 200)
      assert.include(page.title, product.name)
      assert.include(page.headings, product.name)
      assert.isTrue(page.links.some((link) => link.url === `${site.url}/products?page=1`))
      assert.isTrue(page.links.every((link) => link.url.startsWith("http")))
      assert.include(page.mainText, product.name)
      assert.include(page.mainText, formatPrice(product.price))
      const table = page.tables.find((candidate) => candidate.caption === "Specifications")
      assert.isDefined(table)
      assert.deepInclude(table!.rows, ["SKU", product.sku])
      assert.deepInclude(table!.rows, ["Material", product.material])
    }).pipe(Effect.provide(sessionLayer)),
  )

  it.live("gives the product cards of a listing page as list rows, leaving navigation lists out", () =>
    Effect.gen(function* () {
      const page = yield* loadAndParse(`${site.url}/products?page=1`)
      const cards = page.lists
        .flatMap((list) => list.items)
        .filter((item) => item.links.some((url) => /\/products\/\d+$/.test(url)))
      assert.lengthOf(cards, 12)
      const names = cards.map((item) => item.cells[0]).sort()
      assert.deepStrictEqual(
        names,
        FIXTURE_PRODUCTS.slice(0, 12)
          .map((product) => product.name)
          .sort(),
      )
      assert.isFalse(page.lists.some((list) => list.items.some((item) => item.text === "Dashboard")))
    }).pipe(Effect.provide(sessionLayer)),
  )

  it.live("fails with UnsupportedContent for a JSON endpoint", () =>
    Effect.gen(function* () {
      const error = yield* Effect.flip(loadAndParse(`${site.url}/api/products?page=1`))
      assert.strictEqual(error.reason._tag, "UnsupportedContent")
      assert.include(error.message, "expected HTML")
    }).pipe(Effect.provide(sessionLayer)),
  )

  it.live("runs as a tool with validated input", () =>
    Effect.gen(function* () {
      assert.isFalse(loadAndParseTool.input.safeParse({ url: "ftp://example.test/" }).success)
      const output = yield* loadAndParseTool.run(
        loadAndParseTool.input.parse({ url: `${site.url}/`, maxTextChars: 40 }),
      )
      assert.isTrue(loadAndParseTool.output.safeParse(output).success)
      assert.isAtMost(output.mainText.length, 40)
    }).pipe(Effect.provide(sessionLayer)),
  )
})

describe("parsePage", () => {
  it("resolves links against <base>, reads meta and canonical, and keeps table headers apart", () => {
    const page = parsePage(
      `<html><head><title> Shop </title><base href="http://127.0.0.1/shop/">
      <meta name="description" content="Brass things"><meta property="og:title" content="Shop">
      <link rel="canonical" href="/shop/index"></head>
      <body><a href="item?id=1#top">One</a><a href="mailto:x@example.test">Mail</a>
      <table><thead><tr><th>Name</th><th>Price</th></tr></thead><tbody><tr><td>Lantern</td><td>$5.00</td></tr></tbody></table>
      </body></html>`,
      "http://127.0.0.1/",
    )
    assert.strictEqual(page.title, "Shop")
    assert.deepStrictEqual(page.links, [{ url: "http://127.0.0.1/shop/item?id=1", text: "One" }])
    assert.deepStrictEqual(page.meta, {
      description: "Brass things",
      "og:title": "Shop",
      canonical: "http://127.0.0.1/shop/index",
    })
    assert.deepStrictEqual(page.tables, [{ headers: ["Name", "Price"], rows: [["Lantern", "$5.00"]] }])
  })

  it("takes an article's main text with Mozilla Readability, leaving menus and footers out", () => {
    const paragraph = (index: number) =>
      `<p>Paragraph ${index} tells how a brass sextant measures the angle between the horizon and a star, and how a navigator turns that angle into a position line on the chart, with care and patience.</p>`
    const page = parsePage(
      `<html><head><title>Using a sextant</title></head><body>
      <nav><ul><li><a href="/">Home</a></li><li><a href="/shop">Shop menu</a></li></ul></nav>
      <article><h1>Using a sextant</h1>${[1, 2, 3, 4, 5, 6].map(paragraph).join("")}</article>
      <footer>Copyright footer text</footer></body></html>`,
      "http://127.0.0.1/guide",
    )
    assert.include(page.mainText, "Paragraph 1 tells how a brass sextant")
    assert.include(page.mainText, "Paragraph 6")
    assert.lengthOf(
      page.mainText.split("\n").filter((line) => line.startsWith("Paragraph")),
      6,
    )
    assert.notInclude(page.mainText, "Shop menu")
    assert.notInclude(page.mainText, "Copyright footer text")
  })
})

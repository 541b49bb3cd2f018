import { BrowserDriver } from "@sextant/core"
import { FIXTURE_PRODUCTS, formatPrice, formatRating, PRODUCTS_PER_PAGE } from "@sextant/fixture-site"
import { extractTool, FetchHttpSession, sql } from "@sextant/tools"
import { Effect } from "effect"
import { BenchError, interleave, type RunPlan } from "./Measure.ts"
import type { SextantSession } from "./Sextant.ts"
import type { Summary } from "./Stats.ts"

/** One product as every way of extracting reads it off the listing pages. */
export interface ExtractedProduct {
  readonly name: string
  readonly price: string
  readonly rating: string
}

/** One way of extracting the 60 products, timed end to end. */
export interface ExtractionResult {
  readonly way: string
  readonly products: number
  readonly time: Summary
  /** 60 / median seconds. */
  readonly productsPerSecond: number
}

const PAGE_COUNT = Math.ceil(FIXTURE_PRODUCTS.length / PRODUCTS_PER_PAGE)
const pageNumbers = Array.from({ length: PAGE_COUNT }, (_, index) => index + 1)

// Price and rating are both paragraphs whose order the seed shuffles; they differ by their text.
// Written without backslashes so the same pattern reads the same inside an SQL string literal.
const PRICE = /^[$][0-9]/
const RATING = /^[0-9][.][0-9]$/

/** Fails unless `products` are exactly the shop's 60, with their names, prices and ratings. */
export const checkProducts = (way: string, products: ReadonlyArray<ExtractedProduct>): void => {
  const expected = FIXTURE_PRODUCTS.map((product) =>
    JSON.stringify([product.name, formatPrice(product.price), formatRating(product.rating)]),
  ).sort()
  const actual = products
    .map((product) => JSON.stringify([product.name, product.price, product.rating]))
    .sort()
  if (JSON.stringify(actual) !== JSON.stringify(expected)) {
    const wrong = actual.filter((row) => !expected.includes(row)).slice(0, 3)
    throw new Error(
      `${way} extracted ${products.length} products, expected the shop's ${expected.length}; e.g. unexpected ${wrong.join(", ") || "(none)"}`,
    )
  }
}

/** The session-tools way: one SQL query over the five listing pages, fetched over HTTP. */
export const extractWithSql = (base: string): Promise<ReadonlyArray<ExtractedProduct>> => {
  const query = pageNumbers
    .map(
      (page) => `SELECT dom_text(html, 'h2') AS name,
        dom_match(html, 'p', '${PRICE.source}') AS price,
        dom_match(html, 'p', '${RATING.source}') AS rating
      FROM load_and_select('${base}/products?page=${page}', '[data-product-id]')`,
    )
    .join(" UNION ALL ")
  // A fresh session per run with the cache off, so every run fetches all five pages; the rate limit
  // is raised so the bench measures the tools rather than the politeness setting.
  const http = FetchHttpSession.layer({ cacheTtlMs: 0, requestsPerSecondPerHost: 1000 })
  return Effect.runPromise(
    sql(query).pipe(
      Effect.map((result) =>
        result.rows.map((row) => ({
          name: String(row.name ?? ""),
          price: String(row.price ?? ""),
          rating: String(row.rating ?? ""),
        })),
      ),
      Effect.provide(http),
    ),
  )
}

/**
 * The browser way: per listing page, navigate, optionally look() as an agent would, and read names,
 * prices and ratings with the `extract` tool.
 */
export const extractWithBrowser = async (
  base: string,
  session: SextantSession,
  withLook: boolean,
): Promise<ReadonlyArray<ExtractedProduct>> => {
  const products: Array<ExtractedProduct> = []
  for (const page of pageNumbers) {
    await session.navigate(`${base}/products?page=${page}`)
    if (withLook) await session.look("full")
    const read = (target: string) =>
      Effect.runPromise(
        extractTool
          .run({ target, mode: "text", all: true, limit: 500 })
          .pipe(Effect.provideService(BrowserDriver, session.driver)),
      )
    const names = await read("[data-product-id] h2")
    const facts = await read("[data-product-id] p")
    const texts = facts.values.map((value) => (value ?? "").trim())
    const prices = texts.filter((text) => PRICE.test(text))
    const ratings = texts.filter((text) => RATING.test(text))
    names.values.forEach((name, index) => {
      products.push({ name: (name ?? "").trim(), price: prices[index] ?? "", rating: ratings[index] ?? "" })
    })
  }
  return products
}

/** Times the three ways round by round and checks every run extracted the right 60 products. */
export const measureExtraction = async (
  base: string,
  plan: RunPlan,
  session: SextantSession,
): Promise<ReadonlyArray<ExtractionResult>> => {
  const ways = [
    { way: "session tools: HTTP + sql (one query)", run: () => extractWithSql(base) },
    { way: "browser: navigate + extract, per page", run: () => extractWithBrowser(base, session, false) },
    {
      way: "browser: navigate + look + extract, per page",
      run: () => extractWithBrowser(base, session, true),
    },
  ]
  const times = await interleave(
    "the 60-product extraction",
    plan,
    ways.map(({ way, run }) => ({
      piece: way,
      run: async () => {
        const products = await run()
        try {
          checkProducts(way, products)
        } catch (cause) {
          throw new BenchError(way, "the 60-product extraction", cause)
        }
      },
    })),
  )
  return ways.map(({ way }, index) => ({
    way,
    products: FIXTURE_PRODUCTS.length,
    time: times[index]!,
    productsPerSecond: FIXTURE_PRODUCTS.length / (times[index]!.median / 1000),
  }))
}

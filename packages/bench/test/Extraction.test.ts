import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import {
  FIXTURE_PRODUCTS,
  type FixtureSite,
  formatPrice,
  formatRating,
  startFixtureSite,
} from "@sextant/fixture-site"
import { checkProducts, extractWithSql } from "../src/Extraction.ts"

const shop = FIXTURE_PRODUCTS.map((product) => ({
  name: product.name,
  price: formatPrice(product.price),
  rating: formatRating(product.rating),
}))

describe("checkProducts", () => {
  it("accepts the shop's 60 products in any order", () => {
    expect(() => checkProducts("test", [...shop].reverse())).not.toThrow()
  })

  it("rejects a missing product and a wrong price, naming the way", () => {
    expect(() => checkProducts("sql", shop.slice(1))).toThrow(/sql extracted 59 products/)
    const wrong = shop.map((product, index) => (index === 0 ? { ...product, price: "$0.00" } : product))
    expect(() => checkProducts("browser", wrong)).toThrow(/unexpected .*\$0\.00/)
  })
})

describe("extractWithSql", () => {
  let site: FixtureSite
  beforeAll(async () => {
    site = await startFixtureSite({ port: 0, seed: 7 })
  })
  afterAll(() => site.close())

  it("reads all 60 products over HTTP even when the seed shuffles price and rating", async () => {
    const products = await extractWithSql(site.url)
    expect(() => checkProducts("sql", products)).not.toThrow()
  })
})

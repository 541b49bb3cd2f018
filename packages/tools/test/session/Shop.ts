import {
  FIXTURE_PRODUCTS,
  type FixtureSite,
  formatPrice,
  formatRating,
  startFixtureSite,
} from "@sextant/fixture-site"
import { afterAll, beforeAll } from "vitest"

/** What every extraction of the fixture shop must yield, in id order, as the pages show it. */
export const expectedProducts = FIXTURE_PRODUCTS.map((product) => ({
  id: product.id,
  name: product.name,
  price: formatPrice(product.price),
  rating: formatRating(product.rating),
}))
export type ExtractedProduct = (typeof expectedProducts)[number]

/** Sorts extracted products by id, for comparison with {@link expectedProducts}. */
export const byId = (products: ReadonlyArray<ExtractedProduct>): Array<ExtractedProduct> =>
  [...products].sort((left, right) => left.id - right.id)

/** Starts the fixture site with `seed` for the enclosing describe block; the getter gives the running site. */
export const useFixtureSite = (seed: number): (() => FixtureSite) => {
  let site: FixtureSite | undefined
  beforeAll(async () => {
    site = await startFixtureSite({ port: 0, seed })
  })
  afterAll(() => site?.close())
  return () => site!
}

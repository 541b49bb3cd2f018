import { assert, describe, it } from "@effect/vitest"
import { BrowserDriver } from "@sextant/core"
import { FIXTURE_PRODUCTS, type FixtureSite, startFixtureSite } from "@sextant/fixture-site"
import { WebdriverioDriver } from "@sextant/webdriverio"
import { Effect } from "effect"
import { afterAll, beforeAll } from "vitest"
import { tableToCsvTool } from "../src/index.ts"

let site: FixtureSite
beforeAll(async () => {
  site = await startFixtureSite({ port: 0, seed: 3 })
})
afterAll(async () => {
  await site?.close()
})

const product = FIXTURE_PRODUCTS[0]!

describe("tableToCsv in Chromium on the fixture shop", () => {
  it.live("turns a product's specification table into CSV, one row per spec", () =>
    Effect.gen(function* () {
      const driver = yield* BrowserDriver
      yield* driver.navigate(`${site.url}/products/${product.id}`)
      const result = yield* tableToCsvTool.run(tableToCsvTool.input.parse({ target: "table" }))
      assert.strictEqual(result.rows, 5)
      assert.strictEqual(result.columns, 2)
      assert.strictEqual(result.caption, "Specifications")
      const lines = result.csv.trim().split("\n").sort()
      assert.deepStrictEqual(
        lines,
        [
          `Availability,${product.inStock ? "In stock" : "Out of stock"}`,
          `Category,${product.category}`,
          `Material,${product.material}`,
          `SKU,${product.sku}`,
          `Weight,${product.weightGrams} g`,
        ].sort(),
      )
    }).pipe(Effect.provide(WebdriverioDriver.layerShared())),
  )

  it.live("names the selector when no table matches", () =>
    Effect.gen(function* () {
      const driver = yield* BrowserDriver
      yield* driver.navigate(`${site.url}/products/${product.id}`)
      const error = yield* Effect.flip(
        tableToCsvTool.run(tableToCsvTool.input.parse({ target: "#no-such-table" })),
      )
      assert.strictEqual(error._tag, "DriverError")
      assert.include(error.message, "no element matches #no-such-table")
    }).pipe(Effect.provide(WebdriverioDriver.layerShared())),
  )

  it("describes itself so a planner can pick it by name", () => {
    assert.strictEqual(tableToCsvTool.name, "tableToCsv")
    assert.include(tableToCsvTool.description, "CSV")
    assert.isTrue(tableToCsvTool.effects.reads)
  })
})

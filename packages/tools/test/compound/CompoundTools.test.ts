import { BrowserDriver } from "@sextant/core"
import { FIXTURE_PRODUCTS, FIXTURE_USERS } from "@sextant/fixture-site"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { navigateTool } from "../../src/browser/Navigation.ts"
import type { CompoundError } from "../../src/compound/CompoundError.ts"
import { compoundTools } from "../../src/compound/CompoundTools.ts"
import { detailPageExtractorTool } from "../../src/compound/DetailPageExtractor.ts"
import { extractListTool } from "../../src/compound/ExtractList.ts"
import { fillFormTool } from "../../src/compound/FillForm.ts"
import { loginTool } from "../../src/compound/Login.ts"
import { paginationTool } from "../../src/compound/Pagination.ts"
import { searchTool } from "../../src/compound/Search.ts"
import { type Harness, openHarness } from "../browser/Harness.ts"

const seeds = [0, 7]
let harness: Harness
beforeAll(async () => {
  harness = await openHarness(seeds)
})
afterAll(async () => {
  await harness?.close()
})

const alice = FIXTURE_USERS[0]!
const listSchema = { id: "integer", name: "string", price: "number", rating: "number", url: "url" } as const

/** A product as the list pages show it, read back through the schema above. */
const listed = (seed: number) => (product: (typeof FIXTURE_PRODUCTS)[number]) => ({
  id: product.id,
  name: product.name,
  price: product.price,
  rating: product.rating,
  url: harness.url(`/products/${product.id}`, seed),
})

const byId = (records: ReadonlyArray<Record<string, unknown>>) =>
  [...records].sort((left, right) => Number(left.id) - Number(right.id))

it("lists the six compound tools once each", () => {
  expect(compoundTools.map((tool) => tool.name).sort()).toEqual(
    ["detailPageExtractor", "extractList", "fillForm", "login", "pagination", "search"].sort(),
  )
})

for (const seed of seeds) {
  describe(`compound tools on the fixture shop with seed ${seed}, no selectors given`, () => {
    const open = (path: string) => harness.run(navigateTool.run({ url: harness.url(path, seed) }))

    it("login with a wrong password fails with the page's error text", async () => {
      await open("/login")
      const error = (await harness.fail(
        loginTool.run({ username: alice.email, password: "not-the-password" }),
      )) as CompoundError
      expect(error._tag).toBe("CompoundError")
      expect(error.reason._tag).toBe("LoginRejected")
      expect(error.reason).toMatchObject({ pageError: "Invalid email or password" })
      expect(error.isRetryable).toBe(false)
      expect(error.message).not.toContain("not-the-password")
    })

    it("login with the right password reports the page it moved on to", async () => {
      await open("/login")
      const result = await harness.run(loginTool.run({ username: alice.email, password: alice.password }))
      expect(result.url).toBe(harness.url("/dashboard", seed))
      const greeting = await harness.run(
        BrowserDriver.use((driver) => driver.evaluate("return document.body.innerText")),
      )
      expect(greeting).toContain(`Welcome, ${alice.name}`)
      await open("/logout")
    })

    it("login on a site that asks for a one-time code next fails naming the code field, not loggedIn", async () => {
      await open("/login/two-step")
      const error = (await harness.fail(
        loginTool.run({ username: alice.email, password: alice.password }),
      )) as CompoundError
      expect(error._tag).toBe("CompoundError")
      expect(error.reason._tag).toBe("SignInUnfinished")
      expect(error.reason).toMatchObject({ asks: 'one-time code field "Verification code"' })
      expect(error.message).toContain("asks for a one-time code")
      // A retry would post the password a second time.
      expect(error.isRetryable).toBe(false)
      expect(error.message).not.toContain(alice.password)
    })

    it("login on a site that says the account is locked fails quoting the sentence, not loggedIn", async () => {
      await open("/login/locked")
      const error = (await harness.fail(
        loginTool.run({ username: alice.email, password: alice.password }),
      )) as CompoundError
      expect(error.reason._tag).toBe("SignInUnfinished")
      expect(error.message).toContain('says "')
      expect(error.message).toContain("This account is locked after too many failed sign-in attempts.")
      expect(error.isRetryable).toBe(false)
    })

    it("login on the locked page quotes only the page's sentence, none of the header and nav bar above it", async () => {
      await open("/login/locked")
      const error = (await harness.fail(
        loginTool.run({ username: alice.email, password: alice.password }),
      )) as CompoundError
      // The page's text runs "Sextant Shop Home Products … Cart: 0 Sign in" into the message with no
      // sentence end between them.
      expect(error.reason).toMatchObject({
        asks: "This account is locked after too many failed sign-in attempts.",
      })
      for (const word of ["Sextant Shop", "Home", "Products", "Dashboard", "Cart", "Contact support"])
        expect(error.message).not.toContain(word)
    })

    it("login takes selectors when given, and names the missing control on a page without a login form", async () => {
      await open("/search")
      const missing = (await harness.fail(
        loginTool.run({ username: alice.email, password: alice.password }),
      )) as CompoundError
      expect(missing.reason._tag).toBe("ControlNotFound")
      expect(missing.message).toContain("no password field")
      await open("/login")
      const result = await harness.run(
        loginTool.run({
          username: alice.email,
          password: alice.password,
          selectors: {
            username: "input[name=email]",
            password: "input[name=password]",
            submit: "form button",
          },
        }),
      )
      expect(result.url).toBe(harness.url("/dashboard", seed))
      await open("/logout")
    })

    it("search finds the search box, submits the query and counts the results", async () => {
      await open("/search")
      const wanted = FIXTURE_PRODUCTS.filter((product) =>
        `${product.name} ${product.category} ${product.material}`.toLowerCase().includes("lantern"),
      )
      const found = await harness.run(searchTool.run({ query: "lantern" }))
      expect(found.url).toBe(harness.url("/search?q=lantern", seed))
      expect(found.resultCount).toBe(wanted.length)
      expect(found.noResults).toBeUndefined()
      const none = await harness.run(searchTool.run({ query: "submarine" }))
      expect(none.resultCount).toBe(0)
      expect(none.noResults).toContain("No results")
    })

    it("extractList finds the product cards by structure and validates each record", async () => {
      await open("/products?page=3")
      const list = await harness.run(
        extractListTool.run(
          extractListTool.input.parse({ fields: Object.keys(listSchema), schema: listSchema }),
        ),
      )
      expect(list.count).toBe(12)
      expect(list.rejected).toEqual([])
      expect(byId(list.records)).toEqual(FIXTURE_PRODUCTS.slice(24, 36).map(listed(seed)))
    })

    it("extractList names the failing field of a record that does not fit, or fails when asked", async () => {
      const schema = { name: "string", price: "integer" }
      const list = await harness.run(extractListTool.run(extractListTool.input.parse({ schema })))
      const fractional = list.rejected.map((record) => record.issues.join(" "))
      expect(list.records.length + list.rejected.length).toBe(12)
      expect(list.rejected.length).toBeGreaterThan(0)
      expect(fractional.every((issue) => /^records\[\d+\]\.price: /.test(issue))).toBe(true)
      const error = (await harness.fail(
        extractListTool.run(extractListTool.input.parse({ schema, onInvalid: "fail" })),
      )) as CompoundError
      expect(error.reason._tag).toBe("RecordsInvalid")
      expect(error.message).toMatch(/records\[\d+\]\.price/)
    })

    it("pagination follows Next through all five pages and extracts the 60 products", async () => {
      await open("/products?page=1")
      const walked = await harness.run(
        paginationTool.run(
          paginationTool.input.parse({
            limit: 10,
            extract: { fields: Object.keys(listSchema), schema: listSchema },
          }),
        ),
      )
      expect(walked.pages.map((page) => page.url)).toEqual(
        [1, 2, 3, 4, 5].map((page) => harness.url(`/products?page=${page}`, seed)),
      )
      expect(walked.stoppedBecause).toBe("no-next")
      expect(walked.rejected).toEqual([])
      expect(byId(walked.records)).toEqual(FIXTURE_PRODUCTS.map(listed(seed)))
    })

    it("pagination with a given Next selector stops when Next is gone", async () => {
      await open("/products?page=3")
      const walked = await harness.run(
        paginationTool.run(paginationTool.input.parse({ limit: 10, next: "a[rel=next]" })),
      )
      expect(walked.pages.map((page) => page.url)).toEqual(
        [3, 4, 5].map((page) => harness.url(`/products?page=${page}`, seed)),
      )
      expect(walked.stoppedBecause).toBe("no-next")
    })

    it("pagination stops at the page limit", async () => {
      await open("/products?page=1")
      const walked = await harness.run(paginationTool.run(paginationTool.input.parse({ limit: 2 })))
      expect(walked.pages).toHaveLength(2)
      expect(walked.stoppedBecause).toBe("limit")
    })

    const detailSchema = {
      name: "string",
      price: "number",
      sku: "string",
      category: "string",
      material: "string",
      weight: "integer",
      availability: "boolean",
    }
    const detailed = (product: (typeof FIXTURE_PRODUCTS)[number]) => ({
      url: harness.url(`/products/${product.id}`, seed),
      name: product.name,
      price: product.price,
      sku: product.sku,
      category: product.category,
      material: product.material,
      weight: product.weightGrams,
      availability: product.inStock,
    })

    it("detailPageExtractor reads the server-rendered detail pages over HTTP after checking the first in the browser", async () => {
      await open("/products?page=2")
      const details = await harness.run(
        detailPageExtractorTool.run(detailPageExtractorTool.input.parse({ schema: detailSchema, limit: 12 })),
      )
      expect(details.mode).toBe("http")
      expect(details.why).toContain("read the same")
      expect(details.failed).toEqual([])
      expect(details.rejected).toEqual([])
      const wanted = FIXTURE_PRODUCTS.slice(12, 24).map(detailed)
      expect([...details.records].sort((a, b) => String(a.url).localeCompare(String(b.url)))).toEqual(
        wanted.sort((a, b) => a.url.localeCompare(b.url)),
      )
      expect(await harness.run(BrowserDriver.use((driver) => driver.currentUrl))).toBe(
        harness.url("/products?page=2", seed),
      )
    })

    it("detailPageExtractor takes a links selector and field selectors, and http mode skips the browser check", async () => {
      await open("/products?page=1")
      const details = await harness.run(
        detailPageExtractorTool.run(
          detailPageExtractorTool.input.parse({
            linksSelector: "main a[href^='/products/']",
            item: { name: "h1", sku: { selector: "td", pattern: "^SX-" } },
            limit: 4,
            mode: "http",
          }),
        ),
      )
      expect(details.mode).toBe("http")
      expect(details.records).toHaveLength(4)
      const byUrl = new Map(
        FIXTURE_PRODUCTS.map((product) => [harness.url(`/products/${product.id}`, seed), product]),
      )
      for (const record of details.records) {
        const product = byUrl.get(String(record.url))
        expect(record).toEqual({ url: record.url, name: product?.name, sku: product?.sku })
      }
    })

    it("detailPageExtractor in browser mode reads the same records and returns to the list", async () => {
      await open("/products?page=5")
      const details = await harness.run(
        detailPageExtractorTool.run(
          detailPageExtractorTool.input.parse({ schema: detailSchema, limit: 3, mode: "browser" }),
        ),
      )
      expect(details.mode).toBe("browser")
      expect(details.records).toHaveLength(3)
      const wanted = new Map(
        FIXTURE_PRODUCTS.map((product) => [harness.url(`/products/${product.id}`, seed), detailed(product)]),
      )
      for (const record of details.records) expect(record).toEqual(wanted.get(String(record.url)))
      expect(await harness.run(BrowserDriver.use((driver) => driver.currentUrl))).toBe(
        harness.url("/products?page=5", seed),
      )
    })

    it("fillForm fills the contact form by labels and submits it", async () => {
      await open("/forms/contact")
      const filled = await harness.run(
        fillFormTool.run(
          fillFormTool.input.parse({
            values: {
              Name: "Ada Lovelace",
              Email: "ada@example.com",
              Topic: "Sales",
              "Preferred contact": "Phone",
              "Subscribe to the newsletter": true,
              Message: "Please send the brass catalogue.",
            },
            submit: true,
          }),
        ),
      )
      expect(filled.filled.map((field) => field.op)).toEqual([
        "input",
        "input",
        "select",
        "check",
        "check",
        "input",
      ])
      expect(filled.submitted).toBe(true)
      const page = String(
        await harness.run(BrowserDriver.use((driver) => driver.evaluate("return document.body.innerText"))),
      )
      for (const shown of ["Ada Lovelace", "ada@example.com", "Please send the brass catalogue."])
        expect(page).toContain(shown)
      expect(page).toMatch(/Sales/i)
      expect(page).toMatch(/Phone/i)
    })
  })
}

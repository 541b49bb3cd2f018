import { mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { createRequire } from "node:module"
import { join } from "node:path"
import { type FixtureSite, startFixtureSite } from "@sextant/fixture-site"
import { openSharedTestBrowser, type TestBrowser } from "@sextant/fixture-site/test-browser"
import { runNode } from "@sextant/testing"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type ApiExchange, exportApiTests, schemaOf } from "../src/index.ts"

const vitest = join(createRequire(import.meta.url).resolve("vitest/package.json"), "..", "vitest.mjs")
// Inside the package, so the exported file's `vitest` and `zod` imports resolve as in a user's project.
const directory = mkdtempSync(join(import.meta.dirname, "..", ".exported-"))
let site: FixtureSite
let browser: TestBrowser

beforeAll(async () => {
  site = await startFixtureSite()
  browser = await openSharedTestBrowser()
})
afterAll(async () => {
  await browser?.close()
  await site?.close()
  rmSync(directory, { recursive: true, force: true })
})

/** Records a run's HTTP traffic from WebDriver BiDi network events, with request and response bodies. */
const recordTraffic = async (act: () => Promise<void>): Promise<Array<ApiExchange>> => {
  const session = browser.browser
  await session.sessionSubscribe({ events: ["network.responseCompleted"] })
  const { collector } = await session.networkAddDataCollector({
    dataTypes: ["response", "request"] as Array<"response">,
    maxEncodedDataSize: 1_000_000,
  })
  const completed: Array<{ id: string; method: string; url: string; status: number; mimeType: string }> = []
  const listener = (event: {
    request: { request: string; method: string; url: string }
    response: { status: number; mimeType: string }
  }) =>
    completed.push({
      id: event.request.request,
      method: event.request.method,
      url: event.request.url,
      status: event.response.status,
      mimeType: event.response.mimeType,
    })
  session.on("network.responseCompleted", listener)
  try {
    await act()
  } finally {
    session.off("network.responseCompleted", listener)
  }
  const text = async (id: string, dataType: "request" | "response") => {
    const data = (await session
      .networkGetData({ dataType: dataType as "response", request: id, collector })
      .catch(() => undefined)) as { bytes?: { type: string; value: string } } | undefined
    const bytes = data?.bytes
    if (bytes === undefined) return undefined
    return bytes.type === "base64" ? Buffer.from(bytes.value, "base64").toString("utf8") : bytes.value
  }
  const exchanges: Array<ApiExchange> = []
  for (const entry of completed) {
    if (!entry.mimeType.includes("json")) continue
    const requestBody = entry.method === "GET" ? undefined : await text(entry.id, "request")
    exchanges.push({
      method: entry.method,
      url: entry.url,
      status: entry.status,
      responseContentType: entry.mimeType,
      responseBody: await text(entry.id, "response"),
      ...(requestBody === undefined ? {} : { requestBody, requestContentType: "application/json" }),
    })
  }
  return exchanges
}

const runVitest = (file: string, baseUrl: string) => {
  writeFileSync(join(directory, "vitest.config.mjs"), `export default { test: { include: ["*.test.ts"] } }\n`)
  return runNode([vitest, "run", "--root", directory, file], { API_BASE_URL: baseUrl })
}

describe("schemaOf", () => {
  it("infers types, not values, and makes keys only some items have optional", () => {
    expect(
      schemaOf({
        count: 2,
        items: [
          { id: 1, note: null },
          { id: 2, note: "x", extra: true },
        ],
      }),
    ).toBe(
      "z.object({\n  count: z.number(),\n  items: z.array(z.object({\n    id: z.number(),\n    note: z.string().nullable(),\n    extra: z.boolean().optional(),\n  })),\n})",
    )
  })
})

describe("exportApiTests from a search and add-to-cart run", () => {
  it("writes vitest tests that pass against the site and fail when the API changes a field's type", async () => {
    const session = browser.browser
    const exchanges = await recordTraffic(async () => {
      await session.url(`${site.url}/search`)
      await (await session.$('input[name="q"]')).setValue("brass")
      await session.waitUntil(async () => (await session.$$('[role="option"]').length) > 0, { timeout: 5000 })
      await session.url(`${site.url}/products/3`)
      await (await session.$("button=Add to cart")).click()
      await session.waitUntil(async () => (await session.$("#cart-count").getText()) === "1", {
        timeout: 5000,
      })
    })
    const calls = exchanges.map((exchange) => `${exchange.method} ${new URL(exchange.url).pathname}`)
    expect(calls).toContain("GET /api/suggest")
    expect(calls).toContain("POST /api/cart")
    expect(exchanges.find((exchange) => exchange.method === "POST")?.requestBody).toBe(
      '{"productId":3,"quantity":1}',
    )

    const source = exportApiTests(exchanges, { name: "shop API" })
    expect(source).not.toContain(`${site.url.replace("http://", "")}/api`)
    const file = join(directory, "shop.api.test.ts")
    writeFileSync(file, source)

    const passing = await runVitest(file, site.url)
    expect(passing.output).toMatch(/Tests\s+\d+ passed/)
    expect(passing.code).toBe(0)

    const changed = await startFixtureSite({ drift: ["cart-quantity-text"] })
    try {
      const failing = await runVitest(file, changed.url)
      console.log(
        failing.output
          .split("\n")
          .filter((line) => /FAIL|quantity|Tests /.test(line))
          .join("\n"),
      )
      expect(failing.output).toContain("items.0.quantity: Invalid input: expected number, received string")
      expect(failing.output).toMatch(/POST \/api\/cart answers 200 with the observed shape/)
      expect(failing.code).toBe(1)
    } finally {
      await changed.close()
    }
  }, 300_000)

  it("refuses a run without JSON traffic, saying why", () => {
    expect(() =>
      exportApiTests([
        {
          method: "GET",
          url: `${site.url}/`,
          status: 200,
          responseContentType: "text/html",
          responseBody: "<p>hi</p>",
        },
      ]),
    ).toThrow("no JSON exchange to export: the run called no JSON endpoint")
  })
})

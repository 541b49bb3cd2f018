import type { TraceRecord } from "@sextant/executor"
import { describe, expect, it } from "vitest"
import { type ApiExchange, exportApiTests, runStartUrl } from "../src/index.ts"

/**
 * The API tests a run's traffic becomes send the cookie (and the run's secrets) to their base URL: only
 * the calls to the site the run was on become tests, never a call a page made to another origin.
 */

const SITE = "http://127.0.0.1:4601"
const OTHER = "http://127.0.0.1:4602"

const exchange = (url: string, method = "GET"): ApiExchange => ({
  method,
  url,
  status: 200,
  responseContentType: "application/json",
  responseBody: '{"ok":true}',
  ...(method === "POST" ? { requestBody: '{"user":"ann"}', requestContentType: "application/json" } : {}),
})

// A page on the site that fetched a third party's JSON first, then the site's own login API.
const traffic = [exchange(`${OTHER}/config.json`), exchange(`${SITE}/api/login`, "POST")]

describe("exportApiTests bound to the site the run was on", () => {
  it("tests only the calls to that origin, uses it as the base URL and says which origins were left out", () => {
    const source = exportApiTests(traffic, { name: "shop API", origin: `${SITE}/json-login` })
    expect(source).toContain('"POST /api/login answers 200 with the observed shape"')
    expect(source).not.toContain("config.json")
    expect(source).toContain(`const baseUrl = process.env.API_BASE_URL ?? "${SITE}"`)
    expect(source).toContain(`// Left out: 1 JSON call(s) the run's pages made to other origins (${OTHER})`)
  })

  it("never turns a call to the site into a request to another origin when no origin is given", () => {
    const source = exportApiTests(traffic, { name: "shop API" })
    // The first JSON call names the base URL; the site's login call is not replayed against it.
    expect(source).not.toContain("/api/login")
    expect(source).toContain(`(${SITE})`)
  })

  it("refuses traffic with no JSON call on the site, naming where the calls went", () => {
    expect(() => exportApiTests([exchange(`${OTHER}/config.json`)], { origin: SITE })).toThrow(
      `no JSON exchange to export on ${SITE}, the site the run was on: the run called JSON endpoints only on ${OTHER}`,
    )
  })

  it("reads the site from the run's first navigation", () => {
    const records = [
      {
        type: "recorded",
        runId: "r",
        actions: [{ kind: "navigate", url: `${SITE}/json-login` }],
        exchanges: [],
      },
    ] as unknown as ReadonlyArray<TraceRecord>
    expect(runStartUrl(records)).toBe(`${SITE}/json-login`)
    expect(runStartUrl([])).toBeUndefined()
  })
})

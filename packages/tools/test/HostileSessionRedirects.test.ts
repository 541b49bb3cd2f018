import { assert, describe, it } from "@effect/vitest"
import { type HttpError, SessionOrigins } from "@sextant/core"
import {
  type AttackerOrigin,
  type FixtureSite,
  startAttackerOrigin,
  startFixtureSite,
} from "@sextant/fixture-site"
import { SqliteStore } from "@sextant/memory"
import { Effect, Layer } from "effect"
import { afterAll, beforeAll, beforeEach } from "vitest"
import { crawl } from "../src/session/Crawl.ts"
import * as FetchHttpSession from "../src/session/FetchHttpSession.ts"
import { loadAndParse, loadAndParseTool } from "../src/session/LoadAndParse.ts"
import { sqlTool } from "../src/session/Sql.ts"

let site: FixtureSite
let attacker: AttackerOrigin
let requestsBefore = 0

beforeAll(async () => {
  site = await startFixtureSite({ port: 0 })
  attacker = await startAttackerOrigin()
})
afterAll(async () => {
  await site?.close()
  await attacker?.close()
})
beforeEach(() => {
  requestsBefore = attacker.requests.length
})

const session = FetchHttpSession.layer({ requestsPerSecondPerHost: 1_000, maxRetries: 0, cacheTtlMs: 0 })
const onlySite = () => Effect.provideService(SessionOrigins, { allowed: [site.url] })
const redirectTo = (to: string, status = 302) =>
  `${site.url}/redirect?${new URLSearchParams({ to, status: String(status) })}`
const attackerGotNothing = () =>
  assert.deepStrictEqual(
    attacker.requests.slice(requestsBefore),
    [],
    "the attacker origin received a request",
  )

const httpErrorOf = <A, R>(effect: Effect.Effect<A, unknown, R>) =>
  Effect.map(Effect.flip(effect), (error) => error as HttpError)

describe("session tools follow no redirect off the allowed origins", () => {
  for (const status of [301, 302, 303, 307, 308]) {
    it.live(`loadAndParse refuses a ${status} to another origin and names the hop`, () =>
      Effect.gen(function* () {
        const start = redirectTo(`${attacker.url}/stolen`, status)
        const error = yield* httpErrorOf(loadAndParse(start)).pipe(onlySite())
        assert.strictEqual(error._tag, "HttpError")
        assert.strictEqual(error.reason._tag, "OriginNotAllowed")
        assert.include(error.message, `redirect from ${start} to ${attacker.url}/stolen refused`)
        assert.include(error.message, `${attacker.url} is not an allowed origin (allowed: ${site.url})`)
        attackerGotNothing()
      }).pipe(Effect.provide(session)),
    )
  }

  it.live("refuses the off-site hop of a chain that starts on the allowed origin", () =>
    Effect.gen(function* () {
      const chain = redirectTo(redirectTo(`${attacker.url}/chain`, 302), 307)
      const error = yield* httpErrorOf(loadAndParseTool.run({ url: chain })).pipe(onlySite())
      assert.strictEqual(error.reason._tag, "OriginNotAllowed")
      assert.include(error.message, `to ${attacker.url}/chain refused`)
      attackerGotNothing()
    }).pipe(Effect.provide(session)),
  )

  it.live("refuses a Location spelt http:/\\host, read as the WHATWG parser reads it", () =>
    Effect.gen(function* () {
      const sneaky = `http:/\\${new URL(attacker.url).host}/backslash`
      const error = yield* httpErrorOf(loadAndParse(redirectTo(sneaky))).pipe(onlySite())
      assert.strictEqual(error.reason._tag, "OriginNotAllowed")
      assert.include(error.message, `to ${attacker.url}/backslash refused`)
      attackerGotNothing()
    }).pipe(Effect.provide(session)),
  )

  it.live("follows a redirect that stays on the allowed origin", () =>
    Effect.gen(function* () {
      const page = yield* loadAndParse(redirectTo("/products?page=2", 307)).pipe(onlySite())
      assert.strictEqual(page.url, `${site.url}/products?page=2`)
      assert.isAbove(page.links.length, 0)
    }).pipe(Effect.provide(session)),
  )

  it.live("refuses a redirect to a scheme other than http(s) even with every origin allowed", () =>
    Effect.gen(function* () {
      const error = yield* httpErrorOf(loadAndParse(redirectTo("file:///etc/hostname")))
      assert.strictEqual(error.reason._tag, "OriginNotAllowed")
      assert.include(error.message, "only http and https are followed, not file:")
    }).pipe(Effect.provide(session)),
  )

  it.live("does not serve from its cache a page an unrestricted fetch got from another origin", () =>
    Effect.gen(function* () {
      const start = redirectTo(`${attacker.url}/cached`)
      // First without origins (any is allowed): the page comes from the attacker and is cached.
      const open = yield* loadAndParse(start)
      assert.strictEqual(open.url, `${attacker.url}/cached`)
      requestsBefore = attacker.requests.length
      const error = yield* httpErrorOf(loadAndParse(start)).pipe(onlySite())
      assert.strictEqual(error.reason._tag, "OriginNotAllowed")
      assert.include(error.message, `redirect from ${start} to ${attacker.url}/cached refused`)
      attackerGotNothing()
    }).pipe(Effect.provide(FetchHttpSession.layer({ maxRetries: 0 }))),
  )

  it.live("stops a chain longer than maxRedirects", () =>
    Effect.gen(function* () {
      const chain = redirectTo(redirectTo(redirectTo("/products")))
      const error = yield* httpErrorOf(loadAndParse(chain)).pipe(
        Effect.provide(FetchHttpSession.layer({ maxRedirects: 2, maxRetries: 0, cacheTtlMs: 0 })),
      )
      assert.strictEqual(error.reason._tag, "InvalidUrl")
      assert.include(error.message, "it redirected more than 2 times")
    }),
  )
})

describe("the sql tool checks the parsed URL of every page it loads", () => {
  it.live(
    "refuses load_and_select('http:/\\attacker…') hidden behind a comment naming the allowed site",
    () =>
      Effect.gen(function* () {
        const host = new URL(attacker.url).host
        // A check on the query's text sees only the commented-out URL; the loader reads the other one.
        const query = `SELECT text FROM load_and_select(/* '${site.url}/products' */ 'http:/\\${host}/sql', 'p')`
        const error = yield* httpErrorOf(sqlTool.run({ query })).pipe(onlySite())
        assert.strictEqual(error._tag, "HttpError")
        assert.strictEqual(error.reason._tag, "OriginNotAllowed")
        assert.include(error.message, `request to ${attacker.url}/sql refused`)
        attackerGotNothing()
      }).pipe(Effect.provide(session)),
  )

  it.live("refuses a page of the query that redirects off the allowed origin", () =>
    Effect.gen(function* () {
      const query = `SELECT text FROM load_and_select('${redirectTo(`${attacker.url}/sql-redirect`)}', 'p')`
      const error = yield* httpErrorOf(sqlTool.run({ query })).pipe(onlySite())
      assert.strictEqual(error.reason._tag, "OriginNotAllowed")
      assert.include(error.message, `to ${attacker.url}/sql-redirect refused`)
      attackerGotNothing()
    }).pipe(Effect.provide(session)),
  )
})

describe("crawl", () => {
  it.live("fails a page whose redirect leaves the allowed origins and loads nothing from there", () =>
    Effect.gen(function* () {
      const summary = yield* crawl({
        frontier: "hostile",
        runId: "hostile-crawl",
        startUrls: [redirectTo(`${attacker.url}/crawl`, 307)],
      }).pipe(onlySite())
      assert.strictEqual(summary.pagesFailed, 1)
      assert.strictEqual(summary.pagesLoaded, 0)
      attackerGotNothing()
    }).pipe(Effect.provide(Layer.merge(session, SqliteStore.layerMemory))),
  )
})

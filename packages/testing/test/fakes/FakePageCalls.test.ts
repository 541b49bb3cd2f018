import { assert, describe, it } from "@effect/vitest"
import { pageCall } from "@sextant/perception"
import { Effect } from "effect"
import { makeFakeBrowserDriver } from "../../src/index.ts"

const site = {
  "/list": `<html><head><title>List</title></head><body><h1>Cards</h1><div class="card">One</div><div class="card">Two</div></body></html>`,
  "/empty": `<p>Nothing here</p>`,
}

describe("makeFakeBrowserDriver callPage", () => {
  it.effect(
    "runs perception's page function against the fake's page, and the next page after a navigation",
    () =>
      Effect.gen(function* () {
        const fake = makeFakeBrowserDriver({ site })
        const request = { selectors: [".card", "h1", "[["], texts: ["Two", "Three"] }
        yield* fake.driver.navigate("http://fake.test/list")
        const facts = yield* pageCall(fake.driver, "criteriaFacts", request)
        assert.deepStrictEqual(facts, {
          url: "http://fake.test/list",
          counts: { ".card": 2, h1: 1, "[[": -1 },
          texts: { Two: true, Three: false },
        })
        yield* fake.driver.navigate("http://fake.test/empty")
        const after = yield* pageCall(fake.driver, "criteriaFacts", request)
        assert.strictEqual(after.url, "http://fake.test/empty")
        assert.deepStrictEqual(after.counts, { ".card": 0, h1: 0, "[[": -1 })
        assert.deepStrictEqual(after.texts, { Two: false, Three: false })
        assert.deepStrictEqual(
          fake.calls.filter((call) => call.method === "callPage").map((call) => call.target),
          ["criteriaFacts", "criteriaFacts"],
        )
      }),
  )

  it.effect("keeps the runtime in a window of its own, not in Node's globals", () =>
    Effect.gen(function* () {
      const fake = makeFakeBrowserDriver({ site })
      yield* fake.driver.navigate("http://fake.test/list")
      yield* pageCall(fake.driver, "criteriaFacts", { selectors: [], texts: [] })
      assert.strictEqual((globalThis as { __sextant?: unknown }).__sextant, undefined)
    }),
  )

  it.effect("fails with InvalidArgument for a name the page runtime does not have", () =>
    Effect.gen(function* () {
      const fake = makeFakeBrowserDriver({ site })
      yield* fake.driver.navigate("http://fake.test/list")
      const failed = yield* Effect.flip(fake.driver.callPage("noSuchFunction", []))
      assert.strictEqual(failed.reason._tag, "InvalidArgument")
      assert.include(failed.message, 'the page runtime has no function "noSuchFunction"')
    }),
  )

  it.effect("fails with ScriptError when the page function throws", () =>
    Effect.gen(function* () {
      const fake = makeFakeBrowserDriver({ site })
      yield* fake.driver.navigate("http://fake.test/list")
      const failed = yield* Effect.flip(fake.driver.callPage("criteriaFacts", []))
      assert.strictEqual(failed.reason._tag, "ScriptError")
      assert.match(
        failed.message,
        /^BrowserDriver\.callPage: the page script failed: criteriaFacts threw: TypeError/,
      )
    }),
  )
})

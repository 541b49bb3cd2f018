import { assert, describe, it } from "@effect/vitest"
import { type AgentError, BrowserDriver, decodeAgentTask, type InvalidInput, Store } from "@sextant/core"
import { Planner } from "@sextant/planner"
import { layerMemoryStore, makeFakeBrowserDriver } from "@sextant/testing"
import { Effect, Layer } from "effect"
import { resume } from "../src/index.ts"
import { planOf, scriptedPlanner, testTools } from "./support/TestTools.ts"

const ORIGIN = "http://shop.test"

describe("resume without the secrets a run needs", () => {
  it.effect("refuses to start, naming each missing secret, and touches no page", () => {
    const fake = makeFakeBrowserDriver({ site: { "/login": "<form><input type=password></form>" } })
    const layer = Layer.mergeAll(
      Layer.succeed(BrowserDriver, fake.driver),
      Layer.succeed(Planner, scriptedPlanner([]).planner),
      layerMemoryStore,
    )
    return Effect.gen(function* () {
      const task = yield* decodeAgentTask({
        id: "task",
        goal: "log in",
        startUrl: `${ORIGIN}/login`,
        inputs: { username: "alice", password: "<secret:password>", pin: "<secret:pin>" },
        secretInputs: ["password", "pin"],
      })
      const store = yield* Store
      yield* store.saveRun({
        runId: "half-done",
        task,
        status: "RUNNING",
        mode: "plan",
        startedAt: new Date().toISOString(),
        updatedAt: new Date().toISOString(),
        plan: planOf("task", [
          { tool: "navigate", args: { url: `${ORIGIN}/login` } },
          { tool: "fill", args: { target: "input[type=password]", value: "<secret:password>" } },
        ]),
      })
      const error = yield* Effect.flip(resume("half-done", { tools: testTools, secrets: { password: "x" } }))
      const reason = (error as AgentError).reason as InvalidInput
      assert.strictEqual(reason._tag, "InvalidInput")
      assert.strictEqual(reason.what, "resume secrets")
      assert.deepStrictEqual(
        reason.issues.map((issue) => issue.split(":")[0]),
        ["secrets.pin"],
      )
      const none = yield* Effect.flip(resume("half-done", { tools: testTools }))
      assert.include(none.message, "secrets.password")
      assert.include(none.message, "secrets.pin")
      assert.deepStrictEqual(fake.requests, [])
    }).pipe(Effect.provide(layer))
  })
})

import { assert, describe, it } from "@effect/vitest"
import { type AgentError, BrowserDriver, decodeAgentTask, type InvalidInput, Store } from "@sextant/core"
import { Planner } from "@sextant/planner"
import { MemoryStore, makeFakeBrowserDriver } from "@sextant/testing"
import { Effect, Layer } from "effect"
import { resume } from "../src/index.ts"
import { planOf, scriptedPlanner, testTools } from "./support/TestTools.ts"

const ORIGIN = "http://shop.test"

/** A fake browser serving `site`, a planner with nothing to plan, and the memory store. */
const fakeShop = (site: Record<string, string>) => {
  const fake = makeFakeBrowserDriver({ site })
  const layer = Layer.mergeAll(
    Layer.succeed(BrowserDriver, fake.driver),
    Layer.succeed(Planner, scriptedPlanner([]).planner),
    MemoryStore.layerTest,
  )
  return { fake, layer }
}

describe("resume without the secrets a run needs", () => {
  it.effect("refuses to start, naming each missing secret, and touches no page", () => {
    const { fake, layer } = fakeShop({ "/login": "<form><input type=password></form>" })
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

describe("resume with a secret the run does not name", () => {
  it.effect(
    "refuses it, naming it but not its value, so the value never reaches the store or a prompt in clear",
    () => {
      const { fake, layer } = fakeShop({ "/login": "<form><input type=password></form>" })
      return Effect.gen(function* () {
        const task = yield* decodeAgentTask({
          id: "task",
          goal: "log in",
          startUrl: `${ORIGIN}/login`,
          inputs: { password: "<secret:password>" },
          secretInputs: ["password"],
        })
        const store = yield* Store
        yield* store.saveRun({
          runId: "typo",
          task,
          status: "RUNNING",
          mode: "plan",
          startedAt: new Date().toISOString(),
          updatedAt: new Date().toISOString(),
          plan: planOf("task", [{ tool: "navigate", args: { url: `${ORIGIN}/login` } }]),
        })
        // `--secret passwrd=…`: a misspelt name would otherwise become a plain input, stored and prompted in clear.
        const exit = yield* Effect.exit(
          resume("typo", {
            tools: testTools,
            secrets: { password: "right-one-77", passwrd: "typo-secret-99" },
          }),
        )
        assert.notInclude(JSON.stringify(yield* store.getRun("typo")), "typo-secret-99")
        assert.strictEqual(exit._tag, "Failure")
        const error = yield* Effect.flip(
          resume("typo", {
            tools: testTools,
            secrets: { password: "right-one-77", passwrd: "typo-secret-99" },
          }),
        )
        const reason = (error as AgentError).reason as InvalidInput
        assert.strictEqual(reason.what, "resume secrets")
        assert.deepStrictEqual(
          reason.issues.map((issue) => issue.split(":")[0]),
          ["secrets.passwrd"],
        )
        assert.notInclude(error.message, "typo-secret-99")
        assert.deepStrictEqual(fake.requests, [])
      }).pipe(Effect.provide(layer))
    },
  )
})

describe("resume after a secret-origin event", () => {
  it.effect("types no secret again and ends FAILED naming the origin", () => {
    const { fake, layer } = fakeShop({
      "/login": `<form method="post" action="/session"><input type="password" id="password"></form>`,
    })
    return Effect.gen(function* () {
      const task = yield* decodeAgentTask({
        id: "task",
        goal: "log in",
        startUrl: `${ORIGIN}/login`,
        inputs: { password: "<secret:password>" },
        secretInputs: ["password"],
      })
      const plan = planOf("task", [
        { tool: "navigate", args: { url: `${ORIGIN}/login` } },
        { tool: "fill", args: { target: "#password", value: "<secret:password>" } },
      ])
      const store = yield* Store
      yield* store.saveRun({
        runId: "blocked-once",
        task,
        status: "RUNNING",
        mode: "plan",
        startedAt: new Date().toISOString(),
        updatedAt: new Date().toISOString(),
        plan,
      })
      const observation = (ok: boolean, message?: string) => ({
        tool: ok ? "navigate" : "fill",
        ok,
        data: undefined,
        durationMs: 1,
        at: new Date().toISOString(),
        url: `${ORIGIN}/login`,
        ...(message === undefined
          ? {}
          : {
              message,
              error: { tag: "AgentError", reason: "GuardrailViolation", message, retryable: false },
            }),
      })
      const [first, second] = plan.steps
      yield* store.saveStep("blocked-once", { ...first!, state: "succeeded", observation: observation(true) })
      yield* store.appendObservation("blocked-once", 0, observation(true))
      const blocked = observation(
        false,
        "guardrail 'secret-origin' stopped the step: click: a Document POST request to http://evil.test carried <secret:password> in its body: it was blocked before it left the browser, and the run types no secret again",
      )
      yield* store.saveStep("blocked-once", { ...second!, state: "failed", observation: blocked })
      yield* store.appendObservation("blocked-once", 1, blocked)

      const result = yield* resume("blocked-once", {
        tools: testTools,
        secrets: { password: "hunter2-long" },
      })
      assert.strictEqual(result.status, "FAILED")
      assert.include(
        result.summary.summary,
        "secret-origin: click: a Document POST request to http://evil.test",
      )
      assert.isFalse(fake.calls.some((call) => call.method === "act" && call.value === "hunter2-long"))
    }).pipe(Effect.provide(layer))
  })
})

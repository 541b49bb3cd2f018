import { assert, describe, it } from "@effect/vitest"
import { BrowserDriver, decodeAgentTask } from "@sextant/core"
import { Planner } from "@sextant/planner"
import { MemoryStore, makeFakeBrowserDriver } from "@sextant/testing"
import { Effect, Layer } from "effect"
import { runMany, runPlan } from "../src/index.ts"
import { planOf, scriptedPlanner, testTools } from "./support/TestTools.ts"

describe("runMany", () => {
  it.live("gives every task its own session, runs at most `concurrency` at once and keeps task order", () => {
    const sessions: Array<ReturnType<typeof makeFakeBrowserDriver>> = []
    let open = 0
    let peak = 0
    const session = Layer.effect(
      BrowserDriver,
      Effect.acquireRelease(
        Effect.sync(() => {
          open++
          peak = Math.max(peak, open)
          const fake = makeFakeBrowserDriver({
            site: (request) => ({
              html: `<p class="item" data-key="${new URL(request.url).pathname}">x</p>`,
            }),
            latencyMs: 5,
          })
          sessions.push(fake)
          return fake.driver
        }),
        () => Effect.sync(() => void open--),
      ),
    )
    const tasks = ["a", "b", "c", "d", "e"].map((name) =>
      Effect.runSync(
        decodeAgentTask({ id: `task-${name}`, goal: `read ${name}`, startUrl: `http://shop.test/${name}` }),
      ),
    )
    const planFor = (taskId: string, url: string) =>
      planOf(taskId, [
        { tool: "navigate", args: { url } },
        { tool: "extract", args: { selector: ".item" } },
      ])
    return Effect.gen(function* () {
      const outcomes = yield* runMany(
        tasks,
        (task) =>
          runPlan(task, planFor(task.id, task.startUrl ?? ""), { tools: testTools, runId: `run-${task.id}` }),
        { concurrency: 2, session },
      )
      assert.deepStrictEqual(
        outcomes.map((outcome) => outcome.taskId),
        tasks.map((task) => task.id),
      )
      assert.isTrue(outcomes.every((outcome) => outcome.ok && outcome.result.status === "COMPLETED"))
      assert.strictEqual(sessions.length, 5)
      assert.strictEqual(peak, 2)
      assert.strictEqual(open, 0)
      // Each session only ever saw its own task's page.
      assert.deepStrictEqual(
        sessions.map((fake) => fake.requests.map((request) => new URL(request.url).pathname)).sort(),
        [["/a"], ["/b"], ["/c"], ["/d"], ["/e"]],
      )
    }).pipe(
      Effect.provide(Layer.merge(Layer.succeed(Planner, scriptedPlanner([]).planner), MemoryStore.layerTest)),
    )
  })
})

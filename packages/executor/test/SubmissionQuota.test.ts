import { decodeAgentTask, Store } from "@sextant/core"
import { FIXTURE_USERS, type FixtureSite, startFixtureSite } from "@sextant/fixture-site"
import { Planner } from "@sextant/planner"
import { makeMemoryStore } from "@sextant/testing"
import { WebdriverioDriver } from "@sextant/webdriverio"
import { Effect, Layer } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { runPlan, type TraceRecord } from "../src/index.ts"
import { noReplanner } from "./support/ResumePlan.ts"
import { planOf, testTools } from "./support/TestTools.ts"

let site: FixtureSite
beforeAll(async () => {
  site = await startFixtureSite({ port: 0 })
})
afterAll(async () => {
  await site.close()
})

const alice = FIXTURE_USERS[0] as (typeof FIXTURE_USERS)[number]

describe("the submission quota", () => {
  it("is not charged for a submit click the browser never sent (required fields empty), so the real submission still runs", {
    timeout: 90_000,
  }, async () => {
    const task = Effect.runSync(
      decodeAgentTask({
        id: "quota-task",
        goal: "log in",
        startUrl: `${site.url}/login`,
        constraints: { allowFormSubmission: true, quotas: { submissions: 1 } },
      }),
    )
    const plan = planOf("quota-task", [
      { tool: "navigate", args: { url: `${site.url}/login` } },
      // The email and password fields are required and empty: Chromium does not send the form.
      { tool: "click", args: { target: "#login-btn" } },
      { tool: "fill", args: { target: "#email", value: alice.email } },
      { tool: "fill", args: { target: "#password", value: alice.password } },
      {
        tool: "click",
        args: { target: "#login-btn" },
        successCriteria: [{ type: "urlMatches", pattern: "/dashboard" }],
      },
    ])
    const events: Array<TraceRecord> = []
    const result = await Effect.runPromise(
      runPlan(task, plan, { tools: testTools, maxReplans: 0, onEvent: (event) => events.push(event) }).pipe(
        Effect.provide(
          Layer.mergeAll(
            WebdriverioDriver.layer({}),
            Layer.succeed(Store, makeMemoryStore()),
            Layer.succeed(Planner, noReplanner),
          ),
        ),
      ),
    )
    const rules = events.flatMap((event) => (event.type === "guardrail" ? [event.rule] : []))
    expect(rules).toEqual([])
    expect(result.status).toBe("COMPLETED")
    expect(new URL(result.observations.at(-1)?.url ?? "about:blank").pathname).toBe("/dashboard")
  })
})

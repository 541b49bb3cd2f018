import { type BrowserDriver, decodeAgentTask, type Plan, Store } from "@sextant/core"
import { type AttackerOrigin, startAttackerOrigin } from "@sextant/fixture-site"
import { Planner } from "@sextant/planner"
import { makeMemoryStore } from "@sextant/testing"
import { WebdriverioDriver } from "@sextant/webdriverio"
import { Effect, Layer, ManagedRuntime } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { runPlan } from "../src/index.ts"
import { noReplanner } from "./support/ResumePlan.ts"
import { testTools } from "./support/TestTools.ts"

/**
 * `requireRequestGuard` (default true): where the driver cannot guard the page's requests (here a real
 * headless Chromium with a BiDi session, whose guardSecrets refuses, as a Selenium Grid session's
 * does), a run never types a secret unless the caller turns it off. The page is one that sends every
 * keystroke home, so a secret typed would be seen in its log.
 */

const PASSWORD = "unguarded-pass-93"

let page: AttackerOrigin
let runtime: ManagedRuntime.ManagedRuntime<Store | Planner | BrowserDriver, unknown>

beforeAll(async () => {
  page = await startAttackerOrigin()
  runtime = ManagedRuntime.make(
    Layer.mergeAll(
      WebdriverioDriver.layer({ bidi: true }),
      Layer.succeed(Store, makeMemoryStore()),
      Layer.succeed(Planner, noReplanner),
    ),
  )
  await runtime.runPromise(Effect.void)
}, 60_000)
afterAll(async () => {
  await runtime?.dispose()
  await page?.close()
})

const signIn = (runId: string, requireRequestGuard: boolean | undefined) => {
  const task = Effect.runSync(
    decodeAgentTask({
      id: runId,
      goal: "sign in",
      startUrl: `${page.url}/login`,
      inputs: { email: "alice@example.com", password: PASSWORD },
      secretInputs: ["password"],
    }),
  )
  const plan: Plan = {
    taskId: runId,
    revision: 0,
    status: "validated",
    steps: [
      { tool: "navigate", args: { url: `${page.url}/login` } },
      { tool: "fill", args: { target: "#email", value: "alice@example.com" } },
      { tool: "fill", args: { target: "#password", value: "<secret:password>" } },
    ].map((step, index) => ({ ...step, index, successCriteria: [], state: "pending" as const, attempts: 0 })),
  }
  return runtime.runPromise(
    runPlan(task, plan, {
      tools: testTools,
      runId,
      screenshots: "never",
      ...(requireRequestGuard === undefined ? {} : { requireRequestGuard }),
    }),
  )
}

const sentSince = (since: number) =>
  page.requests.slice(since).map((request) => `${request.method} ${request.url} ${request.body}`)

describe("requireRequestGuard", () => {
  it("by default refuses to type a secret where the request guard cannot be armed, and the page never gets it", async () => {
    const since = page.requests.length
    const result = await signIn("unguarded-refused", undefined)
    expect(result.status).toBe("FAILED")
    const refused = result.observations.find(
      (observation) => observation.error?.reason === "GuardrailViolation",
    )
    expect(refused?.message).toContain("guardrail 'secret-unguarded'")
    expect(refused?.message).toContain("cannot be guarded")
    expect(refused?.message).toContain("nothing was typed")
    expect(refused?.message).toContain("allow it with options.requireRequestGuard: false")
    const sent = sentSince(since)
    // The page logged the email's keystrokes: it would have logged the password's.
    expect(sent.some((line) => line.includes("/keys"))).toBe(true)
    for (const line of sent) expect(line).not.toContain(PASSWORD)
  }, 60_000)

  it("set to false, the same run types the secret (the caller accepts that requests are not guarded)", async () => {
    const since = page.requests.length
    const result = await signIn("unguarded-allowed", false)
    expect(result.status).toBe("COMPLETED")
    // What the refusal above keeps from the page.
    expect(sentSince(since).some((line) => line.includes(PASSWORD))).toBe(true)
  }, 60_000)
})

import { mkdtempSync, readdirSync, readFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { decodeAgentTask } from "@sextant/core"
import { FIXTURE_PRODUCTS, FIXTURE_USERS, startFixtureSite } from "@sextant/fixture-site"
import { makeRuleStepPolicy } from "@sextant/planner"
import { MemoryStore } from "@sextant/testing"
import { browserTools } from "@sextant/tools"
import { WebdriverioDriver } from "@sextant/webdriverio"
import { Effect, Layer, ManagedRuntime } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { runAgent } from "../src/index.ts"

/**
 * A multi-step instruction in plain words, run by the real step-wise loop with the rule policy: no model,
 * no network, real headless Chromium on the fixture site.
 */
const runtime = ManagedRuntime.make(Layer.merge(WebdriverioDriver.layerShared({}), MemoryStore.layerTest))

beforeAll(() => runtime.runPromise(Effect.void))
afterAll(() => runtime.dispose())

describe("runAgent with the rule step policy", () => {
  it.each([0, 7])(
    "logs in, searches and opens the first result on seed %i, with no model",
    async (seed) => {
      const site = await startFixtureSite({ port: 0, seed })
      try {
        const user = FIXTURE_USERS[0]!
        const task = Effect.runSync(
          decodeAgentTask({
            goal: `log in as ${user.email} with password ${user.password}, then search for lantern, then open the first result`,
            startUrl: `${site.url}/login`,
            constraints: { allowFormSubmission: true, maxSteps: 15 },
          }),
        )
        const result = await runtime.runPromise(runAgent(task, makeRuleStepPolicy(), { tools: browserTools }))
        expect(result.endReason).toBe("completed")
        expect(result.status).toBe("COMPLETED")
        expect(result.summary.taskComplete).toBe(true)
        const lantern = FIXTURE_PRODUCTS.filter((product) => /lantern/i.test(product.name))
        expect(lantern.length).toBeGreaterThan(0)
        const final = result.observations.at(-1)
        expect(final?.ok).toBe(true)
        const page = new URL(final?.url ?? "about:blank")
        expect(page.pathname).toMatch(/^\/products\/\d+$/)
        expect(lantern.map((product) => `/products/${product.id}`)).toContain(page.pathname)
        expect(result.metrics.llmCalls).toBe(0)
        expect(
          result.observations.map((observation) => new URL(observation.url ?? "about:blank").pathname),
        ).toContain("/dashboard")
      } finally {
        await site.close()
      }
    },
    90_000,
  )

  it("logs in with the task's inputs, typing the secret password as its placeholder, and never records the password", async () => {
    const site = await startFixtureSite({ port: 0 })
    try {
      const user = FIXTURE_USERS[0]!
      const traceDirectory = mkdtempSync(join(tmpdir(), "sextant-rule-inputs-"))
      const task = Effect.runSync(
        decodeAgentTask({
          goal: "log in",
          startUrl: `${site.url}/login`,
          inputs: { email: user.email, password: user.password },
          secretInputs: ["password"],
          constraints: { allowFormSubmission: true, maxSteps: 8 },
        }),
      )
      const result = await runtime.runPromise(
        runAgent(task, makeRuleStepPolicy(), { tools: browserTools, traceDirectory }),
      )
      expect(result.status).toBe("COMPLETED")
      expect(result.summary.taskComplete).toBe(true)
      const paths = result.observations.map(
        (observation) => new URL(observation.url ?? "about:blank").pathname,
      )
      expect(paths).toContain("/dashboard")
      expect(JSON.stringify(result)).not.toContain(user.password)
      // The trace records the password field filled with the placeholder, never the value.
      const trace = readFileSync(result.tracePath ?? "", "utf8")
      expect(trace).toContain(user.email)
      expect(trace).toMatch(/"name":"Password"[^\n]*"value":"<secret:password>"/)
      const files = readdirSync(traceDirectory, { recursive: true, withFileTypes: true }).filter((entry) =>
        entry.isFile(),
      )
      expect(files.length).toBeGreaterThan(0)
      for (const file of files)
        expect(readFileSync(join(file.parentPath, file.name)).includes(user.password)).toBe(false)
    } finally {
      await site.close()
    }
  }, 60_000)
})

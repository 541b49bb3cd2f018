import { decodeAgentTask } from "@sextant/core"
import { FIXTURE_USERS, type FixtureSite, startFixtureSite } from "@sextant/fixture-site"
import { makeRuleStepPolicy } from "@sextant/planner"
import { MemoryStore } from "@sextant/testing"
import { browserTools, compoundTools } from "@sextant/tools"
import { WebdriverioDriver } from "@sextant/webdriverio"
import { Effect, Layer } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { runAgent, type TraceRecord } from "../src/index.ts"
import { descendants, waitUntilEnded } from "./support/Processes.ts"

let site: FixtureSite
beforeAll(async () => {
  site = await startFixtureSite({ port: 0 })
})
afterAll(async () => {
  await site.close()
})

const alice = FIXTURE_USERS[0] as (typeof FIXTURE_USERS)[number]

const chromedrivers = (): ReadonlyArray<number> =>
  descendants(process.pid)
    .filter((entry) => /chromedriver/i.test(entry.command))
    .map((entry) => entry.pid)

const loginTask = (password: string) =>
  Effect.runSync(
    decodeAgentTask({
      goal: `log in as ${alice.email} with password ${password}, then search for lantern, then open the first result`,
      startUrl: `${site.url}/login`,
      constraints: { allowFormSubmission: true, maxSteps: 15 },
    }),
  )

let decisions = 0
const rulePolicy = makeRuleStepPolicy({ loginTool: true })
// The rule step policy, counting how often it is asked for a decision.
const countingPolicy = {
  ...rulePolicy,
  decide: (input: Parameters<typeof rulePolicy.decide>[0]) => {
    decisions++
    return rulePolicy.decide(input)
  },
}

const run = (password: string, onEvent: (event: TraceRecord) => void) => {
  decisions = 0
  return Effect.runPromise(
    runAgent(loginTask(password), countingPolicy, {
      tools: [...browserTools, ...compoundTools],
      onEvent,
    }).pipe(Effect.provide(Layer.merge(WebdriverioDriver.layer({}), MemoryStore.layerTest))),
  )
}

describe("step-wise runAgent ends at once", () => {
  it("on a rejected login (wrong password, rule step policy): FAILED with the page's message, the policy not asked again", {
    timeout: 90_000,
  }, async () => {
    const events: Array<TraceRecord> = []
    const result = await run("not-the-password", (event) => events.push(event))
    const steps = events.filter((event) => event.type === "step-start")
    expect(result.status).toBe("FAILED")
    expect(JSON.stringify(result.summary)).toContain("Invalid email or password")
    expect(JSON.stringify(result.summary)).not.toContain("quota")
    // One step ran (the login), once: nothing after it, no second submission.
    expect(steps.map((event) => event.tool)).toEqual(["login"])
    expect(decisions).toBe(1)
    expect(result.observations.at(-1)?.error?.reason).toBe("LoginRejected")
  })

  it("when ChromeDriver is killed mid-run: FAILED as DriverCrashed naming ChromeDriver, within seconds, the policy not asked again", {
    timeout: 90_000,
  }, async () => {
    const before = new Set(chromedrivers())
    const events: Array<TraceRecord> = []
    let killedAt = 0
    let decisionsAtKill = 0
    let ended = false
    const result = await run(alice.password, (event) => {
      events.push(event)
      if (event.type === "step-end" && event.ok && killedAt === 0) {
        const killed = chromedrivers().filter((pid) => !before.has(pid))
        for (const pid of killed) process.kill(pid, "SIGKILL")
        killedAt = Date.now()
        decisionsAtKill = decisions
        // The signal lands asynchronously: until the kernel has ended ChromeDriver a look, which goes
        // to Chromium's own DevTools socket and needs no ChromeDriver, can still succeed and ask the
        // policy again. The run's next call is the first one sent after ChromeDriver is really gone.
        ended = killed.length > 0 && waitUntilEnded(killed)
      }
    })
    const endedAt = Date.now()
    expect(killedAt).toBeGreaterThan(0)
    expect(ended, "the killed ChromeDriver ended within 5 s").toBe(true)
    expect(result.status).toBe("FAILED")
    expect(JSON.stringify(result.summary)).toMatch(/crashed \(ChromeDriver \(pid \d+\) exited/)
    // The policy is not asked again once the browser's driver is gone.
    expect(decisions).toBe(decisionsAtKill)
    expect(endedAt - killedAt).toBeLessThan(10_000)
  })
})

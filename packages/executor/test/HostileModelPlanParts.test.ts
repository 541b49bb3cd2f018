import { ToolRegistry } from "@sextant/core"
import { FIXTURE_USERS } from "@sextant/fixture-site"
import { makeLlmPlanner, Planner } from "@sextant/planner"
import { Reply } from "@sextant/testing"
import { Effect } from "effect"
import { describe, expect, it } from "vitest"
import { planAndRun } from "../src/index.ts"
import { hostileTools, startRig, taskFor } from "./support/HostileRig.ts"

/**
 * A model planner whose plan states no goal parts, in a plan run: the real openai SDK against the
 * scripted OpenAI-compatible server, real headless Chromium on the fixture site. Its plan only types the
 * password and never sends the form; the run must not be COMPLETED on the plan's word that its steps ran.
 */

const rig = startRig({ attacker: false, summary: { taskComplete: true, summary: "Done." } })
const alice = FIXTURE_USERS[0] as (typeof FIXTURE_USERS)[number]

/** A plan step that only types the password into its field, and one that signs in. */
const TYPE_PASSWORD = {
  tool: "fill",
  args: { label: "Password", value: "<secret:password>" },
  description: "type it",
}
const SIGN_IN = {
  tool: "login",
  args: { username: alice.email, password: "<secret:password>" },
  description: "sign in",
}

/** The run ended FAILED with the log-in part unmet, the password field still shown. */
const expectLogInUnmet = (result: {
  readonly status: string
  readonly summary: {
    readonly unmetParts?: ReadonlyArray<{ readonly part: string; readonly evidence: string }> | undefined
  }
}) => {
  expect(result.status).toBe("FAILED")
  const unmet = result.summary.unmetParts ?? []
  expect(unmet.map((part) => part.part)).toEqual(["log in"])
  expect(unmet[0]?.evidence).toMatch(/password field is still shown/)
}

const planWithModel = (goal: string, steps: ReadonlyArray<Record<string, unknown>>) => {
  rig.script(() => Reply.json({ steps }))
  return rig.runtime.runPromise(
    Effect.gen(function* () {
      const registry = yield* ToolRegistry.make(hostileTools)
      const planner = yield* makeLlmPlanner({ registry })
      return yield* planAndRun(taskFor(goal, `${rig.site.url}/login`, alice.password), {
        tools: registry,
        maxReplans: 0,
        screenshots: "never",
      }).pipe(Effect.provideService(Planner, planner))
    }),
  )
}

describe("a model's plan that states no goal parts", () => {
  it("ends FAILED naming the log-in part when the plan only types the password and never signs in", async () => {
    const result = await planWithModel("log in", [TYPE_PASSWORD])
    expect(result.observations.map((observation) => [observation.tool, observation.ok])).toEqual([
      ["fill", true],
    ])
    expectLogInUnmet(result)
  }, 60_000)

  it("ends COMPLETED when the plan really signs in", async () => {
    const result = await planWithModel("log in", [SIGN_IN])
    expect(result.summary.unmetParts ?? []).toEqual([])
    expect(result.status).toBe("COMPLETED")
  }, 60_000)
})

/**
 * A goal the rule grammar reads only in part ("log in" it can read, "tell me what the page says" it
 * cannot): the part it can read is still checked on the page, in a model's plan and in a model's
 * step-wise run; only the rest is left to the model's word.
 */
const PARTLY = "log in and then tell me what the page says"

const runModelSteps = (calls: ReadonlyArray<Record<string, unknown>>) => {
  rig.script((turn) =>
    Reply.json(
      turn < calls.length
        ? { tool_calls: [calls[turn]], taskComplete: false }
        : { tool_calls: [], taskComplete: true },
    ),
  )
  return rig.runModel(taskFor(PARTLY, `${rig.site.url}/login`, alice.password), {
    screenshots: "never",
  })
}

describe(`a goal the rules read only in part: "${PARTLY}"`, () => {
  it("a model's plan that only types the password ends FAILED naming the log-in part", async () => {
    const result = await planWithModel(PARTLY, [TYPE_PASSWORD])
    expectLogInUnmet(result)
  }, 60_000)

  it("a model's plan that signs in ends COMPLETED", async () => {
    const result = await planWithModel(PARTLY, [SIGN_IN])
    expect(result.summary.unmetParts ?? []).toEqual([])
    expect(result.status).toBe("COMPLETED")
  }, 60_000)

  it("a model that types the password and says done ends FAILED naming the log-in part", async () => {
    const result = await runModelSteps([
      { name: "fill", args: { label: "Password", value: "<secret:password>" } },
    ])
    expect(result.observations.map((observation) => [observation.tool, observation.ok])).toContainEqual([
      "fill",
      true,
    ])
    expectLogInUnmet(result)
  }, 60_000)

  it("a model that signs in and says done ends COMPLETED", async () => {
    const result = await runModelSteps([
      { name: "login", args: { username: alice.email, password: "<secret:password>" } },
    ])
    expect(result.summary.unmetParts ?? []).toEqual([])
    expect(result.status).toBe("COMPLETED")
  }, 60_000)
})

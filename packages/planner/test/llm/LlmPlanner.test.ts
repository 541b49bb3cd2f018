import { describe, expect, it } from "@effect/vitest"
import { type AgentTask, decodeAgentTask, type PageSnapshot } from "@sextant/core"
import { Reply, type ScriptedReply } from "@sextant/testing"
import { Effect, Fiber } from "effect"
import { TestClock } from "effect/testing"
import { makeLlmPlanner } from "../../src/index.ts"
import { registry, withScriptedModel } from "./Support.ts"

const task = Effect.runSync(
  decodeAgentTask({
    id: "task-1",
    goal: "log in and read the order total",
    startUrl: "http://127.0.0.1:4000/login",
    inputs: { username: "alice", password: "hunter2" },
    secretInputs: ["password"],
    constraints: { maxSteps: 6, allowFormSubmission: true },
  }),
)

const snapshot: PageSnapshot = {
  url: "http://127.0.0.1:4000/login",
  title: "Sign in",
  tree: '- textbox "Email" [ref=e1]\n- button "Sign In" [ref=e3]',
  elements: {},
  actions: [],
  forms: [],
  outputs: [],
  stats: { nodes: 3, elements: 2, lines: 2, chars: 50, truncated: false },
}

const planWith = (replies: ReadonlyArray<ScriptedReply>, goal: AgentTask = task) =>
  withScriptedModel(replies, (server) =>
    Effect.gen(function* () {
      const planner = yield* makeLlmPlanner({ registry })
      const plan = yield* planner.plan(goal, {
        observations: "navigate ok http://127.0.0.1:4000/login",
        snapshot,
      })
      return { server, plan, usage: yield* planner.usage! }
    }),
  )

// Real I/O (the HTTP call to the scripted server) takes real time while the test clock stands still:
// `settle` gives a retry sent too early the time to reach the server.
const settle = Effect.promise(() => new Promise((resolve) => setTimeout(resolve, 150)))

/** Waits in real time (I/O does not follow the test clock) until `holds` is true, at most 10 s. */
const until = (holds: () => boolean) =>
  Effect.promise(async () => {
    for (let waited = 0; !holds() && waited < 10_000; waited += 10)
      await new Promise((resolve) => setTimeout(resolve, 10))
  })

describe("LLM planner (plan mode)", () => {
  it.live(
    "prompts with role, constraints, catalog, goal, inputs and observations, and returns a validated plan",
    () =>
      Effect.gen(function* () {
        const { server, plan, usage } = yield* planWith([
          Reply.json({
            steps: [
              {
                tool: "navigate",
                args: { url: "http://127.0.0.1:4000/login" },
                description: "open the login page",
              },
              { tool: "login", args: { username: "alice", password: "<secret:password>" } },
              { tool: "extract", args: { selector: ".order-total" } },
            ],
          }),
        ])
        const [system, user] = server.requests[0]?.messages ?? []
        expect(system?.role).toBe("system")
        expect(String(system?.content)).toContain("You plan browser tasks")
        expect(String(system?.content)).toContain("At most 6 steps; never more than 2 navigations in a row.")
        expect(String(system?.content)).toContain("You may submit forms (at most 2 submissions).")
        expect(String(system?.content)).toContain("- login(username: string, password: string): Log in")
        expect(String(user?.content)).toContain("Goal: log in and read the order total")
        expect(String(user?.content)).toContain('- username: "alice"')
        expect(String(user?.content)).toContain("- password: <secret:password>")
        expect(server.requests[0]?.text).not.toContain("hunter2")
        expect(String(user?.content)).toContain(
          "Recent observations:\nnavigate ok http://127.0.0.1:4000/login",
        )
        expect(String(user?.content)).toContain('- button "Sign In" [ref=e3]')
        expect(server.requests[0]?.responseFormat).toMatchObject({ type: "json_schema" })

        expect(plan.taskId).toBe("task-1")
        expect(plan.status).toBe("validated")
        expect(plan.steps.map((step) => step.tool)).toEqual(["navigate", "login", "waitFor", "extract"])
        expect(plan.steps.map((step) => step.index)).toEqual([0, 1, 2, 3])
        expect(usage.calls).toBe(1)
        expect(usage.tokens.total).toBeGreaterThan(0)
      }),
  )

  it.live("refuses a model plan with unknown tools or invalid args instead of trimming them out", () =>
    Effect.gen(function* () {
      const error = yield* Effect.flip(
        planWith([
          Reply.fenced({
            steps: [
              { tool: "navigate", args: { url: "http://127.0.0.1:4000/" } },
              { tool: "hack", args: {} },
              { tool: "click", args: {} },
              { tool: "click", args: { ref: "e3" } },
            ],
          }),
        ]),
      )
      expect(error.reason._tag).toBe("PlanRejected")
      expect(error.message).toContain("steps[1]: unknown tool 'hack'")
      expect(error.message).toContain("steps[2]: invalid arguments for 'click'")
    }),
  )

  it.live("fails with CannotPlan when the model finds no steps", () =>
    Effect.gen(function* () {
      const error = yield* Effect.flip(planWith([Reply.json({ steps: [] })]))
      expect(error._tag).toBe("AgentError")
      expect(error.reason._tag).toBe("CannotPlan")
    }),
  )

  it.live("fails with OutputInvalid on malformed output and on a plan of the wrong shape", () =>
    Effect.gen(function* () {
      const malformed = yield* Effect.flip(planWith([Reply.malformed('{"steps": [{"tool": "navigate"')]))
      expect(malformed.reason._tag).toBe("OutputInvalid")
      const wrongShape = yield* Effect.flip(planWith([Reply.json({ steps: [{ args: {} }] })]))
      expect(wrongShape.reason._tag).toBe("OutputInvalid")
      expect(wrongShape.message).toContain("output.steps[0].tool")
    }),
  )

  it.live("rejects a plan whose every step breaks a rule", () =>
    Effect.gen(function* () {
      const error = yield* Effect.flip(planWith([Reply.json({ steps: [{ tool: "fly", args: {} }] })]))
      expect(error.reason._tag).toBe("PlanRejected")
      expect(error.message).toContain("unknown tool 'fly'")
    }),
  )

  it.effect("plans after a 500 and a 429, waiting for Retry-After on the test clock", () => {
    const heard: Array<string> = []
    return withScriptedModel(
      [
        Reply.serverError(502),
        Reply.rateLimited(1),
        Reply.json({ steps: [{ tool: "extract", args: { selector: "h1" } }] }),
      ],
      (server) =>
        Effect.gen(function* () {
          const planner = yield* makeLlmPlanner({ registry })
          const planning = yield* Effect.forkChild(
            planner.plan(task, { observations: "navigate ok http://127.0.0.1:4000/login", snapshot }),
          )
          // The 502 is retried after the backoff (10 ms, jittered), the 429 after its Retry-After of 1 s.
          yield* until(() => heard.includes("failed 1"))
          yield* TestClock.adjust(20)
          // The 429 is in: from here the retry's wait is on the test clock.
          yield* until(() => heard.includes("failed 2"))
          expect(server.requests).toHaveLength(2)
          yield* TestClock.adjust(999)
          yield* settle
          expect(server.requests, "the retry came before the 1 s Retry-After").toHaveLength(2)
          yield* TestClock.adjust(1)
          const plan = yield* Fiber.join(planning)
          expect(plan.steps).toHaveLength(1)
          expect(server.requests).toHaveLength(3)
        }),
      { onAttempt: ({ phase, attempt }) => heard.push(`${phase} ${attempt}`) },
    )
  })

  it.live("replans partially (keeping done steps) and fully, counting tokens over every call", () =>
    withScriptedModel(
      [
        Reply.json({
          steps: [
            { tool: "navigate", args: { url: "http://127.0.0.1:4000/orders" } },
            { tool: "click", args: { ref: "e9" } },
            { tool: "extract", args: { selector: ".total" } },
          ],
        }),
        Reply.json({
          steps: [
            { tool: "click", args: { ref: "e4" } },
            { tool: "extract", args: { selector: ".total" } },
          ],
        }),
        Reply.json({ steps: [{ tool: "navigate", args: { url: "http://127.0.0.1:4000/" } }] }),
      ],
      (server) =>
        Effect.gen(function* () {
          const planner = yield* makeLlmPlanner({ registry })
          const first = yield* planner.plan(task)
          const failure = { stepIndex: 1, error: "no element matches e9: check the selector", attempts: 3 }
          const partial = yield* planner.replan(task, first, failure, "partial")
          expect(partial.revision).toBe(1)
          expect(partial.steps.map((step) => `${step.tool} ${JSON.stringify(step.args)}`)).toEqual([
            'navigate {"url":"http://127.0.0.1:4000/orders"}',
            'click {"ref":"e4"}',
            'extract {"selector":".total"}',
          ])
          const partialPrompt = server.requests[1]?.text ?? ""
          expect(partialPrompt).toContain("Steps already done")
          expect(partialPrompt).toContain('0. navigate {"url":"http://127.0.0.1:4000/orders"}')
          expect(partialPrompt).toContain('This step failed: 1. click {"ref":"e9"}: no element matches e9')
          expect(partialPrompt).toContain("At most 5 steps")

          const full = yield* planner.replan(task, partial, { stepIndex: 2, error: "timeout" }, "full")
          expect(full.revision).toBe(2)
          expect(full.steps.map((step) => step.tool)).toEqual(["navigate"])
          expect(server.requests[2]?.text).toContain("Plan the whole task again")

          const usage = yield* planner.usage!
          const counted = server.requests.length
          expect(usage.calls).toBe(counted)
          expect(usage.tokens.total).toBeGreaterThan(0)
          expect(usage.tokens.total).toBe(usage.tokens.prompt + usage.tokens.completion)
        }),
    ),
  )
})

import { describe, expect, it } from "@effect/vitest"
import { AgentError, CannotPlan, decodeAgentTask, PlanRejected } from "@sextant/core"
import { Reply } from "@sextant/testing"
import { Effect } from "effect"
import { makeHybridPlanner, makeLlmPlanner, makeRulePlanner, type PlannerShape } from "../src/index.ts"
import { askedText, registry, withFakeModel, withScriptedModel } from "./llm/Support.ts"

const taskOf = (goal: string) =>
  Effect.runSync(
    decodeAgentTask({
      goal,
      startUrl: "http://127.0.0.1:4000/login",
      inputs: { username: "alice", password: "secret" },
      constraints: { allowFormSubmission: true },
    }),
  )

const loginPlan = Reply.json({
  steps: [{ tool: "login", args: { username: "alice", password: "<secret:password>" }, part: 1 }],
})
const modelPlan = Reply.json({ steps: [{ tool: "extract", args: { selector: ".total" } }] })

describe("hybrid planner", () => {
  it.live("uses the rule planner first and never calls the model when the rules can plan", () =>
    withScriptedModel([modelPlan], (server) =>
      Effect.gen(function* () {
        const planner = makeHybridPlanner({
          rules: makeRulePlanner(),
          model: yield* makeLlmPlanner({ registry }),
          registry,
        })
        const plan = yield* planner.plan(taskOf("log in"))
        // The rule plan went through the validator: the login guard was inserted.
        expect(plan.steps.map((step) => step.tool)).toEqual(["navigate", "login", "waitFor"])
        expect(plan.status).toBe("validated")
        expect(server.requests).toHaveLength(0)
        expect((yield* planner.usage!).calls).toBe(0)
      }),
    ),
  )

  it.live("asks the model when the rules cannot plan, and validates its plan (refusing a bad one)", () =>
    withScriptedModel(
      [
        Reply.json({
          steps: [
            { tool: "extract", args: { selector: ".total" } },
            { tool: "warp", args: {} },
          ],
        }),
      ],
      (server) =>
        Effect.gen(function* () {
          const planner = makeHybridPlanner({
            rules: makeRulePlanner(),
            model: yield* makeLlmPlanner({ registry }),
            registry,
          })
          // The model's plan has a step with an unknown tool: the validator refuses it rather than
          // dropping the step.
          const error = yield* Effect.flip(
            planner.plan(taskOf("figure out which order has the highest total and explain why")),
          )
          expect(error._tag === "AgentError" && error.reason._tag).toBe("PlanRejected")
          expect(error.message).toContain("steps[1]: unknown tool 'warp'")
          expect(server.requests).toHaveLength(1)
          expect((yield* planner.usage!).calls).toBe(1)
        }),
    ),
  )

  it.effect("asks the model when the validator refuses the rule plan, and for every replan", () =>
    withFakeModel([modelPlan, modelPlan], (fake) =>
      Effect.gen(function* () {
        const badRules: PlannerShape = {
          plan: (task) =>
            Effect.succeed({
              taskId: task.id,
              revision: 0,
              status: "draft" as const,
              steps: [
                {
                  index: 0,
                  tool: "warp",
                  args: {},
                  successCriteria: [],
                  state: "pending" as const,
                  attempts: 0,
                },
              ],
            }),
          replan: () => Effect.fail(new AgentError({ reason: new PlanRejected({ issues: ["no"] }) })),
        }
        const model = yield* makeLlmPlanner({ registry })
        const planner = makeHybridPlanner({ rules: badRules, model, registry })
        const task = taskOf("warp away")
        // The rule plan has an unknown tool: the validator refuses it and the model plans instead.
        const plan = yield* planner.plan(task)
        expect(plan.steps.map((step) => step.tool)).toEqual(["extract"])
        expect(fake.requests).toHaveLength(1)
        // A plan that failed while running is replanned by the model, never by the rules again.
        const replanned = yield* planner.replan(task, plan, { stepIndex: 0, error: "x" }, "full")
        expect(replanned.steps.map((step) => step.tool)).toEqual(["extract"])
        expect(fake.requests).toHaveLength(2)
        expect(planner.readsPage).toBe(true)
      }),
    ),
  )

  it.live("replans a failed rule plan with the model, not the rules", () =>
    withScriptedModel([loginPlan], (server) =>
      Effect.gen(function* () {
        const planner = makeHybridPlanner({
          rules: makeRulePlanner(),
          model: yield* makeLlmPlanner({ registry }),
          registry,
        })
        const task = taskOf("log in")
        const plan = yield* planner.plan(task)
        expect(server.requests).toHaveLength(0)
        const next = yield* planner.replan(
          task,
          plan,
          { stepIndex: 1, error: "login form not found" },
          "partial",
        )
        expect(server.requests).toHaveLength(1)
        expect(server.requests[0]?.text).toContain("login form not found")
        // The validator adds the login guard after the model's login.
        expect(next.steps.map((step) => step.tool)).toEqual(["navigate", "login", "waitFor"])
        expect(next.revision).toBe(plan.revision + 1)
      }),
    ),
  )

  it.effect("replans with the model when the rules cannot", () =>
    withFakeModel([modelPlan], (fake) =>
      Effect.gen(function* () {
        const cannot: PlannerShape = {
          plan: () => Effect.fail(new AgentError({ reason: new CannotPlan({ detail: "no template" }) })),
          replan: () => Effect.fail(new AgentError({ reason: new CannotPlan({ detail: "no template" }) })),
        }
        const planner = makeHybridPlanner({
          rules: cannot,
          model: yield* makeLlmPlanner({ registry }),
          registry,
        })
        const task = taskOf("read the total")
        const previous = {
          taskId: task.id,
          revision: 3,
          status: "failed" as const,
          steps: [
            {
              index: 0,
              tool: "click",
              args: { ref: "e1" },
              successCriteria: [],
              state: "failed" as const,
              attempts: 3,
            },
          ],
        }
        const plan = yield* planner.replan(task, previous, { stepIndex: 0, error: "stale ref" }, "full")
        expect(plan.revision).toBe(4)
        expect(plan.steps.map((step) => step.tool)).toEqual(["extract"])
        expect(askedText(fake, 0)).toContain("stale ref")
      }),
    ),
  )
})

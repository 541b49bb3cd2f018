import { describe, expect, it } from "@effect/vitest"
import { AgentError, CannotPlan, decodeAgentTask, PlanRejected } from "@sextant/core"
import { Reply } from "@sextant/testing"
import { Effect } from "effect"
import { makeHybridPlanner, makeLlmPlanner, makeRulePlanner, type PlannerShape } from "../src/index.ts"
import { registry, withScriptedModel } from "./llm/Support.ts"

const taskOf = (goal: string) =>
  Effect.runSync(
    decodeAgentTask({
      goal,
      startUrl: "http://127.0.0.1:4000/login",
      inputs: { username: "alice", password: "secret" },
      constraints: { allowFormSubmission: true },
    }),
  )

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

  it.live("validates rule plans too, and does not ask the model when the rules fail for another reason", () =>
    withScriptedModel([modelPlan], (server) =>
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
        const rejected = yield* Effect.flip(planner.plan(taskOf("warp away")))
        expect(rejected.reason._tag).toBe("PlanRejected")
        const task = taskOf("warp away")
        const plan = { taskId: task.id, revision: 0, status: "draft" as const, steps: [] }
        const replanError = yield* Effect.flip(
          planner.replan(task, plan, { stepIndex: 0, error: "x" }, "full"),
        )
        expect(replanError.reason._tag).toBe("PlanRejected")
        expect(server.requests).toHaveLength(0)
      }),
    ),
  )

  it.live("replans with the model when the rules cannot", () =>
    withScriptedModel([modelPlan], (server) =>
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
        expect(server.requests[0]?.text).toContain("stale ref")
      }),
    ),
  )
})

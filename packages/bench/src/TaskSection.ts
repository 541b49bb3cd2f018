import { Reply, startOpenAiServer } from "@sextant/testing"
import { createAgent } from "sextant-agent"
import { interleave, type RunPlan } from "./Measure.ts"
import { type TableSection, timeCell } from "./Report.ts"
import type { Summary } from "./Stats.ts"

/** One way of running the same task, timed end to end (browser launch included). */
export interface TaskTiming {
  readonly way: string
  readonly time: Summary
  /** Chat calls the scripted model received per run. */
  readonly modelCalls: number
}

const NAME_SELECTOR = "[data-product-id] h2"

/**
 * Times one task — read the product names of the first listing page — through `createAgent`, cold
 * (the model planner asks the scripted OpenAI-compatible server of `@sextant/testing` for a plan) and
 * with the same plan handed in (no planner call). Every run must complete with the page's 12 names.
 */
export const measureTask = async (base: string, plan: RunPlan): Promise<ReadonlyArray<TaskTiming>> => {
  const steps = [
    { tool: "navigate", args: { url: `${base}/products` } },
    { tool: "extract", args: { target: NAME_SELECTOR, all: true } },
  ]
  const server = await startOpenAiServer({ replies: () => Reply.json({ steps }) })
  const agent = createAgent({
    planner: "model",
    model: { baseURL: server.baseURL, apiKey: "bench", model: "sextant-test-model" },
    store: "memory",
    traceDirectory: false,
  })
  try {
    const task = { goal: "read the product names on the first products page", startUrl: `${base}/products` }
    const check = (way: string, result: Awaited<ReturnType<typeof agent.run>>) => {
      const names = JSON.stringify(result.output ?? null)
      if (result.status !== "COMPLETED" || !names.includes("Brass Sextant")) {
        throw new Error(
          `${way} ended ${result.status} with output ${names.slice(0, 200)}: ${result.summary.summary}`,
        )
      }
    }
    const calls = { cold: 0, known: 0 }
    const times = await interleave("one task through createAgent", plan, [
      {
        piece: "cold task (model planner)",
        run: async () => {
          const before = server.requests.length
          check("the cold task", await agent.run(task))
          calls.cold = server.requests.length - before
        },
      },
      {
        piece: "task with a known plan",
        run: async () => {
          const before = server.requests.length
          check(
            "the task with a known plan",
            await agent.run(task, {
              plan: {
                revision: 0,
                status: "validated",
                steps: steps.map((step, index) => ({
                  index,
                  ...step,
                  successCriteria: [],
                  state: "pending" as const,
                  attempts: 0,
                })),
              },
            }),
          )
          calls.known = server.requests.length - before
        },
      },
    ])
    return [
      {
        way: "cold: model planner (scripted OpenAI-compatible server) + run",
        time: times[0]!,
        modelCalls: calls.cold,
      },
      { way: "the same plan handed in (no planner call)", time: times[1]!, modelCalls: calls.known },
    ]
  } finally {
    await agent.close()
    await server.close()
  }
}

/** The rows of a whole-task table: way, median / p90, model calls per run. */
export const timingRows = (timings: ReadonlyArray<TaskTiming>): ReadonlyArray<ReadonlyArray<string>> =>
  timings.map((timing) => [timing.way, timeCell(timing.time), String(timing.modelCalls)])

/** The task table; replaying from the action cache has its own section (ReplaySection). */
export const taskSection = (timings: ReadonlyArray<TaskTiming>, plan: RunPlan): TableSection => ({
  title: `Time per task through createAgent (${plan.runs} runs after ${plan.warmup} warm-up; a fresh browser per run)`,
  note: "Task: read the 12 product names of /products (navigate + extract). Each run must complete with them.",
  headers: ["way", "ms (median / p90)", "model calls / run"],
  rows: timingRows(timings),
})

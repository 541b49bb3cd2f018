import { decodeAgentTask, type Plan } from "@sextant/core"
import type { PlannerShape } from "@sextant/planner"
import { Effect } from "effect"

/** The plan the SIGKILL test runs: every products page, extracted, with a pause so a kill lands mid-run. */
export const resumeTask = (siteUrl: string) =>
  Effect.runSync(
    decodeAgentTask({ id: "resume-task", goal: "collect every product", startUrl: `${siteUrl}/products` }),
  )

export const resumePlan = (siteUrl: string, pages: number): Plan => ({
  taskId: "resume-task",
  revision: 0,
  status: "validated",
  steps: Array.from({ length: pages }, (_, page) => [
    {
      tool: "navigate",
      args: { url: `${siteUrl}/products?page=${page + 1}` },
      successCriteria: [{ type: "urlMatches" as const, pattern: `page=${page + 1}$` }],
    },
    {
      tool: "extract",
      args: { selector: "li[data-product-id]" },
      successCriteria: [{ type: "minItems" as const, selector: "li[data-product-id]", min: 1 }],
    },
    { tool: "wait", args: { ms: 300 }, successCriteria: [] },
  ])
    .flat()
    .map((step, index) => ({ ...step, index, state: "pending" as const, attempts: 0 })),
})

/** A planner that never replans: the test is about resuming, not replanning. */
export const noReplanner: PlannerShape = {
  plan: () => Effect.die("not used"),
  replan: () => Effect.die("the resume test expects no replan"),
}

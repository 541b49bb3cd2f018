// Runs a plan that signs in (a form submission) in its own process, so a test can SIGKILL it while the
// submission is in flight.

import { decodeAgentTask, type Plan } from "@sextant/core"
import { Effect } from "effect"
import { runKillable } from "./killable-run.ts"
import { signIn, testTools } from "./TestTools.ts"

const [siteUrl = "", databasePath = "", runId = ""] = process.argv.slice(2)

/** navigate, then signIn: step 1 fills and posts the form. */
export const submitPlan = (url: string): Plan => ({
  taskId: "submit-task",
  revision: 0,
  status: "validated",
  steps: [
    { tool: "navigate", args: { url: `${url}/login` }, successCriteria: [] },
    { tool: "signIn", args: { email: "alice@example.com", password: "wonderland" }, successCriteria: [] },
  ].map((step, index) => ({ ...step, index, state: "pending" as const, attempts: 0 })),
})

const task = Effect.runSync(
  decodeAgentTask({
    id: "submit-task",
    goal: "sign in",
    startUrl: `${siteUrl}/login`,
    constraints: { allowFormSubmission: true },
  }),
)
runKillable(task, submitPlan(siteUrl), { tools: [...testTools, signIn], runId, databasePath })

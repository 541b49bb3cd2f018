// Runs a plan that signs in (a form submission) in its own process, so a test can SIGKILL it while the
// submission is in flight.

import { decodeAgentTask, type Plan } from "@sextant/core"
import { SqliteStore } from "@sextant/memory"
import { Planner } from "@sextant/planner"
import { layer as browserLayer } from "@sextant/webdriverio"
import { Effect, Layer } from "effect"
import { runPlan } from "../../src/index.ts"
import { noReplanner } from "./ResumePlan.ts"
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
const program = runPlan(task, submitPlan(siteUrl), {
  tools: [...testTools, signIn],
  runId,
  // Short, so the test's resume can take the run over soon after the kill.
  leaseTtlMs: 1_000,
}).pipe(
  Effect.provide(
    Layer.mergeAll(
      browserLayer({}),
      SqliteStore.layer({ path: databasePath }),
      Layer.succeed(Planner, noReplanner),
    ),
  ),
)
Effect.runPromise(program).then(
  (result) => console.log(`finished ${result.status}`),
  (error: unknown) => {
    console.error(String(error))
    process.exitCode = 1
  },
)

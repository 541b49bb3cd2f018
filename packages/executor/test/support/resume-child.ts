// Runs the resume test's plan in its own process so the test can SIGKILL it mid-run.

import { SqliteStore } from "@sextant/memory"
import { Planner } from "@sextant/planner"
import { layer as browserLayer } from "@sextant/webdriverio"
import { Effect, Layer } from "effect"
import { runPlan } from "../../src/index.ts"
import { noReplanner, resumePlan, resumeTask } from "./ResumePlan.ts"
import { testTools } from "./TestTools.ts"

const [siteUrl = "", databasePath = "", runId = "", pages = "3"] = process.argv.slice(2)
const program = runPlan(resumeTask(siteUrl), resumePlan(siteUrl, Number(pages)), {
  tools: testTools,
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

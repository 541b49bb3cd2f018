// Runs the resume test's plan in its own process so the test can SIGKILL it mid-run.

import { runKillable } from "./killable-run.ts"
import { resumePlan, resumeTask } from "./ResumePlan.ts"
import { testTools } from "./TestTools.ts"

const [siteUrl = "", databasePath = "", runId = "", pages = "3"] = process.argv.slice(2)
runKillable(resumeTask(siteUrl), resumePlan(siteUrl, Number(pages)), {
  tools: testTools,
  runId,
  databasePath,
})

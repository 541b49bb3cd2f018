// A user's script: createAgent() with no options, run from the folder the test starts it in, so the
// default store and traces land under that folder's .sextant/.

import { createAgent } from "../../src/index.ts"

const [siteUrl = "", username = "", password = ""] = process.argv.slice(2)
await using agent = createAgent()
const result = await agent.run({
  goal: `log in, go to ${siteUrl}/products and extract name and price of the products`,
  startUrl: `${siteUrl}/login`,
  inputs: { username, password },
  secretInputs: ["password"],
  constraints: { allowFormSubmission: true },
})
console.log(JSON.stringify({ runId: result.runId, status: result.status, output: result.output }))

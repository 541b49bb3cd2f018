import { describe, it } from "vitest"
import { checkFlowSignals } from "./support/FlowChecks.ts"
import { runFlows } from "./support/Flows.ts"
import { useHarness } from "./support/Harness.ts"

const harness = useHarness({ seed: 5 })

describe("semantic diff in the browser", () => {
  it("signals a failed login, a successful login and search results on the live fixture site", async () => {
    checkFlowSignals(await runFlows(harness.browser, harness.site.url))
  })
})

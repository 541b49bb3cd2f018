import { type FixtureSite, startFixtureSite } from "@sextant/fixture-site"
import { afterAll, beforeAll, describe, it } from "vitest"
import { openBrowser, type TestBrowser } from "./support/Browser.ts"
import { checkFlowSignals } from "./support/FlowChecks.ts"
import { runFlows } from "./support/Flows.ts"

let site: FixtureSite
let session: TestBrowser

beforeAll(async () => {
  site = await startFixtureSite({ port: 0, seed: 5 })
  session = await openBrowser()
})

afterAll(async () => {
  await session?.close()
  await site?.close()
})

describe("semantic diff in the browser", () => {
  it("signals a failed login, a successful login and search results on the live fixture site", async () => {
    checkFlowSignals(await runFlows(session.browser, site.url))
  })
})

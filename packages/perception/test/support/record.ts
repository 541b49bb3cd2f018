/**
 * Records the fixture-site flows into test/fixtures/flows.json for the screen-semantics unit tests:
 * `node --conditions=sextant-source packages/perception/test/support/record.ts`
 */
import { writeFileSync } from "node:fs"
import { join } from "node:path"
import { startFixtureSite } from "@sextant/fixture-site"
import { openOwnBrowser } from "./Browser.ts"
import { runFlows } from "./Flows.ts"

const site = await startFixtureSite({ port: 0, seed: 0 })
const session = await openOwnBrowser()
try {
  const flows = await runFlows(session.browser, site.url)
  const portless = JSON.stringify(flows, null, 1).replaceAll(site.url, "http://127.0.0.1:4000")
  writeFileSync(join(import.meta.dirname, "..", "fixtures", "flows.json"), `${portless}\n`)
} finally {
  await session.close()
  await site.close()
}

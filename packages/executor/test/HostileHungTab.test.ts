// A page whose script loops without end keeps its renderer busy: no call to the tab answers, and the
// browser reports no crash. The run must still end at its deadline, and the driver must stay usable.
import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { BrowserDriver, decodeAgentTask, ToolRegistry } from "@sextant/core"
import { makeLlmStepPolicy } from "@sextant/planner"
import { browserTools } from "@sextant/tools"
import { Effect } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { runAgent } from "../src/index.ts"
import { callsThenStop, startScriptedModel, type ToolCall } from "./support/HostileRig.ts"

const MAX_DURATION_MS = 8_000

let site: Server
let siteUrl = ""
const scripted = startScriptedModel({ taskComplete: true, summary: "s" })

const page = (
  busy: boolean,
) => `<!doctype html><html><head><meta charset="utf-8"><title>Sign in</title></head>
<body><h1>Sign in</h1><label for="email">Email</label><input type="email" id="email" name="email">
${busy ? "<script>setTimeout(() => { for (;;) {} }, 300)</script>" : ""}</body></html>`

beforeAll(async () => {
  site = createServer((request, response) => {
    response.writeHead(200, { "content-type": "text/html" })
    response.end(page(request.url?.startsWith("/busy") === true))
  })
  await new Promise<void>((ready) => site.listen(0, "127.0.0.1", ready))
  siteUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}`
}, 60_000)
afterAll(async () => {
  site?.close()
})

const run = (
  path: string,
  steps: ReadonlyArray<ToolCall>,
  goal = "read the heading",
  maxDurationMs = MAX_DURATION_MS,
) => {
  scripted.script(callsThenStop(steps))
  const task = Effect.runSync(
    decodeAgentTask({
      goal,
      startUrl: `${siteUrl}${path}`,
      constraints: { maxSteps: 20, stepTimeoutMs: 5_000, maxDurationMs },
    }),
  )
  return scripted.runtime.runPromise(
    Effect.gen(function* () {
      const registry = yield* ToolRegistry.make([...browserTools])
      const policy = yield* makeLlmStepPolicy({ registry })
      const started = Date.now()
      const result = yield* runAgent(task, policy, {
        tools: registry,
        noOpBackoffMs: 5,
        screenshots: "never",
      })
      return { result, ms: Date.now() - started }
    }),
  )
}

const handles = () =>
  scripted.runtime
    .runPromise(BrowserDriver.use((driver) => driver.tabs))
    .then((tabs) => tabs.map((tab) => tab.handle))

describe("a tab whose page loops without end", () => {
  it("ends the run within maxDurationMs + 2 s, closes the hung tab, and the next run on the driver does its steps", {
    timeout: 120_000,
  }, async () => {
    const before = await handles()
    const extract = { name: "extract", args: { target: "h1" } }
    const hung = await run(
      "/busy",
      Array.from({ length: 20 }, () => extract),
      // A goal with parts: after the run, the executor reads the page once more to check them.
      "sign in",
    )
    expect(hung.result.status).toBe("FAILED")
    expect(hung.ms).toBeLessThan(MAX_DURATION_MS + 2_000)
    // A deadline far beyond two steps: on a loaded machine the fresh tab's first steps are slow, and
    // that is not the point here.
    const next = await run(
      "/ok",
      [{ name: "fill", args: { target: "#email", value: "a@example.com" } }, extract],
      "read the heading",
      60_000,
    )
    // Ended by the model's stop, not by its deadline: the driver answered every step.
    expect(next.result.endReason).toBe("stopped")
    expect(next.result.observations.map((observation) => [observation.tool, observation.ok])).toEqual([
      ["fill", true],
      ["extract", true],
    ])
    // The tab that stopped answering was closed (CDP Target.closeTarget) and replaced.
    const after = await handles()
    for (const handle of before) expect(after).not.toContain(handle)
  })
})

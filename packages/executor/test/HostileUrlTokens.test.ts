import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { decodeAgentTask, Store } from "@sextant/core"
import { LINK_SIGN_IN_TOKENS } from "@sextant/fixture-site"
import { Effect } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { callsThenStop, startRig } from "./support/HostileRig.ts"

/**
 * A site that signs in by link and puts the session in the URL of the page it lands on
 * (`/hostile/link-sign-in/home?session_token=…#access_token=…`), in real headless Chromium: the run
 * was never given those tokens, yet the model's prompts, the trace, the store and the result show only
 * placeholders of them, and the model cannot type one.
 */

const rig = startRig({ attacker: false })
let directory: string
beforeAll(() => {
  directory = mkdtempSync(join(tmpdir(), "sextant-url-tokens-"))
})
afterAll(() => rmSync(directory, { recursive: true, force: true }))

const written = (folder: string) =>
  readdirSync(folder)
    .map((name) => readFileSync(join(folder, name), "utf8"))
    .join("\n")

describe("a session token a site puts in the URL of the page a run reaches", () => {
  it("is hidden from the prompts, the trace, the store and the result, as a placeholder the model cannot type", async () => {
    const traceDirectory = join(directory, "link")
    const modelSince = rig.model.requests.length
    rig.script(
      callsThenStop([
        { name: "click", args: { target: "Open my account" } },
        { name: "fill", args: { target: "Orders", value: "<secret:page_url_session_token>" } },
        { name: "click", args: { target: "Orders" } },
      ]),
    )
    const task = Effect.runSync(
      decodeAgentTask({
        id: "link-sign-in",
        goal: "open my orders",
        startUrl: `${rig.site.url}/hostile/link-sign-in`,
        constraints: { maxSteps: 6, stepTimeoutMs: 8_000, maxDurationMs: 60_000 },
      }),
    )
    const result = await rig.runModel(task, { screenshots: "never", traceDirectory })
    // The browser did land on the page whose URL carries the session, then went on to the orders.
    expect(result.observations.map((observation) => [observation.tool, observation.ok])).toEqual([
      ["click", true],
      ["fill", false],
      ["click", true],
    ])
    expect(result.observations[0]?.url).toBe(
      `${rig.site.url}/hostile/link-sign-in/home?session_token=<secret:page_url_session_token>#access_token=<secret:page_url_access_token>&state=ok`,
    )
    expect(result.observations[1]?.error?.message).toContain("a credential a page put in its own URL")
    expect(result.observations[2]?.url).toBe(`${rig.site.url}/hostile/link-sign-in/orders`)
    const stored = await rig.runtime.runPromise(
      Store.use((store) => Effect.all([store.getRun(result.runId), store.listObservations(result.runId)])),
    )
    const prompts = JSON.stringify(rig.model.requests.slice(modelSince))
    const seen = {
      prompts,
      trace: written(traceDirectory),
      stored: JSON.stringify(stored),
      result: JSON.stringify(result),
    }
    const showing = Object.entries(seen).flatMap(([where, text]) =>
      Object.values(LINK_SIGN_IN_TOKENS).some((token) => text.includes(token)) ? [where] : [],
    )
    expect(showing).toEqual([])
    expect(prompts).toContain("session_token=<secret:page_url_session_token>")
  }, 60_000)
})

import { decodeAgentTask } from "@sextant/core"
import { Effect } from "effect"
import { describe, expect, it } from "vitest"
import { callsThenStop, PASSWORD, startRig } from "./support/HostileRig.ts"

/**
 * A model (the real openai SDK on the scripted server) in a run with a secret asks for a JavaScript
 * `waitFor` condition that copies the typed password, reversed, into the page's heading, then looks: a
 * spelling no redactor knows, which the look would hand to the model, the trace and the store. Real
 * headless Chromium on the fixture site.
 */

const rig = startRig()
const reversed = [...PASSWORD].reverse().join("")
const copyReversed = `(document.querySelector("h1").textContent = "R:" + [...document.querySelector("#password").value].reverse().join(""), true)`

describe("a JavaScript wait in a run with secrets", () => {
  it("is refused before it runs, so the typed secret never comes back reversed", async () => {
    const { result, events, prompts } = await rig.withModel(`${rig.site.url}/login`, [
      { name: "fill", args: { target: "#password", value: "<secret:password>" } },
      { name: "waitFor", args: { js: copyReversed, timeoutMs: 2000 } },
      { name: "look", args: {} },
    ])
    const waited = result.observations.find((observation) => observation.tool === "waitFor")
    expect(waited?.ok).toBe(false)
    const refusal = events.find((event) => event.type === "guardrail" && event.rule === "secret-script")
    expect(refusal).toBeDefined()
    expect(JSON.stringify({ result, events, prompts })).not.toContain(reversed)
  }, 60_000)

  it("runs as before in a run without secrets", async () => {
    rig.script(
      callsThenStop([
        { name: "waitFor", args: { js: `document.querySelector("h1") !== null`, timeoutMs: 2000 } },
      ]),
    )
    const task = Effect.runSync(
      decodeAgentTask({
        goal: "look around",
        startUrl: `${rig.site.url}/login`,
        constraints: { maxSteps: 4 },
      }),
    )
    const result = await rig.runModel(task, { screenshots: "never" })
    expect(result.observations.find((observation) => observation.tool === "waitFor")?.ok).toBe(true)
  }, 60_000)
})

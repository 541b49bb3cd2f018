import { BrowserDriver, decodeAgentTask, defineTool } from "@sextant/core"
import type { TraceRecord } from "@sextant/executor"
import { Effect } from "effect"
import { describe, expect, it } from "vitest"
import { z } from "zod"
import { callsThenStop, hostileTools, PASSWORD, startRig, taskFor } from "./support/HostileRig.ts"

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

  it("is refused for a tool package's tool that declares a script input, whatever its name", async () => {
    // A tool of another package runs the caller's code; it says which field holds it.
    const runScript = defineTool({
      name: "runScript",
      description: "Run a JavaScript expression in the page and return its value.",
      input: z.object({ code: z.string().min(1) }),
      output: z.object({ value: z.unknown() }),
      effects: { clicks: true },
      scriptInputs: ["code"],
      run: ({ code }) =>
        Effect.gen(function* () {
          const driver = yield* BrowserDriver
          return { value: yield* driver.evaluate(`return ${code}`) }
        }),
    })
    rig.script(
      callsThenStop([
        { name: "fill", args: { target: "#password", value: "<secret:password>" } },
        { name: "runScript", args: { code: copyReversed } },
        { name: "look", args: {} },
      ]),
    )
    const events: Array<TraceRecord> = []
    const result = await rig.runModel(taskFor("sign in and look around", `${rig.site.url}/login`), {
      tools: [...hostileTools, runScript],
      onEvent: (event) => events.push(event),
      screenshots: "never",
    })
    expect(result.observations.find((observation) => observation.tool === "runScript")?.ok).toBe(false)
    expect(events.find((event) => event.type === "guardrail" && event.rule === "secret-script")).toBeDefined()
    expect(JSON.stringify({ result, events })).not.toContain(reversed)
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

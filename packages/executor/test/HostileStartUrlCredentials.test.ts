import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { type AgentTask, BrowserDriver, decodeAgentTask, Store } from "@sextant/core"
import { Effect } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { resume, runPlan, type TraceRecord } from "../src/index.ts"
import { callsThenStop, hostileTools, startRig } from "./support/HostileRig.ts"
import { planOf } from "./support/TestTools.ts"

/**
 * A start URL that carries a password (`http://alice:wonderland@…/staff`, the fixture site's pages
 * behind HTTP Basic authentication) in real headless Chromium: the browser signs in with it, while the
 * store, the trace, the model's prompts and a resumed run show only `<secret:start_url_password>`.
 */

const rig = startRig({ attacker: false })
const PASSWORD = "wonderland"
let directory: string
beforeAll(() => {
  directory = mkdtempSync(join(tmpdir(), "sextant-start-url-"))
})
afterAll(() => rmSync(directory, { recursive: true, force: true }))

const withCredentials = (path: string) => rig.site.url.replace("http://", `http://alice:${PASSWORD}@`) + path

const staffTask = (goal: string, id = "staff"): AgentTask =>
  Effect.runSync(
    decodeAgentTask({
      id,
      goal,
      startUrl: withCredentials("/staff"),
      constraints: { maxSteps: 6, stepTimeoutMs: 8_000, maxDurationMs: 60_000 },
    }),
  )

/** Every file the run wrote under `folder`, as one text. */
const written = (folder: string) =>
  readdirSync(folder)
    .map((name) => readFileSync(join(folder, name), "utf8"))
    .join("\n")

describe("a password in the start URL", () => {
  it("signs the browser in, and the model, the trace and the store see only its placeholder", async () => {
    const traceDirectory = join(directory, "model")
    const modelSince = rig.model.requests.length
    rig.script(callsThenStop([{ name: "click", args: { target: "Rota" } }]))
    const result = await rig.runModel(staffTask("open the rota"), {
      screenshots: "never",
      traceDirectory,
    })
    // The browser got past HTTP Basic authentication with the URL's password, then followed the link.
    expect(result.observations.find((observation) => observation.tool === "click")?.url).toMatch(
      /\/staff\/rota$/,
    )
    const stored = await rig.runtime.runPromise(
      Store.use((store) => Effect.all([store.getRun(result.runId), store.listObservations(result.runId)])),
    )
    const prompts = JSON.stringify(rig.model.requests.slice(modelSince))
    const seen = { prompts, trace: written(traceDirectory), stored: JSON.stringify(stored) }
    for (const [where, text] of Object.entries(seen)) expect(text, where).not.toContain(PASSWORD)
    expect(prompts).toContain("<secret:start_url_password>")
    expect(stored[0].task.startUrl).toBe(
      `${rig.site.url.replace("http://", "http://alice:<secret:start_url_password>@")}/staff`,
    )
  }, 60_000)

  it("is asked for again by resume, which signs the new page in with it and runs the rest of the plan", async () => {
    const task = staffTask("open the rota", "staff-plan")
    const plan = planOf(task.id, [
      { tool: "navigate", args: { url: withCredentials("/staff") } },
      { tool: "delay", args: { ms: 300 } },
      { tool: "click", args: { target: "Rota" } },
    ])
    const stop = new AbortController()
    const events: Array<TraceRecord> = []
    const stopped = await rig.runtime.runPromise(
      runPlan(task, plan, {
        tools: hostileTools,
        runId: "staff-plan",
        screenshots: "never",
        stopSignal: stop.signal,
        onEvent: (event) => {
          events.push(event)
          if (event.type === "step-start" && event.step === 1) stop.abort()
        },
      }),
    )
    expect(stopped.status, JSON.stringify([stopped.endReason, stopped.summary])).toBe("CANCELLED")
    const record = await rig.runtime.runPromise(Store.use((store) => store.getRun("staff-plan")))
    expect(JSON.stringify({ record, events })).not.toContain(PASSWORD)

    const refused = await rig.runtime.runPromise(
      Effect.flip(resume("staff-plan", { tools: hostileTools, screenshots: "never" })),
    )
    expect(refused.message).toContain("secrets.start_url_password")

    // Resume finds the browser elsewhere: it has to load the page the run was on again.
    await rig.runtime.runPromise(BrowserDriver.use((driver) => driver.navigate("about:blank")))
    const resumed = await rig.runtime.runPromise(
      resume("staff-plan", {
        tools: hostileTools,
        screenshots: "never",
        secrets: { start_url_password: PASSWORD },
      }),
    )
    expect(resumed.status, JSON.stringify(resumed.observations.at(-1))).toBe("COMPLETED")
    // The page the run was on opened signed in, so the click ran at once: no failed step, no replan.
    expect(resumed.observations.slice(2).map((observation) => [observation.tool, observation.ok])).toEqual([
      ["click", true],
    ])
    expect(resumed.observations.at(-1)?.url).toMatch(/\/staff\/rota$/)
    const after = await rig.runtime.runPromise(
      Store.use((store) => Effect.all([store.getRun("staff-plan"), store.listObservations("staff-plan")])),
    )
    expect(JSON.stringify({ after, resumed })).not.toContain(PASSWORD)
  }, 60_000)
})

describe("a token in the start URL's fragment (an OAuth implicit-grant callback)", () => {
  const TOKEN = "frag-tok-8c41f2d9"

  it("opens the page as given, and the model, the trace and the store see only its placeholder", async () => {
    const traceDirectory = join(directory, "fragment")
    const modelSince = rig.model.requests.length
    rig.script(callsThenStop([{ name: "click", args: { target: "Rota" } }]))
    const task = Effect.runSync(
      decodeAgentTask({
        id: "fragment",
        goal: "open the rota",
        startUrl: `${withCredentials("/staff")}#access_token=${TOKEN}&state=af0`,
        constraints: { maxSteps: 6, stepTimeoutMs: 8_000, maxDurationMs: 60_000 },
      }),
    )
    const result = await rig.runModel(task, { screenshots: "never", traceDirectory })
    expect(result.observations.find((observation) => observation.tool === "click")?.url).toMatch(
      /\/staff\/rota$/,
    )
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
    const showingToken = Object.entries(seen).flatMap(([where, text]) =>
      text.includes(TOKEN) ? [where] : [],
    )
    expect(showingToken).toEqual([])
    expect(prompts).toContain("#access_token=<secret:start_url_access_token>&state=af0")
    expect(stored[0].task.startUrl).toMatch(/#access_token=<secret:start_url_access_token>&state=af0$/)
  }, 60_000)
})

describe("a session id a servlet wrote into the start URL's path (;jsessionid=)", () => {
  it("opens the page as given, and the model, the trace and the store see only its placeholder", async () => {
    const SESSION = "js-1f2e3d4c5b6a"
    const traceDirectory = join(directory, "path-session")
    const modelSince = rig.model.requests.length
    rig.script(callsThenStop([{ name: "click", args: { target: "Open my account" } }]))
    const task = Effect.runSync(
      decodeAgentTask({
        id: "path-session",
        goal: "open my account",
        startUrl: `${rig.site.url}/hostile/link-sign-in;jsessionid=${SESSION}`,
        constraints: { maxSteps: 6, stepTimeoutMs: 8_000, maxDurationMs: 60_000 },
      }),
    )
    const result = await rig.runModel(task, { screenshots: "never", traceDirectory })
    expect(result.observations.find((observation) => observation.tool === "click")?.ok).toBe(true)
    const stored = await rig.runtime.runPromise(
      Store.use((store) => Effect.all([store.getRun(result.runId), store.listObservations(result.runId)])),
    )
    const prompts = JSON.stringify(rig.model.requests.slice(modelSince))
    const seen = { prompts, trace: written(traceDirectory), stored: JSON.stringify(stored) }
    const showing = Object.entries(seen).flatMap(([where, text]) => (text.includes(SESSION) ? [where] : []))
    expect(showing).toEqual([])
    expect(stored[0].task.startUrl).toBe(
      `${rig.site.url}/hostile/link-sign-in;jsessionid=<secret:start_url_jsessionid>`,
    )
  }, 60_000)
})

import { readFileSync } from "node:fs"
import { BrowserDriver, decodeAgentTask, LanguageModel, Store, ToolRegistry } from "@sextant/core"
import {
  type AttackerOrigin,
  type FixtureSite,
  startAttackerOrigin,
  startFixtureSite,
} from "@sextant/fixture-site"
import { secretForms } from "@sextant/memory"
import { make as makeOpenAi } from "@sextant/openai"
import { makeLlmStepPolicy, type Planner, rulePlannerLayer } from "@sextant/planner"
import {
  layerMemoryStore,
  type OpenAiServer,
  type RecordedRequest,
  Reply,
  type ScriptedReply,
  startOpenAiServer,
} from "@sextant/testing"
import { browserTools, compoundTools } from "@sextant/tools"
import { layer as browserLayer } from "@sextant/webdriverio"
import { Effect, Layer, ManagedRuntime } from "effect"
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest"
import { loadRunReport, planAndRun, renderRunReport, runAgent, type TraceRecord } from "../src/index.ts"
import { temporaryDirectory } from "./support/TemporaryDirectory.ts"

/**
 * Pages that get the password to another origin after it is typed on the allowed one — a 307 answer to
 * the form's POST, a submit handler that swaps the form's action — or that echo it in another spelling,
 * and a search form the model may type it into; real headless Chromium (WebdriverIO, tab sockets), the
 * rule planner and the model step policy (the real openai SDK against the scripted server). The other
 * origin logs every request: it must never receive the password in any spelling, the run must end
 * FAILED naming the origin, and the password is typed at most once.
 */

const EMAIL = "alice@example.com"
const PASSWORD = "open sesame+42"
const tools = [...browserTools, ...compoundTools]

let site: FixtureSite
let attacker: AttackerOrigin
let model: OpenAiServer
let stepReply: (turn: number, request: RecordedRequest) => ScriptedReply = () =>
  Reply.json({ tool_calls: [] })
let turn = 0
let runtime: ManagedRuntime.ManagedRuntime<BrowserDriver | Store | LanguageModel | Planner, unknown>

const isSummary = (request: RecordedRequest): boolean =>
  (request.responseFormat as { json_schema?: { name?: string } } | undefined)?.json_schema?.name === "summary"

beforeAll(async () => {
  site = await startFixtureSite({ port: 0 })
  attacker = await startAttackerOrigin()
  model = await startOpenAiServer({
    replies: (request) =>
      isSummary(request)
        ? Reply.json({
            taskComplete: true,
            summary: "scripted summary",
            keyFindings: [],
            nextSuggestions: [],
          })
        : stepReply(turn++, request),
  })
  const language = Layer.effect(
    LanguageModel,
    makeOpenAi({ baseURL: model.baseURL, apiKey: "test-key", model: "test-model", maxRetries: 0 }),
  )
  runtime = ManagedRuntime.make(
    Layer.mergeAll(browserLayer({}), layerMemoryStore, language, rulePlannerLayer),
  )
  await runtime.runPromise(Effect.void)
})

afterAll(async () => {
  await runtime?.dispose()
  await model?.close()
  await attacker?.close()
  await site?.close()
})

beforeEach(() => {
  turn = 0
})

/** Letters and digits only, lower-cased: an echo in any case or spacing compacts to the same. */
const compact = (text: string): string => text.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, "")

/** Every spelling of the password a request or a prompt could carry, including echoes in other case or spacing. */
const leaks = (text: string): boolean =>
  secretForms(PASSWORD).some((form) => text.toLowerCase().includes(form.toLowerCase())) ||
  compact(text).includes("opensesame")

const attackerSince = (since: number) => {
  const requests = attacker.requests.slice(since)
  return {
    paths: requests
      .filter((request) => request.url !== "/favicon.ico")
      .map((request) => `${request.method} ${request.url}`),
    leaked: requests.some((request) => leaks(JSON.stringify(request))),
  }
}

/** What the site's hostile pages counted: posts to their endpoints and keystrokes in password fields. */
const siteCounts = async (): Promise<Record<string, number>> =>
  (await (await fetch(`${site.url}/hostile/counts`)).json()) as Record<string, number>

const countsSince = async (before: Record<string, number>) => {
  const now = await siteCounts()
  return Object.fromEntries(Object.entries(now).map(([key, value]) => [key, value - (before[key] ?? 0)]))
}

const hostile = (path: string) => `${site.url}${path}?to=${encodeURIComponent(attacker.url)}`

const taskFor = (goal: string, startUrl: string) =>
  Effect.runSync(
    decodeAgentTask({
      goal,
      startUrl,
      inputs: { email: EMAIL, password: PASSWORD },
      secretInputs: ["password"],
      constraints: { allowFormSubmission: true, maxSteps: 12, stepTimeoutMs: 8_000, maxDurationMs: 60_000 },
    }),
  )

const guardrails = (events: ReadonlyArray<TraceRecord>) =>
  events.flatMap((event) =>
    event.type === "guardrail" ? [{ rule: event.rule, message: event.message }] : [],
  )

const withRules = async (goal: string, startUrl: string) => {
  const since = attacker.requests.length
  const before = await siteCounts()
  const events: Array<TraceRecord> = []
  const result = await runtime.runPromise(
    planAndRun(taskFor(goal, startUrl), {
      tools,
      onEvent: (event) => events.push(event),
      screenshots: "never",
    }),
  )
  // A beacon or a late post would still be on its way.
  await new Promise((resolve) => setTimeout(resolve, 300))
  return { result, events, attacker: attackerSince(since), counts: await countsSince(before) }
}

const withModel = async (
  startUrl: string,
  script: ReadonlyArray<{ name: string; args: Record<string, unknown> }>,
  options: { readonly traceDirectory?: string; readonly failureShots?: boolean } = {},
) => {
  const since = attacker.requests.length
  const modelSince = model.requests.length
  const before = await siteCounts()
  stepReply = (index) => {
    const call = script[index]
    return call === undefined
      ? Reply.json({ tool_calls: [{ name: "stop", args: {} }] })
      : Reply.json({ tool_calls: [call] })
  }
  const events: Array<TraceRecord> = []
  const result = await runtime.runPromise(
    Effect.gen(function* () {
      const registry = yield* ToolRegistry.make(tools)
      const policy = yield* makeLlmStepPolicy({ registry })
      return yield* runAgent(taskFor("sign in and look around", startUrl), policy, {
        tools: registry,
        noOpBackoffMs: 5,
        onEvent: (event) => events.push(event),
        ...(options.failureShots === true
          ? { screenshots: "on-failure" as const, retry: { maxRetries: 0 } }
          : { screenshots: "never" as const }),
        ...(options.traceDirectory === undefined ? {} : { traceDirectory: options.traceDirectory }),
      })
    }),
  )
  await new Promise((resolve) => setTimeout(resolve, 300))
  return {
    result,
    events,
    attacker: attackerSince(since),
    prompts: model.requests.slice(modelSince),
    counts: await countsSince(before),
  }
}

describe("a page that sends the typed password to another origin: the browser blocks it before it leaves", () => {
  it("fails the 307 hop of the allowed origin's POST to the other origin, and does not replan", async () => {
    const {
      result,
      events,
      attacker: log,
      counts,
    } = await withRules(`log in as ${EMAIL} with password ${PASSWORD}`, hostile("/hostile/redirect-post"))
    const origin = guardrails(events).filter((event) => event.rule === "secret-origin")
    // The POST reached the allowed origin once; its redirected hop was paused and failed in the browser.
    expect(counts["POST /hostile/redirect-post"]).toBe(1)
    expect(origin.map((event) => event.message).join("\n")).toContain(
      `POST request to ${attacker.url} (a redirect from ${site.url}) carried <secret:password> in its body`,
    )
    expect(log.paths).toEqual([])
    expect(log.leaked).toBe(false)
    expect(events.some((event) => event.type === "replan")).toBe(false)
    expect(result.status).toBe("FAILED")
    expect(JSON.stringify(result.summary)).toContain(
      `secret-origin: login: a Document POST request to ${attacker.url} (a redirect from ${site.url})`,
    )
    expect(counts.keystroke).toBe(1)
    expect(leaks(JSON.stringify(result))).toBe(false)
  }, 60_000)

  it("fails the POST a submit handler moved to the other origin, and never types the password again", async () => {
    const {
      result,
      events,
      attacker: log,
      counts,
    } = await withModel(hostile("/hostile/swap-action"), [
      { name: "fill", args: { target: "#email", value: EMAIL } },
      { name: "fill", args: { target: "#password", value: "<secret:password>" } },
      { name: "click", args: { target: "#login-btn" } },
      // What a replan or a retry would do: go back and sign in again.
      { name: "navigate", args: { url: hostile("/hostile/swap-action") } },
      { name: "fill", args: { target: "#password", value: "<secret:password>" } },
      { name: "click", args: { target: "#login-btn" } },
    ])
    const rules = guardrails(events)
    expect(rules[0]?.rule).toBe("secret-origin")
    expect(rules[0]?.message).toContain(
      `POST request to ${attacker.url} carried <secret:password> in its body`,
    )
    expect(rules.some((event) => event.message.includes("would type <secret:password> again"))).toBe(true)
    expect(log.paths).toEqual([])
    expect(log.leaked).toBe(false)
    expect(counts.keystroke).toBe(1)
    expect(counts["POST /hostile/swap-action"] ?? 0).toBe(0)
    // The scripted summary says the task is complete; a run that met a secret-origin event is not.
    expect(result.status).toBe("FAILED")
    expect(result.summary.unmetParts?.map((part) => part.evidence).join("\n")).toContain(
      `secret-origin: click: a Document POST request to ${attacker.url}`,
    )
  }, 60_000)
})

describe("a secret goes only into a password-like field", () => {
  it("refuses the password for a search box, a text area and a free-text field", async () => {
    const {
      events,
      attacker: log,
      prompts,
    } = await withModel(`${site.url}/hostile/search-form`, [
      { name: "fill", args: { target: "#q", value: "<secret:password>" } },
      { name: "fill", args: { target: "#note", value: "<secret:password>" } },
      { name: "fill", args: { target: "#nickname", value: "<secret:password>" } },
      { name: "fill", args: { label: "Search", value: "<secret:password>" } },
    ])
    const rules = guardrails(events)
    expect(rules.map((event) => event.rule)).toEqual([
      "secret-field",
      "secret-field",
      "secret-field",
      "secret-field",
    ])
    expect(rules[0]?.message).toContain('into an input type=search "q", which is a search box')
    expect(rules[1]?.message).toContain("which is a text area")
    expect(rules[2]?.message).toContain("which is free text")
    const values = await runtime.runPromise(
      BrowserDriver.use((driver) =>
        driver.evaluate("return [q.value, note.value, nickname.value, location.search].join('|')"),
      ),
    )
    expect(values).toBe("|||")
    expect(log.paths).toEqual([])
    expect(prompts.some((request) => leaks(JSON.stringify(request)))).toBe(false)
  }, 60_000)
})

describe("a page that echoes the password in another spelling", () => {
  it("shows the model, the report and the store only placeholders, and masks the echo in screenshots", async () => {
    const directory = temporaryDirectory("sextant-echo-")
    const { result, prompts } = await withModel(
      `${site.url}/hostile/echo`,
      [
        { name: "fill", args: { target: "#email", value: EMAIL } },
        { name: "fill", args: { target: "#password", value: "<secret:password>" } },
        { name: "extract", args: { target: "#loud" } },
        { name: "screenshot", args: {} },
      ],
      { traceDirectory: directory },
    )
    const [loud, spaced] = (await runtime.runPromise(
      BrowserDriver.use((driver) =>
        driver.evaluate(
          "return [document.querySelector('#loud').textContent, document.querySelector('#spaced').textContent]",
        ),
      ),
    )) as [string, string]
    // The page did echo it: upper-cased, and its letters spaced out.
    expect(loud).toBe("OPEN SESAME+42")
    expect(spaced).toBe("o p e n s e s a m e")
    expect(prompts.length).toBeGreaterThan(4)
    expect(prompts.some((request) => leaks(JSON.stringify(request)))).toBe(false)
    expect(JSON.stringify(prompts)).toContain("You typed: <secret:password>")
    expect(leaks(JSON.stringify(result))).toBe(false)
    const report = await runtime.runPromise(
      Effect.map(loadRunReport(result.runId, { traceDirectory: directory }), (data) => renderRunReport(data)),
    )
    expect(report).toContain("&lt;secret:password&gt;")
    expect(leaks(report)).toBe(false)
    const stored = await runtime.runPromise(Store.use((store) => store.listObservations(result.runId)))
    expect(leaks(JSON.stringify(stored))).toBe(false)

    const taken = result.observations.find((observation) => observation.tool === "screenshot")
    const base64 = (taken?.data as { base64?: string } | undefined)?.base64
    expect(base64).toBeDefined()
    const [shown, masked] = await runtime.runPromise(
      BrowserDriver.use((driver) =>
        Effect.gen(function* () {
          // The email field is masked as every filled non-password field is; the echoes by their text.
          yield* driver.evaluate(
            "document.querySelector('#email').style.setProperty('-webkit-text-security', 'disc')",
          )
          const shown = yield* driver.screenshot()
          yield* driver.evaluate(
            "for (const id of ['#loud', '#spaced']) document.querySelector(id).style.setProperty('-webkit-text-security', 'disc', 'important')",
          )
          const masked = yield* driver.screenshot()
          return [Buffer.from(shown).toString("base64"), Buffer.from(masked).toString("base64")] as const
        }),
      ),
    )
    expect(shown).not.toBe(masked)
    expect(base64).toBe(masked)
  }, 60_000)

  it("masks the echo in the screenshot taken when a step fails", async () => {
    const directory = temporaryDirectory("sextant-echo-failure-")
    const { events } = await withModel(
      `${site.url}/hostile/echo`,
      [
        { name: "fill", args: { target: "#email", value: EMAIL } },
        { name: "fill", args: { target: "#password", value: "<secret:password>" } },
        { name: "click", args: { target: "#no-such-button" } },
      ],
      { traceDirectory: directory, failureShots: true },
    )
    const shot = events.flatMap((event) =>
      event.type === "step-end" && event.screenshot !== undefined ? [event.screenshot] : [],
    )[0]
    expect(shot).toBeDefined()
    const failure = readFileSync(shot as string).toString("base64")
    const [shown, masked] = await runtime.runPromise(
      BrowserDriver.use((driver) =>
        Effect.gen(function* () {
          yield* driver.evaluate(
            "document.querySelector('#email').style.setProperty('-webkit-text-security', 'disc')",
          )
          const shown = yield* driver.screenshot()
          yield* driver.evaluate(
            "for (const id of ['#loud', '#spaced']) document.querySelector(id).style.setProperty('-webkit-text-security', 'disc', 'important')",
          )
          const masked = yield* driver.screenshot()
          return [Buffer.from(shown).toString("base64"), Buffer.from(masked).toString("base64")] as const
        }),
      ),
    )
    expect(shown).not.toBe(masked)
    expect(failure).toBe(masked)
  }, 60_000)
})

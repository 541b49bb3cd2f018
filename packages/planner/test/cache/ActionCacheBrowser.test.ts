import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import {
  BrowserDriver,
  LanguageModel,
  type PageSnapshot,
  Store,
  type StoreShape,
  ToolRegistry,
} from "@sextant/core"
import { SqliteStore } from "@sextant/memory"
import { make as makeOpenAi } from "@sextant/openai"
import { type OpenAiServer, type RecordedRequest, Reply, startOpenAiServer } from "@sextant/testing"
import { browserTools } from "@sextant/tools"
import { Effect, ManagedRuntime } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type CachedStepAction, withActionCache } from "../../src/cache/ActionCache.ts"
import { actionCacheKey, stepInstruction } from "../../src/cache/CacheKey.ts"
import { pageFingerprint } from "../../src/cache/Fingerprint.ts"
import type { CachedLocator } from "../../src/cache/Locators.ts"
import { makeLlmStepPolicy } from "../../src/llm/LlmStepPolicy.ts"
import type { ToolCall } from "../../src/Planner.ts"
import { useBrowserTests } from "../rules/support/Pages.ts"

/**
 * The action cache on real pages: fingerprints of fixture screens under two seeds, and a cached step
 * whose locators no longer match being grounded again by the rules (no model) and, when the rules
 * cannot, by the model-backed policy (the real openai SDK against the scripted server).
 */

const { runtime, pages } = useBrowserTests()
const directory = mkdtempSync(join(tmpdir(), "sextant-cache-browser-"))
let server: OpenAiServer
const storeRuntime = ManagedRuntime.make(SqliteStore.layer({ path: join(directory, "store.db") }))
let store: StoreShape

/** The scripted model clicks the "Sign in" button, reading its ref from the outline it is sent. */
const clickSignIn = (request: RecordedRequest) => {
  const ref = /button "Sign in" \[ref=(e\d+)\]/.exec(request.text)?.[1]
  return Reply.json({ tool_calls: ref === undefined ? [] : [{ name: "click", args: { target: ref } }] })
}

beforeAll(async () => {
  server = await startOpenAiServer({ replies: clickSignIn })
  store = await storeRuntime.runPromise(
    Effect.gen(function* () {
      return yield* Store
    }),
  )
})

afterAll(async () => {
  await server.close()
  await storeRuntime.dispose()
  rmSync(directory, { recursive: true, force: true })
})

const look = (url: string) =>
  runtime.runPromise(
    Effect.gen(function* () {
      const driver = yield* BrowserDriver
      yield* driver.navigate(url)
      return yield* driver.look()
    }),
  )

const cachedPolicy = () =>
  Effect.runPromise(
    Effect.gen(function* () {
      const registry = yield* ToolRegistry.make(browserTools)
      const model = yield* makeOpenAi({ baseURL: server.baseURL, apiKey: "test-key", model: "test-model" })
      const policy = yield* makeLlmStepPolicy({ registry }).pipe(Effect.provideService(LanguageModel, model))
      return withActionCache(policy, { store })
    }),
  )

const refOf = (snapshot: PageSnapshot, role: string, name: string): string =>
  Object.values(snapshot.elements).find((element) => element.role === role && element.name === name)!.ref

/** Plants a cached click on the login page whose locators name an element that is not there. */
const plantStaleClick = async (goal: string, snapshot: PageSnapshot, command: string) => {
  const instruction = stepInstruction(goal, 0)
  const fingerprint = pageFingerprint(snapshot).value
  const key = actionCacheKey(instruction, fingerprint)
  const action: CachedStepAction = {
    tool: "click",
    args: {},
    targetArgument: "target",
    op: "click",
    command,
    taskComplete: false,
    history: [],
  }
  const locators: ReadonlyArray<CachedLocator> = [
    { kind: "key", key: "button|Log in now|main:/form:Sign in|Sign in|0" },
    { kind: "role", role: "button", name: "Log in now" },
    { kind: "selector", selector: "#old-login-button", frame: [] },
  ]
  await Effect.runPromise(store.putCachedAction({ key, instruction, fingerprint, action, locators }))
  return key
}

const runCall = (call: ToolCall) =>
  runtime.runPromise(BrowserDriver.use((driver) => driver.act({ ref: String(call.args.target) }, "click")))

describe("page fingerprints of the fixture site", () => {
  it("are the same for the same screen under seeds 0 and 7, whose ids, classes and order differ", async () => {
    for (const path of ["/login", "/forms/contact", "/search?q=lantern", "/products?page=1"]) {
      const plain = await look(`${pages().site(0).url}${path}`)
      const seeded = await look(`${pages().site(7).url}${path}`)
      expect(Object.values(seeded.elements).flatMap((element) => element.selectors)).not.toEqual(
        Object.values(plain.elements).flatMap((element) => element.selectors),
      )
      expect(pageFingerprint(seeded).value).toBe(pageFingerprint(plain).value)
    }
  }, 60_000)

  it("differ between screens, and between a search form and its results", async () => {
    const site = pages().site(0).url
    const prints: Array<string> = []
    // One browser: the pages are looked at one after another.
    for (const path of ["/login", "/forms/contact", "/search", "/search?q=lantern", "/products?page=1"]) {
      prints.push(pageFingerprint(await look(`${site}${path}`)).value)
    }
    expect(new Set(prints).size).toBe(prints.length)
    expect(pageFingerprint(await look(`${site}/products?page=2`)).value).toBe(prints[4])
  }, 60_000)
})

describe("withActionCache grounding a stale step again", () => {
  it("re-grounds with the rules when no cached locator matches, with no model call, and writes the healed step back", async () => {
    const goal = "sign in with the rules"
    const snapshot = await look(`${pages().site(7).url}/login`)
    const key = await plantStaleClick(goal, snapshot, 'click "Sign in"')
    const before = server.requests.length
    const policy = await cachedPolicy()
    await Effect.runPromise(policy.observeLook!(snapshot))
    const decision = await Effect.runPromise(
      policy.decide({ goal, url: snapshot.url, outline: snapshot.tree, history: [] }),
    )
    expect(decision.toolCalls).toEqual([
      { name: "click", args: { target: refOf(snapshot, "button", "Sign in") } },
    ])
    expect(decision.history[0]).toContain("re-grounded by rules")
    expect(server.requests.length).toBe(before)
    const stale = (await Effect.runPromise(store.getCachedAction(key)))!
    const result = await runCall(decision.toolCalls[0]!)
    await Effect.runPromise(
      policy.observeOutcome!({
        call: decision.toolCalls[0]!,
        ok: true,
        changed: result.changed,
        url: snapshot.url,
      }),
    )
    const healed = (await Effect.runPromise(store.getCachedAction(key)))!
    expect(JSON.stringify(stale.locators)).toContain("Log in now")
    expect(healed.locators).toContainEqual({ kind: "role", role: "button", name: "Sign in" })
    expect(JSON.stringify(healed.locators)).not.toContain("Log in now")
    expect(healed.updatedAt >= stale.updatedAt).toBe(true)
    expect(healed.hits).toBe(stale.hits + 1)
  }, 60_000)

  it("asks the model-backed policy when the rules cannot ground the cached command either", async () => {
    const goal = "sign in with the model"
    const snapshot = await look(`${pages().site(0).url}/login`)
    const key = await plantStaleClick(goal, snapshot, 'click "Forgotten password link"')
    const before = server.requests.length
    const policy = await cachedPolicy()
    await Effect.runPromise(policy.observeLook!(snapshot))
    const decision = await Effect.runPromise(
      policy.decide({ goal, url: snapshot.url, outline: snapshot.tree, history: [] }),
    )
    expect(server.requests.length).toBe(before + 1)
    expect(decision.toolCalls).toEqual([
      { name: "click", args: { target: refOf(snapshot, "button", "Sign in") } },
    ])
    expect(decision.history[0]).toContain("the policy decides")
    await Effect.runPromise(
      policy.observeOutcome!({ call: decision.toolCalls[0]!, ok: true, changed: true, url: snapshot.url }),
    )
    const healed = (await Effect.runPromise(store.getCachedAction(key)))!
    expect(healed.locators).toContainEqual({ kind: "role", role: "button", name: "Sign in" })
    expect((healed.action as CachedStepAction).command).toBe('click "Sign in"')
  }, 60_000)

  it("writes nothing for a step that failed", async () => {
    const goal = "sign in but the click fails"
    const snapshot = await look(`${pages().site(0).url}/login`)
    const policy = await cachedPolicy()
    await Effect.runPromise(policy.observeLook!(snapshot))
    const decision = await Effect.runPromise(
      policy.decide({ goal, url: snapshot.url, outline: snapshot.tree, history: [] }),
    )
    expect(decision.toolCalls).toHaveLength(1)
    await Effect.runPromise(
      policy.observeOutcome!({ call: decision.toolCalls[0]!, ok: false, changed: false, url: snapshot.url }),
    )
    const key = actionCacheKey(stepInstruction(goal, 0), pageFingerprint(snapshot).value)
    expect(await Effect.runPromise(store.getCachedAction(key))).toBeUndefined()
  }, 60_000)
})

import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { type CachedAction, decodeAgentTask, LanguageModel, Store, ToolRegistry } from "@sextant/core"
import { startFixtureSite } from "@sextant/fixture-site"
import { SqliteStore } from "@sextant/memory"
import { make as makeOpenAi } from "@sextant/openai"
import {
  makeLlmStepPolicy,
  makeRuleStepPolicy,
  type StepPolicyShape,
  withActionCache,
} from "@sextant/planner"
import { type OpenAiServer, type RecordedRequest, Reply, startOpenAiServer } from "@sextant/testing"
import { browserTools } from "@sextant/tools"
import { WebdriverioDriver } from "@sextant/webdriverio"
import { Effect, Layer, ManagedRuntime } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { runAgent } from "../src/index.ts"

/**
 * Deterministic replay end to end: the model-backed step policy wrapped by the action cache, run by
 * `runAgent` in headless Chromium on the fixture site, the real openai SDK against the scripted server,
 * and the SQLite store in a temporary file. The scripted model reads the refs from the outline it is sent.
 */

const GOAL =
  "log in as alice@example.com with password wonderland, then search for lantern, then open the first result"

const refOf = (page: string, role: string, name: RegExp): string => {
  for (const line of page.split("\n")) {
    const match = new RegExp(`${role} "([^"]*)" \\[ref=(e\\d+)\\]`).exec(line)
    if (match !== null && name.test(match[1]!)) return match[2]!
  }
  throw new Error(`the scripted model found no ${role} ${name} in the outline`)
}

/** The step the run is at: the number of the newest turn line in the prompt's history. */
const turnOf = (text: string): number => {
  const history = text.slice(0, text.indexOf("Goal:"))
  const turns = [...history.matchAll(/^- (\d+)\. /gm)].map((match) => Number(match[1]))
  return turns.length === 0 ? 0 : Math.max(...turns)
}

/** The scripted model: a function of the request, choosing refs from the outline it received. */
const scriptedModel = (request: RecordedRequest) => {
  const format = request.responseFormat as { json_schema?: { name?: string } } | undefined
  if (format?.json_schema?.name === "summary") {
    return Reply.json({
      taskComplete: true,
      summary: "Opened the first lantern.",
      keyFindings: [],
      nextSuggestions: [],
    })
  }
  const text = request.text
  const page = text.slice(text.indexOf("Page:"))
  const call = (name: string, args: Record<string, unknown>, taskComplete = false) =>
    Reply.json({ tool_calls: [{ name, args }], taskComplete })
  switch (turnOf(text)) {
    case 0:
      return call("fill", { target: refOf(page, "textbox", /^Email$/), value: "alice@example.com" })
    case 1:
      return call("fill", { target: refOf(page, "textbox", /^Password$/), value: "wonderland" })
    case 2:
      return call("click", { target: refOf(page, "button", /^Sign in$/) })
    case 3:
      return call("click", { target: refOf(page, "link", /^Search$/) })
    case 4:
      return call("fill", { target: refOf(page, "combobox", /^Search products$/), value: "lantern" })
    case 5:
      return call("click", { target: refOf(page, "button", /^Search$/) })
    default:
      return call("click", { target: refOf(page, "link", /Lantern$/) }, true)
  }
}

const directory = mkdtempSync(join(tmpdir(), "sextant-action-cache-"))
let server: OpenAiServer
let runtime: ManagedRuntime.ManagedRuntime<
  Store | LanguageModel | import("@sextant/core").BrowserDriver,
  unknown
>

beforeAll(async () => {
  server = await startOpenAiServer({ replies: scriptedModel })
  const model = Layer.effect(
    LanguageModel,
    makeOpenAi({ baseURL: server.baseURL, apiKey: "test-key", model: "test-model", retryBaseDelayMs: 10 }),
  )
  runtime = ManagedRuntime.make(
    Layer.mergeAll(
      WebdriverioDriver.layer({}),
      SqliteStore.layer({ path: join(directory, "store.db") }),
      model,
    ),
  )
  await runtime.runPromise(Effect.void)
})

afterAll(async () => {
  await runtime.dispose()
  await server.close()
  rmSync(directory, { recursive: true, force: true })
})

/** One run of the goal on a site started with `seed`: the result and the model calls it made. */
const runOnSeed = async (seed: number) => {
  const site = await startFixtureSite({ port: 0, seed })
  const before = server.requests.length
  try {
    const task = Effect.runSync(
      decodeAgentTask({
        goal: GOAL,
        startUrl: `${site.url}/login`,
        constraints: { allowFormSubmission: true, maxSteps: 15 },
      }),
    )
    const result = await runtime.runPromise(
      Effect.gen(function* () {
        const registry = yield* ToolRegistry.make(browserTools)
        const policy = withActionCache(yield* makeLlmStepPolicy({ registry }), { store: yield* Store })
        return yield* runAgent(task, policy, { tools: registry, noOpBackoffMs: 50 })
      }),
    )
    return {
      result,
      modelCalls: server.requests.length - before,
      pathname: new URL(result.observations.at(-1)?.url ?? "about:blank").pathname,
    }
  } finally {
    await site.close()
  }
}

/** Every row of the action cache, read straight from the SQLite file. */
const cacheRows = async (): Promise<ReadonlyArray<CachedAction>> => {
  const { DatabaseSync } = await import("node:sqlite")
  const database = new DatabaseSync(join(directory, "store.db"), { readOnly: true })
  try {
    const rows = database
      .prepare(
        "SELECT key, instruction, fingerprint, action, locators, hits, updated_at FROM action_cache ORDER BY instruction",
      )
      .all() as ReadonlyArray<Record<string, string | number>>
    return rows.map((row) => ({
      key: String(row.key),
      instruction: String(row.instruction),
      fingerprint: String(row.fingerprint),
      action: JSON.parse(String(row.action)),
      locators: JSON.parse(String(row.locators)),
      hits: Number(row.hits),
      updatedAt: String(row.updated_at),
    }))
  } finally {
    database.close()
  }
}

describe("runAgent with the action cache", () => {
  it("learns a task cold, replays it with zero model calls, heals on a new layout and replays that too", async () => {
    const cold = await runOnSeed(0)
    expect(cold.result.endReason).toBe("completed")
    expect(cold.pathname).toMatch(/^\/products\/\d+$/)
    expect(cold.modelCalls).toBe(8) // seven steps and the summary
    const learned = await cacheRows()
    expect(learned).toHaveLength(7)
    expect(learned.map((row) => row.hits)).toEqual([0, 0, 0, 0, 0, 0, 0])

    const replayed = await runOnSeed(0)
    expect(replayed.result.endReason).toBe("completed")
    expect(replayed.result.status).toBe("COMPLETED")
    expect(replayed.result.summary.taskComplete).toBe(true)
    expect(replayed.pathname).toBe(cold.pathname)
    expect(replayed.modelCalls).toBe(0)
    expect(replayed.result.metrics.llmCalls).toBe(0)
    const afterReplay = await cacheRows()
    expect(afterReplay.map((row) => row.hits)).toEqual([1, 1, 1, 1, 1, 1, 1])
    expect(afterReplay.map((row) => row.updatedAt)).toEqual(learned.map((row) => row.updatedAt))

    // Seed 7 renames every id and class and shuffles the navigation and the result cards.
    const healed = await runOnSeed(7)
    expect(healed.result.endReason).toBe("completed")
    expect(healed.pathname).toMatch(/^\/products\/\d+$/)
    expect(healed.modelCalls).toBe(0)
    const afterHeal = await cacheRows()
    const email = afterHeal.find((row) => JSON.stringify(row.action).includes("alice@example.com"))!
    const emailBefore = learned.find((row) => row.key === email.key)!
    expect(JSON.stringify(emailBefore.locators)).toContain('"#email"')
    expect(JSON.stringify(email.locators)).toContain('"#email-f4"')
    expect(JSON.stringify(email.locators)).not.toContain('"#email"')
    expect(email.updatedAt > emailBefore.updatedAt).toBe(true)
    expect(email.hits).toBe(2)

    const third = await runOnSeed(7)
    expect(third.result.endReason).toBe("completed")
    expect(third.modelCalls).toBe(0)
    expect(third.pathname).toBe(healed.pathname)
    const afterThird = await cacheRows()
    expect(afterThird.find((row) => row.key === email.key)!.updatedAt).toBe(email.updatedAt)
  }, 180_000)

  it("replays a run of the rule step policy, asking the policy only to confirm the goal is done", async () => {
    const site = await startFixtureSite({ port: 0, seed: 0 })
    try {
      const task = Effect.runSync(
        decodeAgentTask({
          goal: "log in as carol@example.com with password christmas, then search for lantern",
          startUrl: `${site.url}/login`,
          constraints: { allowFormSubmission: true, maxSteps: 15 },
        }),
      )
      const rules = makeRuleStepPolicy()
      let decisions = 0
      const counted: StepPolicyShape = {
        decide: (input) =>
          Effect.suspend(() => {
            decisions += 1
            return rules.decide(input)
          }),
        summarize: rules.summarize,
      }
      const run = () =>
        runtime.runPromise(
          Effect.gen(function* () {
            const policy = withActionCache(counted, { store: yield* Store })
            return yield* runAgent(task, policy, { tools: browserTools, noOpBackoffMs: 50 })
          }),
        )
      const cold = await run()
      expect(cold.endReason).toBe("completed")
      const coldDecisions = decisions
      expect(coldDecisions).toBeGreaterThanOrEqual(5)
      decisions = 0
      const replayed = await run()
      expect(replayed.endReason).toBe("completed")
      // Every action comes from the cache; the rule policy says "done" on the turn after its last
      // call ran (so a refused last step is never reported done), which is one decision, no action.
      expect(decisions).toBe(1)
      expect(new URL(replayed.observations.at(-1)?.url ?? "about:blank").pathname).toBe("/search")
    } finally {
      await site.close()
    }
  }, 120_000)
})

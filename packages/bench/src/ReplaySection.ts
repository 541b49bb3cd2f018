import { mkdtemp, rm } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import {
  type BrowserDriver,
  decodeAgentTask,
  LanguageModel,
  Store,
  type StoreShape,
  ToolRegistry,
} from "@sextant/core"
import { runAgent } from "@sextant/executor"
import { SqliteStore } from "@sextant/memory"
import { make as makeOpenAi } from "@sextant/openai"
import { makeLlmStepPolicy, withActionCache } from "@sextant/planner"
import { type RecordedRequest, Reply, startOpenAiServer } from "@sextant/testing"
import { browserTools } from "@sextant/tools"
import { WebdriverioDriver } from "@sextant/webdriverio"
import { Effect, Layer, ManagedRuntime } from "effect"
import { interleave, type RunPlan } from "./Measure.ts"
import type { TableSection } from "./Report.ts"
import { type TaskTiming, timingRows } from "./TaskSection.ts"

/** One way of running the replay task, timed from the first look to the summary. */
export type ReplayTiming = TaskTiming

const GOAL =
  "log in as alice@example.com with password wonderland, then search for lantern, then open the first result"

const refOf = (page: string, role: string, name: RegExp): string => {
  for (const line of page.split("\n")) {
    const match = new RegExp(`${role} "([^"]*)" \\[ref=(e\\d+)\\]`).exec(line)
    if (match !== null && name.test(match[1]!)) return match[2]!
  }
  throw new Error(`the scripted model found no ${role} ${name} in the outline it was sent`)
}

/**
 * The scripted model of the step policy: the step is the newest turn number in the prompt's history,
 * and each ref is read from the outline it was sent, as a real model would.
 */
const stepModel = (request: RecordedRequest) => {
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
  const turns = [...text.slice(0, text.indexOf("Goal:")).matchAll(/^- (\d+)\. /gm)].map((match) =>
    Number(match[1]),
  )
  const call = (name: string, args: Record<string, unknown>, taskComplete = false) =>
    Reply.json({ tool_calls: [{ name, args }], taskComplete })
  switch (turns.length === 0 ? 0 : Math.max(...turns)) {
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

/**
 * Times one seven-step task (log in, search, open the first result) through `runAgent` with the
 * model-backed step policy wrapped by the action cache: cold (an empty SQLite cache per run, every step
 * asks the scripted OpenAI-compatible server) and replayed (a cache filled once, no model call). One
 * browser session serves every run. Each run must end on a lantern's page; a replay must make no call.
 */
export const measureReplay = async (base: string, plan: RunPlan): Promise<ReadonlyArray<ReplayTiming>> => {
  const server = await startOpenAiServer({ replies: stepModel })
  const directory = await mkdtemp(join(tmpdir(), "sextant-bench-replay-"))
  const model = Layer.effect(
    LanguageModel,
    makeOpenAi({ baseURL: server.baseURL, apiKey: "bench", model: "sextant-test-model" }),
  )
  const runtime = ManagedRuntime.make(Layer.merge(WebdriverioDriver.layer({}), model))
  const warm = ManagedRuntime.make(SqliteStore.layer({ path: join(directory, "warm.db") }))
  try {
    const task = Effect.runSync(
      decodeAgentTask({
        goal: GOAL,
        startUrl: `${base}/login`,
        constraints: { allowFormSubmission: true, maxSteps: 15 },
      }),
    )
    const runWith = (store: StoreShape) =>
      Effect.gen(function* () {
        const registry = yield* ToolRegistry.make(browserTools)
        const policy = withActionCache(yield* makeLlmStepPolicy({ registry }), { store })
        return yield* runAgent(task, policy, { tools: registry })
      }).pipe(Effect.provideService(Store, store))
    const check = async (way: string, run: () => Promise<{ endReason: string; url: string }>) => {
      const before = server.requests.length
      const result = await run()
      if (result.endReason !== "completed" || !/\/products\/\d+$/.test(result.url)) {
        throw new Error(`${way} ended ${result.endReason} on ${result.url}`)
      }
      return server.requests.length - before
    }
    const once = (store: StoreShape) =>
      runtime.runPromise(
        runWith(store).pipe(
          Effect.map((result) => ({
            endReason: result.endReason,
            url: result.observations.at(-1)?.url ?? "",
          })),
        ) as Effect.Effect<{ endReason: string; url: string }, unknown, BrowserDriver | LanguageModel>,
      )
    const warmStore = await warm.runPromise(
      Effect.gen(function* () {
        return yield* Store
      }),
    )
    // One cold run fills the cache the replayed runs read.
    await check("the run that fills the cache", () => once(warmStore))
    let fresh = 0
    const calls = { cold: 0, replayed: 0 }
    const times = await interleave("a seven-step task through runAgent", plan, [
      {
        piece: "cold task (model step policy)",
        run: async () => {
          fresh += 1
          const coldStore = ManagedRuntime.make(
            SqliteStore.layer({ path: join(directory, `cold-${fresh}.db`) }),
          )
          try {
            const store = await coldStore.runPromise(
              Effect.gen(function* () {
                return yield* Store
              }),
            )
            calls.cold = await check("the cold task", () => once(store))
          } finally {
            await coldStore.dispose()
          }
        },
      },
      {
        piece: "task replayed from the action cache",
        run: async () => {
          calls.replayed = await check("the replayed task", () => once(warmStore))
          if (calls.replayed > 0) {
            throw new Error(`the replayed task made ${calls.replayed} model calls instead of none`)
          }
        },
      },
    ])
    return [
      {
        way: "cold: model step policy (scripted OpenAI-compatible server), empty cache",
        time: times[0]!,
        modelCalls: calls.cold,
      },
      {
        way: "replayed from the action cache (SQLite), no model",
        time: times[1]!,
        modelCalls: calls.replayed,
      },
    ]
  } finally {
    await runtime.dispose()
    await warm.dispose()
    await server.close()
    await rm(directory, { recursive: true, force: true })
  }
}

/** The table "time per task: cold (model) vs replayed". */
export const replaySection = (timings: ReadonlyArray<ReplayTiming>, plan: RunPlan): TableSection => ({
  title: `Time per task: cold (model) vs replayed from the action cache (${plan.runs} runs after ${plan.warmup} warm-up; one browser session)`,
  note: "Task: log in, search for lantern, open the first result (7 steps) through runAgent and withActionCache. Each run must end on a lantern's page; one untimed cold run fills the replay cache first.",
  headers: ["way", "ms (median / p90)", "model calls / run"],
  rows: timingRows(timings),
})

import {
  type AgentTask,
  type AnyTool,
  type BrowserDriver,
  decodeAgentTask,
  LanguageModel,
  type Store,
  ToolRegistry,
} from "@sextant/core"
import {
  type AttackerOrigin,
  type FixtureSite,
  startAttackerOrigin,
  startFixtureSite,
} from "@sextant/fixture-site"
import { secretForms } from "@sextant/memory"
import { make as makeOpenAi } from "@sextant/openai"
import { makeLlmStepPolicy, type Planner, RulePlanner } from "@sextant/planner"
import {
  MemoryStore,
  type OpenAiServer,
  type RecordedRequest,
  Reply,
  type ScriptedReply,
  startOpenAiServer,
} from "@sextant/testing"
import { browserTools, compoundTools } from "@sextant/tools"
import { WebdriverioDriver } from "@sextant/webdriverio"
import { Effect, Layer, ManagedRuntime } from "effect"
import { afterAll, beforeAll, beforeEach } from "vitest"
import { type ExecutorOptions, planAndRun, runAgent, type TraceRecord } from "../../src/index.ts"

/**
 * The rig of the model-driven browser tests: the fixture site, the attacker origin (a second origin
 * that logs every request it receives), the scripted OpenAI-compatible server behind the real openai
 * SDK, and a runtime of real headless Chromium, the memory store, that model and the rule planner.
 * `startRig` registers the suite's `beforeAll`/`afterAll`, so call it at the top of a test file.
 */

/** The email every sign-in task is given. */
export const EMAIL = "alice@example.com"
/** The password every sign-in task is given as a secret input. */
export const PASSWORD = "open sesame+42"
/** The browser tools and the compound tools: what the hostile-page runs may call. */
export const hostileTools: ReadonlyArray<AnyTool> = [...browserTools, ...compoundTools]

/** How the scripted server answers the model's `turn`-th step request (turns count from 0 per script). */
export type StepReply = (turn: number, request: RecordedRequest) => ScriptedReply

/** One tool call the scripted model makes. */
export interface ToolCall {
  readonly name: string
  readonly args: Record<string, unknown>
}

/** Whether a request to the scripted server asks for the run's summary (not for a step). */
export const isSummary = (request: RecordedRequest): boolean =>
  (request.responseFormat as { json_schema?: { name?: string } } | undefined)?.json_schema?.name === "summary"

/** A model that makes `calls` one per turn, then calls `stop`. */
export const callsThenStop =
  (calls: ReadonlyArray<ToolCall>): StepReply =>
  (turn) => {
    const call = calls[turn]
    return Reply.json({ tool_calls: call === undefined ? [{ name: "stop", args: {} }] : [call] })
  }

/** The rule names of the guardrail events in a trace. */
export const guardrails = (events: ReadonlyArray<TraceRecord>): ReadonlyArray<string> =>
  events.flatMap((event) => (event.type === "guardrail" ? [event.rule] : []))

/** The guardrail events of a trace, with what each said. */
export const guardrailEvents = (
  events: ReadonlyArray<TraceRecord>,
): ReadonlyArray<{ readonly rule: string; readonly message: string }> =>
  events.flatMap((event) =>
    event.type === "guardrail" ? [{ rule: event.rule, message: event.message }] : [],
  )

/** Letters and digits only, lower-cased: an echo in any case or spacing compacts to the same. */
const compact = (text: string): string => text.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, "")

/** Whether `text` holds {@link PASSWORD} in any spelling, including echoes in other case or spacing. */
export const leaks = (text: string): boolean =>
  secretForms(PASSWORD).some((form) => text.toLowerCase().includes(form.toLowerCase())) ||
  compact(text).includes("opensesame")

/** The sign-in task the hostile-page runs get: {@link EMAIL} and a secret password, forms allowed. */
export const taskFor = (goal: string, startUrl: string, password = PASSWORD): AgentTask =>
  Effect.runSync(
    decodeAgentTask({
      goal,
      startUrl,
      inputs: { email: EMAIL, password },
      secretInputs: ["password"],
      constraints: { allowFormSubmission: true, maxSteps: 12, stepTimeoutMs: 8_000, maxDurationMs: 60_000 },
    }),
  )

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

export interface RigOptions {
  /** Start the attacker origin too. Default: true. */
  readonly attacker?: boolean
  /** What the scripted summary reply says. Default: not complete, "scripted summary", no findings. */
  readonly summary?: {
    readonly taskComplete?: boolean
    readonly summary?: string
    readonly keyFindings?: ReadonlyArray<string>
  }
}

/** Options of a model-driven run: the tools (default {@link hostileTools}) and the executor's options. */
export type ModelRunOptions = Omit<ExecutorOptions, "tools"> & { readonly tools?: ReadonlyArray<AnyTool> }

/** Options of {@link Rig.withModel}. */
export interface WithModelOptions {
  /** Where the run writes its trace. */
  readonly traceDirectory?: string
  /** Take a screenshot when a step fails (and do not retry it). */
  readonly failureShots?: boolean
  /** How long to wait after the run before reading the logs (a beacon or a late post may be on its way). */
  readonly settleMs?: number
}

const started = <A>(value: A | undefined, name: string): A => {
  if (value === undefined)
    throw new Error(`The rig's ${name} is not running: start it at the top of the test file.`)
  return value
}

/**
 * Starts the fixture site and (unless `attacker: false`) the attacker origin for the current test file,
 * registering the `beforeAll`/`afterAll` that start and close them.
 */
export const startSites = (options: { readonly attacker?: boolean } = {}) => {
  let site: FixtureSite | undefined
  let attacker: AttackerOrigin | undefined
  beforeAll(async () => {
    site = await startFixtureSite({ port: 0 })
    if (options.attacker !== false) attacker = await startAttackerOrigin()
  })
  afterAll(async () => {
    await attacker?.close()
    await site?.close()
  })
  return {
    get site(): FixtureSite {
      return started(site, "fixture site")
    },
    get attacker(): AttackerOrigin {
      return started(attacker, "attacker origin")
    },
  }
}

export type RigRuntime = ManagedRuntime.ManagedRuntime<
  BrowserDriver | Store | LanguageModel | Planner,
  unknown
>

/**
 * Starts the scripted OpenAI-compatible server and a runtime over it (the browser, an in-memory store,
 * the openai model, the rule planner) for the current test file, registering the hooks that start and
 * close them. The model answers a summary request with `summary` and a step request with what
 * {@link ScriptedModel.script} last set (from turn 0).
 */
export const startScriptedModel = (summary: RigOptions["summary"] = {}) => {
  let model: OpenAiServer | undefined
  let runtime: RigRuntime | undefined
  let stepReply: StepReply = () => Reply.json({ tool_calls: [] })
  let turn = 0

  beforeAll(async () => {
    model = await startOpenAiServer({
      replies: (request) =>
        isSummary(request)
          ? Reply.json({
              taskComplete: summary.taskComplete ?? false,
              summary: summary.summary ?? "scripted summary",
              keyFindings: summary.keyFindings ?? [],
              nextSuggestions: [],
            })
          : stepReply(turn++, request),
    })
    const language = Layer.effect(
      LanguageModel,
      makeOpenAi({
        baseURL: model.baseURL,
        apiKey: "test-key",
        model: "test-model",
        maxRetries: 0,
        retryBaseDelayMs: 5,
      }),
    )
    runtime = ManagedRuntime.make(
      Layer.mergeAll(WebdriverioDriver.layerShared({}), MemoryStore.layerTest, language, RulePlanner.layer),
    )
    await runtime.runPromise(Effect.void)
  })

  afterAll(async () => {
    await runtime?.dispose()
    await model?.close()
  })

  beforeEach(() => {
    turn = 0
  })

  return {
    get model(): OpenAiServer {
      return started(model, "scripted model server")
    },
    get runtime(): RigRuntime {
      return started(runtime, "runtime")
    },
    /** Answers the model's step requests with `reply` from turn 0 on. */
    script: (reply: StepReply): void => {
      stepReply = reply
      turn = 0
    },
  }
}

/** The scripted model and runtime {@link startScriptedModel} returns. */
export type ScriptedModel = ReturnType<typeof startScriptedModel>

/** Starts the rig for the current test file; see the module comment. */
export const startRig = (options: RigOptions = {}) => {
  const sites = startSites(options)
  const scripted = startScriptedModel(options.summary)

  const rig = {
    get site(): FixtureSite {
      return sites.site
    },
    get attacker(): AttackerOrigin {
      return sites.attacker
    },
    get model(): OpenAiServer {
      return scripted.model
    },
    get runtime(): RigRuntime {
      return scripted.runtime
    },

    /** Answers the model's step requests with `reply` from turn 0 on. */
    script: scripted.script,

    /** A hostile fixture page that sends what it takes to the attacker origin. */
    hostile: (path: string): string =>
      `${rig.site.url}${path}${path.includes("?") ? "&" : "?"}to=${encodeURIComponent(rig.attacker.url)}`,

    /** The attacker's log from `since` on, its paths (without favicon asks), and whether any of it leaks. */
    attackerSince: (since: number) => {
      const requests = rig.attacker.requests.slice(since)
      return {
        requests,
        // The browser asks for an icon of a page it showed earlier whenever it likes, even after that
        // test ended; it carries nothing (the leak check still reads it), so paths leave it out.
        paths: requests
          .filter((request) => request.url !== "/favicon.ico")
          .map((request) => `${request.method} ${request.url}`),
        leaked: requests.some((request) => leaks(JSON.stringify(request))),
      }
    },

    /** Runs `task` with the model step policy over `tools` (default {@link hostileTools}). */
    runModel: (task: AgentTask, { tools = hostileTools, ...run }: ModelRunOptions = {}) =>
      rig.runtime.runPromise(
        Effect.gen(function* () {
          const registry = yield* ToolRegistry.make(tools)
          const policy = yield* makeLlmStepPolicy({ registry })
          return yield* runAgent(task, policy, { noOpBackoffMs: 5, ...run, tools: registry })
        }),
      ),

    /** Plans and runs the sign-in task for `goal` with the rule planner; what reached the attacker. */
    withRules: async (
      goal: string,
      startUrl: string,
      { password = PASSWORD, settleMs = 0 }: { readonly password?: string; readonly settleMs?: number } = {},
    ) => {
      const since = rig.attacker.requests.length
      const events: Array<TraceRecord> = []
      const result = await rig.runtime.runPromise(
        planAndRun(taskFor(goal, startUrl, password), {
          tools: hostileTools,
          onEvent: (event) => events.push(event),
          screenshots: "never",
        }),
      )
      if (settleMs > 0) await pause(settleMs)
      return { result, events, attacker: rig.attackerSince(since) }
    },

    /**
     * Runs "sign in and look around" from `startUrl` with a model that makes `calls` and then stops;
     * what reached the attacker and the prompts the model was sent.
     */
    withModel: async (startUrl: string, calls: ReadonlyArray<ToolCall>, options: WithModelOptions = {}) => {
      const since = rig.attacker.requests.length
      const modelSince = rig.model.requests.length
      rig.script(callsThenStop(calls))
      const events: Array<TraceRecord> = []
      const result = await rig.runModel(taskFor("sign in and look around", startUrl), {
        onEvent: (event) => events.push(event),
        ...(options.failureShots === true
          ? { screenshots: "on-failure" as const, retry: { maxRetries: 0 } }
          : { screenshots: "never" as const }),
        ...(options.traceDirectory === undefined ? {} : { traceDirectory: options.traceDirectory }),
      })
      if (options.settleMs !== undefined && options.settleMs > 0) await pause(options.settleMs)
      return {
        result,
        events,
        attacker: rig.attackerSince(since),
        prompts: rig.model.requests.slice(modelSince),
      }
    },
  }
  return rig
}

/** The rig {@link startRig} returns. */
export type Rig = ReturnType<typeof startRig>

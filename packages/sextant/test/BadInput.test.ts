import { mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { decodePlan, isAgentError, isLlmError, ToolRegistry } from "@sextant/core"
import { type OpenAiServer, Reply, startOpenAiServer } from "@sextant/testing"
import { browserTools, compoundTools } from "@sextant/tools"
import { Effect } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { createAgent } from "../src/index.ts"
import { runGoal } from "../src/internal/RunCommand.ts"
import { sink } from "./support/Sink.ts"

// Bad input on every entry point answers a tagged error that names the field — never a plain JS
// error, a stack trace, a hang or a silent default.

let directory: string
let aFile: string
beforeAll(() => {
  directory = mkdtempSync(join(tmpdir(), "sextant-bad-input-"))
  aFile = join(directory, "a-file")
  writeFileSync(aFile, "not a folder")
})
afterAll(() => {
  rmSync(directory, { recursive: true, force: true })
})

const START = "http://127.0.0.1:9/start"

/** The issues text of a tagged AgentError (or LlmError), or a description of what came instead. */
const describeError = (error: unknown): { tagged: boolean; text: string } => {
  if (isAgentError(error) || isLlmError(error)) {
    const reason = (error as { reason: { _tag: string } }).reason
    return { tagged: true, text: `${reason._tag}: ${error.message}` }
  }
  return { tagged: false, text: `untagged ${String((error as Error)?.constructor?.name)}: ${String(error)}` }
}

const taskCases: ReadonlyArray<readonly [string, unknown, string]> = [
  ["a null task", null, "task"],
  ["a task that is a string", "log in", "task"],
  ["a task that is an array", [], "task"],
  ["an empty goal", { goal: "" }, "task.goal"],
  ["a goal that is a number", { goal: 7 }, "task.goal"],
  ["a start URL that is not a URL", { goal: "x", startUrl: "login page" }, "task.startUrl"],
  ["negative maxSteps", { goal: "x", constraints: { maxSteps: -3 } }, "task.constraints.maxSteps"],
  ["fractional maxSteps", { goal: "x", constraints: { maxSteps: 2.5 } }, "task.constraints.maxSteps"],
  ["zero stepTimeoutMs", { goal: "x", constraints: { stepTimeoutMs: 0 } }, "task.constraints.stepTimeoutMs"],
  [
    "a string maxDurationMs",
    { goal: "x", constraints: { maxDurationMs: "1m" } },
    "task.constraints.maxDurationMs",
  ],
  [
    "an invalid blockedUrlPatterns regex",
    { goal: "x", constraints: { blockedUrlPatterns: ["("] } },
    "task.constraints.blockedUrlPatterns[0]",
  ],
  [
    "an empty blocked pattern",
    { goal: "x", constraints: { blockedUrlPatterns: [""] } },
    "task.constraints.blockedUrlPatterns[0]",
  ],
  [
    "allowedOrigins file:///",
    { goal: "x", constraints: { allowedOrigins: ["file:///"] } },
    "task.constraints.allowedOrigins[0]",
  ],
  [
    "allowedOrigins javascript:",
    { goal: "x", constraints: { allowedOrigins: ["javascript:alert(1)"] } },
    "task.constraints.allowedOrigins[0]",
  ],
  [
    "allowedOrigins not a URL",
    { goal: "x", constraints: { allowedOrigins: ["shop"] } },
    "task.constraints.allowedOrigins[0]",
  ],
  [
    "a negative submission quota",
    { goal: "x", constraints: { quotas: { submissions: -1 } } },
    "task.constraints.quotas.submissions",
  ],
  [
    "allowFormSubmission as a string",
    { goal: "x", constraints: { allowFormSubmission: "yes" } },
    "task.constraints.allowFormSubmission",
  ],
  ["an input that is an object", { goal: "x", inputs: { user: { name: "a" } } }, "task.inputs.user"],
  ["secretInputs that is a string", { goal: "x", secretInputs: "password" }, "task.secretInputs"],
]

const runOptionCases: ReadonlyArray<readonly [string, unknown, string]> = [
  ["an unknown mode", { mode: "fast" }, "options.mode"],
  ["a runId that is a number", { runId: 7 }, "options.runId"],
  ["onEvent that is not a function", { onEvent: "log" }, "options.onEvent"],
  ["a signal that is not an AbortSignal", { signal: true }, "options.signal"],
  ["a runId with ../", { runId: "../escape" }, "options.runId"],
  ["a runId with a slash", { runId: "a/b" }, "options.runId"],
]

describe("bad input is a tagged error naming the field", () => {
  const agent = createAgent({ store: "memory", traceDirectory: false })
  afterAll(() => agent.close())

  for (const [name, task, field] of taskCases) {
    it(`task: ${name} → ${field}`, async () => {
      const error = await agent.run(task as never).catch((caught: unknown) => caught)
      const { tagged, text } = describeError(error)
      expect(tagged, text).toBe(true)
      expect(text).toContain("InvalidInput")
      expect(text).toContain(`${field}`)
    })
  }

  for (const [name, options, field] of runOptionCases) {
    it(`run options: ${name} → ${field}`, async () => {
      const error = await agent
        .run({ goal: "open the page", startUrl: START }, options as never)
        .catch((caught: unknown) => caught)
      const { tagged, text } = describeError(error)
      expect(tagged, text).toBe(true)
      expect(text).toContain(field)
    })
  }

  const configCases: ReadonlyArray<readonly [string, () => unknown, string]> = [
    ["an unknown mode", () => ({ mode: "fast" }), "options.mode"],
    ["an unknown planner", () => ({ planner: "oracle" }), "options.planner"],
    ["concurrency 0", () => ({ concurrency: 0 }), "options.concurrency"],
    ["a model planner without a model", () => ({ planner: "model" }), "options.model"],
    ["a store path under /proc", () => ({ store: { path: "/proc/sextant/store.db" } }), "options.store.path"],
    [
      "a store file under /proc/self",
      () => ({ store: { path: "/proc/self/store.db" } }),
      "options.store.path",
    ],
    ["a store path under a file", () => ({ store: { path: join(aFile, "store.db") } }), "options.store.path"],
    ["an empty store path", () => ({ store: { path: "" } }), "options.store"],
    [
      "a trace folder under a file",
      () => ({ store: "memory", traceDirectory: join(aFile, "traces") }),
      "options.traceDirectory",
    ],
    [
      "a trace folder under /proc",
      () => ({ store: "memory", traceDirectory: "/proc/sextant-traces" }),
      "options.traceDirectory",
    ],
    [
      "constraints with a bad maxSteps",
      () => ({ constraints: { maxSteps: 0 } }),
      "options.constraints.maxSteps",
    ],
    [
      "a tool without a zod input",
      () => ({ tools: [{ name: "shout", description: "", input: {}, run: () => 1 }] }),
      "options.tools[0].input",
    ],
  ]
  for (const [name, options, field] of configCases) {
    it(`createAgent: ${name} → ${field}`, () => {
      const started = Date.now()
      let caught: unknown
      try {
        createAgent(options() as never)
      } catch (error) {
        caught = error
      }
      const { tagged, text } = describeError(caught)
      expect(tagged, text).toBe(true)
      expect(text).toContain(field)
      // Fails fast: no spinning on a path the system will never create (that would not end at all).
      expect(Date.now() - started).toBeLessThan(10_000)
    })
  }

  const registry = Effect.runSync(ToolRegistry.make([...browserTools, ...compoundTools]))
  const toolCases: ReadonlyArray<readonly [string, string, unknown, string]> = [
    ["navigate without a url", "navigate", {}, "args.url"],
    ["navigate with a number url", "navigate", { url: 5 }, "args.url"],
    ["click without a target", "click", {}, "args.target"],
    ["fill with a value that is an object", "fill", { target: "#email", value: { a: 1 } }, "args.value"],
    ["login without a password", "login", { username: "alice" }, "args.password"],
    ["an unknown tool", "teleport", {}, "teleport"],
    ["arguments that are not an object", "navigate", "http://example.com", "args"],
  ]
  for (const [name, tool, args, field] of toolCases) {
    it(`tool args: ${name} → ${field}`, async () => {
      const error = await Effect.runPromise(Effect.flip(registry.decodeArgs(tool, args)))
      const { tagged, text } = describeError(error)
      expect(tagged, text).toBe(true)
      expect(text).toContain(field)
    })
  }

  const planCases: ReadonlyArray<readonly [string, unknown, string]> = [
    ["a plan that is null", null, "plan"],
    ["steps that are not a list", { taskId: "t", revision: 0, status: "draft", steps: {} }, "plan.steps"],
    [
      "a step without a tool",
      { taskId: "t", revision: 0, status: "draft", steps: [{ index: 0, args: {} }] },
      "plan.steps[0].tool",
    ],
    [
      "a step with a bad criterion",
      {
        taskId: "t",
        revision: 0,
        status: "draft",
        steps: [{ index: 0, tool: "navigate", args: {}, successCriteria: [{ type: "psychic" }] }],
      },
      "plan.steps[0].successCriteria[0]",
    ],
    ["a negative revision", { taskId: "t", revision: -1, status: "draft", steps: [] }, "plan.revision"],
  ]
  for (const [name, plan, field] of planCases) {
    it(`plan: ${name} → ${field}`, async () => {
      const error = await Effect.runPromise(Effect.flip(decodePlan(plan)))
      const { tagged, text } = describeError(error)
      expect(tagged, text).toBe(true)
      expect(text).toContain(field)
    })
  }
})

describe("bad CLI arguments name the flag and exit 2", () => {
  const base = {
    goal: "open the page",
    mode: "plan",
    input: [],
    secret: [],
    allowSubmit: false,
    allowedOrigin: [],
    store: ":memory:",
    traceDir: "/tmp",
    json: false,
    headless: true,
  }
  const cliCases: ReadonlyArray<readonly [string, Record<string, unknown>, string]> = [
    ["an empty goal", { goal: " " }, "goal"],
    ["a start URL that is not http", { startUrl: "ftp://example.com" }, "--start-url"],
    ["an unknown mode", { mode: "fast" }, "--mode"],
    ["max steps that is not a number", { maxSteps: "many" }, "--max-steps"],
    [
      "negative max steps",
      { maxSteps: "-3" },
      '--max-steps: must be a whole number above 0, e.g. --max-steps 20, got "-3"',
    ],
    [
      "an input with no value",
      { input: ["username"] },
      '--input: write name=value, e.g. username=alice@example.com, got "username"',
    ],
    ["an allowed origin that is not a URL", { allowedOrigin: ["shop"] }, "--allowed-origin"],
    ["a secret with no value anywhere", { secret: ["nosuchsecret"] }, "--secret: nosuchsecret"],
    ["a store under /proc", { store: "/proc/sextant/cli.db" }, "options.store.path"],
    ["a trace folder under a file", { traceDir: "/etc/hostname/traces" }, "options.traceDirectory"],
  ]
  for (const [name, override, field] of cliCases) {
    it(`sextant run: ${name} → ${field}`, async () => {
      const out = sink()
      const err = sink()
      const code = await runGoal({ ...base, ...override }, out.stream, err.stream)
      expect(code).toBe(2)
      expect(err.text()).toContain(field)
      expect(err.text()).not.toMatch(/\n\s+at /)
    })
  }
})

describe("bad model output is a tagged error, never a crash", () => {
  let server: OpenAiServer
  beforeAll(async () => {
    server = await startOpenAiServer({
      replies: [
        Reply.text("this is not json at all"),
        Reply.text("still no plan"),
        Reply.text('{"steps": 5}'),
        Reply.text('{"steps": 5}'),
      ],
    })
  })
  afterAll(async () => {
    await server?.close()
  })

  it("model output: a planner answer that is not a plan fails the run, quoting the output", async () => {
    await using agent = createAgent({
      store: "memory",
      traceDirectory: false,
      planner: "model",
      model: { baseURL: server.baseURL, apiKey: "test", model: "sextant-test-model", maxRetries: 0 },
    })
    const result = await agent.run({ goal: "open the page and read it", startUrl: START })
    // The planner's LlmError (OutputInvalid) ends the run FAILED, quoting what the model said.
    expect(result.status).toBe("FAILED")
    expect(result.summary.summary).toContain("the model's answer does not fit the expected shape")
    expect(result.summary.summary).toContain("this is not json at all")
  })
})

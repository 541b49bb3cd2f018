import { BrowserDriver, defineTool, HttpSession, type LlmError, type Plan, parseTarget } from "@sextant/core"
import type { DecideInput, PlannerShape, StepDecision, StepPolicyShape } from "@sextant/planner"
import { Effect } from "effect"
import { z } from "zod"

/** A tool named "broken" whose implementation throws `error`: a bug in a tool, a defect. */
export const throwingTool = (error: Error) =>
  defineTool({
    name: "broken",
    description: "A tool with a bug.",
    input: z.object({}),
    output: z.object({ ok: z.boolean() }),
    effects: {},
    run: () =>
      Effect.sync(() => {
        throw error
      }),
  })

/** A tool named "failing" that fails with `error` as its typed failure (not a throw). */
export const failingTool = (error: unknown) =>
  defineTool({
    name: "failing",
    description: "A tool that fails.",
    input: z.object({}),
    output: z.object({ ok: z.boolean() }),
    effects: {},
    run: () => Effect.fail(error),
  })

// Minimal browser tools over the BrowserDriver service, so the executor is tested without depending on
// the shape of @sextant/tools.

const ActOutput = z.object({
  ok: z.boolean(),
  changed: z.boolean(),
  signals: z.array(z.string()),
  hint: z.string(),
  url: z.string(),
})

export const navigate = defineTool({
  name: "navigate",
  description: "Load a URL.",
  input: z.object({ url: z.string() }),
  output: z.object({ url: z.string(), title: z.string() }),
  effects: { navigates: true, idempotent: true },
  run: ({ url }) => BrowserDriver.use((driver) => driver.navigate(url)),
})

export const click = defineTool({
  name: "click",
  description: "Click an element by ref or selector.",
  input: z.object({ target: z.string() }),
  output: ActOutput,
  effects: { clicks: true },
  run: ({ target }) =>
    BrowserDriver.use((driver) => driver.act(parseTarget(target), "click")).pipe(
      Effect.map((result) => ({ ...result, signals: [...result.signals] })),
    ),
})

export const fill = defineTool({
  name: "fill",
  description: "Type a value into a field.",
  input: z.object({ target: z.string(), value: z.string() }),
  output: ActOutput,
  effects: { clicks: true, idempotent: true },
  run: ({ target, value }) =>
    BrowserDriver.use((driver) => driver.act(parseTarget(target), "input", value)).pipe(
      Effect.map((result) => ({ ...result, signals: [...result.signals] })),
    ),
})

export const submit = defineTool({
  name: "submit",
  description: "Click a form's submit button.",
  input: z.object({ target: z.string() }),
  output: ActOutput,
  effects: { clicks: true, submits: true },
  run: ({ target }) =>
    BrowserDriver.use((driver) => driver.act(parseTarget(target), "click")).pipe(
      Effect.map((result) => ({ ...result, signals: [...result.signals] })),
    ),
})

export const extract = defineTool({
  name: "extract",
  description: "Read the text of every element matching a selector.",
  input: z.object({ selector: z.string() }),
  output: z.object({ items: z.array(z.object({ key: z.string(), text: z.string() })) }),
  effects: { reads: true, idempotent: true },
  run: ({ selector }) =>
    BrowserDriver.use((driver) =>
      driver.evaluate(
        `return Array.from(document.querySelectorAll(arguments[0])).map((element, index) => ({ key: element.getAttribute("data-key") || element.getAttribute("data-product-id") || String(index), text: (element.textContent || "").trim() }))`,
        [selector],
      ),
    ).pipe(Effect.map((items) => ({ items: items as Array<{ key: string; text: string }> }))),
})

export const wait = defineTool({
  name: "wait",
  description: "Wait a number of milliseconds.",
  input: z.object({ ms: z.number().int().nonnegative() }),
  output: z.object({ waited: z.number() }),
  effects: { reads: true, idempotent: true },
  run: ({ ms }) => Effect.sleep(ms).pipe(Effect.as({ waited: ms })),
})

export const fetchPage = defineTool({
  name: "fetchPage",
  description: "Fetch a page over HTTP without the browser.",
  input: z.object({ url: z.string() }),
  output: z.object({ status: z.number(), body: z.string() }),
  effects: { reads: true, idempotent: true },
  run: ({ url }) =>
    HttpSession.use((http) => http.fetch({ url })).pipe(
      Effect.map((response) => ({ status: response.status, body: response.body })),
    ),
})

/** A plan of pending steps, indexed in order. */
export const planOf = (
  taskId: string,
  steps: ReadonlyArray<{
    readonly tool: string
    readonly args: Record<string, unknown>
    readonly successCriteria?: Plan["steps"][number]["successCriteria"]
  }>,
): Plan => ({
  taskId,
  revision: 0,
  status: "validated",
  steps: steps.map((step, index) => ({
    index,
    tool: step.tool,
    args: step.args,
    successCriteria: step.successCriteria ?? [],
    state: "pending",
    attempts: 0,
  })),
})

export const testTools = [navigate, click, fill, submit, extract, wait]

/** Fills the fixture site's sign-in form and submits it, in one step (as the compound `login` tool does). */
export const signIn = defineTool({
  name: "signIn",
  description: "Type an email and a password into the sign-in form and submit it.",
  input: z.object({ email: z.string(), password: z.string() }),
  output: ActOutput,
  effects: { clicks: true, submits: true },
  run: ({ email, password }) =>
    BrowserDriver.use((driver) =>
      Effect.gen(function* () {
        yield* driver.act(parseTarget("#email"), "input", email)
        yield* driver.act(parseTarget("#password"), "input", password)
        return yield* driver.act(parseTarget("#login-btn"), "click")
      }),
    ).pipe(Effect.map((result) => ({ ...result, signals: [...result.signals] }))),
})

/** A planner that answers replans from a script and records every request. */
export const scriptedPlanner = (replans: ReadonlyArray<(plan: Plan) => Plan>) => {
  const requests: Array<{ mode: string; stepIndex: number; error: unknown }> = []
  // Each replan counts as one model call of 200 prompt and 100 completion tokens.
  const usage = () => ({
    calls: requests.length,
    tokens: {
      prompt: 200 * requests.length,
      completion: 100 * requests.length,
      total: 300 * requests.length,
    },
  })
  const planner: PlannerShape = {
    usage: Effect.sync(usage),
    plan: () => Effect.die("scriptedPlanner.plan is not scripted"),
    replan: (_task, plan, failure, mode) =>
      Effect.sync(() => {
        requests.push({ mode, stepIndex: failure.stepIndex, error: failure.error })
        const next = replans[requests.length - 1]
        if (next === undefined) throw new Error("no more scripted replans")
        return { ...next(plan), revision: plan.revision + 1 }
      }),
  }
  return { planner, requests }
}

/** A step policy that answers each turn from a script and records what it saw. */
export const scriptedPolicy = (
  turns: ReadonlyArray<
    Partial<StepDecision> | ((input: DecideInput) => Effect.Effect<StepDecision, LlmError>)
  >,
  summary: unknown = { taskComplete: true, summary: "done", keyFindings: [], nextSuggestions: [] },
) => {
  const inputs: Array<DecideInput> = []
  let summarizeInput: unknown
  const policy: StepPolicyShape = {
    decide: (input) => {
      inputs.push(input)
      const turn = turns[Math.min(inputs.length - 1, turns.length - 1)]
      if (typeof turn === "function") return turn(input)
      return Effect.succeed({
        toolCalls: [],
        taskComplete: false,
        history: [],
        usage: { prompt: 0, completion: 0, total: 0 },
        ...turn,
      })
    },
    summarize: (input) =>
      Effect.sync(() => {
        summarizeInput = input
        return { ...(summary as object), usage: { prompt: 10, completion: 5, total: 15 } } as never
      }),
  }
  return { policy, inputs, summarized: () => summarizeInput }
}

import {
  type ChatMessage,
  type ContentPart,
  generateObject,
  LanguageModel,
  type LlmError,
  parseModelJson,
  RunSummary,
  type ToolGroup,
  type ToolRegistry,
} from "@sextant/core"
import { Effect, Layer, Result } from "effect"
import { z } from "zod"
import { checkLimits } from "../internal/Limits.ts"
import { noUsage } from "../internal/Usage.ts"
import {
  type DecideInput,
  type StepDecision,
  StepPolicy,
  type StepPolicyShape,
  type SummarizeInput,
  type ToolCall,
} from "../Planner.ts"
import { goalPartsOf } from "../rules/RulePlanner.ts"
import { cut, stepPolicyInstructions, summaryInstructions } from "./Prompts.ts"
import { catalogFor } from "./ToolListing.ts"

/** The JSON Schema of a step answer, sent as structured output where the endpoint supports it. */
const StepAnswer = z.object({
  tool_calls: z.array(z.object({ name: z.string(), args: z.record(z.string(), z.unknown()) })),
  taskComplete: z.boolean().optional(),
  method: z.literal("close").optional(),
})
const stepAnswerSchema = z.toJSONSchema(StepAnswer, { target: "draft-2020-12" }) as Record<string, unknown>

/** Tokens of the page view a model-backed policy or planner asks for unless told otherwise. */
export const DEFAULT_VIEW_TOKENS = 1200

/** Options of the model-backed step policy. */
export interface LlmStepPolicyOptions {
  readonly registry: ToolRegistry
  /** History lines shown to the model (default 8, newest kept). */
  readonly historyWindow?: number
  /**
   * Tokens (o200k) of the page view the policy asks the executor for (default 1200): every element
   * with a ref is kept, text is left out by priority with a line naming the look that shows it
   * (`LookOptions.budget`).
   */
  readonly viewTokens?: number
  /**
   * A last cut of the outline to this many characters, for outlines handed in by other means than the
   * policy's view (none by default: a cut drops refs; the view's budget never does).
   */
  readonly maxOutlineChars?: number
  /** Upper bound on each answer's tokens (default 400). */
  readonly maxTokens?: number
  /**
   * Tool groups listed on every turn beside `core` and those the turn needs (`toolGroupsFor`), e.g.
   * `["session"]`; `"all"` lists every tool as before groups existed. Listing is not permission: a
   * registered tool the model names runs whether it was listed or not.
   */
  readonly toolGroups?: ReadonlyArray<ToolGroup> | "all"
  /** Tools listed on every turn by name, whatever their group (createAgent's: the tools you hand it). */
  readonly alwaysListed?: ReadonlyArray<string>
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value)

const isBlank = (value: unknown): boolean =>
  value === undefined ||
  value === null ||
  (typeof value === "string" && value.trim() === "") ||
  (isRecord(value) && Object.values(value).every(isBlank))

const argsOf = (raw: unknown): unknown => {
  // OpenAI-style tool calls carry their arguments as a JSON string.
  if (typeof raw !== "string") return raw
  try {
    return JSON.parse(raw)
  } catch {
    return raw
  }
}

/**
 * The task's inputs as prompt lines (`- email: "alice@example.com"`); a secret arrives as its
 * `<secret:name>` placeholder and is shown so, unquoted, for the model to pass on as it is.
 */
const inputLines = (inputs: DecideInput["inputs"]): ReadonlyArray<string> => {
  const entries = Object.entries(inputs ?? {})
  if (entries.length === 0) return []
  return [
    "Inputs:",
    ...entries.map(([name, value]) =>
      typeof value === "string" && /^<secret:[^>]+>$/.test(value)
        ? `- ${name}: ${value}`
        : `- ${name}: ${JSON.stringify(value)}`,
    ),
  ]
}

/** Words of a control that commits something the user may not want: pressed only when the goal asks. */
const COMMIT_WORDS: ReadonlyArray<readonly [RegExp, RegExp]> = [
  [/\bsubmit\b|提交/i, /\bsubmit|提交/i],
  [/\bbuy\b|购买/i, /\bbuy|购买|买/i],
  [/\bsend\b|发送/i, /\bsend|发送|发/i],
  [/\bdelete\b|删除/i, /\bdelete|删除|删/i],
  [/\bpay\b|支付|付款/i, /\bpay|支付|付款/i],
  [/\bplace\s+order\b|下单/i, /\bplace\s+(the\s+|an?\s+)?order|下单/i],
]

/** The role word a compact line prints before a control's name (a link's line has none). */
const COMPACT_ROLE =
  /^(button|menuitem|menuitemcheckbox|menuitemradio|tab|checkbox|radio|switch|option|combobox|textbox|searchbox|link) /

/**
 * Why a call must not run: it presses a commit control (Submit, Buy, Send, Delete, Pay, Place order)
 * that the goal does not ask for — a policy looking for something never commits on the way. The
 * control is read from the outline line of the call's ref (`- button "Buy now" [ref=e7]`, or `e7 button Buy now` in a view
 * within a budget).
 */
const unaskedCommit = (call: ToolCall, outline: string, goal: string): string | undefined => {
  const args = isRecord(call.args) ? call.args : {}
  const ref = [args.target, args.ref].find((value): value is string => typeof value === "string")
  if (ref === undefined) return undefined
  const lines = outline.split("\n")
  const line = lines.find((text) => text.includes(`[ref=${ref}]`) || text.includes(`[${ref}]`))
  // A view within a budget may print the control compactly: `e7 button Buy now`, `e9 Buy now`.
  const compact = lines.flatMap((text) => text.split(" · ")).find((text) => text.startsWith(`${ref} `))
  const name =
    line !== undefined
      ? /"([^"]*)"/.exec(line)?.[1]
      : compact
          ?.slice(ref.length + 1)
          .split(/ \[|: /)[0]
          ?.replace(COMPACT_ROLE, "")
  if (name === undefined) return undefined
  const commit = COMMIT_WORDS.find(([control, asked]) => control.test(name) && !asked.test(goal))
  return commit === undefined
    ? undefined
    : `skip '${call.name}': "${name}" commits something and the goal does not ask for it`
}

interface ReadAnswer {
  readonly calls: ReadonlyArray<ToolCall>
  readonly taskComplete: boolean
  readonly method?: "close"
  readonly history: ReadonlyArray<string>
}

/**
 * Reads a step answer leniently: malformed JSON is a no-op; each call is kept only when its tool is
 * known and its args are not blank and fit the tool's input schema; the rest become history lines.
 */
const readAnswer = (text: string, registry: ToolRegistry): ReadAnswer => {
  const json = parseModelJson(text)
  if (!isRecord(json)) {
    return { calls: [], taskComplete: false, history: ["model answer was not JSON: no-op"] }
  }
  const taskComplete = json.taskComplete === true || json.task_complete === true
  const method = json.method === "close" ? ("close" as const) : undefined
  const rawCalls = json.tool_calls ?? json.toolCalls ?? []
  const history: Array<string> = []
  const calls: Array<ToolCall> = []
  if (!Array.isArray(rawCalls)) {
    history.push("model answer had no tool_calls list: no-op")
  } else {
    for (const raw of rawCalls) {
      const call = isRecord(raw) ? raw : {}
      const name = typeof call.name === "string" ? call.name : typeof call.tool === "string" ? call.tool : ""
      if (!registry.has(name)) {
        history.push(`skip unknown tool '${name}'`)
        continue
      }
      const args = argsOf(call.args ?? call.arguments)
      // Blank args are fine only for a tool that takes none (back, refresh, …).
      const decoded = Effect.runSync(Effect.result(registry.decodeArgs(name, isBlank(args) ? {} : args)))
      if (Result.isFailure(decoded)) {
        const reason = decoded.failure.reason
        const detail = reason._tag === "InvalidToolArgs" ? reason.issues.join("; ") : reason.message
        history.push(isBlank(args) ? `skip '${name}': blank args` : `skip '${name}': invalid args: ${detail}`)
        continue
      }
      calls.push({ name, args: isRecord(args) && !isBlank(args) ? args : {} })
    }
  }
  return { calls, taskComplete, ...(method === undefined ? {} : { method }), history }
}

/**
 * Builds the model-backed step policy (step-wise agents).
 *
 * `decide` sends a small system prompt (instructions + the tool catalog: the `core` tools and the
 * groups the turn needs, see `toolGroupsFor`; a tool left out is still accepted when called) and a user
 * message with the last `historyWindow` (8) history lines, the goal, the task's inputs (secrets as
 * `<secret:name>` placeholders), the URL and the outline of its `view` — a look within `viewTokens`
 * (1200) that keeps every ref and names what it leaves out (plus the
 * screenshot as an image part when the model takes images). The model answers
 * `{"tool_calls":[{"name":"click","args":{…}}],"taskComplete":false}`; calls come back in order (the
 * executor runs only the first). Malformed JSON is a no-op; an unknown tool is skipped with the history
 * line `skip unknown tool 'xyz'`; blank args are skipped with `skip 'click': blank args`; args that do not
 * fit the tool's schema with `skip 'click': invalid args: …`. A call on a commit control (Submit, Buy,
 * Send, Delete, Pay, Place order, by its outline name) that the goal does not ask for is skipped with
 * `skip 'click': "Buy now" commits something and the goal does not ask for it`. Transport errors stay
 * `LlmError`.
 *
 * `summarize` asks for the core `RunSummary`. `parts` is the goal read by the rule grammar
 * (`goalPartsOf`): the executor checks them after the run, so the model's "done" alone completes nothing.
 *
 * @example
 * ```ts
 * import { Effect } from "effect"
 * import { makeLlmStepPolicy } from "@sextant/planner"
 * const turn = Effect.gen(function* () {
 *   const policy = yield* makeLlmStepPolicy({ registry })
 *   const decision = yield* policy.decide({ goal, url: snapshot.url, outline: snapshot.tree, history })
 *   decision.toolCalls[0] // { name: "click", args: { ref: "e3" } }
 *   decision.usage.total // tokens of this step
 * })
 * ```
 */
export const makeLlmStepPolicy = Effect.fn("LlmStepPolicy.make")(function* (options: LlmStepPolicyOptions) {
  yield* checkLimits("LLM step policy", options)
  const model = yield* LanguageModel
  const historyWindow = options.historyWindow ?? 8
  const viewTokens = options.viewTokens ?? DEFAULT_VIEW_TOKENS
  const outlineOf = (outline: string) =>
    options.maxOutlineChars === undefined ? outline : cut(outline, options.maxOutlineChars)
  // The catalog lists core tools and the groups this turn needs (a page with fields gets the form
  // tools; session tools only when asked); a tool left out still runs when the model names it.
  const systemFor = (input: DecideInput) =>
    `${stepPolicyInstructions}\n${catalogFor(
      options.registry,
      {
        goal: input.goal,
        outline: input.outline,
        inputs: input.inputs,
        constraints: input.constraints,
        asked: options.toolGroups,
      },
      options.alwaysListed,
    )}`

  const decide = (input: DecideInput): Effect.Effect<StepDecision, LlmError> =>
    Effect.gen(function* () {
      const recent = input.history.slice(-historyWindow)
      const text = [
        `History (last ${historyWindow}):`,
        recent.length === 0 ? "(none yet)" : recent.map((line) => `- ${line}`).join("\n"),
        `Goal: ${input.goal}`,
        ...inputLines(input.inputs),
        `URL: ${input.url}`,
        "Page:",
        outlineOf(input.outline),
      ].join("\n")
      const content: ReadonlyArray<ContentPart> | string =
        input.screenshot !== undefined && model.supportsImages
          ? [
              { type: "text", text },
              { type: "image", url: input.screenshot },
            ]
          : text
      const messages: ReadonlyArray<ChatMessage> = [
        { role: "system", content: systemFor(input) },
        { role: "user", content },
      ]
      const answer = yield* Effect.result(
        model.generate({
          messages,
          responseFormat: { name: "step", schema: stepAnswerSchema },
          temperature: 0,
          maxTokens: options.maxTokens ?? 400,
        }),
      )
      if (Result.isFailure(answer)) {
        if (answer.failure.reason._tag !== "OutputInvalid") return yield* answer.failure
        // A cut-off answer is treated like malformed JSON: a no-op turn, not a failed run.
        return {
          toolCalls: [],
          taskComplete: false,
          history: [`model answer was unusable (${answer.failure.reason.detail}): no-op`],
          usage: noUsage,
          modelCalls: 1,
        }
      }
      const read = readAnswer(answer.success.text, options.registry)
      const refused = read.calls.map((call) => unaskedCommit(call, input.outline, input.goal))
      const decision: StepDecision = {
        toolCalls: read.calls.filter((_, index) => refused[index] === undefined),
        taskComplete: read.taskComplete,
        ...(read.method === undefined ? {} : { method: read.method }),
        history: [...read.history, ...refused.filter((line) => line !== undefined)],
        usage: answer.success.usage,
        modelCalls: 1,
      }
      return decision
    }).pipe(Effect.withSpan("LlmStepPolicy.decide"))

  const summarize = (input: SummarizeInput) =>
    Effect.gen(function* () {
      const lines = [`Goal: ${input.goal}`]
      if (input.url !== undefined) lines.push(`Final URL: ${input.url}`)
      lines.push("History:", input.history.length === 0 ? "(nothing happened)" : input.history.join("\n"))
      if (input.outline !== undefined) lines.push("Final page:", outlineOf(input.outline))
      const { object, response } = yield* generateObject(model, {
        schema: RunSummary,
        name: "summary",
        messages: [
          { role: "system", content: summaryInstructions },
          { role: "user", content: lines.join("\n") },
        ],
        temperature: 0,
        maxTokens: 600,
      })
      return { ...object, usage: response.usage, modelCalls: 1 }
    }).pipe(Effect.withSpan("LlmStepPolicy.summarize"))

  // The model's own "done" is not the judge: the goal's parts as the rule grammar reads them are, so a
  // model that answers "done" without doing the work leaves a part unmet and the run FAILED.
  const shape: StepPolicyShape = { decide, summarize, parts: goalPartsOf, view: { budget: viewTokens } }
  return shape
})

/** The model-backed step policy as the `StepPolicy` service. */
export const llmStepPolicyLayer = (
  options: LlmStepPolicyOptions,
): Layer.Layer<StepPolicy, never, LanguageModel> => Layer.effect(StepPolicy, makeLlmStepPolicy(options))

import type { CachedAction, LlmError, PageElement, PageSnapshot, StoreShape } from "@sextant/core"
import { Effect } from "effect"
import { z } from "zod"
import { noUsage } from "../internal/Usage.ts"
import type {
  DecideInput,
  StepDecision,
  StepPolicyShape,
  SummarizeInput,
  SummaryDecision,
  TextToAction,
  ToolCall,
} from "../Planner.ts"
import { toolCallFor } from "../rules/RuleStepPolicy.ts"
import { ruleTextToAction } from "../rules/TextToAction.ts"
import { actionCacheKey, stepInstruction } from "./CacheKey.ts"
import { pageFingerprint } from "./Fingerprint.ts"
import { CachedLocator, describeLocator, locatorsFor, resolveLocators } from "./Locators.ts"
import type { FeedbackStepPolicy, StepOutcome } from "./StepFeedback.ts"

/** The argument of the browser tools that names the element (`click({ target: "e3" })`). */
const TARGET = "target"

/** The element operation behind each browser tool, as `PageSnapshot.actions` names it. */
const OPERATIONS: Readonly<Record<string, string>> = {
  click: "click",
  fill: "input",
  select: "select",
  check: "check",
  uncheck: "uncheck",
  press: "press",
  scroll: "scroll",
}

/**
 * The resolved action of one cached step, as stored in `CachedAction.action`: the tool and its
 * arguments without the element (found again through the locators on every replay), the element
 * operation and value, the command the rule text-to-action re-grounds it with when no locator
 * matches, and whether the step finished the goal.
 */
export const CachedStepAction = z.object({
  tool: z.string().min(1),
  args: z.record(z.string(), z.unknown()),
  /** Set when the step acts on an element: the locators name it, replay puts its ref here. */
  targetArgument: z.string().optional(),
  op: z.string().optional(),
  value: z.unknown().optional(),
  /** A rule command for the same action (`click "Sign in"`), empty when rules cannot express it. */
  command: z.string(),
  taskComplete: z.boolean().default(false),
  /**
   * The history lines the wrapped policy added with the original decision, added again on replay: a
   * policy that keeps its progress in the history (the rule policy) then goes on where the replay left it.
   */
  history: z.array(z.string()).default([]),
})
export type CachedStepAction = z.output<typeof CachedStepAction>

/** Options of `withActionCache`. */
export interface ActionCacheOptions {
  /** Where cached actions live (`@sextant/memory`'s SQLite store, or any `Store`). */
  readonly store: StoreShape
  /**
   * Grounds a step again, before the wrapped policy is asked, when no cached locator matches any more.
   * Default: the rule text-to-action (`ruleTextToAction`), which needs no model.
   */
  readonly textToAction?: TextToAction | undefined
}

/** How the pending decision came about; decides whether its success is written back. */
type Source = "replayed" | "healed" | "rules" | "policy"

interface Pending {
  readonly key: string
  readonly instruction: string
  readonly fingerprint: string
  readonly call: ToolCall
  readonly taskComplete: boolean
  /** The wrapped policy's own history lines of the decision. */
  readonly history: ReadonlyArray<string>
  readonly element: PageElement | undefined
  readonly source: Source
  readonly cached: CachedAction | undefined
}

const MARKER = "action-cache:"
const STEP_DONE = /^\d+\. \S+\(.*\) -> ok\b/

/** Steps of this run that succeeded, from the runner's history lines (`3. click({…}) -> ok: …`). */
const succeededSteps = (history: ReadonlyArray<string>): number =>
  history.filter((line) => STEP_DONE.test(line)).length

const quoted = (text: unknown): string => JSON.stringify(String(text ?? ""))

/** A rule command for the same action on the same element, so rules can ground it on a changed page. */
const ruleCommand = (call: ToolCall, element: PageElement): string => {
  const name = quoted(element.name)
  switch (call.name) {
    case "click":
      return `click ${name}`
    case "fill":
      return `type ${quoted(call.args.value)} into ${name}`
    case "select": {
      const values = call.args.values
      return `select ${quoted(Array.isArray(values) ? values[0] : call.args.value)} in ${name}`
    }
    case "check":
      return `check ${name}`
    case "uncheck":
      return `uncheck ${name}`
    default:
      return ""
  }
}

const elementOf = (snapshot: PageSnapshot, call: ToolCall): PageElement | undefined => {
  const target = call.args[TARGET]
  if (typeof target !== "string") return undefined
  const elements = Object.values(snapshot.elements)
  return snapshot.elements[target] ?? elements.find((element) => element.selectors.includes(target))
}

const storedAction = (
  call: ToolCall,
  element: PageElement | undefined,
  taskComplete: boolean,
  history: ReadonlyArray<string>,
) => {
  const { [TARGET]: _target, ...rest } = call.args
  const value = call.args.value ?? call.args.values ?? call.args.key
  const action: CachedStepAction = {
    tool: call.name,
    args: element === undefined ? call.args : rest,
    ...(element === undefined ? {} : { targetArgument: TARGET }),
    ...(OPERATIONS[call.name] === undefined ? {} : { op: OPERATIONS[call.name] }),
    ...(value === undefined ? {} : { value }),
    command: element === undefined ? "" : ruleCommand(call, element),
    taskComplete,
    history: [...history],
  }
  return action
}

const sameCall = (left: ToolCall, right: ToolCall): boolean =>
  left.name === right.name && JSON.stringify(left.args) === JSON.stringify(right.args)

const decodeRow = (row: CachedAction) => {
  const action = CachedStepAction.safeParse(row.action)
  const locators = z.array(CachedLocator).safeParse(row.locators)
  return action.success && locators.success ? { action: action.data, locators: locators.data } : undefined
}

/**
 * Wraps a step policy with deterministic replay from the store's action cache.
 *
 * Each turn is keyed by its instruction (the normalised goal and the number of the step, `… #2`) and the
 * page fingerprint (`pageFingerprint`). On a hit, each cached locator is tried on the current `look()`
 * in order (identity key, role + name, selectors) and the cached action is replayed on the element found,
 * with NO call to the wrapped policy or its model. When no locator matches any more, the step is grounded
 * again: first by `textToAction` (the rules, no model) from the cached command, then by the wrapped
 * policy. A step is written to the cache only after the executor reports it succeeded
 * (`observeOutcome`): new steps, steps grounded again, and replays whose element was found by a later
 * locator or whose locators changed (the healed locators replace the old ones). A replayed step that
 * fails is not replayed again in that run. When every step of a run came from the cache, `summarize`
 * also answers without the model.
 *
 * The wrapper needs the whole page, so it works with runners that call `observeLook` (the executor's
 * `runAgent` does); without it every turn goes to the wrapped policy. It keeps the page and the pending
 * step between `decide` and `observeOutcome`: use one wrapper per concurrent run.
 *
 * @example
 * ```ts
 * import { Effect } from "effect"
 * import { Store } from "@sextant/core"
 * import { runAgent } from "@sextant/executor"
 * import { makeLlmStepPolicy, withActionCache } from "@sextant/planner"
 * const program = Effect.gen(function* () {
 *   const policy = withActionCache(yield* makeLlmStepPolicy({ registry }), { store: yield* Store })
 *   return yield* runAgent(task, policy, { tools: browserTools }) // the second run makes no model call
 * })
 * ```
 */
export const withActionCache = (policy: StepPolicyShape, options: ActionCacheOptions): FeedbackStepPolicy => {
  const store = options.store
  const textToAction = options.textToAction ?? ruleTextToAction
  let snapshot: PageSnapshot | undefined
  let pending: Pending | undefined
  const distrusted = new Set<string>()

  const askPolicy = (
    input: DecideInput,
    page: PageSnapshot,
    base: Omit<Pending, "call" | "taskComplete" | "history" | "element" | "source">,
    line: string,
  ) =>
    policy.decide(input).pipe(
      Effect.map((decision): StepDecision => {
        const call = decision.toolCalls[0]
        pending =
          call === undefined || decision.method === "close" || call.name === "stop"
            ? undefined
            : {
                ...base,
                call,
                taskComplete: decision.taskComplete,
                history: decision.history,
                element: elementOf(page, call),
                source: "policy",
              }
        return { ...decision, history: [line, ...decision.history] }
      }),
    )

  const regroundWithRules = (page: PageSnapshot, action: CachedStepAction) =>
    action.command === "" || action.targetArgument === undefined
      ? Effect.succeed(undefined)
      : textToAction({ command: action.command, elements: Object.values(page.elements) }).pipe(
          Effect.map((answer) => {
            if (!("elements" in answer)) return undefined
            const grounded = toolCallFor(answer.elements[0]!)
            const ref = grounded.args[TARGET]
            const element = typeof ref === "string" ? page.elements[ref] : undefined
            if (grounded.name !== action.tool || element === undefined) return undefined
            return element
          }),
          Effect.orElseSucceed(() => undefined),
        )

  const decide = (input: DecideInput): Effect.Effect<StepDecision, LlmError> =>
    Effect.gen(function* () {
      pending = undefined
      const page = snapshot
      if (page === undefined) return yield* policy.decide(input)
      const ordinal = succeededSteps(input.history)
      const step = ordinal + 1
      const instruction = stepInstruction(input.goal, ordinal)
      const fingerprint = pageFingerprint(page).value
      const key = actionCacheKey(instruction, fingerprint)
      const base = { key, instruction, fingerprint, cached: undefined }
      if (distrusted.has(key)) {
        return yield* askPolicy(
          input,
          page,
          base,
          `${MARKER} step ${step}: the cached action failed, the policy decides`,
        )
      }
      const row = yield* store.getCachedAction(key).pipe(
        Effect.tapError((error) => Effect.logWarning(`action cache read failed: ${error.message}`)),
        Effect.orElseSucceed(() => undefined),
      )
      const decoded = row === undefined ? undefined : decodeRow(row)
      if (row === undefined || decoded === undefined) {
        return yield* askPolicy(input, page, base, `${MARKER} step ${step} not cached, the policy decides`)
      }
      const { action, locators } = decoded
      const replay = (element: PageElement | undefined, source: Source, line: string): StepDecision => {
        const call: ToolCall = {
          name: action.tool,
          args:
            element === undefined
              ? action.args
              : { ...action.args, [action.targetArgument ?? TARGET]: element.ref },
        }
        pending = {
          ...base,
          cached: row,
          call,
          taskComplete: action.taskComplete,
          history: action.history,
          element,
          source,
        }
        return {
          toolCalls: [call],
          taskComplete: action.taskComplete,
          history: [`${line}${action.taskComplete ? " (the goal is done)" : ""}`, ...action.history],
          usage: noUsage,
        }
      }
      if (action.targetArgument === undefined) {
        return replay(
          undefined,
          "replayed",
          `${MARKER} step ${step} replayed from the cache (${action.tool})`,
        )
      }
      const found = resolveLocators(locators, Object.values(page.elements))
      if (found !== undefined) {
        const same = JSON.stringify(locatorsFor(found.element)) === JSON.stringify(locators)
        return replay(
          found.element,
          same ? "replayed" : "healed",
          `${MARKER} step ${step} replayed from the cache on ${found.element.ref} (found by ${describeLocator(found.locator)}${same ? "" : ", locators healed"})`,
        )
      }
      const grounded = yield* regroundWithRules(page, action)
      if (grounded !== undefined) {
        return replay(
          grounded,
          "rules",
          `${MARKER} step ${step}: no cached locator matched, re-grounded by rules on ${grounded.ref}`,
        )
      }
      return yield* askPolicy(
        input,
        page,
        { ...base, cached: row },
        `${MARKER} step ${step}: no cached locator matched and rules could not ground "${action.command}", the policy decides`,
      )
    })

  const observeLook = (page: PageSnapshot) =>
    Effect.sync(() => {
      snapshot = page
    })

  const observeOutcome = (outcome: StepOutcome) =>
    Effect.gen(function* () {
      const step = pending
      pending = undefined
      if (step === undefined || !sameCall(step.call, outcome.call)) return
      if (!outcome.ok) {
        if (step.source !== "policy") distrusted.add(step.key)
        return
      }
      distrusted.delete(step.key)
      if (step.source === "replayed") return
      yield* store
        .putCachedAction({
          key: step.key,
          instruction: step.instruction,
          fingerprint: step.fingerprint,
          action: storedAction(step.call, step.element, step.taskComplete, step.history),
          locators: step.element === undefined ? [] : locatorsFor(step.element),
        })
        .pipe(Effect.catch((error) => Effect.logWarning(`action cache write failed: ${error.message}`)))
    })

  const summarize = (input: SummarizeInput): Effect.Effect<SummaryDecision, LlmError> => {
    const lines = input.history.filter((line) => line.startsWith(MARKER))
    const cachedOnly = lines.length > 0 && lines.every((line) => !line.endsWith("the policy decides"))
    if (!cachedOnly) return policy.summarize(input)
    const done = lines.at(-1)?.endsWith("(the goal is done)") === true
    const steps = succeededSteps(input.history)
    return Effect.succeed({
      taskComplete: done,
      summary: `Replayed ${steps} cached step${steps === 1 ? "" : "s"} of "${input.goal}" with no model call${input.url === undefined ? "" : `; now on ${input.url}`}.`,
      keyFindings: input.history.filter((line) => STEP_DONE.test(line)).slice(-5),
      nextSuggestions: done ? [] : ["run again without the cache to let the policy decide the rest"],
      usage: noUsage,
    })
  }

  return { decide, summarize, observeLook, observeOutcome, parts: policy.parts, view: policy.view }
}

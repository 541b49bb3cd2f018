import { AgentError, CannotPlan } from "@sextant/core"
import { Effect } from "effect"
import type { TextAction, TextToActionInput } from "../Planner.ts"
import { parseCommands } from "./Grammar.ts"
import { ancestryFromOutline } from "./Grounding.ts"
import { type CommandDecision, decideCommand, type PageView } from "./grounding/Decide.ts"
import { readReferencesOnPage } from "./grounding/Reference.ts"

export {
  type CommandDecision,
  copiedText,
  type DecideState,
  decideCommand,
  PAGE_LOCATOR,
  type PageView,
} from "./grounding/Decide.ts"

/** Input of the rule text-to-action: the shared input plus, optionally, the outline for containers. */
export interface RuleTextToActionInput extends TextToActionInput {
  /** `PageSnapshot.tree`; lets "OK in the dialog" and "the first result" use where elements sit. */
  readonly outline?: string | undefined
}

const toTextAction = (decision: CommandDecision): TextAction =>
  decision.type === "action"
    ? { elements: [decision.action] }
    : { isComplete: true, summary: decision.summary, suggestions: [...decision.suggestions] }

/**
 * The rule text-to-action: one command in English or Chinese and the element list of a `look()` →
 * exactly one action on an element of that list (`locator` is its ref), or a completion. Only the first
 * clause of a sequence is acted on; its action may be a step on the way (opening a section first). A
 * value the command describes ("Maria Keller's email") is read from `outline` when it is given.
 * Fails with `AgentError`/`CannotPlan` when the grammar cannot read the command.
 *
 * @example
 * ```ts
 * import { Effect } from "effect"
 * import { ruleTextToAction } from "@sextant/planner"
 * const answer = await Effect.runPromise(ruleTextToAction({ command: "点击登录按钮", elements }))
 * // { elements: [{ locator: "e3", method: "click", description: 'click button "登录" [e3]', arguments: [] }] }
 * ```
 */
export const ruleTextToAction = (input: RuleTextToActionInput): Effect.Effect<TextAction, AgentError> => {
  // A value the command describes ("Maria Keller's email") is read from the outline, when there is one.
  const read =
    input.outline === undefined
      ? undefined
      : readReferencesOnPage(input.command, input.outline, parseCommands)
  if (read !== undefined && "reason" in read)
    return Effect.fail(new AgentError({ reason: new CannotPlan({ detail: read.reason }) }))
  const parsed = parseCommands(read?.goal ?? input.command)
  if (!parsed.ok) return Effect.fail(new AgentError({ reason: new CannotPlan({ detail: parsed.reason }) }))
  const view: PageView = {
    elements: input.elements,
    ancestry: input.outline === undefined ? undefined : ancestryFromOutline(input.outline),
    outline: input.outline,
  }
  return Effect.succeed(toTextAction(decideCommand(parsed.commands[0]!, view)))
}

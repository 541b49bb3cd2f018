/** @sextant/planner — rule planner, text-to-action, LLM planner and step policy, hybrid planner, validator. */

export { type CalendarDay, isoDay, readCalendarDay } from "@sextant/core"
export * from "./cache/ActionCache.ts"
export * from "./cache/CacheKey.ts"
export * from "./cache/Fingerprint.ts"
export * from "./cache/Locators.ts"
export * from "./cache/StepFeedback.ts"
export * from "./HybridPlanner.ts"
export * from "./llm/LlmPlanner.ts"
export * from "./llm/LlmStepPolicy.ts"
export * from "./llm/LlmTextToAction.ts"
export * from "./llm/ToolListing.ts"
export * from "./Planner.ts"
// The rule grammar's public face: read a command, act on one page. Its tables (`rules/lang/`), tokenizer,
// templates and grounding helpers are internal.
export type { Command, CommandKind, ItemPhrase, RoleHint, TargetPhrase } from "./rules/Command.ts"
export { clausesOf, type ParseResult, parseCommands } from "./rules/Grammar.ts"
// The executor's goal checks score names the way grounding does.
export {
  canTake,
  GLOSSARY,
  glossaryReadsWhole,
  type Intent,
  optionScore,
  signsDisagree,
  textScore,
} from "./rules/Grounding.ts"
// The lists of a page and the item a pick names: the step policy grounds with it, the goal check re-reads with it.
export {
  type ListItem,
  type PageList,
  type PickedItem,
  readLists,
  resolvePick,
  valuesOf,
} from "./rules/grounding/Items.ts"
export { type ReferenceAnswer, readReference, readReferencesOnPage } from "./rules/grounding/Reference.ts"
export { type IntentReading, readGoalOnPage, readIntent } from "./rules/Intent.ts"
export * from "./rules/Outline.ts"
// Whose control a step pressed, read again by the executor's goal checks on the page it was pressed on.
export { type Container, itemsInOutline, placeInOutline } from "./rules/Placement.ts"
export type { ValueReference } from "./rules/Reading.ts"
export * from "./rules/RulePlanner.ts"
export * from "./rules/RuleStepPolicy.ts"
export { type RuleTextToActionInput, ruleTextToAction } from "./rules/TextToAction.ts"
export { ITEM_NOUNS, MESSAGE_WORDS, NO_NAME_WORDS } from "./rules/Vocabulary.ts"
export * from "./Validator.ts"

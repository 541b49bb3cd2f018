/**
 * @sextant/bench — Sextant's benchmarks. Run them with `pnpm bench`; these are the pure parts,
 * exported for tests.
 */
export { type GoalResult, judgeGoals } from "./Goals.ts"
export { BenchError, interleave, type RunPlan } from "./Measure.ts"
export {
  INTERACTIVE_ROLES,
  interactiveNodes,
  interactiveRecall,
  type OutlineOptions,
  parseOutline,
  type RecallResult,
  type TextRecallResult,
  visibleTextRecall,
  words,
} from "./Recall.ts"
export { markdownTable, type TableSection } from "./Report.ts"
export { median, quantile, type Summary, summarize } from "./Stats.ts"
export { countTokens } from "./Tokens.ts"

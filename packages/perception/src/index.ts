/**
 * @sextant/perception — what a model sees of a page: the in-page snapshot script (one WebDriver
 * `execute` per look), the token-cheap outline with stable refs, and pure screen semantics with a
 * semantic diff.
 */
export { actionsOf, operationsOf, PAGE_REF, pageOperations } from "./Actions.ts"
export { diffOutlines } from "./Changes.ts"
export { withMaskedPage } from "./MaskedPage.ts"
export {
  type PageCallArgs,
  type PageCallName,
  type PageCallResult,
  pageCall,
  pageCallReason,
} from "./PageCall.ts"
export {
  actorScriptSource,
  actScript,
  decodePageCall,
  foreignRuntimeMarker,
  lookScript,
  type PageCallAnswer,
  pageCallDeclaration,
  pageCallInstallDeclaration,
  pageCallMissing,
  pageHostCheck,
  pageScriptSource,
  pageScriptVersion,
  resolveScript,
} from "./PageScript.ts"
export type { CalendarState } from "./page/calendar.ts"
export type { CriteriaFacts, CriteriaRequest } from "./page/criteria.ts"
export type { GoalFacts, GoalFactsRequest } from "./page/goals.ts"
export type { GuardViolation } from "./page/guard.ts"
export { type FieldPlan, readRecord } from "./page/records.ts"
export type { SecretFieldKind, SecretTarget, SecretTargetRequest } from "./page/secretTarget.ts"
export type { PickSpec } from "./page/tools.ts"
export {
  canonicalState,
  describeChange,
  diffScreens,
  type Screen,
  type ScreenDiff,
  screenOf,
} from "./Screen.ts"
export { decodeSnapshot, type ParseOptions, parseSnapshot } from "./Snapshot.ts"
export { countTokens, fitsTokens } from "./Tokens.ts"

/**
 * @sextant/perception — what a model sees of a page: the in-page snapshot script (one WebDriver
 * `execute` per look), the token-cheap outline with stable refs, and pure screen semantics with a
 * semantic diff.
 */
export { actionsOf, operationsOf, PAGE_REF, pageOperations } from "./Actions.ts"
export { diffOutlines } from "./Changes.ts"
export { type FieldPlan, readRecord } from "./page/records.ts"
export {
  actorScriptSource,
  actScript,
  lookScript,
  pageScriptSource,
  pageScriptVersion,
  resolveScript,
} from "./PageScript.ts"
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

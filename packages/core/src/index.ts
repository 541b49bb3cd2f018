/**
 * @sextant/core — the spec every Sextant package implements: models, the tool API, service contracts
 * and typed errors. No I/O.
 */
export * from "./AgentTask.ts"
export * from "./BrowserDriver.ts"
export * from "./CalendarDay.ts"
export * from "./Errors.ts"
export * from "./GoalPart.ts"
export * from "./HttpSession.ts"
export * from "./LanguageModel.ts"
export * from "./NearestName.ts"
export * from "./Observation.ts"
export * from "./PageSnapshot.ts"
export * from "./Plan.ts"
export * from "./RunResult.ts"
export * from "./SecretForms.ts"
export * from "./Store.ts"
export * from "./Target.ts"
export * from "./TaskState.ts"
export * from "./Tool.ts"
export * from "./ToolRegistry.ts"
export * from "./Validation.ts"
export * from "./WebUrl.ts"

/**
 * @sextant/executor — the Effect runtime of Sextant: run plans and step-wise agents with guardrails,
 * timeouts, retries by error tag, replanning, budgets, traces, metrics, durable state and resume.
 */

// CriteriaNotMet lives in @sextant/core with the rest of the error union; kept importable from here.
export { CriteriaNotMet } from "@sextant/core"
export * from "./Criteria.ts"
export * from "./ExecutorOptions.ts"
export * from "./Goals.ts"
export * from "./Guardrails.ts"
export { describeFirstFailure, type FirstFailure } from "./internal/Finish.ts"
export { recordsOf, variantLocator } from "./internal/StepRunner.ts"
export * from "./Metrics.ts"
export * from "./Redaction.ts"
export * from "./RetryPolicy.ts"
export * from "./RunAgent.ts"
export * from "./RunMany.ts"
export * from "./RunPlan.ts"
export * from "./RunReport.ts"
export * from "./SecretPolicy.ts"
export * from "./Trace.ts"

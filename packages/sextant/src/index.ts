/**
 * sextant — the Promise face of Sextant: `createAgent` runs browser agents with plain Promises, and the
 * tagged error classes with their guards tell failures apart.
 */

// First, so an older Node stops with the Node to install before any module that needs Node 24 runs.
import "./internal/NodeCheck.ts"

export type { AgentTaskInput, RunResult, RunSummary, TaskConstraintsInput } from "@sextant/core"
export {
  AgentError,
  DriverError,
  HttpError,
  isAgentError,
  isDriverError,
  isHttpError,
  isLlmError,
  isSextantError,
  isStoreError,
  LlmError,
  StoreError,
} from "@sextant/core"
export type { EndReason, FirstFailure, TraceRecord } from "@sextant/executor"
export * from "./createAgent.ts"
export * from "./ModelEnvironment.ts"
export * from "./SextantConfig.ts"

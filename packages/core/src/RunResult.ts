import { z } from "zod"
import { UnmetPart } from "./GoalPart.ts"
import { Observation } from "./Observation.ts"
import { Plan } from "./Plan.ts"
import { TaskState } from "./TaskState.ts"

/** Token counts of the model calls of a run. */
export const TokenUsage = z.object({
  prompt: z.number().int().nonnegative().default(0),
  completion: z.number().int().nonnegative().default(0),
  total: z.number().int().nonnegative().default(0),
})
export type TokenUsage = z.output<typeof TokenUsage>

/** What a run cost and how it went. */
export const RunMetrics = z.object({
  success: z.boolean(),
  steps: z.number().int().nonnegative(),
  retries: z.number().int().nonnegative(),
  replans: z.number().int().nonnegative(),
  durationMs: z.number().nonnegative(),
  llmCalls: z.number().int().nonnegative(),
  tokens: TokenUsage.prefault({}),
})
export type RunMetrics = z.output<typeof RunMetrics>

/** The agent's own account of a run, asked for at the end. */
export const RunSummary = z.object({
  taskComplete: z.boolean(),
  summary: z.string(),
  keyFindings: z.array(z.string()).default([]),
  nextSuggestions: z.array(z.string()).default([]),
  /** The goal parts whose checks did not hold: set by the executor on every run, empty when COMPLETED. */
  unmetParts: z.array(UnmetPart).optional(),
})
export type RunSummary = z.output<typeof RunSummary>

/**
 * Everything a finished run hands back.
 */
export const RunResult = z.object({
  taskId: z.string(),
  runId: z.string().optional(),
  status: TaskState,
  output: z.unknown().optional(),
  plan: Plan.optional(),
  observations: z.array(Observation),
  metrics: RunMetrics,
  summary: RunSummary,
  tracePath: z.string().optional(),
})
export type RunResult = z.output<typeof RunResult>

import { Effect } from "effect"
import { z } from "zod"
import { AgentError, IllegalTransition } from "./Errors.ts"

/**
 * The task state machine:
 * `CREATED → PLANNING → RUNNING ⇄ WAITING → COMPLETED | FAILED | CANCELLED`.
 * A running task may go back to PLANNING to replan; a step-wise agent may start RUNNING with no plan.
 */
export const TaskState = z.enum([
  "CREATED",
  "PLANNING",
  "RUNNING",
  "WAITING",
  "COMPLETED",
  "FAILED",
  "CANCELLED",
])
export type TaskState = z.output<typeof TaskState>

/** Every state and the states it may move to. Final states move nowhere. */
export const taskTransitions: Readonly<Record<TaskState, ReadonlyArray<TaskState>>> = {
  CREATED: ["PLANNING", "RUNNING", "FAILED", "CANCELLED"],
  PLANNING: ["RUNNING", "FAILED", "CANCELLED"],
  RUNNING: ["WAITING", "PLANNING", "COMPLETED", "FAILED", "CANCELLED"],
  WAITING: ["RUNNING", "FAILED", "CANCELLED"],
  COMPLETED: [],
  FAILED: [],
  CANCELLED: [],
}

/** True when a task in `state` can never change again. */
export const isFinalState = (state: TaskState): boolean => taskTransitions[state].length === 0

/** True when `from → to` is allowed. */
export const canTransition = (from: TaskState, to: TaskState): boolean => taskTransitions[from].includes(to)

/**
 * Moves a task from one state to another, or fails with `AgentError` / `IllegalTransition`.
 *
 * @example
 * ```ts
 * import { Effect } from "effect"
 * import { transition } from "@sextant/core"
 * Effect.runSync(transition("CREATED", "PLANNING")) // "PLANNING"
 * ```
 */
export const transition = (from: TaskState, to: TaskState): Effect.Effect<TaskState, AgentError> =>
  canTransition(from, to)
    ? Effect.succeed(to)
    : Effect.fail(
        new AgentError({ reason: new IllegalTransition({ from, to, allowed: taskTransitions[from] }) }),
      )

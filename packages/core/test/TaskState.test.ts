import { describe, expect, it } from "@effect/vitest"
import {
  AgentError,
  canTransition,
  IllegalTransition,
  isFinalState,
  TaskState,
  transition,
} from "@sextant/core"
import { Effect, Exit } from "effect"

const allowed: ReadonlyArray<readonly [TaskState, TaskState]> = [
  ["CREATED", "PLANNING"],
  ["CREATED", "RUNNING"],
  ["CREATED", "FAILED"],
  ["CREATED", "CANCELLED"],
  ["PLANNING", "RUNNING"],
  ["PLANNING", "FAILED"],
  ["PLANNING", "CANCELLED"],
  ["RUNNING", "WAITING"],
  ["RUNNING", "PLANNING"],
  ["RUNNING", "COMPLETED"],
  ["RUNNING", "FAILED"],
  ["RUNNING", "CANCELLED"],
  ["WAITING", "RUNNING"],
  ["WAITING", "FAILED"],
  ["WAITING", "CANCELLED"],
]

const states = TaskState.options
const isAllowed = (from: TaskState, to: TaskState) => allowed.some(([a, b]) => a === from && b === to)
const illegal = states.flatMap((from) =>
  states.filter((to) => !isAllowed(from, to)).map((to) => [from, to] as const),
)

describe("task state machine", () => {
  it.each(allowed)("allows %s → %s", (from, to) => {
    expect(canTransition(from, to)).toBe(true)
    expect(Effect.runSync(transition(from, to))).toBe(to)
  })

  it("rejects every other transition with a typed IllegalTransition", () => {
    // 7 states × 7 targets, less the 15 allowed moves
    expect(illegal).toHaveLength(49 - allowed.length)
    for (const [from, to] of illegal) {
      const exit = Effect.runSyncExit(transition(from, to))
      expect(Exit.isFailure(exit), `${from} → ${to}`).toBe(true)
      if (Exit.isFailure(exit)) {
        const failure = exit.cause.reasons.find((reason) => reason._tag === "Fail")
        expect(failure?._tag).toBe("Fail")
        if (failure?._tag === "Fail") {
          expect(failure.error).toBeInstanceOf(AgentError)
          expect(failure.error.reason).toBeInstanceOf(IllegalTransition)
          expect(failure.error.message).toContain(`from ${from} to ${to}`)
        }
      }
    }
  })

  it("treats COMPLETED, FAILED and CANCELLED as final", () => {
    expect(states.filter(isFinalState)).toEqual(["COMPLETED", "FAILED", "CANCELLED"])
  })

  it("says where a final state may go: nowhere", () => {
    const message = Effect.runSync(Effect.flip(transition("COMPLETED", "RUNNING"))).message
    expect(message).toBe(
      "a task cannot go from COMPLETED to RUNNING; from COMPLETED it may go to none (it is final)",
    )
  })
})

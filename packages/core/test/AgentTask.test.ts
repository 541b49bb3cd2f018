import { describe, expect, it } from "@effect/vitest"
import { type AgentError, AgentTask, decodeAgentTask, InvalidInput, TaskConstraints } from "@sextant/core"
import { Effect, Exit } from "effect"

const failureOf = (input: unknown): AgentError => {
  const exit = Effect.runSyncExit(decodeAgentTask(input))
  if (Exit.isSuccess(exit)) throw new Error(`expected ${JSON.stringify(input)} to be rejected`)
  const error = exit.cause.reasons.find((reason) => reason._tag === "Fail")
  if (error === undefined || error._tag !== "Fail") throw new Error("expected a typed failure")
  return error.error
}

describe("AgentTask", () => {
  it("fills every constraint default listed in the design", () => {
    const task = AgentTask.parse({ goal: "open the products page" })
    expect(task.constraints).toEqual({
      maxSteps: 40,
      maxDurationMs: 300_000,
      stepTimeoutMs: 30_000,
      allowNavigation: true,
      allowFormSubmission: false,
      blockedUrlPatterns: [],
      allowedUploadDirs: [],
      quotas: { navigations: 20, clicks: 100, submissions: 2 },
    })
    expect(task.inputs).toEqual({})
    expect(task.id).toMatch(/^[0-9a-f-]{36}$/)
    expect(Number.isNaN(Date.parse(task.createdAt))).toBe(false)
  })

  it("keeps given quotas and fills the missing ones", () => {
    expect(TaskConstraints.parse({ quotas: { clicks: 5 } }).quotas).toEqual({
      navigations: 20,
      clicks: 5,
      submissions: 2,
    })
  })

  it("names the field, the rule and the value of a negative maxSteps", () => {
    const error = failureOf({ goal: "x", constraints: { maxSteps: -3 } })
    expect(error.reason).toBeInstanceOf(InvalidInput)
    const reason = error.reason as InvalidInput
    expect(reason.issues).toHaveLength(1)
    expect(reason.issues[0]).toMatch(/^task\.constraints\.maxSteps: .*>0.* \(got -3\)$/)
    expect(error.message).toContain("task.constraints.maxSteps")
    expect(error.isRetryable).toBe(false)
  })

  it("reports every bad field at once, nested paths included", () => {
    const error = failureOf({
      goal: "  ",
      startUrl: "javascript:alert(1)",
      constraints: { quotas: { submissions: 1.5 }, allowedOrigins: ["not a url"] },
    })
    const issues = (error.reason as InvalidInput).issues.join("\n")
    expect(issues).toContain("task.goal: describe the goal in words")
    expect(issues).toContain("task.startUrl:")
    expect(issues).toContain("task.constraints.quotas.submissions:")
    expect(issues).toContain("task.constraints.allowedOrigins[0]:")
  })

  it("rejects a missing goal by naming it", () => {
    const error = failureOf({ id: "task-1" })
    expect((error.reason as InvalidInput).issues[0]).toMatch(/^task\.goal: /)
  })

  it("rejects an id with characters unsafe for file names and traces", () => {
    const error = failureOf({ id: "../../etc", goal: "x" })
    expect((error.reason as InvalidInput).issues[0]).toMatch(/^task\.id: use letters, digits/)
  })

  it.effect("decodes a valid task with inputs and secrets", () =>
    Effect.gen(function* () {
      const task = yield* decodeAgentTask({
        id: "login-1",
        goal: "log in",
        startUrl: "http://127.0.0.1:4000/login",
        inputs: { email: "alice@example.com", password: "wonderland" },
        secretInputs: ["password"],
      })
      expect(task.secretInputs).toEqual(["password"])
      expect(task.startUrl).toBe("http://127.0.0.1:4000/login")
    }),
  )
})

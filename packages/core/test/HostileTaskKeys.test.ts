import { describe, expect, it } from "@effect/vitest"
import {
  type AgentError,
  decodeAgentTask,
  type InvalidInput,
  nearestName,
  TaskConstraints,
} from "@sextant/core"
import { Effect, Exit } from "effect"

const issuesOf = (input: unknown): ReadonlyArray<string> => {
  const exit = Effect.runSyncExit(decodeAgentTask(input))
  if (Exit.isSuccess(exit)) throw new Error(`expected ${JSON.stringify(input)} to be rejected`)
  const failure = exit.cause.reasons.find((reason) => reason._tag === "Fail")
  if (failure === undefined || failure._tag !== "Fail") throw new Error("expected a typed failure")
  const error: AgentError = failure.error
  return (error.reason as InvalidInput).issues
}

describe("task objects refuse keys they do not know", () => {
  it("refuses secretInput (for secretInputs) instead of storing the password in clear", () => {
    const issues = issuesOf({
      goal: "log in",
      inputs: { email: "alice@example.com", password: "wonderland" },
      secretInput: ["password"],
    })
    expect(issues).toEqual(["task.secretInput is not a task field: did you mean secretInputs?"])
  })

  it("names unknown constraint and quota keys with their path and the key they meant", () => {
    const issues = issuesOf({
      goal: "list the products",
      constraints: { maxStep: 5, allowedOrigin: ["http://127.0.0.1:4000"], quotas: { click: 3 } },
    })
    expect(issues).toContain("task.constraints.maxStep is not a constraints field: did you mean maxSteps?")
    expect(issues).toContain(
      "task.constraints.allowedOrigin is not a constraints field: did you mean allowedOrigins?",
    )
    expect(issues).toContain("task.constraints.quotas.click is not a quotas field: did you mean clicks?")
  })

  it("lists the known fields when no key is near the unknown one", () => {
    const issues = issuesOf({ goal: "x", colourScheme: "dark" })
    expect(issues).toHaveLength(1)
    expect(issues[0]).toMatch(
      /^task\.colourScheme is not a task field \(the fields are id, goal, .*secretInputs/,
    )
  })

  it("refuses an unknown key of TaskConstraints parsed on its own", () => {
    const result = TaskConstraints.safeParse({ allowUploadDir: ["/tmp"] })
    expect(result.success).toBe(false)
    expect(result.error?.issues[0]?.message).toBe(
      "is not a constraints field: did you mean allowedUploadDirs?",
    )
  })

  it("still decodes a task that uses only known keys", () => {
    const task = Effect.runSync(
      decodeAgentTask({
        goal: "log in",
        inputs: { password: "wonderland" },
        secretInputs: ["password"],
        constraints: { maxSteps: 5, allowedUploadDirs: ["/srv/uploads"], quotas: { clicks: 3 } },
      }),
    )
    expect(task.secretInputs).toEqual(["password"])
    expect(task.constraints.allowedUploadDirs).toEqual(["/srv/uploads"])
  })

  it("refuses a relative upload folder", () => {
    const issues = issuesOf({ goal: "x", constraints: { allowedUploadDirs: ["uploads"] } })
    expect(issues[0]).toMatch(/^task\.constraints\.allowedUploadDirs\[0\]: must be an absolute folder path/)
  })

  it("suggests only names a slip away", () => {
    expect(nearestName("secretinputs", ["inputs", "secretInputs"])).toBe("secretInputs")
    expect(nearestName("stpeTimeoutMs", ["maxSteps", "stepTimeoutMs"])).toBe("stepTimeoutMs")
    expect(nearestName("colour", ["goal", "inputs"])).toBeUndefined()
  })
})

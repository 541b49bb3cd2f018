import { describe, expect, it } from "vitest"
import { type AgentFlags, resolveAgent } from "../src/internal/AgentFlags.ts"
import { followRun } from "../src/internal/RunOutput.ts"
import { sink } from "./support/Sink.ts"

const flags: AgentFlags = { model: "m", headless: true }

describe("the model endpoint as the CLI prints it", () => {
  it("hides a password and a key parameter of OPENAI_BASE_URL in the planner line and the model report's endpoint", () => {
    const answer = resolveAgent(
      flags,
      {
        OPENAI_API_KEY: "key",
        OPENAI_BASE_URL:
          "https://proxy-user:sk-live-userinfo-123@llm.example/v1?api-key=sk-live-query-456&region=eu",
      },
      undefined,
    )
    if (Array.isArray(answer)) throw new Error(JSON.stringify(answer))
    expect(answer.plannerLine).toBe(
      "planner: hybrid (rules first, then the model m at https://proxy-user:***@llm.example/v1?api-key=***&region=eu)",
    )
    expect(JSON.stringify(answer.modelLimits)).not.toMatch(/sk-live/)
    // The client itself still gets the whole URL.
    expect((answer.options.model as { baseURL: string }).baseURL).toContain("sk-live-userinfo-123")
  })

  it("hides them in the message about an OPENAI_BASE_URL that is not http or https", () => {
    const answer = resolveAgent(
      flags,
      { OPENAI_API_KEY: "key", OPENAI_BASE_URL: "ftp://proxy-user:sk-live-userinfo-123@llm.example/v1" },
      undefined,
    )
    expect(answer).toEqual([
      {
        field: "baseUrl",
        message: "OPENAI_BASE_URL is not an http or https URL: ftp://proxy-user:***@llm.example/v1",
      },
    ])
  })

  it("hides them in the progress line while a model call is waited for", async () => {
    const err = sink()
    const follow = followRun(err.stream, 100)
    follow.onModelAttempt({
      phase: "start",
      attempt: 2,
      attempts: 2,
      baseURL: "https://proxy-user:sk-live-userinfo-123@llm.example/v1?api-key=sk-live-query-456",
      model: "m",
      timeoutMs: 3000,
    })
    await new Promise((resolve) => setTimeout(resolve, 1_200))
    follow.stop()
    expect(err.text()).toContain("waiting for the model at https://proxy-user:***@llm.example/v1?api-key=***")
    expect(err.text()).not.toMatch(/sk-live/)
  })
})

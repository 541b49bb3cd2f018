import { describe, expect, it } from "vitest"
import { isAgentError, modelFromEnvironment } from "../src/index.ts"

describe("modelFromEnvironment", () => {
  it("reads the model, key and endpoint the CLI reads", () => {
    expect(
      modelFromEnvironment({
        SEXTANT_MODEL: "qwen2.5:7b",
        OPENAI_API_KEY: "local",
        OPENAI_BASE_URL: "http://127.0.0.1:11434/v1",
      }),
    ).toEqual({ model: "qwen2.5:7b", apiKey: "local", baseURL: "http://127.0.0.1:11434/v1" })
    expect(modelFromEnvironment({ OPENAI_MODEL: "gpt-4o-mini", OPENAI_API_KEY: "sk-test" })).toEqual({
      model: "gpt-4o-mini",
      apiKey: "sk-test",
    })
  })

  it("configures no model when none is named, even with a key", () => {
    expect(modelFromEnvironment({ OPENAI_API_KEY: "sk-test" })).toBeUndefined()
  })

  it("names OPENAI_API_KEY when a model is named without a key", () => {
    let thrown: unknown
    try {
      modelFromEnvironment({ SEXTANT_MODEL: "gpt-4o-mini" })
    } catch (error) {
      thrown = error
    }
    expect(isAgentError(thrown)).toBe(true)
    expect((thrown as Error).message).toContain("OPENAI_API_KEY: set it to the API key for model gpt-4o-mini")
  })

  it("bounds each call with SEXTANT_LLM_TIMEOUT_MS and SEXTANT_LLM_MAX_RETRIES, as the CLI does", () => {
    expect(
      modelFromEnvironment({
        SEXTANT_MODEL: "m",
        OPENAI_API_KEY: "k",
        SEXTANT_LLM_TIMEOUT_MS: "3000",
        SEXTANT_LLM_MAX_RETRIES: "0",
      }),
    ).toEqual({ model: "m", apiKey: "k", timeoutMs: 3000, maxRetries: 0 })
  })

  it("names a limit variable that is not a whole number", () => {
    expect(() =>
      modelFromEnvironment({ SEXTANT_MODEL: "m", OPENAI_API_KEY: "k", SEXTANT_LLM_TIMEOUT_MS: "soon" }),
    ).toThrow('SEXTANT_LLM_TIMEOUT_MS: must be a whole number above 0, got "soon"')
  })
})

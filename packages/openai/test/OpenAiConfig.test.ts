import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { decodeOpenAiOptions, openAiOptionsFromEnvironment } from "../src/index.ts"

describe("OpenAI options", () => {
  it.effect("fills defaults around the endpoint, key and model", () =>
    Effect.gen(function* () {
      const options = yield* openAiOptionsFromEnvironment({
        OPENAI_API_KEY: "key",
        SEXTANT_MODEL: "gpt-4o-mini",
      })
      expect(options).toMatchObject({
        baseURL: "https://api.openai.com/v1",
        model: "gpt-4o-mini",
        timeoutMs: 60_000,
        maxRetries: 3,
        structuredOutput: "json_schema",
        supportsImages: false,
        stream: false,
      })
    }),
  )

  it.effect("reads every variable and lets overrides win", () =>
    Effect.gen(function* () {
      const options = yield* openAiOptionsFromEnvironment(
        {
          OPENAI_BASE_URL: "http://127.0.0.1:11434/v1",
          OPENAI_API_KEY: "ollama",
          SEXTANT_MODEL: "qwen2.5:7b",
          SEXTANT_LLM_TIMEOUT_MS: "5000",
          SEXTANT_LLM_MAX_RETRIES: "1",
          SEXTANT_LLM_STRUCTURED_OUTPUT: "json_object",
          SEXTANT_LLM_IMAGES: "yes",
          SEXTANT_LLM_STREAM: "1",
        },
        { model: "llama3.2" },
      )
      expect(options).toMatchObject({
        baseURL: "http://127.0.0.1:11434/v1",
        model: "llama3.2",
        timeoutMs: 5000,
        maxRetries: 1,
        structuredOutput: "json_object",
        supportsImages: true,
        stream: true,
      })
    }),
  )

  it.effect("names the missing variables", () =>
    Effect.gen(function* () {
      const error = yield* Effect.flip(openAiOptionsFromEnvironment({}))
      expect(error.reason._tag).toBe("InvalidInput")
      expect(error.message).toContain("OPENAI_API_KEY: set an API key")
      expect(error.message).toContain("SEXTANT_MODEL: name the model to call")
    }),
  )

  it.effect("names a malformed variable and what it must be", () =>
    Effect.gen(function* () {
      const error = yield* Effect.flip(
        openAiOptionsFromEnvironment({
          OPENAI_API_KEY: "key",
          SEXTANT_MODEL: "m",
          SEXTANT_LLM_TIMEOUT_MS: "soon",
          SEXTANT_LLM_STRUCTURED_OUTPUT: "xml",
        }),
      )
      expect(error.message).toContain('SEXTANT_LLM_TIMEOUT_MS: must be a whole number (got "soon")')
      expect(error.message).toContain("SEXTANT_LLM_STRUCTURED_OUTPUT")
      const badUrl = yield* Effect.flip(
        openAiOptionsFromEnvironment({
          OPENAI_BASE_URL: "ftp://models",
          OPENAI_API_KEY: "k",
          SEXTANT_MODEL: "m",
        }),
      )
      expect(badUrl.message).toContain("OPENAI_BASE_URL:")
    }),
  )

  it.effect("names the field of options given in code", () =>
    Effect.gen(function* () {
      const error = yield* Effect.flip(decodeOpenAiOptions({ apiKey: "key", model: "m", timeoutMs: -1 }))
      expect(error.message).toContain("options.timeoutMs:")
      expect(error.message).toContain("(got -1)")
    }),
  )
})

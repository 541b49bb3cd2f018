import { AgentError, InvalidInput } from "@sextant/core"

/** An OpenAI-compatible endpoint as `createAgent({ model })` takes it. */
export interface ModelEndpoint {
  readonly model: string
  readonly apiKey: string
  readonly baseURL?: string | undefined
}

/**
 * The model the environment configures, the same variables the `sextant` CLI reads: `SEXTANT_MODEL`
 * (or `OPENAI_MODEL`) names the model, `OPENAI_API_KEY` holds the key (any non-empty value for a local
 * server) and `OPENAI_BASE_URL` the endpoint (default OpenAI's). Undefined when no model is named, so
 * `createAgent` keeps the rule planner; a named model without a key throws an `AgentError` naming
 * the variable.
 *
 * @example
 * ```ts
 * import { createAgent, modelFromEnvironment } from "sextant-agent"
 * const agent = createAgent({ model: modelFromEnvironment() }) // hybrid planner when SEXTANT_MODEL is set
 * ```
 */
export const modelFromEnvironment = (
  environment: Readonly<Record<string, string | undefined>> = process.env,
): ModelEndpoint | undefined => {
  const model = environment.SEXTANT_MODEL?.trim() || environment.OPENAI_MODEL?.trim()
  if (model === undefined || model === "") return undefined
  const apiKey = environment.OPENAI_API_KEY?.trim()
  if (apiKey === undefined || apiKey === "") {
    throw new AgentError({
      reason: new InvalidInput({
        what: "model environment",
        issues: [
          `OPENAI_API_KEY: set it to the API key for model ${model} (any non-empty value for a local server such as Ollama)`,
        ],
      }),
    })
  }
  const baseURL = environment.OPENAI_BASE_URL?.trim()
  return { model, apiKey, ...(baseURL === undefined || baseURL === "" ? {} : { baseURL }) }
}

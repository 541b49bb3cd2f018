import { AgentError, InvalidInput } from "@sextant/core"

/** An OpenAI-compatible endpoint as `createAgent({ model })` takes it. */
export interface ModelEndpoint {
  readonly model: string
  readonly apiKey: string
  readonly baseURL?: string | undefined
  /** Time for one attempt, in milliseconds (`SEXTANT_LLM_TIMEOUT_MS`; default 60000). */
  readonly timeoutMs?: number | undefined
  /** Retries after a timeout, a 429, a 5xx or a broken connection (`SEXTANT_LLM_MAX_RETRIES`; default 3). */
  readonly maxRetries?: number | undefined
}

/**
 * The model the environment configures, the same variables the `sextant` CLI reads: `SEXTANT_MODEL`
 * (or `OPENAI_MODEL`) names the model, `OPENAI_API_KEY` holds the key (any non-empty value for a local
 * server), `OPENAI_BASE_URL` the endpoint (default OpenAI's), and `SEXTANT_LLM_TIMEOUT_MS` /
 * `SEXTANT_LLM_MAX_RETRIES` bound each call. Undefined when no model is named, so `createAgent` keeps the
 * rule planner; a named model without a key, or a limit that is not a whole number, throws an
 * `AgentError` naming the variable.
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
  const limits: Record<string, number> = {}
  const issues: Array<string> = []
  for (const [variable, option, minimum] of [
    ["SEXTANT_LLM_TIMEOUT_MS", "timeoutMs", 1],
    ["SEXTANT_LLM_MAX_RETRIES", "maxRetries", 0],
  ] as const) {
    const raw = environment[variable]?.trim()
    if (raw === undefined || raw === "") continue
    if (/^\d+$/.test(raw) && Number(raw) >= minimum) limits[option] = Number(raw)
    else
      issues.push(
        `${variable}: must be a whole number${minimum > 0 ? " above 0" : ""}, got ${JSON.stringify(raw)}`,
      )
  }
  if (issues.length > 0)
    throw new AgentError({ reason: new InvalidInput({ what: "model environment", issues }) })
  return { model, apiKey, ...(baseURL === undefined || baseURL === "" ? {} : { baseURL }), ...limits }
}

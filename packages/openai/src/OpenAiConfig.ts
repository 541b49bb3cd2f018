import { AgentError, formatIssues, InvalidInput, type LlmError } from "@sextant/core"
import { Effect, Redacted } from "effect"
import { z } from "zod"

/**
 * How the endpoint is asked for JSON:
 * - `json_schema`: `response_format: { type: "json_schema" }` with the zod schema as JSON Schema
 *   (OpenAI, vLLM, recent Ollama and LM Studio);
 * - `json_object`: `response_format: { type: "json_object" }` (JSON mode without a schema);
 * - `none`: no `response_format` at all, for servers that reject it. The tolerant parser reads JSON
 *   out of the plain text in every mode.
 */
export const StructuredOutput = z.enum(["json_schema", "json_object", "none"])
export type StructuredOutput = z.output<typeof StructuredOutput>

/**
 * One attempt of a model call, as `onAttempt` hears of it: when it `start`s, and when it has `answered`
 * or `failed` (with the `error`; another attempt follows when it is retryable and retries are left).
 * `attempts` is `1 + maxRetries`.
 *
 * @example
 * ```ts
 * import { OpenAiLanguageModel } from "@sextant/openai"
 * OpenAiLanguageModel.layer({ apiKey: "ollama", model: "qwen2.5:7b", onAttempt: ({ phase, attempt, attempts, baseURL, error }) => {
 *   if (phase === "start") console.error(`waiting for ${baseURL} (attempt ${attempt} of ${attempts})`)
 *   if (phase === "failed") console.error(error?.message)
 * } })
 * ```
 */
export interface ModelAttempt {
  readonly phase: "start" | "answered" | "failed"
  readonly attempt: number
  readonly attempts: number
  readonly baseURL: string
  readonly model: string
  readonly timeoutMs: number
  readonly error?: LlmError | undefined
}

const API_KEY_MISSING = "set an API key (any non-empty value for local servers such as Ollama)"

// Text or a Redacted in, a Redacted out: the key is never held in clear on the options.
const ApiKey = z
  .custom<string | Redacted.Redacted<string>>(
    (value) =>
      typeof value === "string" || (Redacted.isRedacted(value) && typeof Redacted.value(value) === "string"),
    API_KEY_MISSING,
  )
  .transform((value) => (typeof value === "string" ? value : Redacted.value(value)))
  .pipe(z.string().trim().min(1, API_KEY_MISSING))
  .transform((value) => Redacted.make(value, { label: "apiKey" }))

/**
 * Options of the OpenAI-compatible `LanguageModel`.
 *
 * @example
 * ```ts
 * import { OpenAiOptions } from "@sextant/openai"
 * OpenAiOptions.parse({ baseURL: "http://127.0.0.1:11434/v1", apiKey: "ollama", model: "qwen2.5:7b", structuredOutput: "json_object" })
 * ```
 */
export const OpenAiOptions = z.object({
  /** The endpoint, ending in `/v1` for most servers. */
  baseURL: z.url({ protocol: /^https?$/ }).default("https://api.openai.com/v1"),
  /**
   * The API key, as text or an Effect `Redacted` (e.g. from `Config.redacted("OPENAI_API_KEY")`); kept as
   * `Redacted` once read, so printing, logging or serialising the options shows `<redacted>`. Local
   * servers such as Ollama accept any non-empty value.
   */
  apiKey: ApiKey,
  /** The model name the endpoint knows (`gpt-4o-mini`, `qwen2.5:7b`, …). */
  model: z.string().trim().min(1, "name the model to call"),
  /** Time for one attempt, in milliseconds. */
  timeoutMs: z.number().int().positive().default(60_000),
  /** Retries after a 429, a 5xx, a timeout or a broken connection. */
  maxRetries: z.number().int().nonnegative().default(3),
  /** The first backoff delay; it doubles (with jitter) on every retry. */
  retryBaseDelayMs: z.number().int().positive().default(500),
  /** No backoff (nor a server's Retry-After) waits longer than this. */
  maxRetryDelayMs: z.number().int().positive().default(30_000),
  structuredOutput: StructuredOutput.default("json_schema"),
  /** Send image parts (screenshots) to the model; when false they are left out of the request. */
  supportsImages: z.boolean().default(false),
  /** Read the answer as a server-sent event stream (same result, first tokens arrive sooner). */
  stream: z.boolean().default(false),
  /** Sampling temperature when a request does not set one. */
  temperature: z.number().min(0).max(2).optional(),
  /** Extra headers on every request. */
  headers: z.record(z.string(), z.string()).default({}),
  /** Where `apiKey` came from, named when the endpoint refuses the key (default `OPENAI_API_KEY`). */
  apiKeyVariable: z.string().trim().min(1).default("OPENAI_API_KEY"),
  /** Called as each attempt starts and when it fails, e.g. to show what a run is waiting for. */
  onAttempt: z
    .custom<(attempt: ModelAttempt) => void>((value) => typeof value === "function", "must be a function")
    .optional(),
})
export type OpenAiOptions = z.output<typeof OpenAiOptions>
export type OpenAiOptionsInput = z.input<typeof OpenAiOptions>

const flag = z
  .enum(["true", "false", "1", "0", "yes", "no"])
  .transform((value) => ["true", "1", "yes"].includes(value))
const integer = z
  .string()
  .regex(/^\d+$/, "must be a whole number")
  .transform((value) => Number(value))

/** The environment variables `OpenAiLanguageModel.layerConfig` reads, each validated and named in errors. */
export const OpenAiEnvironment = z.object({
  OPENAI_BASE_URL: z.string().optional(),
  OPENAI_API_KEY: z.string().optional(),
  SEXTANT_MODEL: z.string().optional(),
  SEXTANT_LLM_TIMEOUT_MS: integer.optional(),
  SEXTANT_LLM_MAX_RETRIES: integer.optional(),
  SEXTANT_LLM_STRUCTURED_OUTPUT: StructuredOutput.optional(),
  SEXTANT_LLM_IMAGES: flag.optional(),
  SEXTANT_LLM_STREAM: flag.optional(),
})

const environmentNames: Record<string, string> = {
  baseURL: "OPENAI_BASE_URL",
  apiKey: "OPENAI_API_KEY",
  model: "SEXTANT_MODEL",
  timeoutMs: "SEXTANT_LLM_TIMEOUT_MS",
  maxRetries: "SEXTANT_LLM_MAX_RETRIES",
  structuredOutput: "SEXTANT_LLM_STRUCTURED_OUTPUT",
  supportsImages: "SEXTANT_LLM_IMAGES",
  stream: "SEXTANT_LLM_STREAM",
}

const invalid = (what: string, issues: ReadonlyArray<string>, cause: unknown) =>
  new AgentError({ reason: new InvalidInput({ what, issues }), cause })

/** Validates options given in code; failures name each field (`options.model: …`). */
export const decodeOpenAiOptions = (input: OpenAiOptionsInput): Effect.Effect<OpenAiOptions, AgentError> => {
  const result = OpenAiOptions.safeParse(input)
  return result.success
    ? Effect.succeed(result.data)
    : Effect.fail(invalid("OpenAI model options", formatIssues("options", result.error, input), result.error))
}

/**
 * Options from environment variables (`OPENAI_BASE_URL`, `OPENAI_API_KEY`, `SEXTANT_MODEL`,
 * `SEXTANT_LLM_TIMEOUT_MS`, `SEXTANT_LLM_MAX_RETRIES`, `SEXTANT_LLM_STRUCTURED_OUTPUT`,
 * `SEXTANT_LLM_IMAGES`, `SEXTANT_LLM_STREAM`), with `overrides` winning over the environment.
 * Failures name the variable: `SEXTANT_MODEL: name the model to call`.
 */
export const openAiOptionsFromEnvironment = (
  environment: Readonly<Record<string, string | undefined>> = process.env,
  overrides: Partial<OpenAiOptionsInput> = {},
): Effect.Effect<OpenAiOptions, AgentError> => {
  const read = OpenAiEnvironment.safeParse(environment)
  if (!read.success) {
    return Effect.fail(
      invalid("OpenAI model environment", formatIssues("", read.error, environment), read.error),
    )
  }
  const variables = read.data
  const input: Record<string, unknown> = {
    baseURL: variables.OPENAI_BASE_URL,
    apiKey: variables.OPENAI_API_KEY ?? "",
    model: variables.SEXTANT_MODEL ?? "",
    timeoutMs: variables.SEXTANT_LLM_TIMEOUT_MS,
    maxRetries: variables.SEXTANT_LLM_MAX_RETRIES,
    structuredOutput: variables.SEXTANT_LLM_STRUCTURED_OUTPUT,
    supportsImages: variables.SEXTANT_LLM_IMAGES,
    stream: variables.SEXTANT_LLM_STREAM,
    ...overrides,
  }
  for (const key of Object.keys(input)) if (input[key] === undefined) delete input[key]
  const result = OpenAiOptions.safeParse(input)
  if (result.success) return Effect.succeed(result.data)
  const issues = result.error.issues.map((issue) => {
    const field = String(issue.path[0] ?? "")
    const name = field in overrides ? `options.${field}` : (environmentNames[field] ?? `options.${field}`)
    return `${name}: ${issue.message}`
  })
  return Effect.fail(invalid("OpenAI model environment", issues, result.error))
}

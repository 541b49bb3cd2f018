import {
  type AgentError,
  type ChatMessage,
  type GenerateRequest,
  type GenerateResponse,
  LanguageModel,
  type LanguageModelShape,
  LlmError,
  OutputInvalid,
  Timeout,
  type TokenUsage,
} from "@sextant/core"
import { Clock, Duration, Effect, Layer, Redacted, Schedule } from "effect"
import OpenAI from "openai"
import { type ErrorContext, timeoutHint, toLlmError } from "./internal/errors.ts"
import {
  decodeOpenAiOptions,
  type ModelAttempt,
  type OpenAiOptions,
  type OpenAiOptionsInput,
  openAiOptionsFromEnvironment,
} from "./OpenAiConfig.ts"

type MessageParam = OpenAI.Chat.Completions.ChatCompletionMessageParam
type ContentPartParam = OpenAI.Chat.Completions.ChatCompletionContentPart

const toMessage = (message: ChatMessage, images: boolean): MessageParam => {
  if (typeof message.content === "string")
    return { role: message.role, content: message.content } as MessageParam
  if (message.role !== "user") {
    // Only user messages may carry images in the chat API; other roles get their text joined.
    const text = message.content.flatMap((part) => (part.type === "text" ? [part.text] : [])).join("\n")
    return { role: message.role, content: text } as MessageParam
  }
  const parts: Array<ContentPartParam> = []
  for (const part of message.content) {
    if (part.type === "text") parts.push({ type: "text", text: part.text })
    else if (images) parts.push({ type: "image_url", image_url: { url: part.url } })
  }
  return { role: "user", content: parts }
}

const schemaName = (name: string): string => name.replace(/[^A-Za-z0-9_-]/g, "_").slice(0, 64) || "answer"

const responseFormatOf = (
  request: GenerateRequest,
  options: OpenAiOptions,
): OpenAI.Chat.Completions.ChatCompletionCreateParams["response_format"] | undefined => {
  if (request.responseFormat === undefined || options.structuredOutput === "none") return undefined
  if (options.structuredOutput === "json_object") return { type: "json_object" }
  return {
    type: "json_schema",
    // strict mode needs every property required and no open objects; zod schemas with optional
    // fields do not fit it, so the schema guides the model and zod has the last word.
    json_schema: {
      name: schemaName(request.responseFormat.name),
      schema: request.responseFormat.schema,
      strict: false,
    },
  }
}

const usageOf = (usage: OpenAI.CompletionUsage | null | undefined): TokenUsage => {
  const prompt = usage?.prompt_tokens ?? 0
  const completion = usage?.completion_tokens ?? 0
  return { prompt, completion, total: usage?.total_tokens ?? prompt + completion }
}

interface Answer {
  readonly text: string
  readonly usage: TokenUsage
  readonly model: string
  readonly finishReason: string | undefined
}

/**
 * The retry policy: exponential backoff with jitter from `retryBaseDelayMs`, at most `maxRetries`
 * times, only for retryable reasons; a 429's Retry-After replaces the backoff when the server sent one.
 * Every delay is capped at `maxRetryDelayMs`.
 */
const retrySchedule = (options: OpenAiOptions) =>
  Schedule.exponential(Duration.millis(options.retryBaseDelayMs)).pipe(
    Schedule.jittered,
    Schedule.upTo({ times: options.maxRetries }),
    Schedule.setInputType<LlmError>(),
    Schedule.while(({ input }) => input.isRetryable),
    Schedule.modifyDelay(({ input, duration }) => {
      const serverWait = input.reason._tag === "RateLimited" ? input.reason.retryAfterMs : undefined
      const wait = serverWait ?? Duration.toMillis(duration)
      return Effect.succeed(Duration.millis(Math.min(wait, options.maxRetryDelayMs)))
    }),
  )

/**
 * Builds the `LanguageModel` service on the `openai` SDK for any OpenAI-compatible endpoint.
 *
 * - Retries are Effect's, not the SDK's (`maxRetries: 0` on the client): 429, 5xx, timeouts and broken
 *   connections are retried on a `Schedule` that honours Retry-After, shows in traces, and stops at once
 *   when the fiber is interrupted.
 * - Each attempt has `timeoutMs`; interruption (a timeout, a cancelled run) aborts the HTTP request
 *   through the AbortSignal handed to the SDK.
 * - SDK errors map on their class and status to the core `LlmError` reasons.
 * - `responseFormat` becomes `response_format` as `structuredOutput` says; images are sent only when
 *   `supportsImages` is set.
 *
 * @example
 * ```ts
 * import { Effect } from "effect"
 * import { make } from "@sextant/openai"
 * const program = Effect.gen(function* () {
 *   const model = yield* make({ baseURL: "http://127.0.0.1:11434/v1", apiKey: "ollama", model: "qwen2.5:7b" })
 *   const response = yield* model.generate({ messages: [{ role: "user", content: "Say hi" }] })
 *   return `${response.text} (${response.usage.total} tokens)`
 * })
 * ```
 */
export const make = (input: OpenAiOptionsInput): Effect.Effect<LanguageModelShape, AgentError> =>
  Effect.map(decodeOpenAiOptions(input), fromOptions)

/** Builds the service from options that are already validated. */
export const fromOptions = (options: OpenAiOptions): LanguageModelShape => {
  const client = new OpenAI({
    baseURL: options.baseURL,
    apiKey: Redacted.value(options.apiKey),
    maxRetries: 0,
    timeout: options.timeoutMs,
    defaultHeaders: options.headers,
  })
  const context: ErrorContext = {
    timeoutMs: options.timeoutMs,
    baseURL: options.baseURL,
    model: options.model,
    apiKeyVariable: options.apiKeyVariable,
  }
  const mapError = toLlmError("generate", context)
  // A listener that throws must not turn a model call into a failure.
  const notify = (attempt: ModelAttempt) =>
    Effect.sync(() => {
      try {
        options.onAttempt?.(attempt)
      } catch {}
    })

  const attempt = (body: OpenAI.Chat.Completions.ChatCompletionCreateParamsNonStreaming) =>
    Effect.tryPromise({
      try: async (signal): Promise<Answer> => {
        if (!options.stream) {
          const completion = await client.chat.completions.create(body, { signal })
          const choice = completion.choices[0]
          return {
            text: choice?.message.content ?? "",
            usage: usageOf(completion.usage),
            model: completion.model,
            finishReason: choice?.finish_reason ?? undefined,
          }
        }
        const stream = await client.chat.completions.create(
          { ...body, stream: true, stream_options: { include_usage: true } },
          { signal },
        )
        let text = ""
        let usage: OpenAI.CompletionUsage | undefined
        let model = options.model
        let finishReason: string | undefined
        for await (const chunk of stream) {
          model = chunk.model || model
          const choice = chunk.choices[0]
          text += choice?.delta.content ?? ""
          finishReason = choice?.finish_reason ?? finishReason
          if (chunk.usage) usage = chunk.usage
        }
        return { text, usage: usageOf(usage), model, finishReason }
      },
      catch: mapError,
    }).pipe(
      Effect.timeoutOrElse({
        duration: Duration.millis(options.timeoutMs),
        orElse: () =>
          Effect.fail(
            new LlmError({
              method: "generate",
              reason: new Timeout({
                operation: "the model call",
                timeoutMs: options.timeoutMs,
                hint: timeoutHint(context),
              }),
            }),
          ),
      }),
    )

  const generate = Effect.fn("LanguageModel.generate")(function* (request: GenerateRequest) {
    const started = yield* Clock.currentTimeMillis
    const responseFormat = responseFormatOf(request, options)
    const temperature = request.temperature ?? options.temperature
    const body: OpenAI.Chat.Completions.ChatCompletionCreateParamsNonStreaming = {
      model: options.model,
      messages: request.messages.map((message) => toMessage(message, options.supportsImages)),
      ...(responseFormat === undefined ? {} : { response_format: responseFormat }),
      ...(temperature === undefined ? {} : { temperature }),
      ...(request.maxTokens === undefined ? {} : { max_tokens: request.maxTokens }),
    }
    let attempts = 0
    const counted = Effect.suspend(() => {
      attempts += 1
      const shown: ModelAttempt = {
        phase: "start",
        attempt: attempts,
        attempts: options.maxRetries + 1,
        baseURL: options.baseURL,
        model: options.model,
        timeoutMs: options.timeoutMs,
      }
      return notify(shown).pipe(
        Effect.andThen(attempt(body)),
        Effect.tap(() => notify({ ...shown, phase: "answered" })),
        Effect.tapError((error) => notify({ ...shown, phase: "failed", error })),
      )
    })
    const answer = yield* counted.pipe(Effect.retry(retrySchedule(options)))
    if (answer.finishReason === "length" && request.responseFormat !== undefined) {
      return yield* new LlmError({
        method: "generate",
        reason: new OutputInvalid({
          detail: `the answer was cut off at the token limit${request.maxTokens === undefined ? "" : ` (${request.maxTokens})`}: raise maxTokens or ask for less`,
          output: answer.text,
        }),
      })
    }
    const durationMs = (yield* Clock.currentTimeMillis) - started
    yield* Effect.logDebug("llm-call").pipe(
      Effect.annotateLogs({
        model: answer.model,
        promptTokens: answer.usage.prompt,
        completionTokens: answer.usage.completion,
        durationMs,
      }),
    )
    const response: GenerateResponse = {
      text: answer.text,
      usage: answer.usage,
      model: answer.model,
      finishReason: answer.finishReason,
      durationMs,
    }
    return response
  })

  return { model: options.model, supportsImages: options.supportsImages, generate }
}

/**
 * A layer providing `LanguageModel` from options given in code; invalid options fail the layer with
 * `AgentError`/`InvalidInput` naming each field.
 *
 * @example
 * ```ts
 * import { OpenAiLanguageModel } from "@sextant/openai"
 * const ModelLive = OpenAiLanguageModel.layer({ baseURL: "http://127.0.0.1:8000/v1", apiKey: "vllm", model: "Qwen/Qwen2.5-7B-Instruct" })
 * ```
 */
export const layer = (options: OpenAiOptionsInput): Layer.Layer<LanguageModel, AgentError> =>
  Layer.effect(LanguageModel, make(options))

/**
 * A layer providing `LanguageModel` from environment variables (`OPENAI_BASE_URL`, `OPENAI_API_KEY`,
 * `SEXTANT_MODEL`, …), `overrides` winning; failures name the variable.
 *
 * @example
 * ```ts
 * import { OpenAiLanguageModel } from "@sextant/openai"
 * const ModelLive = OpenAiLanguageModel.layerConfig() // reads process.env
 * ```
 */
export const layerConfig = (
  environment: Readonly<Record<string, string | undefined>> = process.env,
  overrides: Partial<OpenAiOptionsInput> = {},
): Layer.Layer<LanguageModel, AgentError> =>
  Layer.effect(LanguageModel, Effect.map(openAiOptionsFromEnvironment(environment, overrides), fromOptions))

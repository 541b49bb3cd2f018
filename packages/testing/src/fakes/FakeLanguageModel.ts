import {
  type GenerateRequest,
  type GenerateResponse,
  LanguageModel,
  type LanguageModelShape,
  LlmError,
  type LlmErrorReason,
  LlmRequestRejected,
  LlmServerError,
  MODEL_ENDPOINT,
  reasonFromHttpStatus,
} from "@sextant/core"
import { Effect, Layer } from "effect"
import type { ScriptedReply } from "../openai/Reply.ts"

/**
 * One scripted answer of the in-process model: the model's text, a `Reply` helper's content or HTTP
 * error (`Reply.json(…)`, `Reply.rateLimited(2)`, `Reply.serverError()`), or a typed failure.
 * A `raw` reply is an HTTP body only the scripted server can send: the fake stops the test (a defect)
 * saying so.
 */
export type FakeModelReply = string | ScriptedReply | { readonly fail: LlmErrorReason }

/** The replies in order, or a function of the request and its 0-based index. */
export type FakeModelScript =
  | ReadonlyArray<FakeModelReply>
  | ((request: GenerateRequest, index: number) => FakeModelReply)

/** Options of {@link FakeLanguageModel}. */
export interface FakeLanguageModelOptions {
  /** The model name the service reports (default `fake-model`). */
  readonly model?: string
  readonly supportsImages?: boolean
  /** The time limit a scripted 408 reports in its `Timeout` (default 60 000 ms, the OpenAI adapter's default). */
  readonly timeoutMs?: number
}

/** The fake model and what it was asked, in order. */
export interface FakeLanguageModel {
  readonly model: LanguageModelShape
  readonly requests: ReadonlyArray<GenerateRequest>
}

// About four characters a token, as the scripted server counts when a reply sets no usage.
const tokensOf = (text: string): number => Math.ceil(text.length / 4)

const failWith = (reason: LlmErrorReason) => Effect.fail(new LlmError({ method: "generate", reason }))

/**
 * A scripted HTTP error as the OpenAI adapter reads it: the status mapping every boundary shares
 * (`reasonFromHttpStatus`: 429 RateLimited, 408 Timeout), and a plain status refined into the model's
 * own reasons, as `@sextant/openai` does.
 */
const httpFailure = (
  reply: Extract<ScriptedReply, { readonly kind: "error" }>,
  timeoutMs: number,
): LlmErrorReason => {
  const reason = reasonFromHttpStatus(reply.status, {
    service: MODEL_ENDPOINT,
    retryAfterMs: reply.retryAfterSeconds === undefined ? undefined : reply.retryAfterSeconds * 1000,
    timeoutMs,
    operation: "the model call",
  })
  if (reason._tag !== "HttpStatus") return reason
  return reply.status >= 500
    ? new LlmServerError({ status: reply.status, detail: reply.message })
    : new LlmRequestRejected({ status: reply.status, detail: reply.message })
}

const makeFakeLanguageModel = (
  script: FakeModelScript,
  options: FakeLanguageModelOptions = {},
): FakeLanguageModel => {
  const requests: Array<GenerateRequest> = []
  const modelName = options.model ?? "fake-model"
  const generate = (request: GenerateRequest): Effect.Effect<GenerateResponse, LlmError> =>
    Effect.suspend(() => {
      const index = requests.length
      requests.push(request)
      const reply = typeof script === "function" ? script(request, index) : script[index]
      if (reply === undefined) {
        return failWith(
          new LlmRequestRejected({
            status: 400,
            detail: `script_exhausted: call ${index + 1} but ${index} replies scripted`,
            hint: "script one reply for every model call the test makes",
          }),
        )
      }
      if (typeof reply !== "string" && "fail" in reply) return failWith(reply.fail)
      const answer = typeof reply === "string" ? { kind: "content" as const, content: reply } : reply
      const delay = answer.delayMs === undefined ? Effect.void : Effect.sleep(answer.delayMs)
      if (answer.kind === "raw") {
        return Effect.die(
          new Error(
            `FakeLanguageModel: reply ${index + 1} is a raw HTTP body, which only openAiServer can send: test it through the openai SDK`,
          ),
        )
      }
      if (answer.kind === "error")
        return Effect.andThen(delay, failWith(httpFailure(answer, options.timeoutMs ?? 60_000)))
      const prompt = tokensOf(JSON.stringify(request.messages))
      const usage = answer.usage ?? { prompt, completion: tokensOf(answer.content) }
      return Effect.as(delay, {
        text: answer.content,
        usage: { ...usage, total: usage.prompt + usage.completion },
        model: modelName,
        finishReason: answer.finishReason ?? "stop",
        durationMs: answer.delayMs ?? 0,
      })
    })
  return {
    model: { model: modelName, supportsImages: options.supportsImages ?? false, generate },
    requests,
  }
}

/**
 * An in-process `LanguageModel` answering scripted replies, for planner logic tests that need no HTTP
 * (model paths are also tested through the real openai SDK against `openAiServer`). A call past the
 * script fails with `LlmRequestRejected` (`script_exhausted`), as the scripted server does.
 *
 * @example
 * ```ts
 * import { FakeLanguageModel, Reply } from "@sextant/testing"
 * const ModelTest = FakeLanguageModel.layerTest([Reply.json({ steps: [] }), "not json"])
 * // to read what was asked: const fake = FakeLanguageModel.make(replies); fake.requests
 * ```
 */
export const FakeLanguageModel: {
  readonly layerTest: (
    script: FakeModelScript,
    options?: FakeLanguageModelOptions,
  ) => Layer.Layer<LanguageModel>
  readonly make: (script: FakeModelScript, options?: FakeLanguageModelOptions) => FakeLanguageModel
} = {
  layerTest: (script, options) =>
    Layer.sync(LanguageModel, () => makeFakeLanguageModel(script, options).model),
  make: makeFakeLanguageModel,
}

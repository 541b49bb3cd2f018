import { Context, type Effect } from "effect"
import type { LlmError } from "./Errors.ts"
import type { TokenUsage } from "./RunResult.ts"

/** A part of a message: text, or an image as a data: or http(s): URL. */
export type ContentPart =
  | { readonly type: "text"; readonly text: string }
  | { readonly type: "image"; readonly url: string }

export interface ChatMessage {
  readonly role: "system" | "user" | "assistant"
  readonly content: string | ReadonlyArray<ContentPart>
}

/** One model call. `responseFormat` asks for JSON fitting a JSON Schema where the endpoint supports it. */
export interface GenerateRequest {
  readonly messages: ReadonlyArray<ChatMessage>
  readonly responseFormat?: { readonly name: string; readonly schema: Record<string, unknown> }
  readonly temperature?: number
  readonly maxTokens?: number
}

export interface GenerateResponse {
  readonly text: string
  readonly usage: TokenUsage
  readonly model: string
  readonly finishReason?: string | undefined
  readonly durationMs: number
}

/**
 * A chat model behind any OpenAI-compatible endpoint. Implemented by `@sextant/openai`.
 * Cancellation is Effect interruption.
 */
export interface LanguageModelShape {
  readonly model: string
  readonly supportsImages: boolean
  readonly generate: (request: GenerateRequest) => Effect.Effect<GenerateResponse, LlmError>
}

/** The `LanguageModel` service. */
export class LanguageModel extends Context.Service<LanguageModel, LanguageModelShape>()(
  "@sextant/core/LanguageModel",
) {}

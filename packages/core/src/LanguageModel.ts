import { Context, Effect } from "effect"
import { z } from "zod"
import { LlmError, OutputInvalid } from "./Errors.ts"
import type { TokenUsage } from "./RunResult.ts"
import { formatIssues } from "./Validation.ts"

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

// ---------------------------------------------------------------------------------------------------
// Structured output on any model: ask for JSON, parse tolerantly, validate with zod.

const fencePattern = /```[A-Za-z0-9_-]*\s*\n?([\s\S]*?)```/g

/** The first balanced JSON object (or array) in `text`, string literals respected; `undefined` if none. */
const firstBalancedJson = (text: string): string | undefined => {
  for (let start = 0; start < text.length; start++) {
    const open = text[start]
    if (open !== "{" && open !== "[") continue
    const stack: Array<string> = []
    let inString = false
    let escaped = false
    for (let index = start; index < text.length; index++) {
      const character = text[index] as string
      if (inString) {
        if (escaped) escaped = false
        else if (character === "\\") escaped = true
        else if (character === '"') inString = false
        continue
      }
      if (character === '"') inString = true
      else if (character === "{" || character === "[") stack.push(character === "{" ? "}" : "]")
      else if (character === "}" || character === "]") {
        if (stack.pop() !== character) break
        if (stack.length === 0) {
          const candidate = text.slice(start, index + 1)
          try {
            JSON.parse(candidate)
            return candidate
          } catch {
            break
          }
        }
      }
    }
  }
  return undefined
}

/**
 * Reads JSON out of a model's answer, for endpoints without structured output: the whole text when it
 * is JSON, else the content of each code fence, else the first balanced JSON object in the text.
 * Returns `undefined` when no JSON can be found.
 *
 * @example
 * ```ts
 * import { parseModelJson } from "@sextant/core"
 * parseModelJson('Sure! ```json\n{"steps": []}\n```') // { steps: [] }
 * parseModelJson("no json here") // undefined
 * ```
 */
export const parseModelJson = (text: string): unknown => {
  const trimmed = text.trim()
  const candidates = [trimmed, ...[...trimmed.matchAll(fencePattern)].map((match) => (match[1] ?? "").trim())]
  for (const candidate of candidates) {
    if (candidate === "") continue
    try {
      return JSON.parse(candidate)
    } catch {
      const found = firstBalancedJson(candidate)
      if (found !== undefined) return JSON.parse(found)
    }
  }
  return undefined
}

/** What `generateObject` takes. */
export interface GenerateObjectOptions<S extends z.ZodType> {
  readonly schema: S
  readonly messages: ReadonlyArray<ChatMessage>
  /** The schema's name for the endpoint's structured output (letters, digits, `_`, `-`). */
  readonly name?: string
  readonly temperature?: number
  readonly maxTokens?: number
}

/** A validated object and the response it came from (text, token usage, timing). */
export interface GeneratedObject<T> {
  readonly object: T
  readonly response: GenerateResponse
}

const describeOutput = (text: string): string => (text.length > 200 ? `${text.slice(0, 197)}...` : text)

/**
 * Asks the model for an object of `schema`: sends the schema as structured output (the adapter uses it
 * where the endpoint supports it), reads JSON tolerantly (code fences, text around it) and validates it.
 * An answer without JSON, or one that does not fit, fails with `LlmError` / `OutputInvalid` naming
 * each bad field.
 *
 * @example
 * ```ts
 * import { Effect } from "effect"
 * import { z } from "zod"
 * import { LanguageModel, generateObject } from "@sextant/core"
 * const program = Effect.gen(function* () {
 *   const model = yield* LanguageModel
 *   const { object, response } = yield* generateObject(model, {
 *     schema: z.object({ answer: z.string() }),
 *     messages: [{ role: "user", content: "Answer in JSON: what is 2+2?" }],
 *   })
 *   return `${object.answer} (${response.usage.total} tokens)`
 * })
 * ```
 */
export const generateObject = <S extends z.ZodType>(
  model: LanguageModelShape,
  options: GenerateObjectOptions<S>,
): Effect.Effect<GeneratedObject<z.output<S>>, LlmError> => {
  const schema = z.toJSONSchema(options.schema, {
    target: "draft-2020-12",
    io: "input",
    unrepresentable: "any",
  }) as Record<string, unknown>
  const request: GenerateRequest = {
    messages: options.messages,
    responseFormat: { name: options.name ?? "answer", schema },
    ...(options.temperature === undefined ? {} : { temperature: options.temperature }),
    ...(options.maxTokens === undefined ? {} : { maxTokens: options.maxTokens }),
  }
  return Effect.flatMap(model.generate(request), (response) => {
    const json = parseModelJson(response.text)
    if (json === undefined) {
      return Effect.fail(
        new LlmError({
          method: "generateObject",
          reason: new OutputInvalid({
            detail: `no JSON object in the answer: ${JSON.stringify(describeOutput(response.text))}`,
            output: response.text,
          }),
        }),
      )
    }
    const result = options.schema.safeParse(json)
    return result.success
      ? Effect.succeed({ object: result.data as z.output<S>, response })
      : Effect.fail(
          new LlmError({
            method: "generateObject",
            reason: new OutputInvalid({
              detail: formatIssues("output", result.error, json).join("; "),
              output: response.text,
            }),
            cause: result.error,
          }),
        )
  })
}

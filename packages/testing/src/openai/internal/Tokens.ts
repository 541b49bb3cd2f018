import { countTokens } from "gpt-tokenizer/encoding/o200k_base"

/** OpenAI's chat framing: every message costs 3 tokens around its content, every reply is primed with 3. */
const tokensPerMessage = 3
const replyPriming = 3
/** A low-detail image costs a flat 85 tokens on OpenAI's vision models. */
const tokensPerImage = 85

interface ChatPart {
  readonly type?: unknown
  readonly text?: unknown
}

const contentTokens = (content: unknown): number => {
  if (typeof content === "string") return countTokens(content)
  if (!Array.isArray(content)) return 0
  let total = 0
  for (const part of content as ReadonlyArray<ChatPart>) {
    if (part.type === "text" && typeof part.text === "string") total += countTokens(part.text)
    else if (part.type === "image_url") total += tokensPerImage
  }
  return total
}

/** Prompt tokens of a chat request, counted with o200k and OpenAI's per-message framing. */
export const promptTokens = (messages: ReadonlyArray<unknown>): number => {
  let total = replyPriming
  for (const message of messages) {
    const record = (message ?? {}) as { role?: unknown; content?: unknown }
    total += tokensPerMessage + contentTokens(record.content)
    if (typeof record.role === "string") total += countTokens(record.role)
  }
  return total
}

/** Completion tokens of an answer, counted with o200k. */
export const completionTokens = (text: string): number => countTokens(text)

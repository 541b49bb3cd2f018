import type { TokenUsage } from "@sextant/core"

/** No tokens. */
export const noUsage: TokenUsage = { prompt: 0, completion: 0, total: 0 }

/** The sum of two token counts. */
export const addUsage = (left: TokenUsage, right: TokenUsage): TokenUsage => ({
  prompt: left.prompt + right.prompt,
  completion: left.completion + right.completion,
  total: left.total + right.total,
})

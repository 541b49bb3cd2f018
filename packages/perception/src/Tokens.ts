import { countTokens as countO200k, isWithinTokenLimit } from "gpt-tokenizer/encoding/o200k_base"

/**
 * Tokens of a text in the o200k encoding (GPT-4o, GPT-4.1, GPT-5, o-series): the unit of every
 * budget in perception.
 *
 * @example
 * ```ts
 * import { countTokens } from "@sextant/perception"
 * countTokens('- button "Sign in" [ref=e3]') // 10
 * ```
 */
export const countTokens = (text: string): number => countO200k(text)

/** Whether `text` fits `limit` tokens; stops counting once it is over. */
export const fitsTokens = (text: string, limit: number): boolean => {
  // A token covers at least one UTF-8 byte, so a short text fits without tokenizing it.
  if (Buffer.byteLength(text, "utf8") <= limit) return true
  return isWithinTokenLimit(text, limit) !== false
}

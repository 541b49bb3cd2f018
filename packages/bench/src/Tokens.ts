import { countTokens as countO200k } from "gpt-tokenizer/encoding/o200k_base"

/**
 * Tokens of a text with the o200k_base encoding (GPT-4o and later), the unit every token figure of
 * the bench is in.
 *
 * @example
 * ```ts
 * countTokens("- button \"Sign in\" [ref=e3]") // 9
 * ```
 */
export const countTokens = (text: string): number => countO200k(text)

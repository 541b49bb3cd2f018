import { createHash } from "node:crypto"

/**
 * Normalises an instruction (a command, a step text or a goal) so that spelling that does not change
 * its meaning does not change its cache key: Unicode NFKC, lower case, curly quotes made straight,
 * whitespace collapsed, and trailing punctuation (`.`, `!`, `。`, `！`) dropped. Words, numbers and quoted
 * values are kept as they are: "type alice" and "type bob" are different instructions.
 *
 * @example
 * ```ts
 * import { normalizeInstruction } from "@sextant/planner"
 * normalizeInstruction("  Click  “Sign in”. ") // 'click "sign in"'
 * ```
 */
export const normalizeInstruction = (instruction: string): string =>
  instruction
    .normalize("NFKC")
    .toLowerCase()
    .replace(/[“”„«»]/g, '"')
    .replace(/[‘’‚]/g, "'")
    .replace(/\s+/g, " ")
    .trim()
    .replace(/[.!。！\s]+$/u, "")

/**
 * The instruction of one step of a step-wise run: the normalised goal and the step's position among the
 * run's successful steps (`… #2`), because one goal takes several steps on the same screen.
 *
 * @example
 * ```ts
 * import { stepInstruction } from "@sextant/planner"
 * stepInstruction("Log in as alice", 1) // "log in as alice #2"
 * ```
 */
export const stepInstruction = (goal: string, ordinal: number): string =>
  `${normalizeInstruction(goal)} #${ordinal + 1}`

/**
 * The action cache's key: a hash of the normalised instruction and the page fingerprint's value.
 *
 * @example
 * ```ts
 * import { actionCacheKey, pageFingerprint } from "@sextant/planner"
 * const key = actionCacheKey("click sign in", pageFingerprint(snapshot).value) // 32 hex characters
 * ```
 */
export const actionCacheKey = (instruction: string, fingerprint: string): string =>
  createHash("sha256")
    .update(`${normalizeInstruction(instruction)}\u0000${fingerprint}`)
    .digest("hex")
    .slice(0, 32)

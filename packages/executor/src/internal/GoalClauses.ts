import type { GoalPart } from "@sextant/core"

/** A quoted value, which is never cut: `type "Ada, then Bob" into Name`. */
const QUOTED = /"[^"]*"|“[^”]*”|「[^」]*」/g

/**
 * Where one clause of a goal ends and the next begins: a semicolon or a sentence's end, "then" (with
 * "and" or a comma before it), "and", a comma followed by a space (so `1,000` stays whole), and the
 * Chinese comma, full stop and 然后 / 并且.
 */
const BETWEEN =
  /\s*(?:[;；。]|\.\s+|,\s*(?:and\s+)?then\b|\b(?:and\s+)?then\b|,\s*and\b|\band\b|,\s+|，|然后|并且)\s*/i

/**
 * The parts of a goal that `read` (the rule grammar's reading) cannot read whole, read clause by clause:
 * "log in and then tell me what the page says" has the part "log in" though the grammar reads no part of
 * the whole. Undefined when no clause reads into a part. The clauses left unread are still judged by the
 * policy's (the model's) own word; the parts found are checked on the page like any others, so a model
 * that says "done" without signing in does not make such a run COMPLETED.
 *
 * @example
 * ```ts
 * clauseParts("log in and then tell me what the page says", goalPartsOf)
 * // [{ kind: "login", description: "log in", check: { type: "loggedIn" } }]
 * ```
 */
export const clauseParts = (
  goal: string,
  read: (text: string) => ReadonlyArray<GoalPart> | undefined,
): ReadonlyArray<GoalPart> | undefined => {
  // Quoted values are set aside under private-use marks while the goal is cut.
  const quoted: Array<string> = []
  const masked = goal.replace(QUOTED, (text) => `\uE000${quoted.push(text) - 1}\uE001`)
  const clauses = masked
    .split(BETWEEN)
    .map((clause) =>
      clause.replace(/\uE000(\d+)\uE001/g, (_, index: string) => quoted[Number(index)] ?? "").trim(),
    )
    .filter((clause) => clause !== "")
  // One clause is the whole goal, which was already read.
  if (clauses.length < 2) return undefined
  const parts = clauses.flatMap((clause) => read(clause) ?? [])
  return parts.length === 0 ? undefined : parts
}

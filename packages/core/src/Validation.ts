import { Effect } from "effect"
import type { z } from "zod"
import { AgentError, InvalidInput } from "./Errors.ts"
/** The dotted path of a zod issue under `root`, e.g. `task.constraints.maxSteps` or `steps[2].tool`. */
export const issuePath = (root: string, path: ReadonlyArray<PropertyKey>): string => {
  let out = root
  for (const segment of path) {
    if (typeof segment === "number") out += `[${segment}]`
    else out += out === "" ? String(segment) : `.${String(segment)}`
  }
  return out === "" ? "(root)" : out
}

const describeValue = (value: unknown): string => {
  if (value === undefined) return "nothing"
  try {
    const text = JSON.stringify(value)
    return text.length > 60 ? `${text.slice(0, 57)}...` : text
  } catch {
    return String(value)
  }
}

const valueAt = (input: unknown, path: ReadonlyArray<PropertyKey>): unknown => {
  let current: unknown = input
  for (const segment of path) {
    if (current === null || typeof current !== "object") return undefined
    current = (current as Record<PropertyKey, unknown>)[segment]
  }
  return current
}

/**
 * One line per zod issue, naming the field, the rule and what was given:
 * `task.constraints.maxSteps: Too small: expected number to be >0 (got -3)`.
 */
export const formatIssues = (root: string, error: z.ZodError, input: unknown): ReadonlyArray<string> =>
  error.issues.map((issue) => {
    const path = issuePath(root, issue.path)
    const got =
      issue.code === "unrecognized_keys" ? "" : ` (got ${describeValue(valueAt(input, issue.path))})`
    return `${path}: ${issue.message}${got}`
  })

/** Decodes outside input with a zod schema; failures name every field and rule under `root`. */
export const decodeWith =
  <S extends z.ZodType>(schema: S, what: string, root: string) =>
  (input: unknown): Effect.Effect<z.output<S>, AgentError> => {
    const result = schema.safeParse(input)
    return result.success
      ? Effect.succeed(result.data)
      : Effect.fail(
          new AgentError({
            reason: new InvalidInput({ what, issues: formatIssues(root, result.error, input) }),
            cause: result.error,
          }),
        )
  }

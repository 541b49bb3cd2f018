import { Effect } from "effect"
import { z } from "zod"
import { AgentError, InvalidInput } from "./Errors.ts"
import { nearestName } from "./NearestName.ts"

/**
 * What an unknown key is told: `is not a task field: did you mean secretInputs?`, or the list of
 * fields when no known one is near.
 */
const unknownKeyClause = (what: string, known: ReadonlyArray<string>, key: string): string => {
  const near = nearestName(key, known)
  return near === undefined
    ? `is not a ${what} field (the fields are ${known.join(", ")})`
    : `is not a ${what} field: did you mean ${near}?`
}

/**
 * A zod object that refuses keys it does not know, naming each one and the known key it most likely
 * meant: a misspelt `secretInput` must not be dropped in silence while the password it should have
 * hidden is stored in clear. {@link formatIssues} prints one line per unknown key:
 * `task.secretInput is not a task field: did you mean secretInputs?`.
 *
 * @example
 * ```ts
 * import { z } from "zod"
 * import { strictFields } from "@sextant/core"
 * const Options = strictFields("options", { maxSteps: z.number() })
 * Options.safeParse({ maxStep: 3 }).success // false
 * ```
 */
export const strictFields = <Shape extends z.core.$ZodLooseShape>(what: string, shape: Shape) => {
  const known = Object.keys(shape)
  return z.strictObject(shape, {
    error: (issue) =>
      issue.code === "unrecognized_keys"
        ? issue.keys.map((key) => unknownKeyClause(what, known, key)).join("\n")
        : undefined,
  })
}
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
  error.issues.flatMap((issue) => {
    if (issue.code === "unrecognized_keys") {
      // strictFields words one clause per key, so each unknown key gets its own line and path.
      const clauses = issue.message.split("\n")
      if (clauses.length === issue.keys.length) {
        return issue.keys.map((key, index) => `${issuePath(root, [...issue.path, key])} ${clauses[index]}`)
      }
    }
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

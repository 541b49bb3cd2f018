import { AgentError, type AgentTask, CannotPlan, Plan } from "@sextant/core"
import { Effect } from "effect"
import type { z } from "zod"

/** What the rule planner needs to know of an extra tool (one made with `defineTool`). */
export interface RuleTool {
  readonly name: string
  readonly description: string
  readonly input: z.ZodType
}

const cannotPlan = (detail: string) => new AgentError({ reason: new CannotPlan({ detail }) })

const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")

// `tableToCsv` may be written as it is or as words: "table to csv".
const spellings = (name: string): Array<string> => {
  const words = name
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .replace(/_/g, " ")
    .trim()
    .split(/\s+/)
  return [...new Set([escapeRegExp(name), words.map(escapeRegExp).join("\\s+")])]
}

const SEPARATOR = String.raw`(?:\s*,\s*|\s+)(?:and\s+then|then|and)\s+`

/** One `use <tool> [on|with …]` clause found in a goal. */
interface UseClause {
  readonly start: number
  readonly end: number
  readonly tool: RuleTool
  readonly argument: string | undefined
}

const findUse = (goal: string, tools: ReadonlyArray<RuleTool>): UseClause | undefined => {
  let first: UseClause | undefined
  for (const tool of tools) {
    const pattern = new RegExp(
      String.raw`(?:^|\s)use\s+(?:the\s+)?(?:${spellings(tool.name).join("|")})(?:\s+tool)?(?:\s+(?:on|with|for)\s+(.+?))?(?=${SEPARATOR}|\s*[.;]?\s*$)`,
      "i",
    )
    const match = pattern.exec(goal)
    if (match !== null && (first === undefined || match.index < first.start)) {
      first = { start: match.index, end: match.index + match[0].length, tool, argument: match[1] }
    }
  }
  return first
}

const unquote = (text: string): string => text.trim().replace(/^(["'“‘`])(.*)\1$/, "$2")

const argumentValue = (text: string): unknown => {
  const plain = unquote(text)
  if (/^-?\d+(\.\d+)?$/.test(plain)) return Number(plain)
  if (plain === "true" || plain === "false") return plain === "true"
  return plain
}

const PRIMARY_FIELDS = ["target", "selector", "url", "query", "text"]

const fieldsOf = (tool: RuleTool): Array<string> => {
  const shape = (tool.input as { shape?: Record<string, unknown> }).shape
  return shape === undefined ? [] : Object.keys(shape)
}

/**
 * The arguments of a `use` clause: `key=value` pairs (`use tableToCsv with target=#prices, index=1`), or
 * one value for the tool's main field (`use tableToCsv on #prices` sets `target`).
 */
const argumentsOf = (clause: UseClause): Record<string, unknown> | string => {
  const text = clause.argument?.trim()
  if (text === undefined || text === "") return {}
  const pairs = [...text.matchAll(/([A-Za-z_][A-Za-z0-9_]*)\s*=\s*("[^"]*"|'[^']*'|[^,\s]+)/g)]
  if (
    pairs.length > 0 &&
    text.replace(/([A-Za-z_][A-Za-z0-9_]*)\s*=\s*("[^"]*"|'[^']*'|[^,\s]+)|[,\s]|and/g, "") === ""
  )
    return Object.fromEntries(pairs.map((pair) => [pair[1] ?? "", argumentValue(pair[2] ?? "")]))
  const fields = fieldsOf(clause.tool)
  const main = PRIMARY_FIELDS.find((field) => fields.includes(field)) ?? fields[0]
  if (main === undefined) return `${clause.tool.name} takes no arguments: write 'use ${clause.tool.name}'`
  return { [main]: unquote(text) }
}

/** Splits a goal into rule-grammar parts and `use <tool>` clauses, in order. */
export const splitUseClauses = (
  goal: string,
  tools: ReadonlyArray<RuleTool>,
): Array<{ readonly text: string } | { readonly clause: UseClause }> => {
  const parts: Array<{ readonly text: string } | { readonly clause: UseClause }> = []
  let rest = goal
  for (;;) {
    const clause = findUse(rest, tools)
    if (clause === undefined) break
    const before = rest
      .slice(0, clause.start)
      .replace(new RegExp(`${SEPARATOR}$`, "i"), "")
      .trim()
    if (before !== "") parts.push({ text: before })
    parts.push({ clause })
    rest = rest
      .slice(clause.end)
      .replace(new RegExp(`^${SEPARATOR}`, "i"), "")
      .trim()
  }
  if (rest.trim() !== "") parts.push({ text: rest.trim() })
  return parts
}

/**
 * Plans a goal that names extra tools with `use <tool> on <value>` (or `with key=value, …`), the rest
 * of the goal going to the rule grammar (`plan`). Resolves undefined when the goal names no extra tool.
 */
export const planWithToolClauses = (
  task: AgentTask,
  tools: ReadonlyArray<RuleTool>,
  plan: (task: AgentTask) => Effect.Effect<Plan, AgentError>,
): Effect.Effect<Plan, AgentError> | undefined => {
  if (tools.length === 0) return undefined
  const parts = splitUseClauses(task.goal, tools)
  if (!parts.some((part) => "clause" in part)) return undefined
  return Effect.gen(function* () {
    const steps: Array<Record<string, unknown>> = []
    for (const [position, part] of parts.entries()) {
      if ("text" in part) {
        const sub = yield* plan({
          ...task,
          goal: part.text,
          startUrl: position === 0 ? task.startUrl : undefined,
        })
        steps.push(
          ...sub.steps.map(({ tool, args, description, successCriteria }) => ({
            tool,
            args,
            description,
            successCriteria,
          })),
        )
        continue
      }
      if (position === 0 && task.startUrl !== undefined)
        steps.push({ tool: "navigate", args: { url: task.startUrl }, description: `go to ${task.startUrl}` })
      const args = argumentsOf(part.clause)
      if (typeof args === "string") return yield* Effect.fail(cannotPlan(args))
      const checked = part.clause.tool.input.safeParse(args)
      if (!checked.success) {
        const fields = fieldsOf(part.clause.tool)
        return yield* Effect.fail(
          cannotPlan(
            `use ${part.clause.tool.name}: ${checked.error.issues.map((issue) => `${issue.path.join(".") || "arguments"}: ${issue.message}`).join("; ")}${fields.length === 0 ? "" : ` (its fields: ${fields.join(", ")})`}`,
          ),
        )
      }
      steps.push({
        tool: part.clause.tool.name,
        args,
        description: `use ${part.clause.tool.name}${part.clause.argument === undefined ? "" : ` on ${part.clause.argument}`}`,
      })
    }
    return Plan.parse({ taskId: task.id, steps: steps.map((step, index) => ({ ...step, index })) })
  })
}

/**
 * The part of a tool's output that says what its action did to the page (`changed`, `signals`): the
 * output itself, or, for a tool that acts through another (clickTextMatches) and says nothing of the
 * page itself, the last action's outcome it reports as `result`.
 */
export const actOutcome = (output: unknown): Readonly<Record<string, unknown>> => {
  if (typeof output !== "object" || output === null) return {}
  const record = output as Record<string, unknown>
  if ("changed" in record || "signals" in record) return record
  const result = record.result
  return typeof result === "object" && result !== null ? (result as Record<string, unknown>) : record
}

import type { AgentTask } from "@sextant/core"
import { redactSecrets } from "@sextant/memory"

export { secretPlaceholder } from "@sextant/memory"

const placeholderPattern = /<secret:([A-Za-z0-9_.-]+)>/g
const inputPattern = /\{\{\s*inputs\.([A-Za-z0-9_.-]+)\s*\}\}/g

/**
 * The one redaction used at every sink (prompts, trace, transcript, store, screenshot annotations, logs),
 * and its inverse for the tool boundary. Plans and models write `<secret:password>` (or `{{inputs.email}}` for
 * any input); only the tool sees the value.
 */
export interface Redactor {
  /** Replaces every secret value inside `text` with its placeholder. */
  readonly text: (text: string) => string
  /** A deep copy of `value` with every secret value in every string replaced by its placeholder. */
  readonly value: <A>(value: A) => A
  /** A deep copy of tool arguments with every placeholder replaced by the real value, for the tool only. */
  readonly reveal: <A>(value: A) => A
  /** The secret input names, for messages. */
  readonly names: ReadonlyArray<string>
}

const mapStrings = (value: unknown, map: (text: string) => string): unknown => {
  if (typeof value === "string") return map(value)
  if (Array.isArray(value)) return value.map((item) => mapStrings(item, map))
  if (value instanceof Uint8Array || value instanceof Date) return value
  if (typeof value === "object" && value !== null) {
    const out: Record<string, unknown> = {}
    for (const [key, item] of Object.entries(value)) out[key] = mapStrings(item, map)
    return out
  }
  return value
}

/**
 * Builds the redactor of a task from `task.secretInputs`. Longer secrets are replaced first so a secret
 * that contains another is never half-shown.
 *
 * @example
 * ```ts
 * import { makeRedactor } from "@sextant/executor"
 * const redact = makeRedactor({ inputs: { password: "wonderland" }, secretInputs: ["password"] })
 * redact.text("typed wonderland") // "typed <secret:password>"
 * redact.reveal({ value: "<secret:password>" }) // { value: "wonderland" }
 * ```
 */
export const makeRedactor = (task: Pick<AgentTask, "inputs" | "secretInputs">): Redactor => {
  const secrets = task.secretInputs
    .map((name) => ({ name, value: task.inputs[name] }))
    .filter(
      (entry): entry is { name: string; value: string | number | boolean } =>
        entry.value !== null && entry.value !== undefined && String(entry.value) !== "",
    )
    .map((entry) => ({ name: entry.name, value: String(entry.value) }))
  const text = redactSecrets(Object.fromEntries(secrets.map((secret) => [secret.name, secret.value])))
  const byName = new Map(secrets.map((secret) => [secret.name, secret.value]))
  const inputOf = (whole: string, name: string): string => {
    const input = task.inputs[name]
    return input === undefined || input === null ? whole : String(input)
  }
  const revealText = (input: string): string =>
    input
      .replace(placeholderPattern, (whole, name: string) => byName.get(name) ?? whole)
      .replace(inputPattern, (whole, name: string) => inputOf(whole, name))
  return {
    text: secrets.length === 0 ? (input) => input : text,
    value: <A>(value: A): A => (secrets.length === 0 ? value : (mapStrings(value, text) as A)),
    reveal: <A>(value: A): A => mapStrings(value, revealText) as A,
    names: secrets.map((secret) => secret.name),
  }
}

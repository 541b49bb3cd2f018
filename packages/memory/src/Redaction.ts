/** Replaces secret values in text with placeholders. */
export type Redact = (text: string) => string

/**
 * A redaction function that replaces each secret value with `<secret:name>`. Longer values are
 * replaced first, so a secret that contains another is hidden whole. Empty values are ignored.
 *
 * @example
 * ```ts
 * import { redactSecrets } from "@sextant/memory"
 * const redact = redactSecrets({ password: "hunter2" })
 * redact("fill #password with hunter2") // "fill #password with <secret:password>"
 * ```
 */
export const redactSecrets = (secrets: Readonly<Record<string, string>>): Redact => {
  const pairs = Object.entries(secrets)
    .filter(([, value]) => value !== "")
    .sort(([, left], [, right]) => right.length - left.length)
  if (pairs.length === 0) return (text) => text
  return (text) => {
    let out = text
    for (const [name, value] of pairs) out = out.split(value).join(`<secret:${name}>`)
    return out
  }
}

/** How rendering hides secrets: a redaction function, or the secret values by name. */
export type Redaction = Redact | Readonly<Record<string, string>>

/** Turns either form of {@link Redaction} into a function. */
export const toRedact = (redaction: Redaction | undefined): Redact =>
  redaction === undefined
    ? (text) => text
    : typeof redaction === "function"
      ? redaction
      : redactSecrets(redaction)

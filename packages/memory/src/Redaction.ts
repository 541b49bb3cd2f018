/** Replaces secret values in text with placeholders. */
export type Redact = (text: string) => string

/**
 * The placeholder every prompt, trace, transcript and log line shows instead of the secret input `name`.
 *
 * @example
 * ```ts
 * import { secretPlaceholder } from "@sextant/memory"
 * secretPlaceholder("password") // "<secret:password>"
 * ```
 */
export const secretPlaceholder = (name: string): string => `<secret:${name}>`

/**
 * A redaction function that replaces each secret value with `<secret:name>`, also where it appears
 * URL-encoded (a form body, a query string) or JSON-escaped. Longer values are replaced first, so a
 * secret that contains another is hidden whole. Empty values are ignored.
 *
 * @example
 * ```ts
 * import { redactSecrets } from "@sextant/memory"
 * const redact = redactSecrets({ password: "hunter 2" })
 * redact("fill #password with hunter 2") // "fill #password with <secret:password>"
 * redact("password=hunter%202") // "password=<secret:password>"
 * ```
 */
export const redactSecrets = (secrets: Readonly<Record<string, string>>): Redact => {
  // Form-encoded and JSON-escaped copies of a secret leak just as well as the value itself. Every
  // form of every secret is replaced longest first, so a short secret never breaks up a longer one.
  const forms = Object.entries(secrets)
    .filter(([, value]) => value !== "")
    .flatMap(([name, value]) =>
      [...new Set([value, encodeURIComponent(value), JSON.stringify(value).slice(1, -1)])].map(
        (form) => [name, form] as const,
      ),
    )
    .sort(([, left], [, right]) => right.length - left.length)
  if (forms.length === 0) return (text) => text
  return (text) => {
    let out = text
    for (const [name, form] of forms) out = out.split(form).join(secretPlaceholder(name))
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

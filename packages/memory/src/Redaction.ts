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
 * Secrets at least this long are hidden wherever they occur; shorter ones only where they stand alone.
 * A four-digit PIN or a two-character code also occurs inside unrelated text (`"42"` in the price
 * `$168.42`): replacing it there would corrupt the output and tell a reader the secret anyway.
 *
 * @example
 * ```ts
 * import { WHOLE_TOKEN_BELOW } from "@sextant/memory"
 * "4242".length < WHOLE_TOKEN_BELOW // true: hidden only where it stands alone
 * ```
 */
export const WHOLE_TOKEN_BELOW = 6

const toBase64 = (value: string): ReadonlyArray<string> => {
  const bytes = new TextEncoder().encode(value)
  let binary = ""
  for (const byte of bytes) binary += String.fromCharCode(byte)
  const standard = btoa(binary)
  const url = standard.replaceAll("+", "-").replaceAll("/", "_")
  return [standard, standard.replace(/=+$/, ""), url.replace(/=+$/, "")]
}

const htmlEscaped = (value: string): string =>
  value
    .replaceAll("&", "&amp;")
    .replaceAll("<", "&lt;")
    .replaceAll(">", "&gt;")
    .replaceAll('"', "&quot;")
    .replaceAll("'", "&#39;")

const lowerHexEscapes = (value: string): string =>
  value.replace(/%[0-9A-F]{2}/g, (sequence) => sequence.toLowerCase())

/**
 * Every spelling of `value` that a sink may hold: as typed, URL-encoded (`%20`, lower-case escapes,
 * `encodeURI`), form-encoded (`+` for a space), JSON-escaped, HTML-escaped and base64 (standard,
 * unpadded, URL-safe). Base64 is found when the secret is encoded on its own (a token in a header or a
 * URL); inside a longer base64 string its encoding depends on what precedes it.
 *
 * @example
 * ```ts
 * import { secretForms } from "@sextant/memory"
 * secretForms("a b").includes("a+b") // true
 * ```
 */
export const secretForms = (value: string): ReadonlyArray<string> => {
  const uri = encodeURIComponent(value)
  const form = new URLSearchParams({ v: value }).toString().slice(2)
  const forms = [
    value,
    uri,
    lowerHexEscapes(uri),
    encodeURI(value),
    form,
    lowerHexEscapes(form),
    JSON.stringify(value).slice(1, -1),
    htmlEscaped(value),
    ...(value.length >= WHOLE_TOKEN_BELOW ? toBase64(value) : []),
  ]
  return [...new Set(forms)].filter((form) => form !== "")
}

const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")

/**
 * A redaction function that replaces each secret value with `<secret:name>`, in every spelling of
 * {@link secretForms}. Longer forms are replaced first, so a secret that contains another is hidden
 * whole. Secrets shorter than {@link WHOLE_TOKEN_BELOW} characters are replaced only where they stand
 * alone: not inside a word or a number (`pin=42&`, `"42"` and `code 42.` are hidden; `$168.42` and
 * `4210` are left as they are). Empty values are ignored.
 *
 * @example
 * ```ts
 * import { redactSecrets } from "@sextant/memory"
 * const redact = redactSecrets({ password: "hunter 2" })
 * redact("fill #password with hunter 2") // "fill #password with <secret:password>"
 * redact("password=hunter+2") // "password=<secret:password>"
 * redactSecrets({ pin: "42" })("pin=42, total $168.42") // "pin=<secret:pin>, total $168.42"
 * ```
 */
export const redactSecrets = (secrets: Readonly<Record<string, string>>): Redact => {
  const forms = Object.entries(secrets)
    .filter(([, value]) => value !== "")
    .flatMap(([name, value]) =>
      secretForms(value).map((form) => ({ name, form, whole: value.length < WHOLE_TOKEN_BELOW })),
    )
    .sort((left, right) => right.form.length - left.form.length)
  if (forms.length === 0) return (text) => text
  const replacers = forms.map(({ name, form, whole }) => {
    const placeholder = secretPlaceholder(name)
    if (!whole) return (text: string) => text.split(form).join(placeholder)
    const pattern = new RegExp(
      `(?<![\\p{L}\\p{N}.,])${escapeRegExp(form)}(?![\\p{L}\\p{N}]|[.,]\\p{N})`,
      "gu",
    )
    return (text: string) => text.replace(pattern, placeholder)
  })
  return (text) => {
    let out = text
    for (const replace of replacers) out = replace(out)
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

import { type AgentTask, secretValuesOf } from "./AgentTask.ts"
import { matchingText, secretForms, WHOLE_TOKEN_BELOW } from "./SecretForms.ts"

/** Replaces secret values in text with placeholders. */
export type Redact = (text: string) => string

/**
 * The placeholder every prompt, trace, transcript and log line shows instead of the secret input `name`.
 *
 * @example
 * ```ts
 * import { secretPlaceholder } from "@sextant/core"
 * secretPlaceholder("password") // "<secret:password>"
 * ```
 */
export const secretPlaceholder = (name: string): string => `<secret:${name}>`

const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")

/**
 * A redaction function that replaces each secret value with `<secret:name>`, in every spelling of
 * {@link secretForms}, in any letter case. Longer forms are replaced first, so a secret that contains
 * another is hidden whole. Secrets shorter than {@link WHOLE_TOKEN_BELOW} characters are replaced only where they stand
 * alone: not inside a word or a number (`pin=42&`, `"42"` and `code 42.` are hidden; `$168.42` and
 * `4210` are left as they are). Echoes in another spelling are hidden too: upper-cased, spaced out or
 * with any number of separators between the characters (`"OPEN SESAME+42"`, `"o p e n s e s a m e"`),
 * full-width (`"ｏｐｅｎ ｓｅｓａｍｅ＋４２"`: the text is NFKC-normalised for this) or with zero-width
 * characters between the letters (dropped before matching), for secrets of at least
 * {@link WHOLE_TOKEN_BELOW} letters and digits. Reversed, interleaved (`"oxpxexn"`), partial or
 * base64-at-an-offset echoes are beyond string matching and are not hidden. Empty values are ignored.
 *
 * @example
 * ```ts
 * import { redactSecrets } from "@sextant/core"
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
  // In any letter case: a page or a URL may upper-case a spelling (`CORRECT%20HORSE`, `%2F` beside `%2f`).
  const replacers = forms.map(({ name, form, whole }) => {
    const placeholder = secretPlaceholder(name)
    const pattern = whole
      ? new RegExp(`(?<![\\p{L}\\p{N}.,])${escapeRegExp(form)}(?![\\p{L}\\p{N}]|[.,]\\p{N})`, "giu")
      : new RegExp(escapeRegExp(form), "giu")
    return (text: string) => text.replace(pattern, () => placeholder)
  })
  // A page text cut short inside a secret ("… pass: hunter2se… (+12 chars: raise maxTextLength …)") keeps
  // the secret's head before the cut: at least three of its first characters, right before a "…", are hidden.
  const heads = forms
    .filter(({ whole, form }) => !whole && form.length > 3)
    .map(({ name, form }) => {
      const characters = [...form]
      let tail = ""
      for (const character of characters.slice(3, -1).reverse())
        tail = `(?:${escapeRegExp(character)}${tail})?`
      const head = characters.slice(0, 3).map(escapeRegExp).join("")
      const pattern = new RegExp(`${head}${tail}(?=…)`, "giu")
      return (text: string) => text.replace(pattern, () => secretPlaceholder(name))
    })
  const echoes = Object.entries(secrets)
    .filter(([, value]) => value !== "")
    .flatMap(([name, value]) => echoPatterns(value).map((pattern) => ({ name, pattern })))
  return (text) => {
    let out = text
    for (const replace of replacers) out = replace(out)
    if (out.includes("…")) for (const replace of heads) out = replace(out)
    return echoes.length === 0 ? out : hideEchoes(out, echoes)
  }
}

/**
 * Replaces each echo in `text` with its secret's placeholder. The echoes are found in
 * {@link matchingText} (NFKC-normalised, invisible characters dropped: full-width letters and
 * zero-width characters between letters hide nothing) and replaced where they came from in `text`.
 */
const hideEchoes = (
  text: string,
  echoes: ReadonlyArray<{ readonly name: string; readonly pattern: RegExp }>,
): string => {
  const seen = matchingText(text)
  const spans: Array<{ from: number; to: number; name: string }> = []
  for (const { name, pattern } of echoes) {
    for (const match of seen.text.matchAll(pattern)) {
      if (match[0] === "") continue
      const index = match.index ?? 0
      spans.push({ from: seen.start(index), to: seen.end(index + match[0].length - 1), name })
    }
  }
  if (spans.length === 0) return text
  spans.sort((left, right) => left.from - right.from || right.to - left.to)
  let out = ""
  let last = 0
  for (const span of spans) {
    if (span.to <= last) continue
    // An echo that overlaps the one before extends the hidden part.
    if (span.from >= last) out += text.slice(last, span.from) + secretPlaceholder(span.name)
    last = span.to
  }
  return out + text.slice(last)
}

/**
 * What may stand between the letters and digits of an echoed secret: any number of characters that
 * are neither (`"o p e n"`, `"O-P-E-N"`, `"o    p"`); invisible ones are dropped before matching.
 */
const SEPARATOR = "[^\\p{L}\\p{N}]*"

/**
 * Patterns for echoes of a secret a page shows in another spelling: in any letter case, with spaces or
 * separators put between its characters, and, for a secret of at least ten letters and digits, for any
 * run of at least 80% of them (a page that echoes `"o p e n s e s a m e"` of `"open sesame+42"`). Only
 * secrets of at least {@link WHOLE_TOKEN_BELOW} letters and digits: a shorter one would match ordinary text.
 */
const echoPatterns = (value: string): ReadonlyArray<RegExp> => {
  const characters = [...value.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, "")]
  const count = characters.length
  if (count < WHOLE_TOKEN_BELOW) return []
  const least = count < 10 ? count : Math.max(10, Math.ceil(count * 0.8))
  const patterns: Array<RegExp> = []
  for (let start = 0; start + least <= count; start++) {
    const head = characters
      .slice(start, start + least)
      .map(escapeRegExp)
      .join(SEPARATOR)
    // The rest of the secret, as far as it goes on: (?:sep c (?:sep c …)?)?
    let tail = ""
    for (const character of characters.slice(start + least).reverse()) {
      tail = `(?:${SEPARATOR}${escapeRegExp(character)}${tail})?`
    }
    patterns.push(new RegExp(`${head}${tail}`, "giu"))
  }
  return patterns
}

/**
 * {@link redactSecrets} over the secret inputs of `task` that hold a value ({@link secretValuesOf}):
 * the text redaction of a run of that task.
 *
 * @example
 * ```ts
 * import { redactTaskSecrets } from "@sextant/core"
 * redactTaskSecrets({ inputs: { password: "hunter 2" }, secretInputs: ["password"] })("typed hunter 2")
 * // "typed <secret:password>"
 * ```
 */
export const redactTaskSecrets = (task: Pick<AgentTask, "inputs" | "secretInputs">): Redact =>
  redactSecrets(Object.fromEntries(secretValuesOf(task).map(({ name, value }) => [name, value])))

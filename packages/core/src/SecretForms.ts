/**
 * Secrets at least this long are hidden wherever they occur; shorter ones only where they stand alone.
 * A four-digit PIN or a two-character code also occurs inside unrelated text (`"42"` in the price
 * `$168.42`): replacing it there would corrupt the output and tell a reader the secret anyway.
 *
 * @example
 * ```ts
 * import { WHOLE_TOKEN_BELOW } from "@sextant/core"
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

/** Each character other than a letter, a digit or a space as an HTML character reference (`&#64;`, `&#x40;`). */
const htmlReferences = (value: string, hex: boolean): string =>
  value.replace(/[^\p{L}\p{N} ]/gu, (character) => {
    const code = character.codePointAt(0) ?? 0
    return hex ? `&#x${code.toString(16)};` : `&#${code};`
  })

const lowerHexEscapes = (value: string): string =>
  value.replace(/%[0-9A-F]{2}/g, (sequence) => sequence.toLowerCase())

/**
 * Every spelling of `value` that a sink or a request may hold: as typed, URL-encoded (`%20`, lower-case
 * escapes, `encodeURI`), form-encoded (`+` for a space), each of those encoded once more (a URL inside a
 * URL's query: `%2540`, `%2B`), JSON-escaped, HTML-escaped (named and numeric references) and base64
 * (standard, unpadded, URL-safe). The one list of encodings Sextant uses everywhere: the redaction of
 * prompts, traces and the store, and the driver's request guard (`BrowserDriver.guardSecrets`). Base64
 * is found when the secret is encoded on its own (a token in a header or a URL); inside a longer base64
 * string its encoding depends on what precedes it.
 *
 * @example
 * ```ts
 * import { secretForms } from "@sextant/core"
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
    // A URL holding the secret, put in another URL's query (`/login?next=%2Fa%3Fp%3DP%2540ss`).
    ...[uri, form].flatMap((once) => {
      const twice = encodeURIComponent(once)
      return [twice, lowerHexEscapes(twice)]
    }),
    JSON.stringify(value).slice(1, -1),
    htmlEscaped(value),
    htmlReferences(value, false),
    htmlReferences(value, true),
    ...(value.length >= WHOLE_TOKEN_BELOW ? toBase64(value) : []),
  ]
  return [...new Set(forms)].filter((form) => form !== "")
}

/** A text as secrets are matched in, with where each of its UTF-16 units came from. */
export interface MatchingText {
  /** The text, NFKC-normalised character by character, with invisible format characters dropped. */
  readonly text: string
  /** For a unit of `text`, the index in the original of the character it came from. */
  readonly start: (unit: number) => number
  /** For a unit of `text`, the index in the original just after the character it came from. */
  readonly end: (unit: number) => number
}

/** Invisible format characters: zero-width space, joiners (U+200B–U+200D), word joiner (U+2060), BOM (U+FEFF), soft hyphen (U+00AD) and the rest of category Cf. */
const INVISIBLE = /^\p{Cf}$/u

/**
 * `text` as secrets are matched in: each character NFKC-normalised (full-width `ｏ` → `o`, `＋` → `+`,
 * the ideographic space → a space, a ligature → its letters) and invisible format characters dropped
 * (`o\u200bp` → `op`), with, for each unit of the result, the span of the original it came from, so a
 * match can be replaced in the original. Plain ASCII comes back as it is.
 *
 * @example
 * ```ts
 * import { matchingText } from "@sextant/core"
 * matchingText("ｏ\u200bｐ").text // "op"
 * ```
 */
export const matchingText = (text: string): MatchingText => {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: ASCII is the range that needs no normalising
  if (!/[^\u0000-\u007f]/.test(text)) return { text, start: (unit) => unit, end: (unit) => unit + 1 }
  let out = ""
  const start: Array<number> = []
  const end: Array<number> = []
  for (let index = 0; index < text.length; ) {
    const code = text.codePointAt(index) as number
    const character = String.fromCodePoint(code)
    const next = index + character.length
    // Below U+00A0 every character is its own NFKC form and none is invisible.
    if (code < 0xa0 || !INVISIBLE.test(character)) {
      const normal = code < 0xa0 ? character : character.normalize("NFKC")
      for (let unit = 0; unit < normal.length; unit++) {
        start.push(index)
        end.push(next)
      }
      out += normal
    }
    index = next
  }
  return { text: out, start: (unit) => start[unit] as number, end: (unit) => end[unit] as number }
}

const INVISIBLE_ALL = /\p{Cf}/gu

/** The text of {@link matchingText} without the map back (the whole text NFKC-normalised at once). */
const normalised = (text: string): string =>
  // biome-ignore lint/suspicious/noControlCharactersInRegex: ASCII is the range that needs no normalising
  /[^\u0000-\u007f]/.test(text) ? text.normalize("NFKC").replace(INVISIBLE_ALL, "") : text

const decodedOnce = (text: string): string => {
  try {
    return decodeURIComponent(text.replaceAll("+", " "))
  } catch {
    return text
  }
}

/** Letters and digits only, lower-cased: `"O p-e N"` → `"open"`. */
const compact = (text: string): string => text.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, "")

const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")

/**
 * Which of `values` the text `carrier` holds (a request's URL, body or header), as its index, or
 * `undefined`. Looks for every spelling of {@link secretForms} in any letter case, in the text as it
 * is and URL-decoded (twice, for a value encoded again), each also as {@link matchingText} (NFKC, so
 * full-width letters count as letters; zero-width and other invisible characters dropped), and, for a secret of at least
 * {@link WHOLE_TOKEN_BELOW} letters and digits, for those letters and digits in order with anything
 * but letters and digits between them, any number of them (`"O P E N-S E S A M E 4 2"` and
 * `"ｏｐｅｎ ｓｅｓａｍｅ＋４２"` carry `"open sesame+42"`). Reversed, interleaved, partial or
 * base64-at-an-offset echoes are beyond what string matching can find. A
 * shorter secret counts only where it stands alone, not inside a longer number or word.
 *
 * @example
 * ```ts
 * import { secretIndexIn } from "@sextant/core"
 * secretIndexIn("q=OPEN%20SESAME%2B42", ["open sesame+42"]) // 0
 * secretIndexIn("total=168.42", ["42"]) // undefined
 * ```
 */
export const secretIndexIn = (carrier: string, values: ReadonlyArray<string>): number | undefined => {
  if (carrier === "") return undefined
  const once = decodedOnce(carrier)
  const decoded = [...new Set([carrier, once, decodedOnce(once)])]
  const texts = [...new Set([...decoded, ...decoded.map(normalised)])].map((text) => text.toLowerCase())
  const compacted = texts.map(compact)
  for (const [index, value] of values.entries()) {
    if (value === "") continue
    const forms = secretForms(value).map((form) => form.toLowerCase())
    if (value.length >= WHOLE_TOKEN_BELOW) {
      if (forms.some((form) => texts.some((text) => text.includes(form)))) return index
    } else {
      const alone = forms.map(
        (form) => new RegExp(`(?<![\\p{L}\\p{N}])${escapeRegExp(form)}(?![\\p{L}\\p{N}])`, "u"),
      )
      if (alone.some((pattern) => texts.some((text) => pattern.test(text)))) return index
    }
    const letters = compact(normalised(value))
    if (letters.length >= WHOLE_TOKEN_BELOW && compacted.some((text) => text.includes(letters))) return index
  }
  return undefined
}

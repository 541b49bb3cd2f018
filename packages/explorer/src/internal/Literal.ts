/**
 * The one way text from outside (a page, a run, a spec, HTTP traffic) enters generated code: as a
 * JavaScript string literal that means exactly that text and reads unambiguously.
 *
 * `JSON.stringify` already escapes quotes, backslashes and C0 controls; it leaves U+2028/U+2029 raw
 * (legal in a string literal since ES2019, but a line terminator anywhere else, and in an older
 * tool's eyes), C1 controls such as U+0085, and bidirectional or invisible format characters that
 * make a file read differently from how it runs. Those, and lone surrogates (JSON.stringify already
 * escapes them; the pattern keeps that true), are written as `\u` escapes, so every generated
 * literal is printable ASCII plus ordinary letters.
 */
const UNSAFE_IN_SOURCE =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: the point is to find control characters
  /[\u0000-\u001f\u007f-\u009f\u00ad\u061c\u180e\u200b-\u200f\u2028-\u202e\u2060-\u206f\ufeff\ufff9-\ufffb]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g

const escapeUnit = (unit: string): string =>
  unit
    .split("")
    .map((char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, "0")}`)
    .join("")

/**
 * A string as a JavaScript/TypeScript string literal, safe to place anywhere an expression goes.
 *
 * @example
 * ```ts
 * jsString('a"b\u2028c') // "\"a\\\"b\\u2028c\""
 * ```
 */
export const jsString = (value: string): string => {
  if (typeof value !== "string")
    throw new TypeError(`expected a string for generated code, got ${typeof value}`)
  return JSON.stringify(value).replace(UNSAFE_IN_SOURCE, escapeUnit)
}

/** A number as a literal; anything but a finite number is a programmer error, never written into code. */
export const jsNumber = (value: number): string => {
  if (typeof value !== "number" || !Number.isFinite(value))
    throw new TypeError(`expected a finite number for generated code, got ${String(value)}`)
  return String(value)
}

/**
 * Text for a `//` comment: printable ASCII only (anything else becomes `?`), no `*` (so no comment
 * can open or close) and at most `max` characters. Readability only: the code never depends on it.
 */
export const commentText = (value: string, max = 120): string => {
  const safe = value.replace(/[^\x20-\x29\x2b-\x7e]/g, "?")
  return safe.length > max ? `${safe.slice(0, max - 3)}...` : safe
}

/** An environment variable name a generated file may read: letters, digits and `_`, not starting with a digit. */
export const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/

import { ENV_NAME, jsString } from "./Literal.ts"

const SECRET_PLACEHOLDER = /<secret:([A-Za-z0-9_.-]+)>/g
const WHOLE_PLACEHOLDER = /^<secret:([A-Za-z0-9_.-]+)>$/

/** The environment variable a run's secret is read from, as the CLI reads it: `SEXTANT_SECRET_<NAME>`. */
export const secretEnvName = (name: string): string =>
  `SEXTANT_SECRET_${name.toUpperCase().replace(/[^A-Z0-9_]/g, "_")}`

/**
 * Which secret placeholders (`<secret:name>`, written by the executor's redactor for the secrets a
 * run was given) an export reads from the environment: only the names listed. With no list, none: a
 * placeholder a page got the model to type (`<secret:github_token>` in a run that had only `password`)
 * must not make the exported file read that variable. Any other text — an unlisted placeholder and
 * `${env.NAME}` included — is data and stays as written.
 */
export type SecretNames = ReadonlyArray<string> | undefined

/** Whether a placeholder's name is one of the secrets an export reads from the environment (never when no list is given). */
export const isMarked = (name: string, secrets: SecretNames): boolean =>
  secrets?.some((secret) => secret.toLowerCase() === name.toLowerCase()) === true

/** The placeholders in `text` that are not one of `secrets`: exported as literal text. */
export const unmarkedPlaceholders = (text: string, secrets: SecretNames): ReadonlyArray<string> =>
  [...text.matchAll(SECRET_PLACEHOLDER)]
    .filter((match) => !isMarked(match[1] as string, secrets))
    .map((match) => match[0])

/** The variable a whole value stands for, when the value is exactly one marked secret placeholder. */
export const placeholderVariable = (text: string, secrets: SecretNames): string | undefined => {
  const match = WHOLE_PLACEHOLDER.exec(text)
  return match !== null && isMarked(match[1] as string, secrets)
    ? secretEnvName(match[1] as string)
    : undefined
}

/** Whether a text holds a marked secret placeholder anywhere. */
export const hasPlaceholder = (text: string, secrets: SecretNames): boolean =>
  [...text.matchAll(SECRET_PLACEHOLDER)].some((match) => isMarked(match[1] as string, secrets))

/** An environment read in generated code: `secret("NAME")`. The name must be an environment variable name. */
export const secretCall = (variable: string): string => {
  if (!ENV_NAME.test(variable))
    throw new TypeError(`"${variable}" is not an environment variable name (letters, digits and _)`)
  return `secret(${jsString(variable)})`
}

/**
 * A text from traffic as TypeScript: string literals joined with `secret("SEXTANT_SECRET_<NAME>")`
 * for each marked `<secret:name>` placeholder. Nothing else in the text is read from the environment.
 */
export const placeholderExpression = (text: string, secrets: SecretNames): string => {
  const parts: Array<string> = []
  let last = 0
  for (const match of text.matchAll(SECRET_PLACEHOLDER)) {
    const name = match[1] as string
    if (!isMarked(name, secrets)) continue
    const index = match.index ?? 0
    if (index > last) parts.push(jsString(text.slice(last, index)))
    parts.push(secretCall(secretEnvName(name)))
    last = index + match[0].length
  }
  if (parts.length === 0) return jsString(text)
  if (last < text.length) parts.push(jsString(text.slice(last)))
  return parts.join(" + ")
}

/** The `secret` function an exported file calls for the variables its spec marked. */
export const secretFunctionSource = `function secret(name: string): string {
  const value = process.env[name]
  if (value === undefined) throw new Error(\`set the environment variable \${name} before running this test\`)
  return value
}`

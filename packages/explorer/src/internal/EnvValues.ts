const literal = (value: string): string => JSON.stringify(value)

const ENV_REFERENCE = /\$\{env\.([A-Za-z_][A-Za-z0-9_]*)\}/g
const SECRET_PLACEHOLDER = /<secret:([A-Za-z0-9_.-]+)>/g

/** The environment variable a run's secret is read from, as the CLI reads it: `SEXTANT_SECRET_<NAME>`. */
export const secretEnvName = (name: string): string =>
  `SEXTANT_SECRET_${name.toUpperCase().replace(/[^A-Z0-9_]/g, "_")}`

/** A trace's secret placeholders (`<secret:password>`) as test-spec environment reads (`${env.SEXTANT_SECRET_PASSWORD}`). */
export const placeholdersToEnv = (text: string): string =>
  text.replace(SECRET_PLACEHOLDER, (_match, name: string) => `\${env.${secretEnvName(name)}}`)

/** Whether a text reads the environment (`${env.NAME}`). */
export const readsEnv = (text: string): boolean => text.match(ENV_REFERENCE) !== null

/**
 * A value as TypeScript: a string literal, or the literal parts joined with `secret("NAME")` calls for
 * each `${env.NAME}` in it (the file defines `secret`, which fails naming the variable when it is unset).
 */
export const valueExpression = (value: string): string => {
  const parts: Array<string> = []
  let last = 0
  for (const match of value.matchAll(ENV_REFERENCE)) {
    const index = match.index ?? 0
    if (index > last) parts.push(literal(value.slice(last, index)))
    parts.push(`secret(${literal(match[1] as string)})`)
    last = index + match[0].length
  }
  if (parts.length === 0) return literal(value)
  if (last < value.length) parts.push(literal(value.slice(last)))
  return parts.join(" + ")
}

/** The `secret` function an exported file calls for `${env.NAME}` values. */
export const secretFunctionSource = `function secret(name: string): string {
  const value = process.env[name]
  if (value === undefined) throw new Error(\`set the environment variable \${name} before running this test\`)
  return value
}`

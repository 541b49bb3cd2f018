import { z } from "zod"
import {
  hasPlaceholder,
  isMarked,
  placeholderExpression,
  secretFunctionSource,
} from "./internal/EnvValues.ts"
import { commentText, ENV_NAME, jsNumber, jsString } from "./internal/Literal.ts"

/** One HTTP request and its answer, as observed during a run. */
export const ApiExchange = z.object({
  method: z.string().min(1),
  url: z.url(),
  requestBody: z.string().optional(),
  requestContentType: z.string().optional(),
  status: z.number().int().min(100).max(599),
  responseContentType: z.string().optional(),
  responseBody: z.string().optional(),
})
export type ApiExchange = z.output<typeof ApiExchange>

/** Options of {@link exportApiTests}. */
export interface ApiExportOptions {
  /** The suite's title. Default "API". */
  readonly name?: string | undefined
  /** Environment variable holding the `Cookie` header to send. Default `API_COOKIE`. */
  readonly cookieEnv?: string | undefined
  /**
   * The secrets of the run whose placeholders (`<secret:password>` in the redacted traffic) the tests
   * read from `SEXTANT_SECRET_<NAME>`. Default: none. A placeholder of a name not listed (one a page
   * got the model to type) is sent as those characters, like everything else in the traffic:
   * `${env.NAME}` in a body or a URL is sent as those characters too.
   */
  readonly secrets?: ReadonlyArray<string> | undefined
  /**
   * The site the run was on (its start URL, or that URL's origin): only the JSON exchanges on its
   * origin become tests, and it is the tests' default base URL. A call the run's pages made to another
   * origin (a third party's API, an address a page chose) is left out, and the file's header says how
   * many were and where they went: the tests would send the cookie and the secrets there. Default: the
   * origin of the first JSON exchange.
   */
  readonly origin?: string | undefined
}

// Every text from the traffic enters the file only as a string literal.
const literal = jsString

const parseJson = (
  text: string | undefined,
): { readonly ok: true; readonly value: unknown } | { readonly ok: false } => {
  if (text === undefined) return { ok: false }
  try {
    return { ok: true, value: JSON.parse(text) }
  } catch {
    return { ok: false }
  }
}

const isJson = (contentType: string | undefined, body: string | undefined): boolean =>
  (contentType === undefined || /\bjson\b/i.test(contentType)) && parseJson(body).ok

/**
 * The path of a recorded URL as the test requests it on the base URL: leading slashes and backslashes
 * become one `/` (`//attacker.example/collect` is a path on the recorded site, not another host), and a
 * path that would still leave the base URL's origin is refused.
 */
const sameOriginPath = (url: URL): string => {
  const path = `/${`${url.pathname}${url.search}`.replace(/^[/\\]+/, "")}`
  const probe = "http://base.invalid"
  if (new URL(path, probe).origin !== probe)
    throw new Error(
      `${url.href}: its path ${path} resolves to another host than the base URL, so a test would send the cookie and secrets there; not exported`,
    )
  return path
}

/** The generated `on(path)`: the URL a test requests, refused unless it is on the base URL's origin. */
const onBaseSource = `/** The URL of \`path\` on the base URL; anything on another origin is never sent the cookie or a secret. */
function on(path: string): URL {
  const url = new URL(path, baseUrl)
  const origin = new URL(baseUrl).origin
  if (url.origin !== origin) throw new Error(\`\${path} resolves to \${url.origin}, not the base URL's origin \${origin}: not sent\`)
  return url
}`

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/

/** Merges the shapes of array items: keys every item has are required, the others optional. */
const mergeObjects = (items: ReadonlyArray<Record<string, unknown>>, indent: string): string => {
  const keys = [...new Set(items.flatMap((item) => Object.keys(item)))]
  const lines = keys.map((key) => {
    const present = items.filter((item) => key in item)
    const schema = schemaOf(
      present[0]?.[key],
      `${indent}  `,
      present.map((item) => item[key]),
    )
    const optional = present.length < items.length ? ".optional()" : ""
    // `__proto__:` in an object literal would set the shape's prototype, not a key: it is computed.
    const property = key === "__proto__" ? `[${literal(key)}]` : IDENTIFIER.test(key) ? key : literal(key)
    return `${indent}  ${property}: ${schema}${optional},`
  })
  return lines.length === 0 ? "z.object({})" : `z.object({\n${lines.join("\n")}\n${indent}})`
}

/**
 * Zod source for the shape of a JSON value: types, not values; objects allow extra keys; arrays take
 * the merged shape of their items.
 */
export const schemaOf = (value: unknown, indent = "", siblings: ReadonlyArray<unknown> = [value]): string => {
  if (value === null)
    return siblings.every((sibling) => sibling === null)
      ? "z.null()"
      : `${schemaOf(
          siblings.find((sibling) => sibling !== null),
          indent,
        )}.nullable()`
  if (typeof value === "string") return "z.string()"
  if (typeof value === "number") return "z.number()"
  if (typeof value === "boolean") return "z.boolean()"
  if (Array.isArray(value)) {
    if (value.length === 0) return "z.array(z.unknown())"
    const objects = value.filter(
      (item): item is Record<string, unknown> =>
        typeof item === "object" && item !== null && !Array.isArray(item),
    )
    if (objects.length === value.length) return `z.array(${mergeObjects(objects, indent)})`
    return `z.array(${schemaOf(value[0], indent, value)})`
  }
  if (typeof value === "object") {
    const objects = siblings.filter(
      (item): item is Record<string, unknown> =>
        typeof item === "object" && item !== null && !Array.isArray(item),
    )
    return mergeObjects(objects.length > 0 ? objects : [value as Record<string, unknown>], indent)
  }
  return "z.unknown()"
}

/**
 * A vitest file that calls each observed JSON endpoint again with the observed method and body and
 * asserts the observed status and the shape of the answer (a zod schema inferred from the observed
 * JSON). The base URL comes from `API_BASE_URL` (vitest sets `BASE_URL` itself) and the cookie from an environment variable, so no session
 * or secret is written into the file; a secret the run sent (`<secret:password>` in a redacted trace) is
 * read from `SEXTANT_SECRET_PASSWORD` when the test runs, for the names in `options.secrets` only (an
 * unlisted placeholder and `${env.NAME}` in the traffic are data). Every request goes to the base
 * URL's origin: a recorded path starting with `//` or `\\` is made a path on the base URL, and the
 * generated code refuses, before sending the cookie or a secret, any URL that resolves elsewhere. Every text from the traffic is written as an escaped string literal. Non-JSON exchanges (pages, scripts, images) are left out; the
 * same method and URL is tested once.
 *
 * @example
 * ```ts
 * import { writeFileSync } from "node:fs"
 * import { exportApiTests } from "@sextant/explorer"
 * writeFileSync("shop.api.test.ts", exportApiTests(exchanges, { name: "shop API" }))
 * // API_BASE_URL=http://127.0.0.1:4000 npx vitest run shop.api.test.ts
 * ```
 */
export const exportApiTests = (
  exchanges: ReadonlyArray<ApiExchange>,
  options: ApiExportOptions = {},
): string => {
  const cookieEnv = options.cookieEnv ?? "API_COOKIE"
  if (!ENV_NAME.test(cookieEnv))
    throw new TypeError(
      `cookieEnv must name an environment variable (letters, digits and _), got "${cookieEnv}"`,
    )
  const name = options.name ?? "API"
  const seen = new Set<string>()
  const json = exchanges.filter((exchange) => {
    const key = `${exchange.method.toUpperCase()} ${exchange.url}`
    if (seen.has(key) || !isJson(exchange.responseContentType, exchange.responseBody)) return false
    seen.add(key)
    return true
  })
  if (json.length === 0) throw new Error("no JSON exchange to export: the run called no JSON endpoint")
  const origin = new URL(options.origin ?? json[0]?.url ?? "http://127.0.0.1").origin
  const originOf = (url: string): string => {
    try {
      return new URL(url).origin
    } catch {
      return url
    }
  }
  const chosen = json.filter((exchange) => originOf(exchange.url) === origin)
  const elsewhere = [
    ...new Set(
      json.filter((exchange) => !chosen.includes(exchange)).map((exchange) => originOf(exchange.url)),
    ),
  ]
  if (chosen.length === 0)
    throw new Error(
      `no JSON exchange to export on ${origin}, the site the run was on: the run called JSON endpoints only on ${elsewhere.join(", ")}, which are left out`,
    )
  let usesSecrets = false
  // A secret the run sent (a placeholder in the redacted trace) is read from the environment.
  const expression = (text: string): string => {
    if (hasPlaceholder(text, options.secrets)) usesSecrets = true
    return placeholderExpression(text, options.secrets)
  }
  const tests = chosen.map((exchange) => {
    const url = new URL(exchange.url)
    // A placeholder in a URL arrives percent-encoded; the rest of the path is kept as it was sent.
    const path = sameOriginPath(url).replace(/%3Csecret%3A([A-Za-z0-9_.-]+)%3E/gi, (match, name: string) =>
      isMarked(name, options.secrets) ? `<secret:${name}>` : match,
    )
    const method = exchange.method.toUpperCase()
    const body = parseJson(exchange.responseBody)
    const schema = body.ok ? schemaOf(body.value, "    ") : "z.unknown()"
    const sendsBody = exchange.requestBody !== undefined && method !== "GET" && method !== "HEAD"
    const headers = [
      `accept: "application/json"`,
      ...(sendsBody ? [`"content-type": ${literal(exchange.requestContentType ?? "application/json")}`] : []),
      "...cookieHeader",
    ]
    return `  it(${literal(`${method} ${path} answers ${exchange.status} with the observed shape`)}, async () => {
    const response = await fetch(on(${expression(path)}), {
      method: ${literal(method)},
      headers: { ${headers.join(", ")} },${sendsBody ? `\n      body: ${expression(exchange.requestBody ?? "")},` : ""}
    })
    expect(response.status).toBe(${jsNumber(exchange.status)})
    const shape = ${schema}
    const result = shape.safeParse(await response.json())
    expect(result.success ? [] : result.error.issues.map((issue) => \`\${issue.path.join(".")}: \${issue.message}\`)).toEqual([])
  })`
  })
  const leftOut =
    elsewhere.length === 0
      ? ""
      : `// Left out: ${json.length - chosen.length} JSON call(s) the run's pages made to other origins (${commentText(elsewhere.join(", "))}), which the tests would send the cookie to.\n`
  return `// ${commentText(name)}: exported by Sextant from the HTTP traffic of a run.
${leftOut}// Run: API_BASE_URL=${commentText(origin)} ${cookieEnv}="name=value" npx vitest run <this file>
import { describe, expect, it } from "vitest"
import { z } from "zod"

const baseUrl = process.env.API_BASE_URL ?? ${literal(origin)}
const cookie = process.env[${literal(cookieEnv)}]
const cookieHeader: Record<string, string> = cookie === undefined ? {} : { cookie }

${onBaseSource}
${usesSecrets ? `\n${secretFunctionSource}\n` : ""}
describe(${literal(name)}, () => {
${tests.join("\n\n")}
})
`
}

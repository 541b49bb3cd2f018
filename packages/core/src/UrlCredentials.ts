/**
 * Query parameters that carry a credential in a connection URL: `pg` reads `?password=` (and
 * `sslpassword`, `sslkey`) into its settings, ioredis `?password=`; tokens and keys travel the same way.
 */
const CREDENTIAL_PARAMETER = /pass(word)?|pwd|secret|token|api[-_]?key|access[-_]?key|sslkey|auth/i

/** The spelling of a hidden credential. */
const HIDDEN = "***"

/**
 * A connection URL (a store's, a queue's) as messages, logs and `--json` output may show it: the
 * password of its user part and every query parameter named like a credential (`password`,
 * `sslpassword`, `token`, `api_key`, `auth` …) replaced by `***`. A text that does not parse as a URL
 * (a typo, a bad port) is cut the same way by its spelling — `//user:password@` and `password=…` —
 * never shown as it is: a mistyped URL is exactly the one a message quotes.
 *
 * @example
 * ```ts
 * import { hideUrlCredentials } from "@sextant/core"
 * hideUrlCredentials("postgres://sextant:hunter2@db:5432/runs") // "postgres://sextant:***@db:5432/runs"
 * hideUrlCredentials("postgres://sextant@db/runs?password=hunter2") // "postgres://sextant@db/runs?password=***"
 * hideUrlCredentials("redis://:hunter2@cache:99999") // "redis://:***@cache:99999" (no URL: bad port)
 * ```
 */
export const hideUrlCredentials = (url: string): string => {
  const parsed = URL.parse(url)
  if (parsed === null || !/^[a-z][a-z0-9+.-]*:\/\//i.test(url.trim())) return hideBySpelling(url)
  if (parsed.password !== "") parsed.password = HIDDEN
  // The search is rebuilt only when a credential is in it, so a URL without one reads as given.
  const names = [...parsed.searchParams.keys()]
  if (names.some((name) => CREDENTIAL_PARAMETER.test(name))) {
    const hidden = new URLSearchParams()
    for (const [name, value] of parsed.searchParams)
      hidden.append(name, CREDENTIAL_PARAMETER.test(name) ? HIDDEN : value)
    parsed.search = hidden.toString().replaceAll(encodeURIComponent(HIDDEN), HIDDEN)
  }
  return parsed.toString()
}

/** {@link hideUrlCredentials} for a text no URL parser reads: by the spelling of a user part and of a query. */
const hideBySpelling = (text: string): string =>
  text
    .replace(/(\/\/[^/?#@\s:]*:)[^/?#\s]*@/g, `$1${HIDDEN}@`)
    .replace(/(^|[?&;\s])([^=&?#;\s]+)=([^&#;\s]*)/g, (whole, before: string, name: string) =>
      CREDENTIAL_PARAMETER.test(name) ? `${before}${name}=${HIDDEN}` : whole,
    )

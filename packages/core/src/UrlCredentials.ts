/**
 * Query parameters that carry a credential: `pg` reads `?password=` (and `sslpassword`, `sslkey`) into
 * its settings, ioredis `?password=`; pages take `?token=`, `?access_token=`, `?api_key=`, `?key=`, and
 * signed URLs carry their signature and credential (`X-Amz-Signature`, `X-Amz-Credential`,
 * `X-Goog-Signature`, Azure's `sig`, CloudFront's `Signature`). A name is read as its words (split at
 * `-`, `_`, `.` and camelCase), so `author` or `keyword` stay as they are while `apiKey` does not.
 */
const CREDENTIAL_WORD =
  /pass(word|wd|phrase)|secret|token|credential|signature|apikey|accesskey|privatekey|authkey|sslkey|sess(ion)?id/
const CREDENTIAL_NAME = new Set(["pass", "pwd", "key", "sig", "auth", "authorization", "sid", "jwt"])

/**
 * Whether a query parameter's name says it carries a credential (read as its words, see above).
 *
 * @example
 * ```ts
 * import { isCredentialParameter } from "@sextant/core"
 * isCredentialParameter("access_token") // true
 * isCredentialParameter("keyword") // false
 * ```
 */
export const isCredentialParameter = (name: string): boolean => {
  const words = name
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((word) => word !== "")
  const whole = words.join("")
  return (
    CREDENTIAL_WORD.test(whole) ||
    words.some((word) => CREDENTIAL_NAME.has(word) || CREDENTIAL_WORD.test(word))
  )
}

/** The spelling of a hidden credential. */
const HIDDEN = "***"

/**
 * A URL (a store's, a queue's, a page's) as messages, logs and `--json` output may show it: the
 * password of its user part and every parameter of a path segment (`;jsessionid=…`), of its query or of its fragment (an OAuth callback's
 * `#access_token=…`, a hash route's `#/cb?token=…`) named like a credential (`password`,
 * `sslpassword`, `token`, `access_token`, `api_key`, `key`, `sig`, `X-Amz-Signature` …) replaced by
 * `***`, the names kept so the reader still sees which URL it was. A text that does not parse as a URL
 * (a typo, a bad port, a message that quotes a URL) is cut the same way by its spelling — `//user:password@` and `password=…` —
 * never shown as it is: a mistyped URL is exactly the one a message quotes.
 *
 * @example
 * ```ts
 * import { hideUrlCredentials } from "@sextant/core"
 * hideUrlCredentials("postgres://sextant:hunter2@db:5432/runs") // "postgres://sextant:***@db:5432/runs"
 * hideUrlCredentials("postgres://sextant@db/runs?password=hunter2") // "postgres://sextant@db/runs?password=***"
 * hideUrlCredentials("redis://:hunter2@cache:99999") // "redis://:***@cache:99999" (no URL: bad port)
 * hideUrlCredentials("https://cdn.example/a.pdf?X-Amz-Signature=9f3c&page=2") // "https://cdn.example/a.pdf?X-Amz-Signature=***&page=2"
 * hideUrlCredentials("https://app.example/cb#access_token=t&state=1") // "https://app.example/cb#access_token=***&state=1"
 * hideUrlCredentials("could not reach http://u:pw@host/?token=t (fetch failed)") // "could not reach http://u:***@host/?token=*** (fetch failed)"
 * ```
 */
export const hideUrlCredentials = (url: string): string => {
  const parsed = URL.parse(url)
  // A text with a space in it is a message quoting a URL, not a URL: the parser would encode its spaces.
  if (parsed === null || /\s/.test(url.trim()) || !/^[a-z][a-z0-9+.-]*:\/\//i.test(url.trim()))
    return hideBySpelling(url)
  if (parsed.password !== "") parsed.password = HIDDEN
  // The search is rebuilt only when a credential is in it, so a URL without one reads as given.
  if (carriesCredential(parsed.searchParams)) parsed.search = hiddenParameters(parsed.searchParams)
  const fragment = fragmentParameters(parsed.hash)
  if (fragment !== undefined && carriesCredential(fragment.parameters))
    parsed.hash = fragment.route + hiddenParameters(fragment.parameters)
  if (pathParameters(parsed.pathname).length > 0)
    parsed.pathname = parsed.pathname.replace(PATH_PARAMETER, (whole, name: string) =>
      isCredentialParameter(decodedOrAsIs(name)) ? `;${name}=${HIDDEN}` : whole,
    )
  return parsed.toString()
}

/** A parameter of a path segment, `;jsessionid=…` as Java servlets rewrite a URL for a session. */
const PATH_PARAMETER = /;([^;/=?#]+)=([^;/?#]*)/g

/** The credential parameters of a path's segments (`/cart;jsessionid=…`), decoded. */
const pathParameters = (pathname: string): ReadonlyArray<UrlCredential> =>
  [...pathname.matchAll(PATH_PARAMETER)].flatMap((match) => {
    const name = decodedOrAsIs(match[1] ?? "")
    const value = decodedOrAsIs(match[2] ?? "")
    return value !== "" && isCredentialParameter(name) ? [{ part: name, value }] : []
  })

const carriesCredential = (parameters: URLSearchParams): boolean =>
  [...parameters.keys()].some((name) => isCredentialParameter(name))

/** `parameters` as a query with every credential's value `***`. */
const hiddenParameters = (parameters: URLSearchParams): string => {
  const hidden = new URLSearchParams()
  for (const [name, value] of parameters) hidden.append(name, isCredentialParameter(name) ? HIDDEN : value)
  return hidden.toString().replaceAll(encodeURIComponent(HIDDEN), HIDDEN)
}

/**
 * The parameters a URL's fragment carries: an OAuth implicit-grant callback's `#access_token=…&state=…`,
 * or the query of a hash route, `#/callback?token=…`, with the route before them. None when the fragment
 * holds no `name=value`.
 */
const fragmentParameters = (
  hash: string,
): { readonly route: string; readonly parameters: URLSearchParams } | undefined => {
  const body = hash.replace(/^#/, "")
  const question = body.indexOf("?")
  const query = question === -1 ? body : body.slice(question + 1)
  if (!query.includes("=")) return undefined
  return { route: question === -1 ? "" : body.slice(0, question + 1), parameters: new URLSearchParams(query) }
}

/**
 * The URL with the credentials of its query and of its fragment spelled as a form encodes them (the
 * spelling a redaction of their decoded values finds, see `secretForms`), the rest as given.
 *
 * @example
 * ```ts
 * import { respellUrlCredentials } from "@sextant/core"
 * respellUrlCredentials("https://app.example/cb#access_token=a%2Db&state=1") // "https://app.example/cb#access_token=a-b&state=1"
 * ```
 */
export const respellUrlCredentials = (url: string): string => {
  const parsed = URL.parse(url)
  if (parsed === null) return url
  if (carriesCredential(parsed.searchParams)) parsed.search = parsed.searchParams.toString()
  const fragment = fragmentParameters(parsed.hash)
  if (fragment !== undefined && carriesCredential(fragment.parameters))
    parsed.hash = fragment.route + fragment.parameters.toString()
  return parsed.href
}

/** {@link hideUrlCredentials} for a text no URL parser reads: by the spelling of a user part and of a query. */
const hideBySpelling = (text: string): string =>
  text
    .replace(/(\/\/[^/?#@\s:]*:)[^/?#\s]*@/g, `$1${HIDDEN}@`)
    .replace(/(^|[?&;#\s])([^=&?#;\s]+)=([^&#;\s]*)/g, (whole, before: string, name: string) =>
      isCredentialParameter(name) ? `${before}${name}=${HIDDEN}` : whole,
    )

/** A percent-encoded text decoded; one with a stray `%` (which the URL parser keeps) as it is. */
const decodedOrAsIs = (text: string): string => {
  try {
    return decodeURIComponent(text)
  } catch {
    return text
  }
}

/**
 * One credential a URL carries: the password of its user part, or a parameter named like one in its
 * query or its fragment.
 */
export interface UrlCredential {
  /** `password`, or the parameter's name. */
  readonly part: string
  /** The credential as text (decoded). */
  readonly value: string
}

/**
 * The credentials a URL carries, decoded: the password of its user part and the value of every
 * parameter {@link hideUrlCredentials} hides, in its path (`/cart;jsessionid=…`), its query and its
 * fragment (`#access_token=…`, `#/callback?token=…`). Empty values and URLs that do not parse give none.
 *
 * @example
 * ```ts
 * import { urlCredentials } from "@sextant/core"
 * urlCredentials("https://alice:p%40ss@shop.example/?token=t1&page=2#id_token=t2")
 * // [{ part: "password", value: "p@ss" }, { part: "token", value: "t1" }, { part: "id_token", value: "t2" }]
 * ```
 */
export const urlCredentials = (url: string): ReadonlyArray<UrlCredential> => {
  const parsed = URL.parse(url)
  if (parsed === null) return []
  const found: Array<UrlCredential> = []
  if (parsed.password !== "") found.push({ part: "password", value: decodedOrAsIs(parsed.password) })
  found.push(...pathParameters(parsed.pathname))
  const fragment = fragmentParameters(parsed.hash)?.parameters ?? []
  for (const [name, value] of [...parsed.searchParams, ...fragment])
    if (value !== "" && isCredentialParameter(name)) found.push({ part: name, value })
  return found
}

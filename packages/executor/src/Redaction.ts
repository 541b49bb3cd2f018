import {
  type AgentTask,
  isCredentialParameter,
  redactSecrets,
  secretValuesOf,
  urlCredentials,
} from "@sextant/core"
import { secretPlaceholder } from "@sextant/memory"
import { startUrlSecretNames } from "./internal/StartUrlSecrets.ts"

export { secretPlaceholder } from "@sextant/memory"

const placeholderPattern = /<secret:([A-Za-z0-9_.-]+)>/g
const cutPlaceholderPattern = /<secret:([A-Za-z0-9_-]+)/g
const inputPattern = /\{\{\s*inputs\.([A-Za-z0-9_.-]+)\s*\}\}/g

/**
 * The one redaction used at every sink (prompts, trace, transcript, store, screenshot annotations, logs),
 * and its inverse for the tool boundary. Plans and models write `<secret:password>` (or `{{inputs.email}}` for
 * any input); only the tool sees the value.
 */
export interface Redactor {
  /** Replaces every secret value inside `text` with its placeholder. */
  readonly text: (text: string) => string
  /** A deep copy of `value` with every secret value in every string replaced by its placeholder. */
  readonly value: <A>(value: A) => A
  /** A deep copy of tool arguments with every placeholder replaced by the real value, for the tool only. */
  readonly reveal: <A>(value: A) => A
  /** The secret input names, for messages. */
  readonly names: ReadonlyArray<string>
  /**
   * Hides from now on, like a secret, each credential that `url` (a page the browser reached) carries and
   * no secret holds: a `?token=`, `?session_id=` or `#access_token=` a site put in its own URL after a
   * sign-in (core's `urlCredentials`), as `<secret:page_url_token>` … . Such a value is hidden only: it is
   * never typed (`reveal` leaves its placeholder as it is and `misplaced` refuses it) and never asked for
   * by `resume`. Values shorter than {@link LEARNED_MIN_LENGTH} characters are left as they are.
   */
  readonly learnUrl: (url: string) => void
  /**
   * {@link Redactor.learnUrl} for a JSON body the page sent or received (recorded traffic): each string
   * under a key named like a credential (`access_token`, `refresh_token`, `password`, `apiKey`, read as
   * core's `isCredentialParameter` reads a name) is hidden from now on, as `<secret:page_json_access_token>`
   * … . A body that is not JSON teaches nothing.
   */
  readonly learnJson: (body: string) => void
  /**
   * Why the call must not run, as a message naming the argument: `args` of `tool` hold a placeholder
   * `<secret:NAME>` where NAME is not one of the task's secrets (a page may get a model to write
   * `<secret:github_token>`: it is never typed as text), or name a secret (`<secret:name>`, or
   * `{{inputs.name}}` of a secret input) outside a field value. Undefined when every placeholder is a
   * secret of the task and goes into a field. See {@link secretFieldPaths}. The one exception is a
   * credential of the task's start URL (`<secret:start_url_password>`, see `startUrl` in the README):
   * `navigate` may carry it in its `url`, in the place it had there, back to the start URL's origin.
   */
  readonly misplaced: (tool: string, args: Readonly<Record<string, unknown>>) => string | undefined
  /**
   * Whether the arguments of `tool` name any secret at all (the call then types a secret into the page).
   * A start-URL credential carried by `navigate` to its own origin is not typed: the browser sends it.
   */
  readonly namesSecret: (args: unknown, tool?: string) => boolean
}

/**
 * The arguments of the built-in tools that type into a field, the only places a secret placeholder is
 * expanded. A path is a list of keys; `*` is any key. A placeholder anywhere else (a URL, a search
 * query, a selector, a label) is refused: the value would leave as a URL, a query string or text on
 * another site.
 *
 * @example
 * ```ts
 * import { secretFieldPaths } from "@sextant/executor"
 * secretFieldPaths.login // [["username"], ["password"]]
 * ```
 */
export const secretFieldPaths: Readonly<Record<string, ReadonlyArray<ReadonlyArray<string>>>> = {
  fill: [["value"]],
  type: [["value"], ["text"]],
  login: [["username"], ["password"]],
  fillForm: [["values", "*"]],
}

const mapStrings = (
  value: unknown,
  map: (text: string) => string,
  number: (value: number) => unknown = (same) => same,
  keys = false,
): unknown => {
  if (typeof value === "string") return map(value)
  if (typeof value === "number") return number(value)
  if (Array.isArray(value)) return value.map((item) => mapStrings(item, map, number, keys))
  if (value instanceof Uint8Array || value instanceof Date) return value
  if (typeof value === "object" && value !== null) {
    const out: Record<string, unknown> = {}
    for (const [key, item] of Object.entries(value))
      out[keys ? map(key) : key] = mapStrings(item, map, number, keys)
    return out
  }
  return value
}

/** Every string in `value` with the path of keys that leads to it. */
const stringsWithPaths = (
  value: unknown,
  path: ReadonlyArray<string> = [],
): Array<{ path: ReadonlyArray<string>; text: string; key?: true }> => {
  if (typeof value === "string") return [{ path, text: value }]
  if (Array.isArray(value))
    return value.flatMap((item, index) => stringsWithPaths(item, [...path, String(index)]))
  if (typeof value === "object" && value !== null) {
    return Object.entries(value).flatMap(([key, item]) => [
      // A key is text a tool may show or type too (fillForm's labels).
      { path: [...path, `${key} (a key)`], text: key, key: true as const },
      ...stringsWithPaths(item, [...path, key]),
    ])
  }
  return []
}

/** The strings of a JSON value under keys named like a credential, at any depth. */
const jsonCredentials = (value: unknown): Array<{ part: string; value: string }> => {
  if (Array.isArray(value)) return value.flatMap(jsonCredentials)
  if (typeof value !== "object" || value === null) return []
  return Object.entries(value).flatMap(([key, item]) =>
    typeof item === "string" && isCredentialParameter(key)
      ? [{ part: key, value: item }]
      : jsonCredentials(item),
  )
}

const pathMatches = (path: ReadonlyArray<string>, pattern: ReadonlyArray<string>): boolean =>
  path.length === pattern.length && pattern.every((key, index) => key === "*" || key === path[index])

/**
 * The shortest credential value {@link Redactor.learnUrl} hides: a shorter one (`?key=1`) would hide every
 * `1` in the trace, and a site's session token is longer.
 */
export const LEARNED_MIN_LENGTH = 8

/**
 * Builds the redactor of a task from `task.secretInputs`. Longer secrets are replaced first so a secret
 * that contains another is never half-shown.
 *
 * @example
 * ```ts
 * import { makeRedactor } from "@sextant/executor"
 * const redact = makeRedactor({ inputs: { password: "wonderland" }, secretInputs: ["password"] })
 * redact.text("typed wonderland") // "typed <secret:password>"
 * redact.reveal({ value: "<secret:password>" }) // { value: "wonderland" }
 * ```
 */
export const makeRedactor = (
  task: Pick<AgentTask, "inputs" | "secretInputs"> & Partial<Pick<AgentTask, "startUrl">>,
): Redactor => {
  const secrets = secretValuesOf(task)
  const byName = new Map(secrets.map((secret) => [secret.name, secret.value]))
  const secretNames = new Set(task.secretInputs)
  // Credentials of the pages the run reached (learnUrl): hidden like the secrets, never revealed.
  const learned = new Map<string, string>()
  const hidden = () => [...secrets, ...[...learned].map(([name, value]) => ({ name, value }))]
  let text = redactSecrets(Object.fromEntries(secrets.map((secret) => [secret.name, secret.value])))
  // A number equal to a numeric secret is the secret: it is stored as its placeholder, not as a number.
  const number = (value: number): unknown => {
    const name = hidden().find((secret) => secret.value === String(value))?.name
    return name === undefined ? value : secretPlaceholder(name)
  }
  const learn = (prefix: string, found: ReadonlyArray<{ readonly part: string; readonly value: string }>) => {
    const known = new Set(hidden().map((secret) => secret.value))
    let added = false
    for (const { part, value } of found) {
      // A URL read back from the store (resume) already shows its placeholders.
      if (value.length < LEARNED_MIN_LENGTH || known.has(value) || /<secret:[^>]*>/.test(value)) continue
      const base = `${prefix}${part.replace(/[^A-Za-z0-9_.-]/g, "_")}`
      let name = base
      for (let next = 2; byName.has(name) || learned.has(name) || Object.hasOwn(task.inputs, name); next++)
        name = `${base}_${next}`
      learned.set(name, value)
      known.add(value)
      added = true
    }
    if (added) text = redactSecrets(Object.fromEntries(hidden().map((secret) => [secret.name, secret.value])))
  }
  const learnUrl = (url: string): void => learn("page_url_", urlCredentials(url))
  const learnJson = (body: string): void => {
    let parsed: unknown
    try {
      parsed = JSON.parse(body)
    } catch {
      return
    }
    learn("page_json_", jsonCredentials(parsed))
  }
  const secretReference = (text: string): string | undefined => {
    for (const match of text.matchAll(placeholderPattern)) if (match[1] !== undefined) return match[0]
    // A placeholder cut short (a URL that lost its closing ">") still names the secret where it is.
    for (const match of text.matchAll(cutPlaceholderPattern)) {
      if (match[1] !== undefined && secretNames.has(match[1])) return match[0]
    }
    for (const match of text.matchAll(inputPattern)) {
      if (match[1] !== undefined && secretNames.has(match[1])) return match[0]
    }
    return undefined
  }
  const inputOf = (whole: string, name: string): string => {
    const input = task.inputs[name]
    return input === undefined || input === null ? whole : String(input)
  }
  const startUrlSecrets = startUrlSecretNames(task)
  const revealText = (input: string): string => {
    // A start-URL credential goes back into a URL percent-encoded, as the URL spelled it.
    const inUrl = /^https?:\/\//i.test(input)
    return input
      .replace(placeholderPattern, (whole, name: string) => {
        const value = byName.get(name)
        if (value === undefined) return whole
        return inUrl && startUrlSecrets.has(name) ? encodeURIComponent(value) : value
      })
      .replace(inputPattern, (whole, name: string) => inputOf(whole, name))
  }
  const startOrigin = task.startUrl === undefined ? undefined : URL.parse(task.startUrl)?.origin
  // `navigate`'s URL naming only start-URL credentials, each in a credential place of a URL on the start origin.
  const carriesStartUrlSecrets = (tool: string, path: ReadonlyArray<string>, text: string): boolean => {
    if (tool !== "navigate" || path.join(".") !== "url" || startUrlSecrets.size === 0) return false
    if ([...text.matchAll(inputPattern)].length > 0) return false
    const named = [...text.matchAll(placeholderPattern)].map((match) => match[1] as string)
    if (named.length === 0 || named.some((name) => !startUrlSecrets.has(name))) return false
    const revealed = revealText(text)
    if (URL.parse(revealed)?.origin !== startOrigin) return false
    const carried = new Set(urlCredentials(revealed).map((credential) => credential.value))
    return named.every((name) => carried.has(byName.get(name) ?? ""))
  }
  const any = () => secrets.length > 0 || learned.size > 0
  return {
    text: (input) => (any() ? text(input) : input),
    value: <A>(value: A): A =>
      any() ? (mapStrings(value, (input) => text(input), number, true) as A) : value,
    reveal: <A>(value: A): A => mapStrings(value, revealText) as A,
    names: secrets.map((secret) => secret.name),
    learnUrl,
    learnJson,
    namesSecret: (args, tool) =>
      stringsWithPaths(args).some(
        ({ path, text }) =>
          secretReference(text) !== undefined && !carriesStartUrlSecrets(tool ?? "", path, text),
      ),
    misplaced: (tool, args) => {
      const allowed = secretFieldPaths[tool] ?? []
      for (const { path, text } of stringsWithPaths(args)) {
        for (const match of text.matchAll(placeholderPattern)) {
          const name = match[1] as string
          if (byName.has(name)) continue
          if (learned.has(name))
            return `${tool} argument ${path.join(".")} holds ${match[0]}, a credential a page put in its own URL: it is hidden from the model and never typed or sent; reach that page by a link, back or refresh instead`
          const known =
            byName.size === 0
              ? "this task has no secrets"
              : `its secrets are ${[...byName.keys()].map(secretPlaceholder).join(", ")}`
          return `${tool} argument ${path.join(".")} holds ${match[0]}, which is not a secret of this task (${known}): a placeholder is replaced only by a secret the task was given, never typed as text; use one of the task's secrets or the plain value`
        }
      }
      for (const { path, text, key } of stringsWithPaths(args)) {
        const reference = secretReference(text)
        if (reference === undefined) continue
        if (key !== true && allowed.some((pattern) => pathMatches(path, pattern))) continue
        if (key !== true && carriesStartUrlSecrets(tool, path, text)) continue
        const where =
          allowed.length === 0
            ? ""
            : ` (${tool} takes secrets in ${allowed.map((pattern) => pattern.join(".")).join(", ")})`
        return `${tool} argument ${path.join(".")} holds ${reference}: a secret is typed only into a form field, never into a URL, a search, a selector or other text${where}`
      }
      return undefined
    },
  }
}

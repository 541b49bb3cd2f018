import type { BlockedRequest, BrowserDriverShape, DriverError, SecretRequestGuard } from "@sextant/core"
import { webOrigin } from "@sextant/core"
import { Effect, type Scope } from "effect"
import { probeSecretTarget, type SecretFieldKind } from "./internal/PageGuard.ts"

/** Where a secret is about to be typed: a ref, a selector, or a field's label. */
export interface SecretField {
  readonly ref?: string
  readonly selector?: string
  readonly label?: string
}

/** What {@link checkSecretDestination} needs. */
export interface SecretDestinationOptions {
  /** The origins the secrets are bound to, known before the run (e.g. `["http://127.0.0.1:4000"]`). */
  readonly allowed: ReadonlyArray<string>
  /** The field the secret would go into. */
  readonly field: SecretField
  /** Who types it, for the message: a tool name such as `fill` or `act`. */
  readonly actor: string
  /** How the secret is shown in the message, e.g. `<secret:password>`. */
  readonly secret: string
  /** What to tell the user to change to allow another origin, e.g. `constraints.allowedOrigins` or `--allowed-origin`. */
  readonly setting: string
  /** The page's URL when the driver cannot read it. */
  readonly fallbackUrl?: string
}

/**
 * Why a secret may not be typed now: `secret-origin` when it would go to an origin the secrets are not
 * bound to, `secret-field` when the field is not one a secret belongs in (a search box, a text area,
 * free text). The rule names the guardrail event an entry point reports.
 */
export interface SecretRefusal {
  readonly rule: "secret-origin" | "secret-field"
  readonly message: string
}

const originText = (url: string): string =>
  webOrigin(url) ?? (url === "about:blank" ? url : `(${url.slice(0, 60)})`)

/** The `autocomplete` tokens that mark a field a secret belongs in. */
export const secretAutocomplete: ReadonlyArray<string> = [
  "username",
  "email",
  "current-password",
  "new-password",
  "one-time-code",
]

const describeField = (kind: SecretFieldKind): string =>
  `${kind.tag === "input" ? `an input type=${kind.type}` : `a ${kind.tag}`}${kind.name === "" ? "" : ` "${kind.name}"`}`

/** Why `kind` is no field for a secret, or undefined when it is a password-like field. */
const fieldProblem = (kind: SecretFieldKind): string | undefined => {
  if (kind.type === "search" || kind.role === "searchbox") return "a search box"
  if (kind.formRole === "search") return "a field of a search form (role=search)"
  if (kind.formMethod === "get") return "a field of a GET form, whose fields end up in the URL"
  if (kind.tag === "textarea") return "a text area"
  if (kind.tag !== "input") return kind.editable ? "editable text" : `a ${kind.tag}, not an input`
  const tokens = kind.autocomplete.split(/\s+/)
  if (kind.type === "password" || tokens.some((token) => secretAutocomplete.includes(token))) return undefined
  if (kind.formPassword) return undefined
  return "free text (not a password field, no autocomplete username, email, current-password, new-password or one-time-code, and no password field in its form)"
}

/**
 * The one secret rule every entry point of Sextant applies before typing a secret (the agent loop, the
 * MCP server's `act`, the explorer). Where: the page, the document holding the field (a frame's), the
 * form it posts to, and every password form on the page must all be on an origin the secrets are bound
 * to (`secret-origin`). Into what: only a password-like field — `type=password`, an input with
 * `autocomplete` username, email, current-password, new-password or one-time-code, or an input of a
 * form that has a password field — and never a search box (`type=search`, `role=searchbox`, a form
 * with `role=search` or `method=get`, whose fields end up in the URL), a text area or free text
 * (`secret-field`). Read from the live page, not from what a run last saw. Answers why typing now is
 * refused, as a message, or `undefined` when it may be typed; {@link secretDestinationRefusal} answers
 * the same with the rule that refused it. The driver checks the origin again as it types
 * (`ActOrigins`), and {@link guardSecretRequests} stops whatever the page sends afterwards.
 *
 * @example
 * ```ts
 * const problem = yield* checkSecretDestination(driver, {
 *   allowed: ["http://127.0.0.1:4000"], field: { ref: "e3" }, actor: "act",
 *   secret: "<secret:password>", setting: "--allowed-origin",
 * })
 * ```
 */
export const checkSecretDestination = (
  driver: BrowserDriverShape,
  options: SecretDestinationOptions,
): Effect.Effect<string | undefined> =>
  Effect.map(secretDestinationRefusal(driver, options), (refusal) => refusal?.message)

/**
 * {@link checkSecretDestination} with the rule that refused: `secret-origin` (the secret would go to
 * another origin) or `secret-field` (the field is no place for a secret), for an entry point that
 * reports guardrail events by rule.
 *
 * @example
 * ```ts
 * const refusal = yield* secretDestinationRefusal(driver, {
 *   allowed: ["http://127.0.0.1:4000"], field: { selector: "#q" }, actor: "fill",
 *   secret: "<secret:password>", setting: "constraints.allowedOrigins",
 * })
 * refusal?.rule // "secret-field" for a search box
 * ```
 */
export const secretDestinationRefusal = (
  driver: BrowserDriverShape,
  options: SecretDestinationOptions,
): Effect.Effect<SecretRefusal | undefined> =>
  Effect.gen(function* () {
    const probe = yield* probeSecretTarget(driver, options.field)
    const pageUrl = yield* driver.currentUrl.pipe(
      Effect.catch(() => Effect.succeed(options.fallbackUrl ?? "about:blank")),
    )
    const places: Array<[string, string | undefined]> = [
      ["the page", originText(pageUrl)],
      ["the page", probe.page],
      ["the field's frame", probe.field],
      ["the field's form action", probe.action],
      ...(probe.forms ?? []).map((origin): [string, string] => ["a password form's action", origin]),
    ]
    for (const [where, origin] of places) {
      if (origin === undefined || options.allowed.includes(origin)) continue
      return {
        rule: "secret-origin",
        message: `${options.actor} would type ${options.secret} where ${where} is ${origin}, which is not an origin the secrets are bound to (${options.allowed.length === 0 ? "none" : options.allowed.join(", ")}): the secret was not typed; add the origin with ${options.setting} only if it is meant to receive it`,
      }
    }
    const problem = probe.kind === undefined ? undefined : fieldProblem(probe.kind)
    if (probe.kind !== undefined && problem !== undefined) {
      return {
        rule: "secret-field",
        message: `${options.actor} would type ${options.secret} into ${describeField(probe.kind)}, which is ${problem}: a secret is typed only into a password-like field (type=password, autocomplete ${secretAutocomplete.join("/")}, or a field of a form with a password field); the secret was not typed`,
      }
    }
    return undefined
  })

/** What {@link guardSecretRequests} needs. */
export interface SecretRequestOptions {
  /** The secret values. */
  readonly values: ReadonlyArray<string>
  /** The origins they are bound to. */
  readonly origins: ReadonlyArray<string>
  /** Block every request to another origin, not only those carrying a secret (`SecretGuardOptions.strict`). */
  readonly strict?: boolean
}

/**
 * Starts the driver's request guard (`BrowserDriver.guardSecrets`) for the rest of the scope: from now
 * on a request the page makes that carries a secret to another origin is failed before it leaves the
 * browser. Answers the guard, or why there is none (a driver without the capability, a session that
 * cannot intercept requests), so the caller can say so.
 *
 * @example
 * ```ts
 * const guard = yield* guardSecretRequests(driver, { values: [password], origins: ["http://127.0.0.1:4000"] })
 * if ("guard" in guard) console.log(yield* guard.guard.blocked)
 * ```
 */
export const guardSecretRequests = (
  driver: BrowserDriverShape,
  options: SecretRequestOptions,
): Effect.Effect<
  { readonly guard: SecretRequestGuard } | { readonly missing: string },
  never,
  Scope.Scope
> => {
  if (driver.guardSecrets === undefined) {
    return Effect.succeed({
      missing:
        "this BrowserDriver cannot guard requests (no guardSecrets): only the checks before typing protect the secrets",
    })
  }
  return driver.guardSecrets(options).pipe(
    Effect.map((guard) => ({ guard })),
    Effect.catch((error: DriverError) => Effect.succeed({ missing: error.message })),
  )
}

/**
 * The guardrail message of a request the driver blocked: what it was, where it went, and where it
 * carried the secret (`secret` is how the secret is shown, e.g. `<secret:password>`). Never the URL,
 * which may hold the secret.
 *
 * @example
 * ```ts
 * blockedRequestMessage({ origin: "http://evil.test", method: "POST", carriedIn: "body", resourceType: "Document", secret: 0 }, "<secret:password>")
 * ```
 */
export const blockedRequestMessage = (blocked: BlockedRequest, secret: string): string =>
  `a ${blocked.resourceType} ${blocked.method} request to ${blocked.origin}${blocked.redirectedFrom === undefined ? "" : ` (a redirect from ${blocked.redirectedFrom})`} carried ${secret} in its ${blocked.carriedIn}: it was blocked before it left the browser, and the run types no secret again`

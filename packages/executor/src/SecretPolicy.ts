import type { BrowserDriverShape } from "@sextant/core"
import { webOrigin } from "@sextant/core"
import { Effect } from "effect"
import { probeSecretTarget } from "./internal/PageGuard.ts"

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

const originText = (url: string): string =>
  webOrigin(url) ?? (url === "about:blank" ? url : `(${url.slice(0, 60)})`)

/**
 * The one secret rule every entry point of Sextant applies before typing a secret (the agent loop, the
 * MCP server's `act`, the explorer): the page, the document holding the field (a frame's), the form it
 * posts to, and every password form on the page must all be on an origin the secrets are bound to.
 * Read from the live page, not from what a run last saw. Answers why typing now would send the secret
 * where it may not go, or `undefined` when it may be typed. The driver checks again as it types
 * (`ActOrigins`).
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
      return `${options.actor} would type ${options.secret} where ${where} is ${origin}, which is not an origin the secrets are bound to (${options.allowed.length === 0 ? "none" : options.allowed.join(", ")}): the secret was not typed; add the origin with ${options.setting} only if it is meant to receive it`
    }
    return undefined
  })

import type { BrowserDriverShape } from "@sextant/core"
import { type GuardViolation, pageCall, type SecretFieldKind, type SecretTarget } from "@sextant/perception"
import { Effect } from "effect"

/*
 * The executor's page guard and the probe of where a secret would go: perception's page functions
 * (`installGuard`, `takeViolations`, `secretTarget`), called through `BrowserDriver.callPage`. Masking for
 * screenshots is perception's `withMaskedPage`, shared with the MCP server.
 */

export type { GuardViolation, SecretFieldKind, SecretTarget }

/** Puts the guard into the page (best effort: a page that is loading gets it at the next step). */
export const installGuard = (
  driver: BrowserDriverShape,
  key: string,
  allowed: ReadonlyArray<string> | undefined,
): Effect.Effect<void> => pageCall(driver, "installGuard", key, allowed ?? null).pipe(Effect.ignore)

/** What the guard stopped since the last call, in the page and its same-origin frames. */
export const takeViolations = (
  driver: BrowserDriverShape,
  key: string,
): Effect.Effect<ReadonlyArray<GuardViolation>> =>
  pageCall(driver, "takeViolations", key).pipe(Effect.catch(() => Effect.succeed([])))

/** Reads where a secret typed into `target` would go; `probed: false` when the page could not be read. */
export const probeSecretTarget = (
  driver: BrowserDriverShape,
  target: { readonly ref?: string; readonly selector?: string; readonly label?: string },
): Effect.Effect<SecretTarget> =>
  pageCall(driver, "secretTarget", target).pipe(Effect.catch(() => Effect.succeed({ probed: false })))

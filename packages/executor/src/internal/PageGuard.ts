import type { BrowserDriverShape } from "@sextant/core"
import { type GuardViolation, pageCall, type SecretFieldKind, type SecretTarget } from "@sextant/perception"
import { Effect } from "effect"

/*
 * The executor's page guard, the probe of where a secret would go and the masking for screenshots:
 * perception's page functions (`installGuard`, `takeViolations`, `secretTarget`, `maskFields`,
 * `pageTexts`, `maskTexts`, `unmaskTexts`), called through `BrowserDriver.callPage`.
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

/**
 * Hides the values of text fields while a screenshot is taken (secrets typed into fields that are not
 * password fields would show), and gives them back afterwards. The secret values are not handed to
 * the page: every non-password field with a value is masked. With `redact` (the run's redaction),
 * elements whose own text holds a secret in any spelling the redaction knows (a page that echoes it,
 * upper-cased or spaced out) are masked too: the page hands its texts out, the run picks the ones to
 * mask, so the secret never goes into the page.
 */
export const maskFields = (
  driver: BrowserDriverShape,
  mask: boolean,
  redact?: (text: string) => string,
): Effect.Effect<void> =>
  Effect.gen(function* () {
    yield* pageCall(driver, "maskFields", mask).pipe(Effect.ignore)
    if (redact === undefined) return
    if (!mask) {
      yield* pageCall(driver, "unmaskTexts").pipe(Effect.ignore)
      return
    }
    const texts = yield* pageCall(driver, "pageTexts").pipe(Effect.orElseSucceed(() => []))
    const secret = texts.flatMap(([index, text]) => (redact(text) === text ? [] : [index]))
    if (secret.length > 0) yield* pageCall(driver, "maskTexts", secret).pipe(Effect.ignore)
  })

import { type Redact, redactSecrets } from "@sextant/core"

export {
  type Redact,
  redactSecrets,
  secretForms,
  secretPlaceholder,
  WHOLE_TOKEN_BELOW,
} from "@sextant/core"

/** How rendering hides secrets: a redaction function, or the secret values by name. */
export type Redaction = Redact | Readonly<Record<string, string>>

/** Turns either form of {@link Redaction} into a function. */
export const toRedact = (redaction: Redaction | undefined): Redact =>
  redaction === undefined
    ? (text) => text
    : typeof redaction === "function"
      ? redaction
      : redactSecrets(redaction)

import { type BrowserDriverShape, DriverError, MaskingFailed } from "@sextant/core"
import { Effect } from "effect"
import { pageCall } from "./PageCall.ts"

const isIndexedText = (entry: unknown): entry is readonly [number, string] =>
  Array.isArray(entry) && typeof entry[0] === "number" && typeof entry[1] === "string"

/**
 * Runs `take` (a screenshot) with the page masked, and gives the page back afterwards, whether `take`
 * succeeded, failed or was interrupted. Masked are the value of every text field with a value that is
 * not a password field (a secret typed into a plain field, or into a password field a "show password"
 * toggle turned into a text field), and every element whose own text `redact` changes (a page that
 * echoes a secret, in any spelling the redaction knows: "Welcome, hunter2", upper-cased, spaced out).
 * The secrets never go into the page: the page hands its texts out and `redact` picks the ones to mask.
 * Both are drawn as discs (`-webkit-text-security`, set `!important` so no page rule draws them as text),
 * in the page, its same-origin frames (also those inside a shadow root) and every open shadow root in them (perception's page functions
 * `maskPage`, `maskTexts` and `unmaskPage`: three page calls per screenshot). An element whose own text is too long to
 * hand to `redact` (over 100,000 characters) is masked unread. Each masked element gets back the inline
 * style, value and priority, it had before.
 *
 * It fails closed: an image cannot be redacted afterwards, so when a masking call fails (it threw, the
 * page navigated away, a dialog is open), or a masked element still draws its text (the page made the
 * style a no-op, or styles it back) `take` does not run and the effect fails with `DriverError`
 * (method `screenshot`, reason `MaskingFailed`, the masking call's error as `cause`). With no secret known
 * (`redact` changes no text) it still masks every text field: the agent API's screenshots
 * (`agentApiOf`'s `maskPage`) mask so, since what an agent typed may be a token or a card number.
 *
 * @example
 * ```ts
 * import { Effect } from "effect"
 * import { BrowserDriver } from "@sextant/core"
 * import { withMaskedPage } from "@sextant/perception"
 * const redact = (text: string) => text.replaceAll("hunter2", "<secret:password>")
 * const png = BrowserDriver.use((driver) => withMaskedPage(driver, redact, driver.screenshot()))
 * ```
 */
export const withMaskedPage = <A, E, R>(
  driver: Pick<BrowserDriverShape, "callPage">,
  redact: (text: string) => string,
  take: Effect.Effect<A, E, R>,
): Effect.Effect<A, E | DriverError, R> => {
  const refuse = (detail: string, cause?: unknown) =>
    new DriverError({ method: "screenshot", reason: new MaskingFailed({ detail }), cause })
  // Two page calls: maskPage masks the fields and hands the texts out; maskTexts masks the ones
  // `redact` changes and answers how many masked elements still draw their text.
  const mask = Effect.gen(function* () {
    const texts: unknown = yield* pageCall(driver, "maskPage")
    // The answer crossed from the page as JSON: one that is not the pairs maskPage makes cannot be read.
    if (!Array.isArray(texts) || !texts.every(isIndexedText))
      return yield* refuse("maskPage answered something other than [index, text] pairs")
    const secret = texts.flatMap(([index, text]) => (redact(text) === text ? [] : [index]))
    // A page can make the style a no-op without an error: what counts is what the page draws.
    const shown: unknown = yield* pageCall(driver, "maskTexts", secret)
    if (shown !== 0)
      return yield* refuse(
        typeof shown === "number"
          ? `${shown} masked element${shown === 1 ? "" : "s"} still draw their text: the page undoes the masking style`
          : "maskTexts answered something other than a number",
      )
  }).pipe(
    Effect.mapError((error) =>
      error.reason._tag === "MaskingFailed" ? error : refuse(error.reason.message, error),
    ),
  )
  // One call gives back every masked element, fields and texts: a mask left on hides, it never shows.
  const restore = Effect.ignore(pageCall(driver, "unmaskPage"))
  return Effect.andThen(mask, take).pipe(Effect.ensuring(restore))
}

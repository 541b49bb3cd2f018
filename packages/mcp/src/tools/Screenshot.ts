import { type BrowserDriverShape, parseTarget } from "@sextant/core"
import { pageCall } from "@sextant/perception"
import { Effect } from "effect"
import { z } from "zod"
import { failure } from "../internal/Answers.ts"
import type { ClientSession } from "../internal/ClientSession.ts"
import { defineMcpTool } from "../McpTool.ts"

/**
 * Masks what could show a secret while `take` runs, as a run's screenshots are: the value of every text
 * field that is not a password field, and every element whose own text holds a secret in a spelling the
 * session's redactor knows (the page hands its texts out; the secrets never go into the page). An image
 * cannot be redacted afterwards, so when the page cannot be masked no screenshot is taken.
 */
const masked = <A, E>(
  session: ClientSession,
  driver: BrowserDriverShape,
  take: Effect.Effect<A, E>,
): Effect.Effect<A, E | Error> =>
  Effect.gen(function* () {
    const refuse = (cause: unknown) =>
      new Error(
        `no screenshot taken: the session has secrets and the page's text fields and texts could not be masked (${cause instanceof Error ? cause.message : String(cause)}); use look instead`,
      )
    yield* pageCall(driver, "maskFields", true).pipe(Effect.mapError(refuse))
    const texts = yield* pageCall(driver, "pageTexts").pipe(Effect.mapError(refuse))
    const secret = texts.flatMap(([index, text]) => (session.redactor.text(text) === text ? [] : [index]))
    if (secret.length > 0) yield* pageCall(driver, "maskTexts", secret).pipe(Effect.mapError(refuse))
    return yield* take
  }).pipe(
    Effect.ensuring(
      Effect.all([pageCall(driver, "maskFields", false), pageCall(driver, "unmaskTexts")]).pipe(
        Effect.ignore,
      ),
    ),
  )

/**
 * `screenshot`: a PNG of the viewport or of one ref, as an image block. In a session with secrets, text
 * fields and texts that hold a secret are drawn masked.
 */
export const screenshot = defineMcpTool({
  name: "screenshot",
  description: "PNG of the page or a ref.",
  input: z.strictObject({ ref: z.string().min(1).optional() }),
  handle: async (session, args) => {
    try {
      const png = await session.call((driver) => {
        const take = driver.screenshot(args.ref === undefined ? {} : { target: parseTarget(args.ref) })
        return Object.keys(session.secrets).length === 0 ? take : masked(session, driver, take)
      })
      return {
        content: [{ type: "image", data: Buffer.from(png).toString("base64"), mimeType: "image/png" }],
      }
    } catch (error) {
      return failure(session, error)
    }
  },
})

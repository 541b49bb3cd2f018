import { decodeWith } from "@sextant/core"
import { Effect } from "effect"
import { z } from "zod"

const count = z.number().int("must be a whole number").positive("must be at least 1")

/** The numeric limits the model-backed parts take; the other options (the registry, guards) pass as they are. */
const Limits = z
  .object({
    historyWindow: count.optional(),
    maxOutlineChars: count.optional(),
    viewTokens: count.optional(),
    maxTokens: count.optional(),
    maxElements: count.optional(),
  })
  .loose()

/**
 * Checks the limits given to a model-backed part. A wrong one is a mistake in the caller's code, so it is
 * a defect, whose message names the field: `options.historyWindow: must be at least 1 (got 0)`.
 */
export const checkLimits = (what: string, options: object): Effect.Effect<void> =>
  Effect.orDie(Effect.asVoid(decodeWith(Limits, `${what} options`, "options")(options)))

import type { DriverError } from "@sextant/core"
import { Effect } from "effect"

// What a call answered, in a few words: a snapshot by its page, anything else as (short) JSON.
const described = (answer: unknown): string => {
  if (typeof answer === "object" && answer !== null) {
    const { url, title, tree } = answer as { url?: unknown; title?: unknown; tree?: unknown }
    if (typeof url === "string" && typeof tree === "string")
      return `a snapshot of ${url}${typeof title === "string" ? ` ("${title}")` : ""}`
    if (typeof url === "string") return `a page at ${url}`
  }
  const json = JSON.stringify(answer) ?? String(answer)
  return json.length > 200 ? `${json.slice(0, 200)}…` : json
}

/**
 * The error of a driver call the test expects to fail. A call that succeeds dies with `expected
 * <expected>, it answered <what>` (say, "expected look to fail after Chromium was killed, it answered
 * a snapshot of http://…/login"): `Effect.flip` alone would throw the answer itself, a whole page
 * snapshot, which names neither the call nor the intent.
 */
export const failing = <A, R>(
  effect: Effect.Effect<A, DriverError, R>,
  expected: string,
): Effect.Effect<DriverError, never, R> =>
  effect.pipe(
    Effect.flatMap((answer) =>
      Effect.die(new Error(`expected ${expected}, it answered ${described(answer)}`)),
    ),
    Effect.flip,
  )

/** Runs a driver call the test expects to fail ({@link failing}): its error and how long it took. */
export const failure = async <A>(
  effect: Effect.Effect<A, DriverError>,
  expected: string,
): Promise<{ readonly error: DriverError; readonly elapsedMs: number }> => {
  const started = Date.now()
  const error = await Effect.runPromise(failing(effect, expected))
  return { error, elapsedMs: Date.now() - started }
}

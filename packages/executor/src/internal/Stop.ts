import { Effect } from "effect"
import type { RunContext } from "./RunContext.ts"

/** True once the run was asked to stop (`ExecutorOptions.stopSignal` aborted). */
export const stopAsked = (context: RunContext): boolean => context.options.stopSignal?.aborted === true

/** Marks the start of a step: a stop asked from now on waits until {@link stepEnds}. */
export const stepStarts = (context: RunContext): void => {
  context.stepInFlight = true
}

/** Marks the end of a step (its finished row is in the store): a stop that waited for it goes ahead. */
export const stepEnds = (context: RunContext): void => {
  context.stepInFlight = false
  for (const listener of [...context.stepEndListeners]) listener()
}

/** Ends once a stop was asked and no step is in flight; never ends for a run without a stop signal. */
const stopPoint = (context: RunContext, signal: AbortSignal): Effect.Effect<void> =>
  Effect.callback<void>((resume) => {
    const check = () => {
      if (!signal.aborted || context.stepInFlight) return
      cleanup()
      resume(Effect.void)
    }
    const cleanup = () => {
      signal.removeEventListener("abort", check)
      context.stepEndListeners.delete(check)
    }
    signal.addEventListener("abort", check)
    context.stepEndListeners.add(check)
    check()
    return Effect.sync(cleanup)
  })

/**
 * Runs `body` until it ends, or until the run is asked to stop while no step is in flight: then the
 * body is cut (a model call or a wait between steps, never a step half done) and `stopped()` answers
 * instead. The step in flight when the stop was asked runs to its end and is stored as finished first.
 */
export const untilStopped = <A, E, R>(
  context: RunContext,
  body: Effect.Effect<A, E, R>,
  stopped: () => A,
): Effect.Effect<A, E, R> => {
  const signal = context.options.stopSignal
  if (signal === undefined) return body
  return Effect.raceFirst(body, Effect.map(stopPoint(context, signal), stopped))
}

import { DriverCrashed, DriverError, Timeout } from "@sextant/core"
import { Effect } from "effect"
import type { DriverSession } from "../Session.ts"

/** How long an unknown error waits for the browser's report that the tab crashed, in ms. */
const crashReportMs = 500
const crashReportPollMs = 25
/** How long a call waits on a tab before the tab is asked whether it still answers, and between asks, in ms. */
const hangCheckMs = 500
/** How long a call on a remote session waits before the remote end is asked whether the session still exists, and between asks, in ms. */
const remoteCheckMs = 2_000

/** Gives one driver operation its time limit (the command limit unless told) and the crash watch. */
export type Guard = (
  method: string,
  limitMs?: number,
) => <A, R>(effect: Effect.Effect<A, DriverError, R>) => Effect.Effect<A, DriverError, R>

/**
 * Liveness: every operation has a time limit, and on a launched session a dead ChromeDriver or
 * Chromium, or a crashed tab, fails it as DriverCrashed within `crashCheckMs`, naming what died,
 * instead of letting it wait out its limit or report the symptom ("invalid session id") as the cause.
 * A tab that stopped answering (its renderer busy without end) fails a call waiting on it the same
 * way, as a crashed tab, within about {@link hangCheckMs} plus two probes.
 */
export const makeGuard = (
  session: Pick<DriverSession, "crashed" | "probe">,
  options: { readonly commandTimeoutMs: number; readonly crashCheckMs: number },
  /** Crashed tabs (see TabCrashes): the reason a call `method` fails with, and whether they are watched at all. */
  tabs?: {
    readonly reasonFor: (method: string) => DriverCrashed | undefined
    readonly watched: () => boolean
    /** Whether the current tab stopped answering (see TabCrashes): the reason, once it has. */
    readonly stoppedAnswering?: (method: string) => Promise<DriverCrashed | undefined>
  },
): Guard => {
  const tabCrashed = tabs?.reasonFor
  const crashedError = (method: string, cause?: unknown): DriverError | undefined => {
    const died = session.crashed?.()
    if (died !== undefined)
      return new DriverError({ method, reason: new DriverCrashed({ detail: died }), cause })
    const tab = tabCrashed?.(method)
    return tab === undefined ? undefined : new DriverError({ method, reason: tab, cause })
  }
  const crashWatch = (method: string): Effect.Effect<never, DriverError> =>
    session.crashed === undefined && tabs?.watched() !== true
      ? Effect.never
      : Effect.gen(function* () {
          for (;;) {
            yield* Effect.sleep(options.crashCheckMs)
            const crashed = crashedError(method)
            if (crashed !== undefined) return yield* Effect.fail(crashed)
          }
        })
  // A tab whose renderer is busy without end never answers, and the browser reports no crash: a call
  // that waits on it asks the tab, and a tab that stopped answering fails the call as a crashed tab.
  const stoppedAnswering = tabs?.stoppedAnswering
  const hangWatch = (method: string): Effect.Effect<never, DriverError> =>
    stoppedAnswering === undefined || tabs?.watched() !== true
      ? Effect.never
      : Effect.gen(function* () {
          for (;;) {
            yield* Effect.sleep(hangCheckMs)
            const hung = yield* Effect.promise(() => stoppedAnswering(method))
            if (hung !== undefined) return yield* Effect.fail(new DriverError({ method, reason: hung }))
          }
        })
  // A remote session (a grid node, a remote ChromeDriver) has no process to watch: a call that waits
  // asks the remote end whether the session still exists; a node that died fails the call at once
  // rather than leaving it to wait out its limit (a BiDi command to a dead grid node gets no answer).
  const probe = session.probe
  const lostAs = (method: string, cause?: unknown): Effect.Effect<DriverError | undefined> =>
    probe === undefined
      ? Effect.succeed(undefined)
      : Effect.map(
          Effect.promise(() => probe()),
          (lost) =>
            lost === undefined
              ? undefined
              : new DriverError({ method, reason: new DriverCrashed({ detail: lost }), cause }),
        )
  const remoteWatch = (method: string): Effect.Effect<never, DriverError> =>
    probe === undefined
      ? Effect.never
      : Effect.gen(function* () {
          for (;;) {
            yield* Effect.sleep(remoteCheckMs)
            const lost = yield* lostAs(method)
            if (lost !== undefined) return yield* Effect.fail(lost)
          }
        })
  return (method, limitMs = options.commandTimeoutMs) =>
    (effect) =>
      Effect.suspend(() => {
        // A call on a session whose driver or browser already died fails before it is sent.
        const crashed = crashedError(method)
        return crashed === undefined
          ? Effect.raceFirst(
              Effect.raceFirst(Effect.raceFirst(effect, crashWatch(method)), hangWatch(method)),
              remoteWatch(method),
            )
          : Effect.fail(crashed)
      }).pipe(
        Effect.timeoutOrElse({
          duration: limitMs,
          orElse: () =>
            Effect.fail(
              crashedError(method) ??
                new DriverError({
                  method,
                  reason: new Timeout({ operation: `BrowserDriver.${method}`, timeoutMs: limitMs }),
                }),
            ),
        }),
        // Whatever the symptom ("invalid session id", a closed socket), a dead process is the cause.
        Effect.catch((error: DriverError) => {
          const crashed = crashedError(method, error)
          if (
            crashed === undefined &&
            probe !== undefined &&
            (error.reason._tag === "DriverUnknown" ||
              error.reason._tag === "SessionClosed" ||
              error.reason._tag === "Timeout" ||
              error.reason._tag === "DriverCrashed")
          )
            // The symptom of a lost remote session ("Unable to execute request", a closed BiDi
            // socket, a timeout): ask the remote end, whose answer names what was lost.
            return Effect.flatMap(lostAs(method, error), (lost) => Effect.fail(lost ?? error))
          if (crashed !== undefined || tabs?.watched() !== true || error.reason._tag !== "DriverUnknown")
            return Effect.fail(crashed ?? error)
          // ChromeDriver may answer for a crashed tab ("tab crashed", an unknown error) a moment
          // before the browser's own report arrives: an unknown error waits that moment for it.
          return Effect.gen(function* () {
            for (let waited = 0; waited < crashReportMs; waited += crashReportPollMs) {
              yield* Effect.sleep(crashReportPollMs)
              const heard = crashedError(method, error)
              if (heard !== undefined) return yield* Effect.fail(heard)
            }
            return yield* Effect.fail(error)
          })
        }),
      )
}

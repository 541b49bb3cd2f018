import type { BrowserDriverShape, RecordedAction, WaitCondition, WaitResult } from "@sextant/core"
import { Clock, Effect } from "effect"
import type { DriverContext } from "./DriverContext.ts"
import { preparedError } from "./Prepared.ts"

/**
 * The wait a script would repeat: one that held, on text or a selector (with its state). A ref means
 * nothing outside the run and a JS condition or a navigation is not replayed, so those are not kept.
 */
export const recordedWait = (condition: WaitCondition, result: WaitResult): RecordedAction | undefined =>
  !result.ok
    ? undefined
    : "text" in condition
      ? { kind: "wait", condition: { text: condition.text } }
      : "selector" in condition
        ? {
            kind: "wait",
            condition: {
              selector: condition.selector,
              ...(condition.state === undefined ? {} : { state: condition.state }),
            },
          }
        : undefined

/**
 * Waiting: for a navigation (the URL changes, polled from here) or for anything on the page (text,
 * a ref, a selector's state, a JS condition), which the page script polls in one call.
 */
export const makeWaits = (
  driver: Pick<DriverContext, "call" | "currentUrl" | "options" | "recorded" | "guard">,
): Pick<BrowserDriverShape, "waitFor"> => {
  const { call, currentUrl, options, guard } = driver

  const waitFor: BrowserDriverShape["waitFor"] = Effect.fn("BrowserDriver.waitFor")(function* (
    condition: WaitCondition,
    waitOptions,
  ) {
    const timeoutMs = waitOptions?.timeoutMs ?? options.waitTimeoutMs
    if ("navigation" in condition) {
      // Effect's clock, so tests can move it (TestClock) instead of waiting out the limit.
      const started = yield* Clock.currentTimeMillis
      const from = condition.navigation.from ?? (yield* currentUrl)
      for (;;) {
        const url = yield* currentUrl.pipe(Effect.catch(() => Effect.succeed(from)))
        const elapsedMs = (yield* Clock.currentTimeMillis) - started
        if (url !== from) return { ok: true, elapsedMs } satisfies WaitResult
        if (elapsedMs >= timeoutMs) return { ok: false, elapsedMs }
        yield* Effect.sleep(50)
      }
    }
    const target =
      "ref" in condition ? condition.ref : "selector" in condition ? condition.selector : undefined
    const json = yield* call("waitFor", target === undefined ? {} : { errorContext: { target } })(
      "waitFor",
      condition,
      timeoutMs,
    )
    const result = JSON.parse(json) as { ok?: boolean; elapsedMs?: number; error?: string; detail?: string }
    if (result.error !== undefined) {
      return yield* Effect.fail(
        preparedError(
          "waitFor",
          "ref" in condition ? { ref: condition.ref } : { selector: target ?? "" },
          result,
        ),
      )
    }
    return { ok: result.ok === true, elapsedMs: Math.round(result.elapsedMs ?? 0) }
  })

  return {
    waitFor: (condition, waitOptions) =>
      waitFor(condition, waitOptions).pipe(
        driver.recorded<WaitResult>((result) => recordedWait(condition, result)),
        guard("waitFor", (waitOptions?.timeoutMs ?? options.waitTimeoutMs) + options.commandTimeoutMs),
      ),
  }
}

import {
  type DriverError,
  type LookOptions,
  type PageSnapshot,
  type SextantError,
  TabOrigins,
} from "@sextant/core"
import { Effect } from "effect"
import { crashedTab } from "../RetryPolicy.ts"
import type { RunContext } from "./RunContext.ts"

/**
 * Moves the run off a tab whose renderer crashed: a fresh tab in the same browser context (the
 * driver's `recoverTab`, which the WebDriver session follows), the last page loaded there again, and
 * nothing of the old page kept (snapshot, refs). Fails with the recovery's own error when the browser
 * cannot open a tab (the whole browser is gone: the run then ends as for any dead browser), or with
 * `crashed` when the driver cannot recover tabs at all.
 */
export const resumeOnNewTab = <E extends SextantError>(context: RunContext, crashed: E) =>
  Effect.gen(function* () {
    const recoverTab = context.driver.recoverTab
    if (recoverTab === undefined) return yield* Effect.fail(crashed)
    const tab = yield* recoverTab
    context.knownTabs = new Set([...(context.knownTabs ?? []), tab.handle])
    context.lastSnapshot = undefined
    const url = context.lastUrl
    // The page the run was on, loaded again as it was reached; it was allowed when it was first loaded.
    if (/^https?:/i.test(url)) yield* context.driver.navigate(url)
    context.trace.line(
      `  the tab crashed (${crashedTab(crashed) ?? "?"}): continuing in a new tab (${tab.handle}) at ${url}`,
    )
    return tab
  })

/**
 * A look for the step-wise policy (with the options of the view it asks for) that survives a crashed tab once: when the look fails because the
 * tab crashed, the run moves to a new tab at the last page and looks again. Anything else, including
 * a recovery that failed, is the look's answer as before.
 */
export const lookOrResume = (
  context: RunContext,
  options?: LookOptions,
): Effect.Effect<PageSnapshot, DriverError> =>
  context.driver.look(options).pipe(
    Effect.catchIf(
      (error) => crashedTab(error) !== undefined && context.driver.recoverTab !== undefined,
      (error) =>
        resumeOnNewTab(context, error).pipe(
          // Either the look's own error or the recovery's, a DriverError both.
          Effect.mapError((failed) => failed as DriverError),
          Effect.andThen(context.driver.look(options)),
        ),
    ),
  )

/**
 * Runs a whole run with `TabOrigins` set to its allowed origins, so that every driver call of the
 * run (steps, looks, checks between them) leaves the driver holding new tabs to them. The tabs the
 * driver closed collect in `context.closedPopups` until the step that opened them reports them.
 */
export const withTabOrigins =
  (context: RunContext) =>
  <A, E, R>(run: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> => {
    const popups = context.guardrails.allowedOrigins
    return popups === undefined
      ? run
      : Effect.provideService(run, TabOrigins, {
          popups,
          onClosed: (url) => context.closedPopups.push(url),
        })
  }

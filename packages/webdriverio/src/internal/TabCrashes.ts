import { type BrowserDriverShape, DriverCrashed, type DriverError, type TabInfo } from "@sextant/core"
import { Effect } from "effect"
import { toDriverError } from "../DriverErrors.ts"
import { BROWSER_ENDPOINT, type DevtoolsEvent, type DevtoolsSockets } from "./DevtoolsSocket.ts"
import type { DriverContext } from "./DriverContext.ts"

/**
 * The tabs whose renderer died (out of memory, killed, crashed), as the browser reports them on its
 * own DevTools socket (`Target.targetCrashed`) the moment it happens. A call to a crashed tab would
 * otherwise wait out its whole time limit: the page never answers, and nothing else says why.
 */
export interface TabCrashes {
  /** The reason a call `method` to the tab `context` fails with, when that tab crashed. */
  readonly reasonFor: (method: string, context: string | undefined) => DriverCrashed | undefined
  /** The browser's DevTools sockets the crashes are heard on, which a recovery opens the new tab with. */
  readonly sockets: DevtoolsSockets | undefined
}

/**
 * Calls that act on the browser rather than on the current tab: a crashed current tab does not fail
 * them, so the driver can still list, switch, close and recover tabs.
 */
const browserWide: ReadonlySet<string> = new Set(["tabs", "switchTab", "closeTab", "recoverTab"])

/**
 * Listens for crashed tabs on the browser's socket (`Target.setDiscoverTargets` makes the browser
 * report them), until the scope closes. Without sockets (a remote endpoint), nothing is heard and
 * a crashed tab shows as the call's own failure or time limit.
 */
export const watchTabCrashes = (sockets: DevtoolsSockets | undefined, timeoutMs: number) =>
  Effect.gen(function* () {
    const crashed = new Map<string, string>()
    const tabCrashes: TabCrashes = {
      reasonFor: (method, context) => {
        if (context === undefined || browserWide.has(method)) return undefined
        const detail = crashed.get(context)
        return detail === undefined ? undefined : new DriverCrashed({ detail, tab: context })
      },
      sockets,
    }
    if (sockets === undefined) return tabCrashes
    yield* Effect.acquireRelease(
      Effect.sync(() =>
        sockets.listen(BROWSER_ENDPOINT, (event: DevtoolsEvent) => {
          if (event.method !== "Target.targetCrashed" || event.sessionId !== undefined) return
          const { targetId, status, errorCode } = event.params as {
            readonly targetId?: unknown
            readonly status?: unknown
            readonly errorCode?: unknown
          }
          if (typeof targetId !== "string") return
          crashed.set(
            targetId,
            `its renderer process ${typeof status === "string" && status !== "crashed" ? `ended (${status})` : "crashed"}${typeof errorCode === "number" ? `, exit code ${errorCode}` : ""}`,
          )
        }),
      ),
      (stop) => Effect.sync(stop),
    )
    // A browser that does not answer is the liveness guard's to report, not this watch's.
    yield* Effect.promise(() =>
      sockets.sendOnce(BROWSER_ENDPOINT, "Target.setDiscoverTargets", { discover: true }),
    ).pipe(Effect.timeoutOrElse({ duration: timeoutMs, orElse: () => Effect.void }))
    return tabCrashes
  })

interface TargetInfoAnswer {
  readonly result?: { readonly targetInfo?: { readonly browserContextId?: unknown } }
}

// Opens a blank tab in the browser context of the tab `crashed` (the same cookies and storage), by
// the first path the session has: BiDi (whose mapper then tracks the tab as its own), the browser's
// DevTools socket, or WebDriver Classic.
const openBeside = async (
  driver: Pick<DriverContext, "browser" | "bidi">,
  sockets: DevtoolsSockets | undefined,
  crashed: string,
): Promise<string> => {
  const { browser, bidi } = driver
  if (bidi) {
    const tree = (await browser.browsingContextGetTree({ maxDepth: 0 })) as {
      readonly contexts: ReadonlyArray<{ readonly context: string; readonly userContext?: string }>
    }
    const userContext = tree.contexts.find((entry) => entry.context === crashed)?.userContext
    const { context } = (await browser.browsingContextCreate({
      type: "tab",
      ...(userContext === undefined ? {} : { userContext }),
    })) as { readonly context: string }
    return context
  }
  if (sockets !== undefined) {
    const info = (await sockets.send(BROWSER_ENDPOINT, "Target.getTargetInfo", { targetId: crashed })) as
      | TargetInfoAnswer
      | undefined
    const browserContextId = info?.result?.targetInfo?.browserContextId
    const opened = (await sockets.send(BROWSER_ENDPOINT, "Target.createTarget", {
      url: "about:blank",
      ...(typeof browserContextId === "string" ? { browserContextId } : {}),
    })) as { readonly result?: { readonly targetId?: unknown } } | undefined
    const targetId = opened?.result?.targetId
    if (typeof targetId === "string") return targetId
  }
  const { handle } = (await browser.createWindow("tab")) as { readonly handle: string }
  return handle
}

// Closes the crashed tab; it shows nothing, and a failure to close it changes nothing for the run.
const closeCrashed = async (
  driver: Pick<DriverContext, "browser" | "bidi">,
  sockets: DevtoolsSockets | undefined,
  crashed: string,
): Promise<void> => {
  if (sockets !== undefined) {
    const closed = await sockets.send(BROWSER_ENDPOINT, "Target.closeTarget", { targetId: crashed })
    if (closed !== undefined) return
  }
  if (driver.bidi) await driver.browser.browsingContextClose({ context: crashed })
}

/** `recoverTab`: the session moves to a fresh tab beside the crashed one. */
export const makeTabRecovery = (
  driver: Pick<
    DriverContext,
    "browser" | "bidi" | "state" | "watchTab" | "guard" | "dialogs" | "tabCrashes" | "options"
  >,
): Pick<BrowserDriverShape, "recoverTab"> => {
  const { browser, state, watchTab, guard, dialogs, tabCrashes } = driver
  const recoverTab: Effect.Effect<TabInfo, DriverError> = Effect.gen(function* () {
    const crashed = state.context
    const handle = yield* Effect.tryPromise({
      try: () => openBeside(driver, tabCrashes.sockets, crashed),
      catch: toDriverError("recoverTab", { target: crashed }),
    })
    yield* Effect.tryPromise({
      try: () => browser.switchToWindow(handle),
      catch: toDriverError("recoverTab", { target: handle }),
    })
    state.context = handle
    state.lastSnapshot = undefined
    // A dialog of the crashed tab is gone with it.
    dialogs.clear()
    yield* watchTab(handle)
    yield* Effect.promise(() =>
      closeCrashed(driver, tabCrashes.sockets, crashed).catch(() => undefined),
    ).pipe(Effect.timeoutOrElse({ duration: driver.options.commandTimeoutMs, orElse: () => Effect.void }))
    return { handle, url: "about:blank", title: "", active: true }
  }).pipe(Effect.withSpan("BrowserDriver.recoverTab"))
  return { recoverTab: recoverTab.pipe(guard("recoverTab")) }
}

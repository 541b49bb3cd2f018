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
  /**
   * Whether the tab `context`, which a call `method` has been waiting on, stopped answering: a
   * trivial script sent to it twice in a row got no answer within {@link hangProbeMs} each time (a
   * renderer busy in an endless loop). Such a tab is from then on treated as crashed (every later call
   * to it fails at once, and `recoverTab` replaces it). Answers the reason, or undefined while the
   * tab answers, a dialog holds it (`dialogOpen`), the call acts on the browser, or nothing can ask.
   */
  readonly stoppedAnswering: (
    method: string,
    context: string | undefined,
    dialogOpen: () => boolean,
  ) => Promise<DriverCrashed | undefined>
  /** The browser context of a hung tab closed here, for the tab that replaces it. */
  readonly browserContextOf: (context: string) => string | undefined
}

/** How long one probe of a tab that a call waits on may go unanswered, in ms. */
export const hangProbeMs = 1_500

/**
 * How many silent probes in a row make a tab hung. A `look` runs Sextant's own script over the whole
 * page on the renderer's main thread, where the probe waits too: on a large page on a busy machine that
 * script alone can keep the probe unanswered for seconds, so a look waits five probes (7.5 s) before it
 * calls the tab hung; every other call two (3 s).
 */
const silentProbes = (method: string): number => (method === "look" ? 5 : 2)

type Probe = "answered" | "silent" | "unknown"

// One trivial script on the tab's own socket. It runs on the renderer's main thread, so a page busy
// in a loop never answers it; a navigation or a closed page answers with an error, which is an answer.
const probeTab = (sockets: DevtoolsSockets, context: string): Promise<Probe> =>
  new Promise((resolve) => {
    const timer = setTimeout(() => resolve("silent"), hangProbeMs)
    sockets.send(context, "Runtime.evaluate", { expression: "0", returnByValue: true }).then(
      (answer) => {
        clearTimeout(timer)
        resolve(answer === undefined ? "unknown" : "answered")
      },
      () => {
        clearTimeout(timer)
        resolve("unknown")
      },
    )
  })

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
    // The browser contexts of the hung tabs closed before their recovery asked for them.
    const closedContexts = new Map<string, string>()
    const tabCrashes: TabCrashes = {
      reasonFor: (method, context) => {
        if (context === undefined || browserWide.has(method)) return undefined
        const detail = crashed.get(context)
        return detail === undefined ? undefined : new DriverCrashed({ detail, tab: context })
      },
      sockets,
      stoppedAnswering: async (method, context, dialogOpen) => {
        if (sockets === undefined || context === undefined || crashed.has(context))
          return tabCrashes.reasonFor(method, context)
        // At least twice: the first probe may also wait for the tab's socket to connect.
        const probes = silentProbes(method)
        for (let probe = 0; probe < probes; probe++)
          if ((await probeTab(sockets, context)) !== "silent") return undefined
        // A page showing an alert does not run scripts either, but it is waiting, not hung.
        if (dialogOpen() || crashed.has(context)) return tabCrashes.reasonFor(method, context)
        crashed.set(
          context,
          `the tab stopped answering: its page kept the renderer busy (a script running without end), and a trivial script got no answer in ${(probes * hangProbeMs) / 1000} s`,
        )
        // Closed at once (the browser's socket closes even a busy tab): a WebDriver command still
        // waiting on it would otherwise hold up every later command of the session, the calls that
        // list tabs and open the new one included. Its browser context is kept for the new tab.
        const info = (await sockets.send(BROWSER_ENDPOINT, "Target.getTargetInfo", { targetId: context })) as
          | TargetInfoAnswer
          | undefined
        const browserContextId = info?.result?.targetInfo?.browserContextId
        if (typeof browserContextId === "string") closedContexts.set(context, browserContextId)
        await sockets.send(BROWSER_ENDPOINT, "Target.closeTarget", { targetId: context })
        // A call that acts on the browser goes on, now that nothing holds it up.
        return tabCrashes.reasonFor(method, context)
      },
      browserContextOf: (context) => closedContexts.get(context),
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
  closedContext: string | undefined,
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
    const browserContextId = info?.result?.targetInfo?.browserContextId ?? closedContext
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
      try: () => openBeside(driver, tabCrashes.sockets, crashed, tabCrashes.browserContextOf(crashed)),
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

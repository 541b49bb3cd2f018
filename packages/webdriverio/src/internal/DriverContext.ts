import {
  type BrowserDriverShape,
  DriverError,
  ForeignPageRuntime,
  InvalidArgument,
  type LookOptions,
  type PageSnapshot,
  type RecordedAction,
  ScriptError,
} from "@sextant/core"
import { pageScriptSource, parseSnapshot } from "@sextant/perception"
import { Effect } from "effect"
import type { z } from "zod"
import { type ErrorContext, toDriverError } from "../DriverErrors.ts"
import type { DriverOptions } from "../DriverOptions.ts"
import type { DriverSession } from "../Session.ts"
import {
  actorScriptSource,
  callActorDeclaration,
  foreignRuntimeMarker,
  installAndCallDeclaration,
  missingMarker,
} from "./ActorCall.ts"
import {
  BROWSER_ENDPOINT,
  type DevtoolsEvent,
  type DevtoolsSockets,
  devtoolsSockets,
} from "./DevtoolsSocket.ts"
import { type DialogEvent, type Dialogs, makeDialogs } from "./Dialogs.ts"
import { fail } from "./Fail.ts"
import { type Guard, makeGuard } from "./Liveness.ts"
import { makePopupGuard, type PopupGuard } from "./PopupGuard.ts"
import { type Channels, callFunction, probeCdp } from "./Protocol.ts"
import { makeRecorder, type Recorder } from "./Recording.ts"
import { makeSecretGuard, type SecretGuard } from "./SecretGuard.ts"
import { type TabCrashes, watchTabCrashes } from "./TabCrashes.ts"

/** The driver options with every default filled in. */
export type ResolvedOptions = z.output<typeof DriverOptions>

/** What the driver's operations change as they run. */
export interface DriverState {
  /** The handle (BiDi browsing context) of the tab every page call goes to. */
  context: string
  /** What the agent last saw, the base of the next action's diff; cleared when the page is replaced. */
  lastSnapshot: PageSnapshot | undefined
  /** Tabs the browser opened (heard over BiDi or the browser's DevTools socket), in order; an action reports the ones it opened. */
  readonly newTabs: Array<string>
  /**
   * The load in flight on the tab's socket, until its document committed: while the server has not
   * answered, the tab's renderer does not answer scripts either, and a tab waiting on a slow server is not hung.
   */
  loading: { readonly committed: boolean } | undefined
}

/** How one page-script call goes out. */
export interface CallOptions {
  /** What the error of a failed call names. */
  readonly errorContext?: ErrorContext
  /** Over the tab's DevTools socket: a short answer, or a script waiting for input sent on the socket. */
  readonly viaSocket?: boolean
  /** Over the tab's own socket, when the session has one and no dialog is open. */
  readonly direct?: boolean
}

/** A call of the page's actor script: the method's name and its arguments in, its JSON answer out. */
export type ActorCall = (
  actorMethod: string,
  ...args: ReadonlyArray<unknown>
) => Effect.Effect<string, DriverError>

/** Everything the driver's parts share: the session, its channels, the options, state and the common calls. */
export interface DriverContext {
  readonly session: DriverSession
  readonly browser: WebdriverIO.Browser
  readonly bidi: boolean
  /** Whether Chrome DevTools commands reach the browser. */
  readonly cdp: boolean
  /** Whether the browser reports dialogs and new tabs as events (BiDi, or a launched Chromium's tab sockets). */
  readonly tracked: boolean
  /**
   * Makes the tab `context` report its dialogs and get the actor before its pages' own scripts, when
   * its socket stands in for BiDi (once per tab; nothing otherwise). Called for every tab the driver
   * switches to.
   */
  readonly watchTab: (context: string) => Effect.Effect<void>
  readonly channels: Channels
  readonly options: ResolvedOptions
  readonly dialogs: Dialogs
  readonly recorder: Recorder
  /** The request guard of `guardSecrets`. */
  readonly secretGuard: SecretGuard
  readonly state: DriverState
  readonly guard: Guard
  /** The tabs whose renderer crashed, and the sockets a new tab is opened with. */
  readonly tabCrashes: TabCrashes
  /**
   * Whether WebdriverIO still hears the session's network events, which its `url` command needs to
   * answer the response; off when the driver loads pages on the tab's own socket (see {@link quietEvents}).
   */
  readonly networkEvents: boolean
  /** Calls the actor script for `method`, installing the page script first where a document lacks it. */
  readonly call: (method: string, callOptions?: CallOptions) => ActorCall
  /** Reads a snapshot the page script answered, with the driver's look options under `lookOptions`. */
  readonly snapshotOf: (json: string, lookOptions?: LookOptions) => Effect.Effect<PageSnapshot, DriverError>
  /** Runs an operation and, when it succeeds, records what a script would need to do it again. */
  readonly recorded: <A>(
    record: (result: A) => RecordedAction | undefined,
  ) => <E, R>(effect: Effect.Effect<A, E, R>) => Effect.Effect<A, E, R>
  readonly currentUrl: BrowserDriverShape["currentUrl"]
  readonly title: BrowserDriverShape["title"]
}

/**
 * Starts the driver on a session: the liveness guard, the channels page calls take, the page script
 * installed on every new document (BiDi), the dialog and new-tab listeners and the traffic recorder,
 * each released with the scope.
 */
export const openDriverContext = Effect.fnUntraced(function* (
  session: DriverSession,
  options: ResolvedOptions,
) {
  const browser = session.browser
  const bidi = browser.isBidi === true
  // Filled in once the session's first tab and the browser's socket are known.
  let currentTab = (): string | undefined => undefined
  let crashes: TabCrashes | undefined
  let dialogOpen = (): boolean => false
  let waitingOnServer = (): boolean => false
  const livenessGuard = makeGuard(session, options, {
    reasonFor: (method) => crashes?.reasonFor(method, currentTab()),
    watched: () => crashes?.sockets !== undefined,
    stoppedAnswering: async (method) =>
      waitingOnServer() ? undefined : crashes?.stoppedAnswering(method, currentTab(), dialogOpen),
  })
  const popups = makePopupGuard()
  // Every call remembers where the caller lets new tabs go (TabOrigins), for the tabs it opens.
  const guard: Guard = (method, limitMs) => (effect) =>
    livenessGuard(method, limitMs)(Effect.andThen(popups.remember, effect))

  const cdp = yield* Effect.tryPromise({ try: () => probeCdp(browser), catch: toDriverError("start") }).pipe(
    guard("start"),
  )
  // Only a session that tracks dialogs uses the tab's own socket: a script sent there while an alert
  // is open would wait for it instead of failing as ChromeDriver's endpoint does. BiDi tracks them;
  // without BiDi, the tabs' sockets track them themselves once they answer (tabEvents below). That
  // holds for a Chromium Sextant launched, and for a connected or wrapped one whose debugger address
  // (`goog:chromeOptions.debuggerAddress`) is on this machine: its sockets are found by the session's
  // own window handle (a tab's target id), so a debugger address that reaches another browser finds no
  // such tab and leaves the session on Classic. They carry the request guard of `guardSecrets`. A grid
  // session's debugger address is its node's own loopback: its sockets are not this machine's to open
  // (on a grid whose node shares this machine they would open, and a test would prove what a real grid
  // cannot do).
  const reached =
    cdp && session.grid === undefined
      ? yield* Effect.acquireRelease(
          Effect.sync(() => devtoolsSockets(browser)),
          (made) => Effect.sync(() => made.close()),
        )
      : undefined

  const state: DriverState = {
    context: yield* Effect.tryPromise({
      try: () => browser.getWindowHandle(),
      catch: toDriverError("start"),
    }).pipe(guard("start")),
    lastSnapshot: undefined,
    newTabs: [],
    loading: undefined,
  }
  currentTab = () => state.context
  waitingOnServer = () => state.loading !== undefined && !state.loading.committed
  // A Classic session Sextant did not launch uses the sockets only once its own tab answers there: a
  // debugger address on another machine's loopback reaches nothing here, or a browser that is not this one.
  const ownTab =
    reached === undefined || bidi || session.kind === "launched"
      ? true
      : yield* Effect.promise(
          async () => (await reached.sendOnce(state.context, "Page.enable", {})) !== undefined,
        ).pipe(
          Effect.timeoutOrElse({ duration: options.commandTimeoutMs, orElse: () => Effect.succeed(false) }),
        )
  const opened = ownTab ? reached : undefined
  // The tab sockets stand in for BiDi only once the browser's and the tab's both answer. The browser's
  // answer has it attach to every tab opened from then on and hold it before its first script until
  // watchNewTabs has watched it.
  const tabEvents =
    !bidi && opened !== undefined
      ? yield* Effect.promise(async () => {
          const [browserWide, tab] = await Promise.all([
            opened.sendOnce(BROWSER_ENDPOINT, "Target.setAutoAttach", {
              autoAttach: true,
              waitForDebuggerOnStart: true,
              flatten: true,
              filter: [{ type: "page" }],
            }),
            opened.sendOnce(state.context, "Page.enable", {}),
          ])
          return browserWide !== undefined && tab !== undefined
        }).pipe(
          Effect.timeoutOrElse({ duration: options.commandTimeoutMs, orElse: () => Effect.succeed(false) }),
        )
      : false
  const sockets = bidi || tabEvents ? opened : undefined
  const tabCrashes = yield* watchTabCrashes(opened, options.commandTimeoutMs)
  crashes = tabCrashes
  const tracked = bidi || tabEvents
  const channels: Channels = { bidi, cdp, sockets, tabEvents }
  const installer = installAndCallDeclaration(pageScriptSource)
  const dialogs = makeDialogs({ tracked, classicText: () => browser.getAlertText() })
  dialogOpen = () => dialogs.pending() !== undefined
  const secretGuard = makeSecretGuard({ browser, sockets, tabEvents, grid: session.grid?.url })
  const watchTab =
    tabEvents && sockets !== undefined
      ? yield* watchTabs(sockets, dialogs, options.commandTimeoutMs)
      : () => Effect.void
  if (tabEvents && sockets !== undefined) {
    // A tab the page opens is watched before it runs a script, as BiDi reports every tab's dialogs:
    // an alert in a popup the agent has not switched to still answers DialogOpen.
    yield* watchNewTabs(sockets, state, dialogs, popups, secretGuard)
    yield* watchTab(state.context)
  }

  if (bidi) {
    // The actor goes into every new document before the page's own scripts, since it counts the
    // requests and timers they start; removed again on close, so a wrapped browser is left as it was
    // found. The page script (54 KB) watches nothing: the first call in a document installs it, so
    // a load does not compile it into every frame.
    yield* Effect.acquireRelease(
      Effect.tryPromise({
        try: () =>
          browser.scriptAddPreloadScript({
            functionDeclaration: `() => { ${actorScriptSource} }`,
          }),
        catch: toDriverError("start"),
      }).pipe(guard("start")),
      (added) =>
        Effect.tryPromise(() => browser.scriptRemovePreloadScript({ script: added.script })).pipe(
          // A crashed browser never answers; closing must not wait for it.
          Effect.timeout("2 seconds"),
          Effect.ignore,
        ),
    )
  }
  if (bidi) {
    const onDialog = (event: DialogEvent) => dialogs.opened(event)
    const onContext = (event: { context: string; parent?: string | null }) => {
      if (event.parent === null || event.parent === undefined) state.newTabs.push(event.context)
    }
    yield* Effect.acquireRelease(
      Effect.tryPromise({
        try: async () => {
          await browser.sessionSubscribe({ events: ["browsingContext.contextCreated"] })
          browser.on("dialog", onDialog as never)
          browser.on("browsingContext.contextCreated", onContext as never)
        },
        catch: toDriverError("start"),
      }).pipe(guard("start")),
      () =>
        Effect.sync(() => {
          browser.off("dialog", onDialog as never)
          browser.off("browsingContext.contextCreated", onContext as never)
        }),
    )
  }

  // WebdriverIO subscribes every BiDi session to every request's events and every console message
  // (for its network manager, `url` and shadow-root tracking), which the browser serialises through
  // ChromeDriver's BiDi mapper for each of a real page's hundreds of requests. A session Sextant
  // opened, whose pages load on the tab's own socket, needs none of them.
  const socketLoads =
    bidi && session.kind !== "wrapped" && sockets !== undefined
      ? yield* Effect.tryPromise(() => sockets.sendOnce(state.context, "Page.enable", {})).pipe(
          Effect.map((answer) => answer !== undefined),
          Effect.orElseSucceed(() => false),
        )
      : false
  const networkEvents = socketLoads
    ? yield* Effect.tryPromise({
        try: () =>
          browser.sessionUnsubscribe({
            events: quietEvents.filter(
              (event) => !(options.recordTraffic && event === "network.responseCompleted"),
            ),
          } as never),
        catch: toDriverError("start"),
      }).pipe(
        guard("start"),
        Effect.as(false),
        // An endpoint that refuses keeps the events; pages then load as before.
        Effect.orElseSucceed(() => true),
      )
    : true

  if (options.recordTraffic && !bidi) {
    return yield* fail(
      "makeDriver",
      new InvalidArgument({
        detail:
          "options.recordTraffic: recording traffic needs a WebDriver BiDi session (webSocketUrl: true); launch with { bidi: true } (or connect with BiDi), or turn it off",
      }),
    )
  }
  const recorder = yield* Effect.acquireRelease(
    Effect.tryPromise({
      try: () => makeRecorder(bidi ? browser : undefined, options.recordTraffic),
      catch: toDriverError("start"),
    }).pipe(guard("start")),
    (opened) => Effect.promise(() => opened.close()).pipe(Effect.timeout("2 seconds"), Effect.ignore),
  )
  const recorded =
    <A>(record: (result: A) => RecordedAction | undefined) =>
    <E, R>(effect: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> =>
      Effect.tap(effect, (result) =>
        Effect.sync(() => {
          const action = record(result)
          if (action !== undefined) recorder.push(action)
        }),
      )

  const call = (method: string, { errorContext = {}, viaSocket = false, direct = false }: CallOptions = {}) =>
    Effect.fn(`BrowserDriver.${method}`)(function* (actorMethod: string, ...args: ReadonlyArray<unknown>) {
      const result = yield* Effect.tryPromise({
        try: async () => {
          const argument = [actorMethod, JSON.stringify(args)]
          const answer = await callFunction(
            browser,
            channels,
            state.context,
            callActorDeclaration,
            argument,
            { viaSocket, direct: direct && dialogs.pending() === undefined },
          )
          return answer === missingMarker
            ? callFunction(browser, channels, state.context, installer, argument, {
                viaSocket,
                direct: direct && dialogs.pending() === undefined,
              })
            : answer
        },
        catch: toDriverError(method, errorContext),
      })
      if (typeof result !== "string") {
        return yield* fail(
          method,
          new ScriptError({ detail: `the page answered ${typeof result}, not JSON` }),
        )
      }
      // The page made `__sextant` itself: nothing was read or done through it.
      if (result.startsWith(foreignRuntimeMarker)) {
        return yield* fail(
          method,
          new ForeignPageRuntime({ detail: result.slice(foreignRuntimeMarker.length).trim() }),
        )
      }
      return result
    })

  const driver: DriverContext = {
    session,
    browser,
    bidi,
    cdp,
    tracked,
    watchTab,
    channels,
    options,
    dialogs,
    recorder,
    secretGuard,
    state,
    guard,
    tabCrashes,
    networkEvents,
    call,
    snapshotOf: (json, lookOptions) => snapshotOf(options.look, json, lookOptions),
    recorded,
    currentUrl: Effect.tryPromise({ try: () => browser.getUrl(), catch: toDriverError("currentUrl") }),
    title: Effect.tryPromise({ try: () => browser.getTitle(), catch: toDriverError("title") }),
  }
  return driver
})

/**
 * Makes tabs report their dialogs on their own DevTools sockets and get the actor before their pages'
 * scripts, as BiDi's `browsingContext.userPromptOpened` and preload script do; each tab once. The
 * actor goes with the tab's socket: the browser drops it when the driver closes its sockets.
 */
const watchTabs = (sockets: DevtoolsSockets, dialogs: Dialogs, timeoutMs: number) =>
  Effect.acquireRelease(
    Effect.sync(() => new Map<string, () => void>()),
    (watched) =>
      Effect.sync(() => {
        for (const stop of watched.values()) stop()
      }),
  ).pipe(
    Effect.map(
      (watched) =>
        (context: string): Effect.Effect<void> =>
          Effect.promise(async () => {
            if (!watched.has(context)) {
              watched.set(
                context,
                sockets.listen(context, (event: DevtoolsEvent) =>
                  onDialogEvent(dialogs, event, (method, params) => sockets.send(context, method, params)),
                ),
              )
            }
            await sockets.sendOnce(context, "Page.enable", {})
            await sockets.sendOnce(context, "Page.addScriptToEvaluateOnNewDocument", {
              source: actorScriptSource,
            })
            // A browser that stops answering is the liveness guard's to report, not this call's.
          }).pipe(Effect.timeoutOrElse({ duration: timeoutMs, orElse: () => Effect.void })),
    ),
  )

/**
 * A dialog a DevTools socket reported, answered where it was heard (`Page.handleJavaScriptDialog`
 * through `send`).
 */
const socketDialog = (
  send: (method: string, params: Record<string, unknown>) => Promise<unknown>,
  params: Record<string, unknown>,
): DialogEvent => {
  const answer = async (accept: boolean, promptText?: string) => {
    const answered = await send("Page.handleJavaScriptDialog", {
      accept,
      ...(promptText === undefined ? {} : { promptText }),
    })
    if (answered === undefined) throw new Error("no such alert: the dialog was no longer open")
  }
  return {
    type: () => (typeof params.type === "string" ? params.type : "alert"),
    message: () => (typeof params.message === "string" ? params.message : ""),
    accept: (text) => answer(true, text),
    dismiss: () => answer(false),
  }
}

/** What a tab's dialog events do to the driver's dialogs, wherever they are heard. */
const onDialogEvent = (
  dialogs: Dialogs,
  event: DevtoolsEvent,
  send: (method: string, params: Record<string, unknown>) => Promise<unknown>,
): void => {
  if (event.method === "Page.javascriptDialogOpening") dialogs.opened(socketDialog(send, event.params))
  else if (event.method === "Page.javascriptDialogClosed") dialogs.clear()
}

/**
 * Hears the tabs the browser opens (a popup, a link to a new tab) on the browser's DevTools socket,
 * as BiDi's `browsingContext.contextCreated` does. The browser holds each new tab before its first
 * script (auto-attach, waiting for the debugger); through that attachment the tab is made to report
 * its dialogs and given the actor, then let run, so an alert it opens while it loads is heard too.
 * While the caller restricts where new tabs may go (`popups`), the held tab is also made to ask
 * before each document it loads (`Fetch`, documents only), and one headed for another origin is
 * closed before that request leaves the browser: the tab is held before its first request, and its
 * URL is not known until it asks.
 * Tabs open before the driver started are not new: the browser reported them before it answered
 * the auto-attach, when nobody listened yet.
 */
const watchNewTabs = (
  sockets: DevtoolsSockets,
  state: DriverState,
  dialogs: Dialogs,
  popups: PopupGuard,
  secretGuard: SecretGuard,
) =>
  Effect.acquireRelease(
    Effect.sync(() => {
      // The attached sessions, each with its tab.
      const attached = new Map<string, string>()
      return sockets.listen(BROWSER_ENDPOINT, (event: DevtoolsEvent) => {
        const send = (sessionId: string) => (method: string, params: Record<string, unknown>) =>
          sockets.send(BROWSER_ENDPOINT, method, params, sessionId)
        if (event.sessionId !== undefined) {
          const tab = attached.get(event.sessionId)
          if (tab === undefined) return
          if (event.method === "Fetch.requestPaused") {
            // A tab the secret guard holds is answered there, the pop-up rule included.
            if (!secretGuard.holds(tab))
              judgeDocument(sockets, state, popups, tab, send(event.sessionId), event.params)
          } else onDialogEvent(dialogs, event, send(event.sessionId))
          return
        }
        const { sessionId, targetInfo, waitingForDebugger } = event.params as {
          readonly sessionId?: unknown
          readonly targetInfo?: { readonly type?: unknown; readonly targetId?: unknown }
          readonly waitingForDebugger?: unknown
        }
        if (event.method !== "Target.attachedToTarget" || targetInfo?.type !== "page") return
        if (typeof targetInfo.targetId !== "string" || typeof sessionId !== "string") return
        state.newTabs.push(targetInfo.targetId)
        attached.set(sessionId, targetInfo.targetId)
        const toTab = send(sessionId)
        // Sent in order on one socket: the tab runs once the actor and the dialog events are in.
        void toTab("Page.enable", {})
        void toTab("Page.addScriptToEvaluateOnNewDocument", { source: actorScriptSource })
        const tab = targetInfo.targetId
        const run = () => {
          if (waitingForDebugger === true) void toTab("Runtime.runIfWaitingForDebugger", {})
        }
        // One module answers a tab's paused requests. While secrets are guarded every request of the
        // tab pauses and the secret guard answers, asking the pop-up rule about documents; otherwise
        // only documents pause, for the pop-up rule. Either way the browser has switched pausing on
        // before the tab runs (commands on one session are handled in order).
        if (secretGuard.active()) {
          secretGuard.holdNewTab(tab, toTab, sessionId, (params) =>
            popups.active() && tab !== state.context
              ? refusePopupDocument(sockets, state, popups, tab, params)
              : false,
          )
          run()
        } else if (popups.active()) void toTab("Fetch.enable", { patterns: documentRequests }).then(run)
        else run()
      })
    }),
    (stop) => Effect.sync(stop),
  )

const documentRequests = [{ urlPattern: "*", resourceType: "Document", requestStage: "Request" }]

/**
 * A new tab asks to load a document: it goes on when the caller lets new tabs go there (or the tab
 * has become the one the driver works in, whose navigations are the caller's own), else the request
 * fails before it is sent and the tab is closed and reported.
 */
const judgeDocument = (
  sockets: DevtoolsSockets,
  state: DriverState,
  popups: PopupGuard,
  tab: string,
  toTab: (method: string, params: Record<string, unknown>) => Promise<unknown>,
  params: Record<string, unknown>,
): void => {
  const { requestId } = params as { readonly requestId?: unknown }
  if (typeof requestId !== "string") return
  if (tab === state.context) {
    // The tab the driver works in now: its loads are the caller's to guard; it asks no more.
    void toTab("Fetch.continueRequest", { requestId }).then(() => toTab("Fetch.disable", {}))
    return
  }
  if (refusePopupDocument(sockets, state, popups, tab, params)) {
    void toTab("Fetch.failRequest", { requestId, errorReason: "BlockedByClient" })
  } else void toTab("Fetch.continueRequest", { requestId })
}

/**
 * Whether a paused request of a new tab is its page's document headed for an origin new tabs may not
 * load; if so the tab is closed and reported, and the caller fails the request.
 */
const refusePopupDocument = (
  sockets: DevtoolsSockets,
  state: DriverState,
  popups: PopupGuard,
  tab: string,
  params: Record<string, unknown>,
): boolean => {
  const { request, frameId, resourceType } = params as {
    readonly request?: { readonly url?: unknown }
    readonly frameId?: unknown
    readonly resourceType?: unknown
  }
  const url = typeof request?.url === "string" ? request.url : ""
  // A frame's document is not the tab's page (a page frame's id is its tab's target id).
  if (resourceType !== "Document" || frameId !== tab || !popups.refuses(url)) return false
  void sockets.send(BROWSER_ENDPOINT, "Target.closeTarget", { targetId: tab })
  const listed = state.newTabs.indexOf(tab)
  if (listed >= 0) state.newTabs.splice(listed, 1)
  popups.closed(url)
  return true
}

/**
 * The session-wide BiDi events WebdriverIO subscribes to that a driver loading pages on the tab's
 * own socket never reads. Navigation starts, new and closed tabs and dialogs stay on.
 */
export const quietEvents: ReadonlyArray<string> = [
  "network.beforeRequestSent",
  "network.responseCompleted",
  "network.fetchError",
  "log.entryAdded",
  "browsingContext.fragmentNavigated",
  "browsingContext.navigationCommitted",
]

/** Reads a snapshot the page script answered; anything unreadable is a `ScriptError` of `look`. */
export const snapshotOf = (
  driverLook: LookOptions,
  json: string,
  lookOptions: LookOptions = {},
): Effect.Effect<PageSnapshot, DriverError> =>
  Effect.try({
    try: () => parseSnapshot(json, { ...driverLook, ...lookOptions }),
    // parseSnapshot already fails with a DriverError that says what the page answered.
    catch: (cause) =>
      cause instanceof DriverError
        ? cause
        : new DriverError({
            method: "look",
            reason: new ScriptError({ detail: `the snapshot could not be read: ${String(cause)}` }),
            cause,
          }),
  })

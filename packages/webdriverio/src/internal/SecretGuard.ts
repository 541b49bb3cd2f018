import {
  type BlockedRequest,
  type BrowserDriverShape,
  InvalidArgument,
  type RefusedPage,
  type SecretGuardOptions,
  secretIndexIn,
} from "@sextant/core"
import { Effect } from "effect"
import { toDriverError } from "../DriverErrors.ts"
import { BROWSER_ENDPOINT, type DevtoolsEvent, type DevtoolsSockets } from "./DevtoolsSocket.ts"
import { fail } from "./Fail.ts"

/** Sends one DevTools command to one tab, on its own socket or its session on the browser's. */
type TabSend = (method: string, params: Record<string, unknown>) => Promise<unknown>

/**
 * Every request of the tab pauses before it is sent (request stage), redirects' next hops included:
 * Chromium pauses each hop as a new request whose `redirectedRequestId` names the one redirected.
 */
const FETCH_ENABLE = { patterns: [{ urlPattern: "*", requestStage: "Request" }] }

/**
 * The browser's own interception: every request too, and the response of each document and each
 * worker script (type Other), whatever tab, frame or worker loads it, so it gets the WebSocket fence
 * (a `Content-Security-Policy` header) before any of its script runs.
 */
const BROWSER_FETCH_ENABLE = {
  patterns: [
    ...FETCH_ENABLE.patterns,
    { urlPattern: "*", resourceType: "Document", requestStage: "Response" },
    { urlPattern: "*", resourceType: "Other", requestStage: "Response" },
  ],
}

/**
 * A guarded tab attaches its frames (cross-site ones run in their own renderer) and dedicated workers,
 * each held before its first script until its requests pause too; the frames attach theirs in turn.
 */
const CHILD_AUTO_ATTACH = { autoAttach: true, waitForDebuggerOnStart: true, flatten: true }
const NO_AUTO_ATTACH = { autoAttach: false, waitForDebuggerOnStart: false, flatten: true }

/**
 * The browser attaches new tabs (as the driver always has it) and, while guarded, shared and service
 * workers: each is held before its first script, and one already running when the guard arms is ended.
 */
const BROWSER_AUTO_ATTACH = {
  autoAttach: true,
  waitForDebuggerOnStart: true,
  flatten: true,
  filter: [{ type: "page" }, { type: "shared_worker" }, { type: "service_worker" }],
}
const PAGE_AUTO_ATTACH = { ...BROWSER_AUTO_ATTACH, filter: [{ type: "page" }] }

/** Schemes whose requests never leave the browser. */
const LOCAL_SCHEMES: ReadonlyArray<string> = ["data:", "blob:", "about:", "chrome:", "devtools:"]

/** How many paused requests' origins are kept to name where a redirect came from. */
const REMEMBERED_REQUESTS = 200

/** The secret request guard of one driver: {@link makeSecretGuard}. */
export interface SecretGuard {
  readonly guardSecrets: NonNullable<BrowserDriverShape["guardSecrets"]>
  /**
   * Makes a tab the browser holds before its first script (a popup, a link to a new tab) pause its
   * requests too, while a guard is in force. Call before letting it run: commands on one session
   * are handled in order, so its first request is already inspected.
   */
  readonly holdNewTab: (
    targetId: string,
    send: TabSend,
    sessionId: string,
    alsoRefuses?: (params: Record<string, unknown>) => boolean,
  ) => void
  /** Whether the guard answers the paused requests of this tab (then no other module may). */
  readonly holds: (targetId: string) => boolean
  /**
   * Whether a guard is in force: then every request of every tab pauses (all resource types), and a
   * module that pauses some requests itself on the same session must not narrow the patterns
   * (`Fetch.enable` again) or switch pausing off (`Fetch.disable`) while it holds.
   */
  readonly active: () => boolean
  /**
   * Whether a paused request (`Fetch.requestPaused` params) carries a secret to another origin; one
   * that does is recorded for `blocked`. For a module that answers the paused requests of a session
   * itself: it fails the request (`BlockedByClient`) when this says so, whatever it would have done.
   */
  readonly blocks: (params: Record<string, unknown>) => boolean
}

interface PausedRequest {
  readonly requestId: string
  /** The frame the request is for: a tab's own navigation has the tab's target id. */
  readonly frameId?: string
  readonly resourceType?: string
  readonly redirectedRequestId?: string
  readonly request: {
    readonly url: string
    readonly method: string
    readonly headers?: Record<string, string>
    readonly postData?: string
    readonly hasPostData?: boolean
    readonly postDataEntries?: ReadonlyArray<{ readonly bytes?: string }>
  }
  /** Set when the request paused at the response stage (a document's or a worker script's response). */
  readonly responseStatusCode?: number
  readonly responseErrorReason?: string
  readonly responseHeaders?: ReadonlyArray<{ readonly name: string; readonly value: string }>
}

const originOf = (url: string): string => {
  try {
    const parsed = new URL(url)
    return parsed.protocol === "http:" || parsed.protocol === "https:" ? parsed.origin : parsed.protocol
  } catch {
    return "(not a URL)"
  }
}

const bodyOf = (request: PausedRequest["request"]): string | undefined => {
  if (request.postData !== undefined) return request.postData
  const entries = request.postDataEntries ?? []
  if (entries.length > 0) {
    return entries.map((entry) => Buffer.from(entry.bytes ?? "", "base64").toString("utf8")).join("")
  }
  // A body the browser does not show (a large upload) cannot be read: it is taken to carry the secret.
  return request.hasPostData === true ? undefined : ""
}

/**
 * Builds the request guard of a driver whose tabs' DevTools sockets stand in for BiDi (a Chromium
 * Sextant launched, the default): Chrome DevTools `Fetch.enable` with a request-stage pattern on every
 * open tab's socket, on every tab the browser opens while a guard is in force, and on the browser's own
 * socket (shared and service workers, whenever they start), so each request
 * (navigation, form post, `fetch`/XHR, beacon, each redirect hop) pauses until it is inspected; one
 * that carries a secret to an origin the secrets are not bound to is failed (`BlockedByClient`)
 * and never leaves the browser. Without such sockets (a BiDi session, a remote grid) it refuses.
 */
export const makeSecretGuard = (driver: {
  readonly browser: WebdriverIO.Browser
  readonly sockets: DevtoolsSockets | undefined
  readonly tabEvents: boolean
  /** The grid a session runs on, which keeps the browser's DevTools port on its node. */
  readonly grid?: string | undefined
}): SecretGuard => {
  const { browser, sockets } = driver
  type Guard = {
    readonly options: SecretGuardOptions
    readonly blocked: Array<BlockedRequest>
    readonly refused: Array<RefusedPage>
    readonly refusedKeys: Set<string>
  }
  const guards = new Set<Guard>()
  // Tabs whose requests pause, by target id: how to answer them, how to stop, and the tab's answer to
  // `Fetch.enable` (undefined: it refused), which every guard armed while the tab is held shares.
  const tabs = new Map<
    string,
    {
      readonly send: TabSend
      readonly stop: () => void
      readonly children: () => ReadonlyArray<TabSend>
      readonly enabled: Promise<unknown>
    }
  >()
  const origins = new Map<string, string>()

  // Whether the paused request must fail: it carries a secret to an origin a guard does not bind it
  // to (recorded for `blocked`), or a strict guard does not allow its origin, whatever it carries.
  const blocks = (paused: PausedRequest): boolean => {
    const { request } = paused
    const origin = originOf(request.url)
    origins.set(paused.requestId, origin)
    if (origins.size > REMEMBERED_REQUESTS) origins.delete(origins.keys().next().value as string)
    if (LOCAL_SCHEMES.includes(origin)) return false
    if (carriesSecret(paused, origin)) return true
    for (const guard of guards)
      if (guard.options.strict === true && !guard.options.origins.includes(origin)) {
        // A tab's own navigation (not a frame's, not a picture's) is said, so the run can tell why the
        // page did not change; the same navigation may pause on the tab and on the browser target.
        const key = `${paused.frameId} ${request.method} ${request.url}`
        if (
          paused.resourceType === "Document" &&
          paused.frameId !== undefined &&
          tabs.has(paused.frameId) &&
          !guard.refusedKeys.has(key)
        ) {
          guard.refusedKeys.add(key)
          guard.refused.push({ origin, method: request.method })
        }
        return true
      }
    return false
  }

  // Whether the request carries a secret to an origin a guard does not bind it to; if so it is recorded.
  const carriesSecret = (paused: PausedRequest, origin: string): boolean => {
    const { request } = paused
    for (const guard of guards) {
      const bound = guard.options.origins.includes(origin)
      const values = guard.options.values
      const inUrl = secretIndexIn(request.url, values)
      // A page loaded with a secret in its URL puts it in the server's logs, the history and the next
      // page's Referer, on a bound origin too: a form with no method (or an invalid one) is sent by GET.
      if (bound && (paused.resourceType !== "Document" || inUrl === undefined)) continue
      const body = bodyOf(request)
      const headers = Object.values(request.headers ?? {}).join("\n")
      const inBody = body === undefined ? 0 : secretIndexIn(body, values)
      const inHeader = secretIndexIn(headers, values)
      const secret = inUrl ?? inBody ?? inHeader
      if (secret === undefined) continue
      guard.blocked.push({
        origin,
        method: request.method,
        carriedIn: inUrl !== undefined ? "url" : inBody !== undefined ? "body" : "header",
        resourceType: paused.resourceType ?? "Other",
        redirectedFrom:
          paused.redirectedRequestId === undefined ? undefined : origins.get(paused.redirectedRequestId),
        secret,
      })
      return true
    }
    return false
  }

  /**
   * WebSockets do not pause (Fetch sees no WebSocket handshake, and `Network.setBlockedURLs` does not
   * stop them): the tab's document gets a Content-Security-Policy `<meta>` whose `connect-src` lets
   * WebSockets reach only its own origin and the origins every guard allows, added from an isolated world (the page's overrides
   * of the DOM do not reach it); a policy added at run time holds for every later connection, and
   * stays until the document goes (at the guard's release the tab leaves it).
   */
  const connectPolicy = () => {
    const allowed = [...new Set([...guards].flatMap((guard) => guard.options.origins))].filter((origin) =>
      [...guards].every((guard) => guard.options.origins.includes(origin)),
    )
    const webSockets = allowed.flatMap((origin) =>
      /^https?:\/\//.test(origin) ? [origin.replace(/^http/, "ws")] : [],
    )
    // http(s) stays open to the policy: those requests pause, and one with a secret is reported; data:
    // and blob: never leave the browser.
    return `connect-src 'self' http: https: data: blob: ${webSockets.join(" ")}`.trim()
  }

  const fenceConnections = (send: TabSend, frameId: string) => {
    const policy = connectPolicy()
    const expression = `(() => {
      const meta = document.createElement("meta")
      meta.httpEquiv = "Content-Security-Policy"
      meta.content = ${JSON.stringify(policy)}
      let head = document.head
      if (head === null) { head = document.createElement("head"); document.documentElement?.prepend(head) }
      head.prepend(meta)
    })()`
    return send("Page.createIsolatedWorld", { frameId, worldName: "sextant-secret-guard" }).then((answer) => {
      const id = (answer as { readonly result?: { readonly executionContextId?: unknown } } | undefined)
        ?.result?.executionContextId
      return typeof id === "number" ? send("Runtime.evaluate", { contextId: id, expression }) : undefined
    })
  }

  /**
   * A document (or a worker script) the guard sees after arming — a tab's next page, a popup, a frame,
   * a worker the page starts — gets the WebSocket fence as a `Content-Security-Policy` response header,
   * in force before any of its script runs. One that cannot be given it does not load.
   */
  const fenceResponse = (paused: PausedRequest, send: TabSend) => {
    const { requestId, responseStatusCode: status } = paused
    if (paused.responseErrorReason !== undefined || status === undefined || (status >= 300 && status < 400)) {
      void send("Fetch.continueRequest", { requestId })
      return
    }
    const responseHeaders = [
      ...(paused.responseHeaders ?? []),
      { name: "Content-Security-Policy", value: connectPolicy() },
    ]
    const refuse = () => send("Fetch.failRequest", { requestId, errorReason: "BlockedByClient" })
    if (paused.resourceType !== "Document") {
      void send("Fetch.continueResponse", { requestId, responseCode: status, responseHeaders }).then(
        (answer) => (answer === undefined ? refuse() : undefined),
      )
      return
    }
    // A document's policy is read from its headers before the interception changes them: it is
    // fulfilled anew (its body read whole), so Chromium reads the headers given here.
    void send("Fetch.getResponseBody", { requestId }).then((answer) => {
      const body = (
        answer as
          | { readonly result?: { readonly body?: unknown; readonly base64Encoded?: unknown } }
          | undefined
      )?.result
      if (body === undefined || typeof body.body !== "string") return refuse()
      return send("Fetch.fulfillRequest", {
        requestId,
        responseCode: status,
        responseHeaders,
        body: body.base64Encoded === true ? body.body : Buffer.from(body.body, "utf8").toString("base64"),
      }).then((fulfilled) => (fulfilled === undefined ? refuse() : undefined))
    })
  }

  const inspect = (
    paused: PausedRequest,
    send: TabSend,
    alsoRefuses?: (params: Record<string, unknown>) => boolean,
  ) => {
    if (paused.responseStatusCode !== undefined || paused.responseErrorReason !== undefined) {
      fenceResponse(paused, send)
      return
    }
    if (blocks(paused) || alsoRefuses?.(paused as unknown as Record<string, unknown>) === true)
      void send("Fetch.failRequest", { requestId: paused.requestId, errorReason: "BlockedByClient" })
    else void send("Fetch.continueRequest", { requestId: paused.requestId })
  }

  // Commands to one session of a held socket (`undefined`: the socket's own target).
  const sender =
    (context: string, sessionId: string | undefined): TabSend =>
    (method, params) =>
      sockets === undefined ? Promise.resolve(undefined) : sockets.send(context, method, params, sessionId)

  /**
   * Watches one held target's socket: its paused requests, and the frames and workers it attaches
   * (auto-attach, held before their first script): each pauses its requests too, and attaches its own.
   */
  const watch = (
    context: string,
    root: string | undefined,
    alsoRefuses: ((params: Record<string, unknown>) => boolean) | undefined,
    children: Set<string>,
    attachesFrom: (event: DevtoolsEvent) => boolean,
  ) => {
    if (sockets === undefined) return () => {}
    return sockets.listen(context, (event) => {
      const session = event.sessionId
      if (event.method === "Target.attachedToTarget" && attachesFrom(event)) {
        const { sessionId, waitingForDebugger, targetInfo } = event.params as {
          readonly sessionId?: unknown
          readonly waitingForDebugger?: unknown
          readonly targetInfo?: { readonly type?: unknown; readonly targetId?: unknown }
        }
        if (typeof sessionId !== "string") return
        if (
          waitingForDebugger !== true &&
          (targetInfo?.type === "shared_worker" || targetInfo?.type === "service_worker") &&
          typeof targetInfo.targetId === "string"
        ) {
          // A shared or service worker already running when the guard armed does not pause its
          // requests (Chromium keeps the loader it started with): it is ended; a page that starts
          // it again gets one held before its first script.
          void sockets.send(BROWSER_ENDPOINT, "Target.closeTarget", { targetId: targetInfo.targetId })
          return
        }
        children.add(sessionId)
        const toChild = sender(context, sessionId)
        // In order on one session: pausing and attaching are on before the frame or worker runs. Under
        // a strict guard the browser's own interception pauses them too (see pauseBrowserWide).
        void toChild("Fetch.enable", FETCH_ENABLE)
        void toChild("Target.setAutoAttach", CHILD_AUTO_ATTACH)
        if (waitingForDebugger === true) void toChild("Runtime.runIfWaitingForDebugger", {})
        return
      }
      if (event.method === "Target.detachedFromTarget") {
        const { sessionId } = event.params as { readonly sessionId?: unknown }
        if (typeof sessionId === "string") children.delete(sessionId)
        return
      }
      if (event.method !== "Fetch.requestPaused") return
      if (session === root)
        inspect(event.params as unknown as PausedRequest, sender(context, root), alsoRefuses)
      else if (session !== undefined && children.has(session))
        inspect(event.params as unknown as PausedRequest, sender(context, session))
    })
  }

  // Whether an attach event came from the held target itself or one of its frames and workers.
  const fromTree = (root: string | undefined, children: Set<string>) => (event: DevtoolsEvent) =>
    event.sessionId === root || (event.sessionId !== undefined && children.has(event.sessionId))

  const hold = (
    targetId: string,
    context: string,
    root: string | undefined,
    alsoRefuses?: (params: Record<string, unknown>) => boolean,
  ) => {
    const children = new Set<string>()
    const stop = watch(context, root, alsoRefuses, children, fromTree(root, children))
    const send = sender(context, root)
    // In order on one session: requests pause, then its frames and workers (existing ones too) attach.
    const enabled = send("Fetch.enable", FETCH_ENABLE).catch(() => undefined)
    tabs.set(targetId, {
      send,
      stop,
      children: () => [...children].map((child) => sender(context, child)),
      enabled,
    })
    void send("Target.setAutoAttach", CHILD_AUTO_ATTACH)
    // A new tab has no document yet (it is held before its first script): only open tabs are fenced.
    const fenced = root === undefined ? fenceConnections(send, targetId).catch(() => undefined) : undefined
    return Promise.all([enabled, fenced]).then(([answer]) => answer)
  }

  /**
   * Has a tab pause its requests. A tab another guard already holds keeps its one interception, which
   * the new guard shares (each paused request is judged against every guard): it is armed there when
   * the tab accepted `Fetch.enable`, and the tab's document gets the WebSocket fence again, now of
   * every guard (a second policy narrows the first).
   */
  const holdTab = (targetId: string) => {
    if (sockets === undefined) return Promise.resolve()
    const held = tabs.get(targetId)
    if (held === undefined) return hold(targetId, targetId, undefined)
    return Promise.all([held.enabled, fenceConnections(held.send, targetId).catch(() => undefined)]).then(
      ([answer]) => answer,
    )
  }

  const holdNewTab: SecretGuard["holdNewTab"] = (targetId, _send, sessionId, alsoRefuses) => {
    if (guards.size === 0 || sockets === undefined || tabs.has(targetId)) return
    void hold(targetId, BROWSER_ENDPOINT, sessionId, alsoRefuses)
  }

  /**
   * Shared and service workers belong to no tab: the browser attaches them (held before their first
   * script) while a guard is in force, and their requests pause like a tab's; one already running
   * when the guard arms, whose loaders predate it, is ended.
   */
  const holdWorkers = () => {
    if (sockets === undefined || tabs.has(BROWSER_ENDPOINT)) return Promise.resolve({ result: {} })
    const children = new Set<string>()
    const stop = watch(BROWSER_ENDPOINT, undefined, undefined, children, (event) => {
      const type = (event.params.targetInfo as { readonly type?: unknown } | undefined)?.type
      return event.sessionId === undefined
        ? type === "shared_worker" || type === "service_worker"
        : children.has(event.sessionId)
    })
    const browserWide = sender(BROWSER_ENDPOINT, undefined)
    tabs.set(BROWSER_ENDPOINT, {
      // At release only the browser's interception is switched off; its auto-attach stays the driver's.
      send: (method, params) =>
        method === "Fetch.disable" ? browserWide(method, params) : Promise.resolve(undefined),
      stop,
      children: () => [...children].map((child) => sender(BROWSER_ENDPOINT, child)),
      enabled: Promise.resolve({ result: {} }),
    })
    return sockets.send(BROWSER_ENDPOINT, "Target.setAutoAttach", BROWSER_AUTO_ATTACH)
  }

  // Whether the browser's own interception is on (see pauseBrowserWide).
  let browserPausing = false
  /**
   * Under a strict guard every request also pauses on the browser's own socket (`Fetch.enable` on the
   * browser target, which sees every request of the browser), and each document's and worker script's
   * response too (the WebSocket fence, see fenceResponse). A SharedWorker the page starts after the
   * secret is typed gets its loaders once its script has arrived, which can be before its own session's
   * `Fetch.enable` is in, and a worker's session that detaches (the worker ends) lets go of the requests
   * it held: the browser's interception is on before such a worker exists and lasts as long as the
   * guards. Only under a strict guard: a cross-origin request the browser target lets go on does not
   * reach the network in this Chromium, which only a strict guard (it fails them all) can afford.
   */
  const pauseBrowserWide = () => {
    if (browserPausing || sockets === undefined) return Promise.resolve({ result: {} })
    browserPausing = true
    return sender(BROWSER_ENDPOINT, undefined)("Fetch.enable", BROWSER_FETCH_ENABLE)
  }

  // `Page.navigate` answers before the old document is gone, and that document runs (and sends) until
  // then: wait until the tab's document is the blank one, for at most about a second.
  const leftPage = async (send: TabSend) => {
    for (let tries = 0; tries < 100; tries++) {
      const answer = (await send("Runtime.evaluate", {
        expression: "location.href",
        returnByValue: true,
      }).catch(() => undefined)) as
        | { readonly result?: { readonly result?: { readonly value?: unknown } } }
        | undefined
      if (answer === undefined || answer.result?.result?.value === "about:blank") return
      await new Promise((resolve) => setTimeout(resolve, 10))
    }
  }

  /**
   * Ends one guard. The last one makes every tab it held leave its page (about:blank) while the guard
   * is still in force, so a request the page makes meanwhile (a timer, an unload handler) is still
   * inspected and refused; only once the old documents are gone does the guard go and the tabs stop
   * pausing.
   */
  const release = (made: Guard) =>
    Effect.promise(async () => {
      if (guards.size > 1) {
        guards.delete(made)
        return
      }
      const held = [...tabs.entries()]
      tabs.clear()
      browserPausing = false
      await Promise.all(
        held.map(([targetId, tab]) =>
          targetId === BROWSER_ENDPOINT
            ? sockets?.send(BROWSER_ENDPOINT, "Target.setAutoAttach", PAGE_AUTO_ATTACH)
            : tab.send("Page.navigate", { url: "about:blank" }).then(
                () => leftPage(tab.send),
                () => undefined,
              ),
        ),
      )
      guards.delete(made)
      for (const [, tab] of held) tab.stop()
      // A guard armed meanwhile has held the tabs again: switching pausing off would undo it (each
      // step checks before it sends; commands on one session are handled in order).
      const rearmed = () => guards.size > 0 || tabs.size > 0
      if (rearmed()) return
      // A closed tab answers nothing: each disable is best effort.
      await Promise.all(
        held.flatMap(([, tab]) =>
          [tab.send, ...tab.children()].map((send) => send("Fetch.disable", {}).catch(() => undefined)),
        ),
      )
      if (rearmed()) return
      await Promise.all(
        held.map(([, tab]) => tab.send("Target.setAutoAttach", NO_AUTO_ATTACH).catch(() => undefined)),
      )
    }).pipe(
      Effect.timeout("3 seconds"),
      Effect.ignore,
      Effect.ensuring(Effect.sync(() => guards.delete(made))),
    )

  const guardSecrets: SecretGuard["guardSecrets"] = (options) =>
    Effect.gen(function* () {
      if (driver.grid !== undefined) {
        return yield* fail(
          "guardSecrets",
          new InvalidArgument({
            detail: `guarding requests needs the browser's Chrome DevTools port, which the Selenium Grid at ${driver.grid} keeps on its node (the grid proxies WebDriver and BiDi, not the tabs' DevTools sockets): requests of a grid session cannot be guarded; type secrets in a Chromium Sextant launches on this machine`,
          }),
        )
      }
      if (!driver.tabEvents || sockets === undefined) {
        return yield* fail(
          "guardSecrets",
          new InvalidArgument({
            detail:
              "guarding requests needs the tabs' Chrome DevTools sockets of a Chromium on this machine driven without BiDi, and this session has none (a BiDi session, or a browser whose debugger address is not on this machine): launch with bidi off (the default), connect with bidi: false to a ChromeDriver on this machine, or pass a WebdriverIO browser opened with 'wdio:enforceWebDriverClassic': true",
          }),
        )
      }
      const handles = yield* Effect.tryPromise({
        try: () => browser.getWindowHandles(),
        catch: toDriverError("guardSecrets"),
      })
      const guard = yield* Effect.acquireRelease(
        Effect.sync(() => {
          const made: Guard = { options, blocked: [], refused: [], refusedKeys: new Set() }
          guards.add(made)
          return made
        }),
        release,
      )
      const enabled = yield* Effect.promise(() =>
        Promise.all([
          ...handles.map(holdTab),
          holdWorkers(),
          ...(options.strict === true ? [pauseBrowserWide()] : []),
        ]),
      )
      if (enabled.some((answer) => answer === undefined)) {
        return yield* fail(
          "guardSecrets",
          new InvalidArgument({
            detail:
              "a tab did not accept request interception (Fetch.enable): the requests of this session cannot be guarded; close other tabs or start a new session",
          }),
        )
      }
      return {
        blocked: Effect.sync(() => guard.blocked.splice(0)),
        refusedPages: Effect.sync(() => guard.refused.splice(0)),
      }
    })

  return {
    guardSecrets,
    holdNewTab,
    holds: (targetId) => tabs.has(targetId),
    active: () => guards.size > 0,
    blocks: (params) => blocks(params as unknown as PausedRequest),
  }
}

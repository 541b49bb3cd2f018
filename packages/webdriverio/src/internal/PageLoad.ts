import type { DevtoolsEvent, DevtoolsSockets } from "./DevtoolsSocket.ts"

/** What one load on the tab's own DevTools socket answered. */
export interface SocketLoad {
  /** The HTTP status of the document that loaded, when the browser saw a response for it. */
  readonly status: number | undefined
  /** That response's headers. */
  readonly headers: Record<string, string> | undefined
  /**
   * Why the browser could not load the URL (`net::ERR_NAME_NOT_RESOLVED`, …); when it shows its
   * error page instead, that page has loaded too.
   */
  readonly errorText: string | undefined
  /** Whether the browser left the page as it was (no document committed: a download, a 204). */
  readonly stayed: boolean
  /**
   * Where the tab landed and the page's title, from the browser's history entry (read without
   * waiting for the page, which is busy with its first layout right after `load`); undefined when
   * the page replaced itself while loading or the browser did not answer.
   */
  readonly landed: { readonly url: string; readonly title: string } | undefined
}

interface NavigateAnswer {
  readonly frameId?: string
  readonly loaderId?: string
  readonly errorText?: string
}

interface NavigationHistory {
  readonly currentIndex?: number
  readonly entries?: ReadonlyArray<{ readonly url?: string; readonly title?: string }>
}

interface Response {
  readonly status: number
  readonly headers: Record<string, string>
}

/** Aborted: the caller stopped waiting (its time limit, a dialog, an interruption). */
class LoadAborted extends Error {}

/**
 * Loads `url` in the tab `context` the way Playwright's `goto` does: Chrome DevTools `Page.navigate`
 * on the tab's own socket, then the main frame's `load` lifecycle event, with the document's
 * response read from `Network.responseReceived` (the Network domain is on from the navigation to
 * that response only: left on, its events for every request of a real page made loads about a
 * tenth slower). No WebDriver hop and no BiDi event stream in between (over BiDi the same load
 * costs the browser 40–50 ms more CPU on a real page).
 *
 * Answers undefined when the tab has no usable socket, so that the caller takes the WebDriver path.
 * A navigation the page replaces before it loads (a script or meta redirect) is followed to the
 * document that loads last. In Chromium a tab's target id is its main frame's id.
 */
export const loadOnSocket = async (
  sockets: DevtoolsSockets,
  context: string,
  url: string,
  signal?: AbortSignal,
): Promise<SocketLoad | undefined> => {
  const responses = new Map<string, Response>()
  const loaded = new Set<string>()
  // Documents the main frame started after the navigation was sent, in order.
  const started: Array<string> = []
  let answer: NavigateAnswer | undefined
  let wake = () => {}
  // The Network domain is on only until the main frame's document has answered: what the page loads
  // after it would cost the browser and this process one event each, for nobody.
  let networkOn = false
  const networkOff = () => {
    if (!networkOn) return
    networkOn = false
    void sockets.send(context, "Network.disable", {})
  }

  const stop = sockets.listen(context, (event: DevtoolsEvent) => {
    const params = event.params as {
      readonly frameId?: string
      readonly loaderId?: string
      readonly name?: string
      readonly type?: string
      readonly response?: { readonly status?: number; readonly headers?: Record<string, string> }
    }
    if (params.frameId !== context || params.loaderId === undefined) return
    if (event.method === "Network.responseReceived" && params.type === "Document") {
      responses.set(params.loaderId, {
        status: params.response?.status ?? 0,
        headers: params.response?.headers ?? {},
      })
      // A document that replaces this one while it loads is read from the page by the caller.
      networkOff()
    } else if (event.method === "Page.lifecycleEvent") {
      if (params.name === "init") started.push(params.loaderId)
      else if (params.name === "load") loaded.add(params.loaderId)
      wake()
    }
  })

  // The document to wait for: the navigation's own, or the last one started after it.
  const awaited = (own: string): string => (started.includes(own) ? started.at(-1)! : own)

  try {
    // Page events are switched on once per socket; Network for this load only, keeping no response
    // body (none is read here).
    const enabled = await Promise.all([
      sockets.sendOnce(context, "Page.enable", {}),
      sockets.sendOnce(context, "Page.setLifecycleEventsEnabled", { enabled: true }),
      sockets.send(context, "Network.enable", { maxTotalBufferSize: 0, maxResourceBufferSize: 0 }),
    ])
    networkOn = enabled[2] !== undefined
    if (enabled.some((result) => result === undefined)) return undefined
    const sent = await sockets.send(context, "Page.navigate", { url })
    if (sent === undefined) return undefined
    answer = sent.result as NavigateAnswer
    const own = answer.loaderId
    if (own === undefined) {
      // Nothing committed: a same-document navigation, or a load the browser gave up on.
      return {
        status: undefined,
        headers: undefined,
        errorText: answer.errorText,
        stayed: true,
        landed: undefined,
      }
    }
    await new Promise<void>((resolve, reject) => {
      const check = () => {
        if (loaded.has(awaited(own))) resolve()
      }
      const abort = () => reject(new LoadAborted(`loading ${url} was stopped`))
      if (signal?.aborted) return abort()
      signal?.addEventListener("abort", abort, { once: true })
      wake = check
      check()
    })
    const last = awaited(own)
    const response = responses.get(last) ?? responses.get(own)
    // A page that replaced itself may have gone anywhere, an error page included: the caller asks it.
    const history =
      last === own
        ? ((await sockets.send(context, "Page.getNavigationHistory", {}))?.result as
            | NavigationHistory
            | undefined)
        : undefined
    const entry = history?.entries?.[history.currentIndex ?? -1]
    return {
      status: response?.status,
      headers: response?.headers,
      errorText: answer.errorText,
      stayed: false,
      landed:
        typeof entry?.url === "string" && typeof entry.title === "string"
          ? { url: entry.url, title: entry.title }
          : undefined,
    }
  } finally {
    networkOff()
    stop()
  }
}

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
  /**
   * Set when the document had rendered but had not finished loading at the page-load wait: the load
   * was stopped (`Page.stopLoading`, as pressing Esc does) this many ms after the navigation was sent.
   */
  readonly stoppedAfterMs?: number | undefined
}

/** How one load on the socket waits, and what it tells its caller while it runs. */
export interface SocketLoadOptions {
  /** Stops waiting (the caller's time limit, a dialog, an interruption). */
  readonly signal?: AbortSignal | undefined
  /**
   * From this many ms after the navigation was sent, a document that has rendered something is
   * stopped instead of waited for; undefined waits for the load event however long it takes.
   */
  readonly pageLoadWaitMs?: number | undefined
  /** Set to true once the server answered and the browser committed the document. */
  readonly progress?: { committed: boolean } | undefined
}

/** How often a committed document that has not rendered anything yet is looked at again, in ms. */
const RENDER_POLL_MS = 250

// Whether the page shows something a reader could use: an element in the body with a box.
const renderedExpression = `(() => {
  const body = document.body
  if (!body) return false
  for (const element of body.querySelectorAll("*")) {
    const box = element.getBoundingClientRect()
    if (box.width > 0 && box.height > 0) return true
  }
  return false
})()`

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
 *
 * A document that has committed and rendered but still has not fired `load` at `pageLoadWaitMs`
 * (a stalled stream, an image or script that never answers) is stopped, as a person presses Esc, and
 * answered with `stoppedAfterMs`: what it rendered stays usable. One that has rendered nothing yet is
 * looked at again until it has, or until the caller stops waiting.
 */
export const loadOnSocket = async (
  sockets: DevtoolsSockets,
  context: string,
  url: string,
  options: SocketLoadOptions = {},
): Promise<SocketLoad | undefined> => {
  const { signal, pageLoadWaitMs, progress } = options
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
    const sentAt = Date.now()
    // A caller that gives up before the server answered cancels the navigation, as Esc does: left
    // pending, it would hold up the tab's next one.
    const cancel = () => {
      if (answer === undefined) void sockets.send(context, "Page.stopLoading", {})
    }
    signal?.addEventListener("abort", cancel, { once: true })
    const sent = await sockets
      .send(context, "Page.navigate", { url })
      .finally(() => signal?.removeEventListener("abort", cancel))
    if (sent === undefined) return undefined
    answer = sent.result as NavigateAnswer
    const own = answer.loaderId
    if (own !== undefined && progress !== undefined) progress.committed = true
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
    const stoppedAfterMs = await new Promise<number | undefined>((resolve, reject) => {
      let settled = false
      // Once the stop is sent, a load event it may cause is not the page finishing by itself.
      let stopping = false
      let timer: ReturnType<typeof setTimeout> | undefined
      const settle = (stopped: number | undefined) => {
        if (settled) return
        settled = true
        clearTimeout(timer)
        signal?.removeEventListener("abort", abort)
        resolve(stopped)
      }
      const check = () => {
        if (!stopping && loaded.has(awaited(own))) settle(undefined)
      }
      const abort = () => {
        settled = true
        clearTimeout(timer)
        reject(new LoadAborted(`loading ${url} was stopped`))
      }
      // Past the page-load wait: stop a document that shows something, look again at one that does not.
      const probe = async () => {
        timer = undefined
        const shown = await sockets.send(context, "Runtime.evaluate", {
          expression: renderedExpression,
          returnByValue: true,
        })
        if (settled) return
        if ((shown?.result as { result?: { value?: unknown } } | undefined)?.result?.value !== true) {
          timer = setTimeout(probe, RENDER_POLL_MS)
          return
        }
        stopping = true
        await sockets.send(context, "Page.stopLoading", {})
        settle(Date.now() - sentAt)
      }
      if (signal?.aborted) return abort()
      signal?.addEventListener("abort", abort, { once: true })
      wake = check
      check()
      if (!settled && pageLoadWaitMs !== undefined) {
        timer = setTimeout(probe, Math.max(0, sentAt + pageLoadWaitMs - Date.now()))
      }
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
      stoppedAfterMs,
    }
  } finally {
    networkOff()
    stop()
  }
}

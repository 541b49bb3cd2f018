/**
 * Chrome DevTools commands sent straight to a tab's own DevTools WebSocket, when the session says
 * where Chrome's debugger listens (`goog:chromeOptions.debuggerAddress`, as ChromeDriver reports
 * for a local Chromium). One message each way, without ChromeDriver's HTTP hop in between.
 */
export interface DevtoolsSockets {
  /**
   * Sends one command to the tab `context` and answers its result, or undefined when that tab has
   * no usable socket (no debugger address, an unknown or closed target, a socket that failed), so
   * that the caller takes its usual path instead. `sessionId` sends it to a target the socket attached
   * to (flat mode), such as a tab the browser's socket holds paused until it is watched.
   */
  readonly send: (
    context: string,
    method: string,
    params: Record<string, unknown>,
    sessionId?: string,
  ) => Promise<{ readonly result: unknown } | undefined>
  /**
   * Like `send`, but once per socket: later calls answer the first answer while the tab's socket
   * stays open (a new socket sends it again). For commands that switch something on for the
   * socket, such as `Page.enable`. A command that got no answer is sent again next time.
   */
  readonly sendOnce: (
    context: string,
    method: string,
    params: Record<string, unknown>,
  ) => Promise<{ readonly result: unknown } | undefined>
  /**
   * Calls `listener` with every event the tab `context` sends on its socket from now on (those of
   * the domains some command enabled); the answer stops it. Opens no socket by itself.
   */
  readonly listen: (context: string, listener: (event: DevtoolsEvent) => void) => () => void
  /** Closes every socket opened so far; later sends answer undefined. */
  readonly close: () => void
}

/** A Chrome DevTools event a tab sent: `Page.lifecycleEvent`, `Network.responseReceived`, … */
export interface DevtoolsEvent {
  readonly method: string
  readonly params: Record<string, unknown>
  /** The attached target it came from (flat mode), when the socket is not that target's own. */
  readonly sessionId?: string
}

interface Pending {
  readonly resolve: (answer: { readonly result: unknown } | undefined) => void
}

interface TabSocket {
  readonly socket: WebSocket
  readonly pending: Map<number, Pending>
  /** The answers of `sendOnce` on this socket, by method and parameters. */
  readonly sentOnce: Map<string, Promise<{ readonly result: unknown } | undefined>>
  broken: boolean
}

/**
 * The context name of the browser's own DevTools endpoint (`/json/version`), for the commands and
 * events of the whole browser (`Target.*`) rather than one tab's.
 */
export const BROWSER_ENDPOINT = "browser"

/** The emitter event fired for each command sent on a DevTools socket, so request counts see it. */
export const devtoolsSocketEvent = "devtoolsSocketCommand"

const debuggerAddress = (browser: WebdriverIO.Browser): string | undefined => {
  const options = (browser.capabilities as Record<string, unknown> | undefined)?.["goog:chromeOptions"]
  const address = (options as { readonly debuggerAddress?: unknown } | undefined)?.debuggerAddress
  return typeof address === "string" && /^[\w.[\]:-]+:\d+$/.test(address) ? address : undefined
}

const unavailable: DevtoolsSockets = {
  send: async () => undefined,
  sendOnce: async () => undefined,
  listen: () => () => {},
  close: () => {},
}

// A tab that takes longer than this to connect is left to the usual path.
const connectTimeoutMs = 2000

// Where the DevTools socket of the tab `context` (or of the browser, BROWSER_ENDPOINT) listens.
const socketUrl = async (address: string, context: string): Promise<unknown> => {
  const browserWide = context === BROWSER_ENDPOINT
  const response = await fetch(`http://${address}/json/${browserWide ? "version" : "list"}`, {
    signal: AbortSignal.timeout(connectTimeoutMs),
  })
  if (browserWide)
    return ((await response.json()) as { readonly webSocketDebuggerUrl?: unknown }).webSocketDebuggerUrl
  const targets = (await response.json()) as ReadonlyArray<{
    readonly id?: unknown
    readonly webSocketDebuggerUrl?: unknown
  }>
  return targets.find((target) => target.id === context)?.webSocketDebuggerUrl
}

/**
 * The DevTools sockets of one session, opened lazily, one per tab (in Chromium a tab's BiDi
 * browsing-context id and WebDriver window handle are its DevTools target id) and one for the
 * browser ({@link BROWSER_ENDPOINT}); every send falls back (answers undefined) on a session
 * without a debugger address.
 */
export const devtoolsSockets = (browser: WebdriverIO.Browser): DevtoolsSockets => {
  const address = debuggerAddress(browser)
  return address === undefined ? unavailable : devtoolsSocketsAt(address, browser)
}

/**
 * The DevTools sockets of the Chromium whose debugger listens at `address` (`127.0.0.1:9222`), before
 * any WebDriver session exists; `browser`, when given, hears every command sent (request counts).
 */
export const devtoolsSocketsAt = (address: string, browser?: WebdriverIO.Browser): DevtoolsSockets => {
  if (typeof WebSocket !== "function") return unavailable
  const tabs = new Map<string, Promise<TabSocket | undefined>>()
  const listeners = new Map<string, Set<(event: DevtoolsEvent) => void>>()
  let closed = false
  let nextId = 0

  const connect = async (context: string): Promise<TabSocket | undefined> => {
    try {
      const url = await socketUrl(address, context)
      if (typeof url !== "string" || closed) return undefined
      const socket = new WebSocket(url)
      const tab: TabSocket = { socket, pending: new Map(), sentOnce: new Map(), broken: false }
      const fail = () => {
        tab.broken = true
        // Only this socket's entry: a newer socket of the tab may have taken its place.
        const current = tabs.get(context)
        void current?.then((open) => {
          if (open === tab && tabs.get(context) === current) tabs.delete(context)
        })
        for (const pending of tab.pending.values()) pending.resolve(undefined)
        tab.pending.clear()
      }
      socket.addEventListener("message", (event) => {
        let message: {
          readonly id?: unknown
          readonly result?: unknown
          readonly error?: unknown
          readonly method?: unknown
          readonly params?: Record<string, unknown>
          readonly sessionId?: unknown
        }
        try {
          message = JSON.parse(String(event.data)) as typeof message
        } catch {
          return
        }
        if (typeof message.method === "string") {
          const heard: DevtoolsEvent = {
            method: message.method,
            params: message.params ?? {},
            ...(typeof message.sessionId === "string" ? { sessionId: message.sessionId } : {}),
          }
          for (const listener of [...(listeners.get(context) ?? [])]) listener(heard)
          return
        }
        if (typeof message.id !== "number") return
        const pending = tab.pending.get(message.id)
        if (pending === undefined) return
        tab.pending.delete(message.id)
        pending.resolve(message.error === undefined ? { result: message.result } : undefined)
      })
      socket.addEventListener("close", fail)
      socket.addEventListener("error", fail)
      const opened = await new Promise<boolean>((resolve) => {
        const timer = setTimeout(() => resolve(false), connectTimeoutMs)
        socket.addEventListener("open", () => {
          clearTimeout(timer)
          resolve(true)
        })
        socket.addEventListener("close", () => {
          clearTimeout(timer)
          resolve(false)
        })
      })
      if (!opened || closed) {
        socket.close()
        return undefined
      }
      return tab
    } catch {
      return undefined
    }
  }

  const openTab = async (context: string): Promise<TabSocket | undefined> => {
    if (closed) return undefined
    let tab = tabs.get(context)
    if (tab === undefined) {
      tab = connect(context)
      tabs.set(context, tab)
    }
    const open = await tab
    return open === undefined || open.broken || closed ? undefined : open
  }

  const sendOn = (open: TabSocket, method: string, params: Record<string, unknown>, sessionId?: string) => {
    const id = ++nextId
    return new Promise<{ readonly result: unknown } | undefined>((resolve) => {
      open.pending.set(id, { resolve })
      ;(browser as unknown as { emit?: (event: string, data: unknown) => void } | undefined)?.emit?.(
        devtoolsSocketEvent,
        {
          method,
        },
      )
      open.socket.send(
        JSON.stringify(sessionId === undefined ? { id, method, params } : { id, method, params, sessionId }),
      )
    })
  }

  return {
    send: async (context, method, params, sessionId) => {
      const open = await openTab(context)
      return open === undefined ? undefined : sendOn(open, method, params, sessionId)
    },
    sendOnce: async (context, method, params) => {
      const open = await openTab(context)
      if (open === undefined) return undefined
      const key = `${method} ${JSON.stringify(params)}`
      let answer = open.sentOnce.get(key)
      if (answer === undefined) {
        answer = sendOn(open, method, params)
        open.sentOnce.set(key, answer)
        // No answer: the next call tries again.
        void answer.then((answered) => {
          if (answered === undefined) open.sentOnce.delete(key)
        })
      }
      return answer
    },
    listen: (context, listener) => {
      let heard = listeners.get(context)
      if (heard === undefined) {
        heard = new Set()
        listeners.set(context, heard)
      }
      heard.add(listener)
      return () => {
        heard.delete(listener)
      }
    },
    close: () => {
      closed = true
      listeners.clear()
      for (const tab of tabs.values()) {
        void tab.then((open) => {
          if (open === undefined) return
          for (const pending of open.pending.values()) pending.resolve(undefined)
          open.socket.close()
        })
      }
      tabs.clear()
    },
  }
}

/*
 * Watching a document for the actor: requests in flight, DOM changes, short timers, the start of a
 * cross-document navigation and the browser's own input. Started once per document, before the
 * page's own scripts when the driver preloads the actor, so the requests and timers they start count.
 */

/** What the actor has seen of this document since it was installed. */
export interface WatchState {
  /** This document, told apart from the next one the same tab loads. */
  readonly doc: string
  /** Requests in flight, bodies being read included. */
  inflight: number
  /** DOM changes, finished requests and fired short timers since the last prepare. */
  mutations: number
  /** When the last of them happened (`performance.now()`). */
  lastMutation: number
  /** A cross-document navigation has started. */
  navigating: boolean
  /** Short timers count (between a prepare and its settle). */
  watchingTimers: boolean
  /** Short timers started while watching and not yet fired. */
  readonly timers: Set<number>
  /** Trusted input seen (beforeinput for text, mouseup for a click). */
  inputs: number
  /** Settles waiting for input to land, resumed in a later task once it has. */
  readonly inputWaiters: Array<() => void>
  /** The node the last trusted mousedown landed on, cleared when a click is prepared. */
  pressedOn: EventTarget | null
}

export const watchState: WatchState = {
  doc: Math.random().toString(36).slice(2) + Date.now().toString(36),
  inflight: 0,
  mutations: 0,
  lastMutation: 0,
  navigating: false,
  watchingTimers: false,
  timers: new Set(),
  inputs: 0,
  inputWaiters: [],
  pressedOn: null,
}

/** The page's timer functions as they were before watching wrapped them. */
export const originalSetTimeout: typeof setTimeout = globalThis.setTimeout
export const originalClearTimeout: typeof clearTimeout = globalThis.clearTimeout

/** Resolves after `ms` on an unwatched timer. */
export const sleep = (ms: number): Promise<void> =>
  new Promise((resolve) => {
    originalSetTimeout(resolve, ms)
  })

/** Short timers an action's handlers start (a debounced search, a delayed re-render) are part of its effect. */
const shortTimerMs = 1000

/** Activity: a DOM change, a finished request or a fired short timer. */
const touch = (): void => {
  watchState.mutations++
  watchState.lastMutation = performance.now()
}

// Counts the browser's own input, so a settle sent alongside the input command can wait for it to
// land; each waiter resumes in a later task, after the insertion or the click and the page's
// handlers for it have run.
const onInput = (event: Event): void => {
  if (!event.isTrusted) return
  watchState.inputs++
  for (const waiter of watchState.inputWaiters.splice(0)) originalSetTimeout(waiter, 0)
}

// Records where the browser's own press landed, so a click can be told whether it hit its element.
const onPress = (event: Event): void => {
  if (event.isTrusted) watchState.pressedOn = event.composedPath()[0] ?? event.target
}

// Same-origin frames have windows of their own; prepare adds the listeners to the one it types in.
const inputViews = new WeakSet<object>()

const listenForInput = (view: Window | typeof globalThis): void => {
  inputViews.add(view)
  view.addEventListener("beforeinput", onInput, true)
  view.addEventListener("mouseup", onInput, true)
  view.addEventListener("mousedown", onPress, true)
}

/**
 * Whether input aimed at the element is seen, listening in its frame's window when needed: not so
 * for a frame whose document is out of reach (the input lands inside it).
 */
export const watchInput = (element: Element): boolean => {
  if (element.localName === "iframe" || element.localName === "frame") return false
  const view = element.ownerDocument.defaultView
  if (view === null) return false
  if (!inputViews.has(view)) listenForInput(view)
  return true
}

let observer: MutationObserver | null = null

/**
 * Counts DOM changes from now on. Not from the start: watching them while the page loads would make
 * the browser record every node its parser inserts, for nobody.
 */
export const observe = (): void => {
  if (observer !== null) return
  observer = new MutationObserver(touch)
  observer.observe(document, { subtree: true, childList: true, attributes: true, characterData: true })
}

type Wrapped<F> = F extends (...args: infer A) => infer R ? (this: unknown, ...args: A) => R : never

/** Wraps fetch, body reads, XHR and short timers, and listens for navigation and input. Once per document. */
export const startWatching = (): void => {
  listenForInput(globalThis)
  const host = globalThis as typeof globalThis & Record<string, unknown>
  const originalFetch = host.fetch
  if (typeof originalFetch === "function") {
    const fetch: Wrapped<typeof originalFetch> = function (...args) {
      watchState.inflight++
      return originalFetch.apply(this, args).finally(() => {
        watchState.inflight--
        touch()
      })
    }
    host.fetch = fetch as typeof originalFetch
  }
  // A fetch answers once the headers are in; the body is read after. Reading it counts as in flight
  // too, so a page that renders from response.json() is waited for however long the body takes.
  if (typeof Response === "function") {
    const prototype = Response.prototype as unknown as Record<string, unknown>
    for (const method of ["json", "text", "arrayBuffer", "blob", "formData"]) {
      const read = prototype[method]
      if (typeof read !== "function") continue
      prototype[method] = function (this: Response, ...args: unknown[]) {
        watchState.inflight++
        return (read.apply(this, args) as Promise<unknown>).finally(() => {
          watchState.inflight--
          touch()
        })
      }
    }
  }
  if (typeof XMLHttpRequest === "function") {
    const send = XMLHttpRequest.prototype.send
    XMLHttpRequest.prototype.send = function (this: XMLHttpRequest, ...args) {
      watchState.inflight++
      this.addEventListener(
        "loadend",
        () => {
          watchState.inflight--
          touch()
        },
        { once: true },
      )
      return send.apply(this, args)
    }
  }
  // Timers started between prepare and settle, up to shortTimerMs, are waited for.
  const callTimer = originalSetTimeout as unknown as (
    this: unknown,
    handler: TimerHandler,
    delay?: number,
    ...rest: unknown[]
  ) => number
  const setTimeoutWatched = function (
    this: unknown,
    callback: TimerHandler,
    delay?: number,
    ...rest: unknown[]
  ): number {
    if (!watchState.watchingTimers || typeof callback !== "function" || Number(delay || 0) > shortTimerMs)
      return callTimer.call(this, callback, delay, ...rest)
    const id = callTimer.call(
      this,
      (...args: unknown[]) => {
        watchState.timers.delete(id)
        touch()
        ;(callback as (...args: unknown[]) => void)(...args)
      },
      delay,
      ...rest,
    )
    watchState.timers.add(id)
    return id
  }
  host.setTimeout = setTimeoutWatched as typeof setTimeout
  host.clearTimeout = function (this: unknown, id?: number) {
    if (id !== undefined) watchState.timers.delete(id)
    return originalClearTimeout.call(this, id)
  } as typeof clearTimeout
  const navigation = (host as { navigation?: EventTarget }).navigation
  if (navigation !== undefined && typeof navigation.addEventListener === "function") {
    navigation.addEventListener("navigate", (event) => {
      const destination = (event as Event & { destination?: { sameDocument?: boolean } }).destination
      if (!destination?.sameDocument) watchState.navigating = true
    })
  }
  addEventListener("beforeunload", () => {
    watchState.navigating = true
  })
}

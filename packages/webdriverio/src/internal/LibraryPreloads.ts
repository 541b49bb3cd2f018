/**
 * The preload scripts WebdriverIO adds to a BiDi session of its own accord while `remote` opens it:
 * a shadow-root tracker that wraps every page's `customElements.define` and `Element.attachShadow`
 * and reports each shadow root with `console.debug(element, …)` — which the browser serialises for
 * every attached DevTools client, on every page that builds custom elements — and a `__name` helper.
 * Sextant reads shadow roots with its own page script and never uses WebdriverIO's element finders,
 * so a session it launches takes them out again: pages run as written, and loads do not pay for the
 * logging. A preload script added after `remote` (Sextant's own actor, a user's) is never touched.
 */

interface EmittingClient {
  readonly on: (event: string, listener: (payload: never) => void) => unknown
  readonly off: (event: string, listener: (payload: never) => void) => unknown
}

interface BidiCommandEvent {
  readonly method?: unknown
}

interface BidiResultEvent {
  readonly type?: unknown
  readonly result?: { readonly script?: unknown }
}

/** Watches the preload scripts a session gets while it opens; see the module comment. */
export interface LibraryPreloads {
  /** The `remote` modifier that starts watching the client before its first BiDi command. */
  readonly modifier: <C>(client: C) => C
  /**
   * Waits (at most 2 s) for the browser to answer every preload script added so far, stops watching,
   * and removes them; a removal the browser refuses is left as it is.
   */
  readonly remove: (browser: WebdriverIO.Browser) => Promise<void>
}

/** How long `remove` waits for the browser to answer the preload scripts added while the session opened. */
const ANSWER_WAIT_MS = 2000

export const watchLibraryPreloads = (): LibraryPreloads => {
  let client: EmittingClient | undefined
  let sent = 0
  let answered = 0
  const added: Array<string> = []
  let wake = () => {}

  const onCommand = (command: BidiCommandEvent) => {
    if (command.method === "script.addPreloadScript") sent += 1
  }
  // The answer to an added preload script is the only one that names a `script`; a refused one is
  // an error, counted as answered so that nobody waits for it.
  const onResult = (payload: BidiResultEvent) => {
    if (typeof payload.result?.script === "string") {
      added.push(payload.result.script)
      answered += 1
    } else if (payload.type === "error") {
      answered += 1
    }
    wake()
  }
  const stop = () => {
    client?.off("bidiCommand", onCommand as (payload: never) => void)
    client?.off("bidiResult", onResult as (payload: never) => void)
    client = undefined
  }

  return {
    modifier: (opened) => {
      const emitting = opened as unknown as Partial<EmittingClient>
      if (typeof emitting.on === "function" && typeof emitting.off === "function") {
        client = emitting as EmittingClient
        client.on("bidiCommand", onCommand as (payload: never) => void)
        client.on("bidiResult", onResult as (payload: never) => void)
      }
      return opened
    },
    remove: async (browser) => {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, ANSWER_WAIT_MS)
        wake = () => {
          if (answered >= sent) {
            clearTimeout(timer)
            resolve()
          }
        }
        wake()
      })
      wake = () => {}
      stop()
      await Promise.all(
        added.map((script) => browser.scriptRemovePreloadScript({ script }).catch(() => undefined)),
      )
    },
  }
}

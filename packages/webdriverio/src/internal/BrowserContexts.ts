import { BROWSER_ENDPOINT, type DevtoolsSockets, devtoolsSockets } from "./DevtoolsSocket.ts"

/** What a switch to a fresh context closes once the session's window is in the new one. */
export type Previous =
  /** The first tab of a launch, in the profile's own context (which cannot be closed). */
  | { readonly tab: string }
  /** The context of the session's previous holder, with every tab in it. */
  | { readonly context: string }

/** How long a switch waits for Chromium to drop the tabs it closed. */
const GONE_MS = 2_000

/** A target as `Target.getTargets` lists it. */
export interface TargetInfo {
  readonly targetId?: unknown
  readonly type?: unknown
  readonly browserContextId?: unknown
}

/**
 * Opens a tab in a new browser context (off the record, as every Playwright context is: a BiDi user
 * context, or one made on the browser's DevTools socket), makes it the session's window, then closes
 * `previous`. Answers the new context's id. Nothing of the old context — cookies, storage, cache,
 * service workers, tabs — is reachable from the new one.
 */
export const switchToFreshContext = async (
  browser: WebdriverIO.Browser,
  bidi: boolean,
  previous: Previous,
): Promise<string> => {
  if (bidi) {
    const { userContext } = (await browser.browserCreateUserContext({})) as { userContext: string }
    const { context } = (await browser.browsingContextCreate({ type: "tab", userContext })) as {
      context: string
    }
    await browser.switchToWindow(context)
    if ("tab" in previous) await browser.browsingContextClose({ context: previous.tab })
    else await browser.browserRemoveUserContext({ userContext: previous.context })
    return userContext
  }
  // Without BiDi, the browser's own DevTools socket makes the context (kept after the socket
  // closes) and its tab; ChromeDriver finds the tab by its handle, the DevTools target id.
  const sockets = devtoolsSockets(browser)
  try {
    const made = await openContextTab(sockets)
    await browser.switchToWindow(made.tab)
    await closeAndWait(sockets, previous)
    return made.context
  } finally {
    sockets.close()
  }
}

/**
 * Makes a browser context and a blank tab in it on the browser's DevTools socket; the context stays
 * after the socket closes.
 */
export const openContextTab = async (
  sockets: DevtoolsSockets,
): Promise<{ readonly context: string; readonly tab: string }> => {
  const made = (await sockets.send(BROWSER_ENDPOINT, "Target.createBrowserContext", {
    disposeOnDetach: false,
  })) as { readonly result?: { readonly browserContextId?: unknown } } | undefined
  const browserContextId = made?.result?.browserContextId
  if (typeof browserContextId !== "string") {
    throw new Error("Chromium did not make a fresh browser context (Target.createBrowserContext)")
  }
  const opened = (await sockets.send(BROWSER_ENDPOINT, "Target.createTarget", {
    url: "about:blank",
    browserContextId,
  })) as { readonly result?: { readonly targetId?: unknown } } | undefined
  const tab = opened?.result?.targetId
  if (typeof tab !== "string") throw new Error("Chromium did not open a tab in the fresh context")
  return { context: browserContextId, tab }
}

/** The page targets (tabs) the browser lists now. */
export const listTabs = async (sockets: DevtoolsSockets): Promise<ReadonlyArray<TargetInfo>> => {
  const listed = (await sockets.send(BROWSER_ENDPOINT, "Target.getTargets", {})) as
    | { readonly result?: { readonly targetInfos?: ReadonlyArray<TargetInfo> } }
    | undefined
  return (listed?.result?.targetInfos ?? []).filter((target) => target.type === "page")
}

/** Closes `previous` and waits (a moment at most) until the browser no longer lists it. */
export const closeAndWait = async (sockets: DevtoolsSockets, previous: Previous): Promise<void> => {
  const closed =
    "tab" in previous
      ? await sockets.send(BROWSER_ENDPOINT, "Target.closeTarget", { targetId: previous.tab })
      : await sockets.send(BROWSER_ENDPOINT, "Target.disposeBrowserContext", {
          browserContextId: previous.context,
        })
  if (closed === undefined) throw new Error("Chromium did not close the previous tabs")
  const left = (target: TargetInfo) =>
    "tab" in previous ? target.targetId === previous.tab : target.browserContextId === previous.context
  // The browser answers before the tabs are gone; the session starts with only its own tab listed.
  const gone = Date.now() + GONE_MS
  while (Date.now() < gone) {
    if (!(await listTabs(sockets)).some(left)) break
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
}

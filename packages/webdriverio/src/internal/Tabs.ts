import type { BrowserDriverShape, TabInfo } from "@sextant/core"
import { Effect } from "effect"
import { toDriverError } from "../DriverErrors.ts"
import type { DriverContext } from "./DriverContext.ts"

/** The tabs of the session: listing them, and choosing or closing the one page calls go to. */
export const makeTabs = (
  driver: Pick<
    DriverContext,
    "browser" | "bidi" | "cdp" | "state" | "watchTab" | "currentUrl" | "title" | "guard"
  >,
): Pick<BrowserDriverShape, "tabs" | "switchTab" | "closeTab"> => {
  const { browser, bidi, cdp, state, watchTab, currentUrl, title, guard } = driver

  // A background tab may not answer scripts until it is shown, so titles and URLs come from the
  // browser's target list (Chrome DevTools) or the BiDi tree; Classic visits each tab.
  const tabs: BrowserDriverShape["tabs"] = Effect.gen(function* () {
    const handles = yield* Effect.tryPromise({
      try: () => browser.getWindowHandles(),
      catch: toDriverError("tabs"),
    })
    if (cdp) {
      const targets = (yield* Effect.tryPromise({
        try: () => browser.sendCommandAndGetResult("Target.getTargets", {}),
        catch: toDriverError("tabs"),
      })) as { targetInfos?: ReadonlyArray<{ targetId: string; url: string; title: string }> }
      const byId = new Map((targets.targetInfos ?? []).map((target) => [target.targetId, target]))
      return handles.map((handle) => ({
        handle,
        url: byId.get(handle)?.url ?? "",
        title: byId.get(handle)?.title ?? "",
        active: handle === state.context,
      }))
    }
    if (bidi) {
      const tree = (yield* Effect.tryPromise({
        try: () => browser.browsingContextGetTree({ maxDepth: 0 }),
        catch: toDriverError("tabs"),
      })) as { contexts: ReadonlyArray<{ context: string; url: string }> }
      const activeTitle = yield* title
      const urls = new Map(tree.contexts.map((entry) => [entry.context, entry.url]))
      return handles.map((handle) => ({
        handle,
        url: urls.get(handle) ?? "",
        title: handle === state.context ? activeTitle : "",
        active: handle === state.context,
      }))
    }
    return yield* Effect.tryPromise({
      try: async () => {
        const infos: Array<TabInfo> = []
        for (const handle of handles) {
          if (handle !== state.context) await browser.switchToWindow(handle)
          infos.push({
            handle,
            url: await browser.getUrl(),
            title: await browser.getTitle(),
            active: handle === state.context,
          })
        }
        await browser.switchToWindow(state.context)
        return infos
      },
      catch: toDriverError("tabs"),
    })
  })

  const switchTab: BrowserDriverShape["switchTab"] = Effect.fn("BrowserDriver.switchTab")(function* (handle) {
    yield* Effect.tryPromise({
      try: () => browser.switchToWindow(handle),
      catch: toDriverError("switchTab", { target: handle }),
    })
    state.context = handle
    state.lastSnapshot = undefined
    yield* watchTab(handle)
    return { handle, url: yield* currentUrl, title: yield* title, active: true }
  })

  const closeTab: BrowserDriverShape["closeTab"] = Effect.fn("BrowserDriver.closeTab")(function* (handle) {
    const wasActive = handle === state.context
    yield* Effect.tryPromise({
      try: async () => {
        await browser.switchToWindow(handle)
        await browser.closeWindow()
        const remaining = await browser.getWindowHandles()
        const next = wasActive ? remaining[0] : state.context
        if (next !== undefined) await browser.switchToWindow(next)
        return next
      },
      catch: toDriverError("closeTab", { target: handle }),
    }).pipe(
      Effect.flatMap((next) =>
        Effect.sync(() => {
          if (next !== undefined) state.context = next
          state.lastSnapshot = undefined
        }).pipe(Effect.andThen(next === undefined ? Effect.void : watchTab(next))),
      ),
    )
  })

  return {
    tabs: tabs.pipe(guard("tabs")),
    switchTab: (handle) => switchTab(handle).pipe(guard("switchTab")),
    closeTab: (handle) => closeTab(handle).pipe(guard("closeTab")),
  }
}

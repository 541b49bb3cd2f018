import { describe, expect, it } from "@effect/vitest"
import type { PageSnapshot } from "@sextant/core"
import { Effect } from "effect"
import type { DriverState } from "../src/internal/DriverContext.ts"
import type { Guard } from "../src/internal/Liveness.ts"
import { makeTabs } from "../src/internal/Tabs.ts"

const unguarded: Guard = () => (effect) => effect

/** A Chrome DevTools session with two tabs, of which "A" is active; records the tabs it was switched to. */
const twoTabs = () => {
  const switched: Array<string> = []
  const browser = {
    getWindowHandles: async () => ["A", "B"],
    sendCommandAndGetResult: async () => ({
      targetInfos: [
        { targetId: "B", url: "http://shop.test/cart", title: "Cart" },
        { targetId: "A", url: "http://shop.test/", title: "Shop" },
      ],
    }),
    switchToWindow: async (handle: string) => {
      switched.push(handle)
    },
  } as unknown as WebdriverIO.Browser
  const state: DriverState = {
    context: "A",
    lastSnapshot: {} as PageSnapshot,
    newTabs: [],
    loading: undefined,
  }
  const tabs = makeTabs({
    browser,
    bidi: false,
    cdp: true,
    state,
    watchTab: () => Effect.void,
    currentUrl: Effect.succeed("http://shop.test/cart"),
    title: Effect.succeed("Cart"),
    guard: unguarded,
  })
  return { tabs, state, switched }
}

describe("makeTabs", () => {
  it.effect("lists every tab from the DevTools target list without visiting it, marking the active one", () =>
    Effect.gen(function* () {
      const { tabs, switched } = twoTabs()
      expect(yield* tabs.tabs).toEqual([
        { handle: "A", url: "http://shop.test/", title: "Shop", active: true },
        { handle: "B", url: "http://shop.test/cart", title: "Cart", active: false },
      ])
      expect(switched).toEqual([])
    }),
  )

  it.effect("sends later page calls to the tab switched to, and forgets the last look", () =>
    Effect.gen(function* () {
      const { tabs, state, switched } = twoTabs()
      const tab = yield* tabs.switchTab("B")
      expect(tab).toEqual({ handle: "B", url: "http://shop.test/cart", title: "Cart", active: true })
      expect(switched).toEqual(["B"])
      expect(state.context).toBe("B")
      expect(state.lastSnapshot).toBeUndefined()
      expect((yield* tabs.tabs).find((entry) => entry.active)?.handle).toBe("B")
    }),
  )
})

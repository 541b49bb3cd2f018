import { TabOrigins, type TabOriginsShape } from "@sextant/core"
import { Effect } from "effect"

/**
 * Keeps new tabs off origins the run may not visit. Each driver call remembers the caller's
 * {@link TabOrigins}; a tab a page opens is held before its first request (the browser holds it until
 * it is watched) and made to ask before every document it loads, so one headed for another origin is
 * closed before that request leaves the browser.
 */
export interface PopupGuard {
  /** Reads the call's `TabOrigins` and keeps it for the tabs that open while (and after) it runs. */
  readonly remember: Effect.Effect<void>
  /** Whether tabs opened now are held to the allowed origins. */
  readonly active: () => boolean
  /** Whether a document request to `url` in a new tab must not leave the browser. */
  readonly refuses: (url: string) => boolean
  /** Reports a tab closed for loading `url`. */
  readonly closed: (url: string) => void
}

const originOf = (url: string): string | undefined => {
  try {
    return new URL(url).origin
  } catch {
    return undefined
  }
}

/** A guard that starts with no allowed origins set, so that nothing is held until a caller sets them. */
export const makePopupGuard = (): PopupGuard => {
  let current: TabOriginsShape = { popups: undefined }
  return {
    remember: Effect.gen(function* () {
      current = yield* TabOrigins
    }),
    active: () => current.popups !== undefined,
    refuses: (url) => {
      const allowed = current.popups
      if (allowed === undefined) return false
      const origin = originOf(url)
      // Anything without an origin of its own (data:, blob:, javascript:) is refused with the rest.
      return origin === undefined || !allowed.includes(origin)
    },
    closed: (url) => current.onClosed?.(url),
  }
}

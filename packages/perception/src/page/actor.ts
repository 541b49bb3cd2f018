import { attachPart, hostOf } from "./host.ts"
import {
  checkTyped,
  currentValue,
  gestureShown,
  markedElement,
  perception,
  prepare,
  scroll,
} from "./prepare.ts"
import { scrollSettled, settle, waitFor } from "./settle.ts"
import { startWatching, watchState } from "./watch.ts"

/**
 * The actor: the in-page half of the driver's `act`, `waitFor` and `scroll`. Each operation answers
 * a JSON string. It never fires input events; the driver sends trusted input through the protocol.
 */
export const actorOperations = {
  state: watchState,
  look: (options?: unknown): string | undefined => perception()?.look?.(options),
  markedElement,
  prepare,
  currentValue,
  checkTyped,
  gestureShown,
  settle,
  scroll,
  waitFor,
  scrollSettled,
}

/** The actor's operations, as `globalThis.__sextant.actor` holds them. */
export type Actor = typeof actorOperations

/**
 * The entry of the actor script: starts watching this document and attaches the actor to its host,
 * `globalThis.__sextant` (see `host.ts`), making the host (without a runtime: the perception runtime
 * attaches to it later, with the same `key`) when there is none. Throws the foreign error when
 * `__sextant` is not a host made with `key`.
 * `scripts/bundle-page.ts` bundles this module and what it imports into its own script, guarded to
 * run once per document: the driver installs it before the page's own scripts, since it counts the
 * requests and timers they start and makes the host before any page script could, while the
 * perception runtime (much larger) comes on first use.
 */
export const installActor = (key: string): void => {
  const host = hostOf(key)
  if (host.actor !== undefined) return
  attachPart(key, "actor", actorOperations)
  startWatching()
}

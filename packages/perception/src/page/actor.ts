import { checkTyped, currentValue, markedElement, perception, prepare, scroll } from "./prepare.ts"
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
  settle,
  scroll,
  waitFor,
  scrollSettled,
}

/** The actor's operations, as `globalThis.__sextant.actor` holds them. */
export type Actor = typeof actorOperations

/**
 * The entry of the actor script: starts watching this document and puts the actor on
 * `globalThis.__sextant.actor`, creating `__sextant` (without a version, so the perception runtime
 * still installs over it and keeps the actor) when the perception runtime is not there yet.
 * `scripts/bundle-page.ts` bundles this module and what it imports into its own script, guarded to
 * run once per document: the driver installs it before the page's own scripts, since it counts the
 * requests and timers they start, while the perception runtime (much larger) comes on first use.
 */
export const installActor = (): void => {
  const host = globalThis as unknown as { __sextant?: { actor?: Actor } }
  if (host.__sextant?.actor !== undefined) return
  startWatching()
  if (host.__sextant !== undefined) {
    host.__sextant.actor = actorOperations
    return
  }
  Object.defineProperty(globalThis, "__sextant", {
    value: { actor: actorOperations },
    configurable: true,
    writable: true,
    enumerable: false,
  })
}

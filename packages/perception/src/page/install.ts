import { act } from "./act.ts"
import { calls } from "./calls.ts"
import { describe } from "./describe.ts"
import { lookString } from "./look.ts"
import { refs } from "./refs.ts"
import { resolve } from "./resolve.ts"
import type { LookOptions } from "./types.ts"

/**
 * The entry of the page script: installs `globalThis.__sextant` with `look`, `resolve`, `act`,
 * `describe`, `refOf` and `calls` (the page functions called by name, `calls.ts`), unless the page already holds this version or a newer one (which keeps
 * its refs). An `actor` already there (`actor.ts`, installed early by the driver) is kept.
 * `scripts/bundle-page.ts` bundles this module and everything it imports into one function of
 * `version`.
 */
export const install = (version: number): void => {
  const host = globalThis as unknown as { __sextant?: { version?: number; actor?: unknown } }
  const present = host.__sextant
  if (present?.version !== undefined && present.version >= version) return
  Object.defineProperty(globalThis, "__sextant", {
    value: {
      version,
      // The actor, when its own script came first (a preload), stays: it holds the document's watch.
      ...(present?.actor === undefined ? {} : { actor: present.actor }),
      look: (options?: LookOptions): string => lookString(version, options),
      resolve,
      act,
      describe,
      refOf: (element: Element) => refs.byElement.get(element),
      calls,
    },
    configurable: true,
    writable: true,
    enumerable: false,
  })
}

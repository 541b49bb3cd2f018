import { act } from "./act.ts"
import { calls } from "./calls.ts"
import { describe } from "./describe.ts"
import { attachPart } from "./host.ts"
import { lookString, printedAs } from "./look.ts"
import { refs } from "./refs.ts"
import { resolve } from "./resolve.ts"
import type { LookOptions } from "./types.ts"

/**
 * The entry of the page script: attaches the perception runtime (`look`, `resolve`, `act`, `describe`,
 * `refOf`, `printedAs` and `calls`, the page functions called by name in `calls.ts`) to this document's host, `globalThis.__sextant` (see `host.ts`), making the host when
 * the actor has not. A host that already holds a runtime keeps it, with its refs. Throws the foreign
 * error when `__sextant` is not a host made with `key`, or holds an older runtime it cannot replace.
 * `scripts/bundle-page.ts` bundles this module and everything it imports into one function of
 * `version` and `key`.
 */
export const install = (version: number, key: string): void => {
  const host = attachPart(key, "runtime", {
    version,
    look: (options?: LookOptions): string => lookString(version, options),
    resolve,
    act,
    describe,
    refOf: (element: Element) => refs.byElement.get(element),
    printedAs,
    calls: Object.freeze(calls),
  })
  const held = host.version
  if (held === undefined || !(held >= version)) {
    throw new Error(
      `the page holds Sextant's page runtime version ${String(held)}, older than ${version}, which cannot be replaced in this document: reload the page`,
    )
  }
}

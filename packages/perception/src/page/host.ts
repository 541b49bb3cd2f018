/*
 * The host: `globalThis.__sextant`, the one object through which the driver reads a page. A page's
 * own scripts share this global object, so the host is made so that they cannot stand in for it:
 *
 * - it is a non-writable, non-configurable property holding a frozen object, so a script that runs
 *   after it cannot swap it (`__sextant = …`, `Object.defineProperty`) or patch a member of it;
 * - its two parts, the actor and the perception runtime, come from two scripts that run at different
 *   times (the actor before the page's scripts, the runtime on first use). Each is attached with the
 *   key both scripts are built with (`PageScript.ts` makes one per process); the key lives only in
 *   their closures, so a page cannot attach a part of its own, and the host's members read the parts
 *   from its closure;
 * - a `__sextant` already there that is not shaped as a host (a page assigned or defined it before
 *   Sextant came, in a document no preload reached) is foreign: the scripts throw the foreign error
 *   and never read a page through it. What the shape cannot tell apart is a page script that copies
 *   the host exactly (fixed, frozen, getters, an `attach`) in a document Sextant's actor could not
 *   reach before the page's scripts (a Classic session with no DevTools socket, a tab open before the
 *   driver started): there the page came first, and nothing in the page can prove who made what. Such
 *   a copy also sees the key when the runtime attaches to it, and could then attach a runtime of its
 *   own in another document of the same process before Sextant's first call there.
 */

/** What the scripts throw (the start of their error's message) when `__sextant` is not Sextant's own. */
export const foreignMarker = "__sextant_foreign__"

/** The parts a host holds. */
export type HostPart = "actor" | "runtime"

/** The host as the scripts see it: the parts' members, read through getters, and `attach`. */
export interface Host {
  readonly actor?: object | undefined
  readonly version?: number | undefined
  readonly attach: (part: HostPart, value: object, key: string) => boolean
}

const foreign = (why: string): Error =>
  new Error(
    `${foreignMarker} the page defines globalThis.__sextant itself (${why}): Sextant will not read a page through an object it did not make`,
  )

/** The members of the runtime part the host exposes. */
const runtimeMembers = ["look", "resolve", "act", "describe", "refOf", "printedAs", "calls"] as const

/** Makes the host, with `key` as the only key its `attach` takes, and defines `__sextant` as it. */
const makeHost = (key: string): Host => {
  const parts: { actor?: object; runtime?: object } = {}
  const runtime = () => parts.runtime as (Record<string, unknown> & { readonly version?: number }) | undefined
  const members: Record<string, PropertyDescriptor> = {
    actor: { get: () => parts.actor, enumerable: true },
    version: { get: () => runtime()?.version, enumerable: true },
    attach: {
      value: (part: HostPart, value: object, given: string): boolean => {
        if (given !== key || (part !== "actor" && part !== "runtime") || parts[part] !== undefined)
          return false
        parts[part] = Object.freeze(value)
        return true
      },
      enumerable: true,
    },
  }
  for (const name of runtimeMembers) members[name] = { get: () => runtime()?.[name], enumerable: true }
  const host = Object.freeze(Object.defineProperties({}, members)) as Host
  Object.defineProperty(globalThis, "__sextant", {
    value: host,
    writable: false,
    configurable: false,
    enumerable: false,
  })
  return host
}

/**
 * The host of this document: made (with `key`) when there is none, or the one there when it is shaped
 * as Sextant makes hosts. Throws the foreign error for any other `__sextant`: one a page assigned or
 * declared (writable), defined configurable, or holding something that is not shaped as a host (the
 * same test as `pageHostCheck` in `PageScript.ts`).
 */
export const hostOf = (key: string): Host => {
  const descriptor = Object.getOwnPropertyDescriptor(globalThis, "__sextant")
  if (descriptor === undefined) return makeHost(key)
  if (descriptor.configurable === true || descriptor.writable !== false) {
    throw foreign("a replaceable property, not the fixed one Sextant defines")
  }
  const value: unknown = descriptor.value
  if (
    typeof value !== "object" ||
    value === null ||
    !Object.isFrozen(value) ||
    typeof (value as { attach?: unknown }).attach !== "function" ||
    typeof Object.getOwnPropertyDescriptor(value, "actor")?.get !== "function"
  ) {
    throw foreign("not an object Sextant made")
  }
  return value as Host
}

/**
 * Attaches `value` as `part` of this document's host, unless the host already holds that part.
 * Throws the foreign error when the host refuses it: a host made with another key (by the page, or by
 * another Sextant process) is not one Sextant can read a page through.
 */
export const attachPart = (key: string, part: HostPart, value: object): Host => {
  const host = hostOf(key)
  if (part === "actor" ? host.actor !== undefined : host.version !== undefined) return host
  if (!host.attach(part, value, key)) {
    throw foreign(`its ${part} cannot be attached: it was not made by this Sextant process`)
  }
  return host
}

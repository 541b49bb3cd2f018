/*
 * Refs: the short names (`e5`) an element keeps across looks. An element keeps its ref while it
 * lives; a new element that takes the place of a removed one (same identity key: role, name and
 * context) takes over its ref, so a re-rendered list keeps the refs a caller already holds.
 */

export interface RefEntry {
  readonly element: WeakRef<Element>
  readonly key: string
}

export interface RefState {
  counter: number
  readonly byElement: WeakMap<Element, string>
  readonly byRef: Map<string, RefEntry>
  readonly byKey: Map<string, string>
}

export const createRefState = (): RefState => ({
  counter: 0,
  byElement: new WeakMap(),
  byRef: new Map(),
  byKey: new Map(),
})

/** The refs of this document, shared by every look, resolve and act of the installed runtime. */
export const refs: RefState = createRefState()

/**
 * Assigns refs for one look: `assign(element, baseKey)` answers the element's ref and identity key
 * (`baseKey|n` for the n-th element with that base key in this look). A ref is given out once per
 * look. A `partial` look (within one subtree) misses the context above it, so it keeps the keys a
 * whole-page look recorded.
 */
export const refAssigner = (state: RefState, partial: boolean) => {
  const used = new Set<string>()
  const keyCounts = new Map<string, number>()
  return (element: Element, baseKey: string): [ref: string, key: string] => {
    const seen = keyCounts.get(baseKey) ?? 0
    keyCounts.set(baseKey, seen + 1)
    const key = `${baseKey}|${seen}`
    let ref = state.byElement.get(element)
    if (ref === undefined || used.has(ref)) {
      ref = undefined
      const previous = state.byKey.get(key)
      if (previous !== undefined && !used.has(previous)) {
        const old = state.byRef.get(previous)?.element.deref()
        if (old === undefined || !old.isConnected || old === element) ref = previous
      }
      if (ref === undefined) ref = `e${++state.counter}`
    }
    used.add(ref)
    const known = state.byRef.get(ref)
    if (partial && known !== undefined && known.element.deref() === element) return [ref, known.key]
    state.byElement.set(element, ref)
    state.byRef.set(ref, { element: new WeakRef(element), key })
    state.byKey.set(key, ref)
    return [ref, key]
  }
}

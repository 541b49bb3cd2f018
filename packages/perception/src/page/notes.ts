import type { Text } from "./types.ts"

/* Notes: the text runs a look reports beside the outline, for screen semantics (errors, results). */

/** Text runs per region that look() reports for screen semantics (the outline keeps them all). */
export const MAX_TEXTS_PER_REGION = 60

/**
 * Records text runs into `texts`: alerts always, other kinds up to `MAX_TEXTS_PER_REGION` per region.
 * A caller may cut `texts` back; what it cut still counts against its region.
 */
export const textNotes = (texts: Text[], maxPerRegion = MAX_TEXTS_PER_REGION) => {
  const perRegion = new Map<string, number>()
  return (where: string, kind: string, text: string): void => {
    const count = perRegion.get(where) ?? 0
    if (count >= maxPerRegion && kind !== "alert") return
    perRegion.set(where, count + 1)
    texts.push([where, kind, text])
  }
}

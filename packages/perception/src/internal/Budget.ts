import { fitsTokens } from "../Tokens.ts"

/** A container that `look({ within })` can open: its ref, its label and its line range. */
export type Anchor = readonly [ref: string, label: string, start: number, end: number]

export interface Budgeted {
  readonly tree: string
  readonly truncated: boolean
}

/** How many containers the cut hint names at most. */
const MAX_HINTED = 3

const hintFor = (
  cut: number,
  total: number,
  anchors: ReadonlyArray<Anchor>,
  kept: number,
  fallback: string,
  next: ((kept: number) => string) | undefined,
): string => {
  // The containers the cut runs through (deepest first) and the ones that start after it.
  const around = anchors
    .filter(([, , start, end]) => start < kept && end > kept)
    .sort((left, right) => right[2] - left[2])
  const after = anchors.filter(([, , start]) => start >= kept)
  const outermost = after.filter(
    (anchor) => !after.some((other) => other !== anchor && other[2] <= anchor[2] && other[3] >= anchor[3]),
  )
  const chosen = [...around.slice(0, 1), ...outermost].slice(0, MAX_HINTED)
  const where =
    chosen.length > 0
      ? `see more with ${chosen.map(([ref, label]) => `look({ within: "${ref}" }) for ${label}`).join(", ")}`
      : fallback
  const following = next === undefined || kept === 0 ? "" : `; the next part: ${next(kept)}`
  return `- [cut ${cut} of ${total} lines to fit maxTokens; ${where}${following}]`
}

/**
 * Keeps the longest head of the outline that fits `maxTokens` together with a hint that says how to
 * see the rest: the containers to open with `look({ within })`, or `fallback` when there are none,
 * and the look that reads on from the cut (`next`, given the number of lines kept).
 * The result never exceeds `maxTokens`.
 */
export const applyBudget = (
  lines: ReadonlyArray<string>,
  anchors: ReadonlyArray<Anchor>,
  maxTokens: number | undefined,
  fallback: string,
  next?: (kept: number) => string,
): Budgeted => {
  const whole = lines.join("\n")
  if (maxTokens === undefined || fitsTokens(whole, maxTokens)) return { tree: whole, truncated: false }
  const attempt = (kept: number): string => {
    const hint = hintFor(lines.length - kept, lines.length, anchors, kept, fallback, next)
    return kept === 0 ? hint : `${lines.slice(0, kept).join("\n")}\n${hint}`
  }
  let low = 0
  let high = lines.length - 1
  while (low < high) {
    const middle = Math.ceil((low + high) / 2)
    if (fitsTokens(attempt(middle), maxTokens)) low = middle
    else high = middle - 1
  }
  const tree = attempt(low)
  if (fitsTokens(tree, maxTokens)) return { tree, truncated: true }
  // Not even the hint fits: name one container, then nothing but the cut itself.
  const first = anchors[0]
  for (const short of [
    first === undefined ? "" : `- [cut; see look({ within: "${first[0]}" })]`,
    `- [cut ${lines.length} lines: raise maxTokens]`,
    "- [cut]",
  ])
    if (short !== "" && fitsTokens(short, maxTokens)) return { tree: short, truncated: true }
  return { tree: "", truncated: true }
}

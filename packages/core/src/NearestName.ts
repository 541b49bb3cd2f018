/** Edit distance (insertions, deletions, substitutions and swaps of neighbours) between two words. */
const distance = (left: string, right: string): number => {
  const rows = left.length + 1
  const columns = right.length + 1
  const table: Array<Array<number>> = Array.from({ length: rows }, (_, row) =>
    Array.from({ length: columns }, (_, column) => (row === 0 ? column : column === 0 ? row : 0)),
  )
  for (let row = 1; row < rows; row++) {
    for (let column = 1; column < columns; column++) {
      const cost = left[row - 1] === right[column - 1] ? 0 : 1
      let best = Math.min(
        table[row - 1]![column]! + 1,
        table[row]![column - 1]! + 1,
        table[row - 1]![column - 1]! + cost,
      )
      if (
        row > 1 &&
        column > 1 &&
        left[row - 1] === right[column - 2] &&
        left[row - 2] === right[column - 1]
      ) {
        best = Math.min(best, table[row - 2]![column - 2]! + 1)
      }
      table[row]![column] = best
    }
  }
  return table[left.length]![right.length]!
}

/**
 * The known name a mistyped one most likely meant: the closest by edit distance (case ignored), if it
 * is close enough to be a slip (at most a third of the longer name, and at least 2 edits allowed), else
 * undefined. Used for "did you mean …?" in errors about unknown fields and options.
 *
 * @example
 * ```ts
 * import { nearestName } from "@sextant/core"
 * nearestName("secretInput", ["inputs", "secretInputs", "goal"]) // "secretInputs"
 * nearestName("colour", ["goal", "inputs"]) // undefined
 * ```
 */
export const nearestName = (word: string, known: Iterable<string>): string | undefined => {
  const lower = word.toLowerCase()
  let best: { readonly name: string; readonly distance: number } | undefined
  for (const name of known) {
    const candidate = distance(lower, name.toLowerCase())
    const allowed = Math.max(2, Math.floor(Math.max(word.length, name.length) / 3))
    if (candidate <= allowed && (best === undefined || candidate < best.distance)) {
      best = { name, distance: candidate }
    }
  }
  return best?.name
}

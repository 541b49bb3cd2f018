/** Summary of one timed measurement, in milliseconds. */
export interface Summary {
  readonly runs: number
  readonly median: number
  readonly p90: number
  readonly min: number
  readonly max: number
  readonly mean: number
}

/**
 * The q-quantile of sorted samples by linear interpolation between the closest ranks (Hyndman and
 * Fan type 7, the default of R and NumPy): the median of an even count is the mean of the two middle
 * samples, and p90 does not jump to the maximum on small counts the way nearest-rank does.
 *
 * @example
 * ```ts
 * quantile([1, 2, 3, 4], 0.5) // 2.5
 * ```
 */
export const quantile = (sorted: ReadonlyArray<number>, q: number): number => {
  if (sorted.length === 0) throw new RangeError("quantile of no samples")
  if (!(q >= 0 && q <= 1)) throw new RangeError(`quantile must be within 0..1, got ${q}`)
  const position = (sorted.length - 1) * q
  const lower = Math.floor(position)
  const upper = Math.ceil(position)
  const low = sorted[lower]!
  const high = sorted[upper]!
  return low + (high - low) * (position - lower)
}

/**
 * Median, p90, min, max and mean of samples (in any order).
 *
 * @example
 * ```ts
 * summarize([5, 1, 3]).median // 3
 * ```
 */
export const summarize = (samples: ReadonlyArray<number>): Summary => {
  if (samples.length === 0) throw new RangeError("summarize needs at least one sample")
  for (const sample of samples) {
    if (!Number.isFinite(sample)) throw new RangeError(`samples must be finite numbers, got ${sample}`)
  }
  const sorted = [...samples].sort((left, right) => left - right)
  return {
    runs: sorted.length,
    median: quantile(sorted, 0.5),
    p90: quantile(sorted, 0.9),
    min: sorted[0]!,
    max: sorted[sorted.length - 1]!,
    mean: sorted.reduce((sum, sample) => sum + sample, 0) / sorted.length,
  }
}

/** The median of numbers (not only times): e.g. the token ratio on the median page. */
export const median = (values: ReadonlyArray<number>): number => summarize(values).median

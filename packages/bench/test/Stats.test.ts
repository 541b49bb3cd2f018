import { describe, expect, it } from "@effect/vitest"
import { median, quantile, summarize } from "../src/Stats.ts"

describe("Stats", () => {
  it("takes the mean of the two middle samples as the median of an even count", () => {
    expect(median([4, 1, 3, 2])).toBe(2.5)
  })

  it("takes the middle sample as the median of an odd count, whatever the order", () => {
    expect(median([9, 1, 5])).toBe(5)
  })

  it("interpolates p90 between the closest ranks instead of jumping to the maximum", () => {
    const samples = Array.from({ length: 20 }, (_, index) => index + 1)
    // (20 - 1) × 0.9 = 17.1 → between the 18th (18) and 19th (19) sample.
    expect(summarize(samples).p90).toBeCloseTo(18.1, 10)
    expect(summarize(samples).max).toBe(20)
  })

  it("reports min, max, mean and the run count", () => {
    expect(summarize([2, 8, 5])).toEqual({ runs: 3, median: 5, p90: 7.4, min: 2, max: 8, mean: 5 })
  })

  it("refuses no samples and non-finite samples rather than printing garbage", () => {
    expect(() => summarize([])).toThrow(/at least one sample/)
    expect(() => summarize([1, Number.NaN])).toThrow(/finite/)
    expect(() => quantile([1], 1.5)).toThrow(/within 0..1/)
  })
})

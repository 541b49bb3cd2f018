import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"
import { describe, expect, it } from "vitest"
import { measureCorpus } from "../src/CorpusSection.ts"

// The real pages vendored in fixtures/real-pages (licences beside them), measured as `pnpm bench
// --corpus` measures the shared corpus: Sextant's look beside Playwright's AI-mode snapshot.
const vendored = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "..", "fixtures", "real-pages")

describe("the page view on the vendored real pages, beside Playwright", () => {
  it("keeps every interactive element Playwright lists and ≥ 99% of the visible words on each page, unless a cut says how to read the rest", async () => {
    const result = await measureCorpus(vendored, { runs: 1, warmup: 0 }, () => {})
    // A page that fails is recorded and skipped by measureCorpus: here it must fail the test.
    expect(result.errors).toEqual([])
    expect(result.pages.length).toBeGreaterThanOrEqual(10)
    const short = result.pages
      .filter((page) => page.interactiveRecall.recall < 1 || (page.textRecall < 0.99 && !page.statedCut))
      .map(
        (page) =>
          `${page.page}: interactive ${page.interactiveRecall.matched}/${page.interactiveRecall.expected} (missing ${page.interactiveRecall.unmatched.slice(0, 3).join("; ")}), text ${(page.textRecall * 100).toFixed(1)}%`,
      )
    expect(short).toEqual([])
  }, 300_000)
})

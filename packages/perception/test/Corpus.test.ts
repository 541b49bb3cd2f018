import { describe, expect, it } from "vitest"
import { corpusPages, vendoredCorpus } from "./support/Corpus.ts"
import { checkPages, useCorpusBrowser } from "./support/CorpusCheck.ts"

describe("real pages vendored in fixtures/real-pages", async () => {
  const names = await corpusPages(vendoredCorpus)
  const corpus = useCorpusBrowser(vendoredCorpus)

  it("has pages to read", () => {
    expect(names.length).toBeGreaterThanOrEqual(10)
  })

  it("makes every other host unresolvable, so remote resources fail at once", async () => {
    const browser = corpus.browser()
    await browser.url(`${corpus.server().url}/${names[0]}`)
    const outcome = await browser.execute(async () => {
      const started = performance.now()
      try {
        await fetch("http://example.com/", { mode: "no-cors" })
        return "fetched"
      } catch {
        return performance.now() - started < 1_000 ? "refused" : "slow"
      }
    })
    expect(outcome).toBe("refused")
  })

  it("reads every vendored page in both modes without an error, each look within its bound", async () => {
    expect(await checkPages(corpus.browser(), corpus.server(), names)).toEqual([])
  }, 120_000)
})

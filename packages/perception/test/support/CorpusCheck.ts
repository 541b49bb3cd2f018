import { openTestBrowser, type TestBrowser } from "@sextant/fixture-site/test-browser"
import type { LoopbackServer } from "@sextant/testing"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { corpusPages, OFFLINE_ARGS, serveCorpus, sharedCorpus } from "./Corpus.ts"
import { look } from "./Look.ts"

/**
 * A look slower than this on a real page fails the test. The 2 s goal itself is judged by
 * `pnpm bench --corpus`; on a machine shared by many browser tests a look can take several times
 * its quiet time, so the test bounds it where only a runaway walk or a hang crosses.
 */
const LOOK_LIMIT_MS = 10_000
/** A step that has not answered after this long is a hang. */
const HANG_MS = 15_000

const withinTime = async <A>(label: string, work: Promise<A>): Promise<A> => {
  let timer: ReturnType<typeof setTimeout> | undefined
  try {
    return await Promise.race([
      work,
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`${label} hung for ${HANG_MS} ms`)), HANG_MS)
      }),
    ])
  } finally {
    clearTimeout(timer)
  }
}

/** Loads each page and looks at it in both modes; answers one line per failure. */
export const checkPages = async (
  browser: WebdriverIO.Browser,
  server: LoopbackServer,
  names: ReadonlyArray<string>,
): Promise<Array<string>> => {
  const failures: Array<string> = []
  for (const name of names) {
    try {
      await withinTime("loading", browser.url(`${server.url}/${encodeURIComponent(name)}`))
      for (const mode of ["full", "interactive"] as const) {
        const started = performance.now()
        const snapshot = await withinTime(`look ${mode}`, look(browser, { mode }))
        const elapsed = performance.now() - started
        if (elapsed > LOOK_LIMIT_MS) failures.push(`${name} ${mode}: look took ${Math.round(elapsed)} ms`)
        if (mode === "full" && snapshot.tree.trim() === "") failures.push(`${name}: empty outline`)
      }
    } catch (cause) {
      failures.push(`${name}: ${cause instanceof Error ? cause.message.split("\n")[0] : String(cause)}`)
      await browser.dismissAlert().catch(() => undefined)
    }
  }
  return failures
}

export const useCorpusBrowser = (folder: string) => {
  let session: TestBrowser | undefined
  let server: LoopbackServer | undefined
  beforeAll(async () => {
    server = await serveCorpus(folder)
    session = await openTestBrowser({ windowSize: { width: 1280, height: 800 }, args: OFFLINE_ARGS })
    await session.browser.setTimeout({ pageLoad: 10_000, script: HANG_MS })
  })
  afterAll(async () => {
    await session?.close()
    await server?.close()
  })
  return {
    browser: () => session!.browser,
    server: () => server!,
  }
}

/** How many test files share the 170 pages of the shared corpus, so parallel workers split them. */
export const SHARED_SHARDS = 3

/**
 * One share of the shared corpus (pages `shard`, `shard + SHARED_SHARDS`, …), in its own browser; the
 * test files `SharedCorpus<N>.slow.test.ts` (the slow set, `pnpm test:slow`) each run one, so together they read every page once.
 */
export const describeSharedCorpusShard = async (shard: number): Promise<void> => {
  const shared = await corpusPages(sharedCorpus)
  const names = shared.filter((_, index) => index % SHARED_SHARDS === shard)
  describe.skipIf(shared.length === 0)(
    `the real pages of ../shared/corpus/real-pages, share ${shard + 1} of ${SHARED_SHARDS}${shared.length === 0 ? " (absent: skipped)" : ` (${names.length} of ${shared.length})`}`,
    () => {
      const corpus = useCorpusBrowser(sharedCorpus)
      it("reads every page in both modes without an error or a hang, each look within its bound", async () => {
        expect(await checkPages(corpus.browser(), corpus.server(), names)).toEqual([])
      }, 400_000)
    },
  )
}

import type { PageSnapshot } from "@sextant/core"
import { openTestBrowser, type TestBrowser } from "@sextant/fixture-site/test-browser"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { corpusPages, OFFLINE_ARGS, serveCorpus, sharedCorpus } from "./Corpus.ts"
import { look } from "./Look.ts"
import type { LoopbackServer } from "./LoopbackServer.ts"

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

/** A guess's words that do not read as words: a hash, a number run, a lone letter, letters glued to digits. */
const NOT_WORDS = /(^|\s)(\p{L}|\p{N}+|[0-9a-f]{8,})(\s|$)|\p{L}\p{N}|\p{N}\p{L}/iu

/**
 * Where a full view prints a name that came from the page's code (an id, a class, a link target, a
 * file name) as a name. The page script says per element whether its name is computed by the
 * accessible-name rules or guessed (`guess`); a guessed element must print no quoted name, its
 * guess marked `(from words)` after its ref (or only its target, for a guess read from it), and
 * words that read as words.
 */
export const unmarkedGuesses = (snapshot: PageSnapshot): Array<string> => {
  const failures: Array<string> = []
  const lines = snapshot.tree.split("\n")
  for (const element of Object.values(snapshot.elements)) {
    if (element.guess === undefined) continue
    const { from, words } = element.guess
    const said = `${element.role} (${from} ${words}) [${element.ref}]`
    if (element.name !== "") failures.push(`${said}: named "${element.name}" as well`)
    if (NOT_WORDS.test(words)) failures.push(`${said}: the guess is not words`)
    const line = lines.find((candidate) => candidate.includes(`[ref=${element.ref}]`))
    if (line === undefined) continue
    const head = line.slice(0, line.indexOf(`[ref=${element.ref}]`))
    // Its role right before its ref: no name between them (a row's line may hold other names before).
    if (!head.endsWith(`${element.role} `))
      failures.push(`${said}: printed with a quoted name: ${line.trim()}`)
    const marked = line.includes(`[ref=${element.ref}] (${from} ${words})`)
    const byTarget = from === "href" && / -> \S/.test(line.slice(line.indexOf(`[ref=${element.ref}]`)))
    if (!marked && !byTarget) failures.push(`${said}: printed unmarked: ${line.trim()}`)
  }
  return failures
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
        if (mode === "full")
          for (const failure of unmarkedGuesses(snapshot)) failures.push(`${name}: ${failure}`)
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
      it("reads every page in both modes without an error or a hang, each look within its bound, and prints no name from an id, a class or a URL unless marked as a guess", async () => {
        expect(await checkPages(corpus.browser(), corpus.server(), names)).toEqual([])
      }, 400_000)
    },
  )
}

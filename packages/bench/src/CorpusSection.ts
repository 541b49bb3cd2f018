import { existsSync } from "node:fs"
import { readdir, readFile } from "node:fs/promises"
import { join } from "node:path"
import { causeMessage } from "@sextant/core"
import { startLoopbackServer } from "@sextant/testing"
import { Effect } from "effect"
import type { Page } from "playwright-core"
import { type Opened, openPlaywright, VIEWPORT } from "./Browsers.ts"
import { BenchError, type RunPlan } from "./Measure.ts"
import {
  interactiveNodes,
  interactiveRecall,
  type RecallResult,
  readElements,
  visibleTextRecall,
  words,
} from "./Recall.ts"
import { ms, type TableSection } from "./Report.ts"
import type { SextantSession } from "./Sextant.ts"
import { openSextant } from "./SextantDriver.ts"
import { median } from "./Stats.ts"
import { countTokens } from "./Tokens.ts"

/** Every host but 127.0.0.1 is unresolvable: a saved page's remote resources fail at once, alike in both browsers. */
export const OFFLINE_ARGS: ReadonlyArray<string> = [
  "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1",
]

/** What one real page measured. */
export interface CorpusPageResult {
  readonly page: string
  /** Median of the timed loads; the first `warmup` loads of a page (cold) are left out. */
  readonly gotoMs: number
  readonly navigateMs: number
  readonly playwrightTokens: number
  readonly fullTokens: number
  readonly interactiveTokens: number
  readonly snapshotMs: number
  readonly lookFullMs: number
  readonly lookInteractiveMs: number
  readonly interactiveRecall: RecallResult
  readonly textRecall: number
  /** A text cut with a stated handle (`… (+N chars: …)`, `…+N more: look({ within })`) is on the page. */
  readonly statedCut: boolean
  readonly pageWords: number
  /** o200k tokens of the page's own `document.body.innerText`: what the page says, with no structure. */
  readonly innerTextTokens: number
  /** The first {@link MISSING_SAMPLE} page words the full view does not keep, in page order (a finding's lead). */
  readonly missingWords: ReadonlyArray<string>
}

/** How many missing words a page result keeps: enough to find them on the page, few enough for the JSON. */
export const MISSING_SAMPLE = 60

/** A page the run could not read: its name and what went wrong; the run goes on with the next page. */
export interface CorpusPageError {
  readonly page: string
  readonly error: string
}

/** The whole corpus: per page, and the figures the issue's goals are judged on. */
export interface CorpusResult {
  readonly folder: string
  readonly pages: ReadonlyArray<CorpusPageResult>
  /** Pages that failed (absent in older results: none failed, a failure stopped those runs). */
  readonly errors?: ReadonlyArray<CorpusPageError>
}

/** How a corpus is named in its tables: the title's noun and what the material is. */
export interface CorpusMaterial {
  /** Completes "Page view on N …", e.g. "real pages" or "article pages (article-extraction-benchmark)". */
  readonly pages: string
  /** A sentence on where the pages come from, put before the method note. */
  readonly source?: string
}

/** Goal of the full view against the page's own text: at most this many tokens per `innerText` token (median). */
export const INNER_TEXT_RATIO_GOAL = 1.3

/** Goal of the interactive view: at most this many tokens on the median page. */
export const INTERACTIVE_TOKENS_GOAL = 500

const sleep = (milliseconds: number) => new Promise((resolve) => setTimeout(resolve, milliseconds))

/**
 * Page text a model is meant to read: `innerText` minus the words of aria-hidden parts of controls
 * and headings, whose names speak for them (an icon font's ligature, "DE" beside "Deutsch"). The
 * rest of an aria-hidden subtree (a consent banner a script left aria-hidden, the page behind a
 * modal) is text a reader sees, and the full view prints it. `hidden` is every aria-hidden
 * subtree's text, which Playwright's outline leaves out (see {@link interactiveNodes}).
 */
const VISIBLE_TEXT = `(() => {
  const all = document.body ? document.body.innerText : ""
  const named = "a[href],button,[role=button],[role=link],label,summary,h1,h2,h3,h4,h5,h6,[role=heading],[role=tab],[role=menuitem],[role=option],[role=checkbox],[role=radio],[role=switch],[role=treeitem]"
  const tops = [...document.querySelectorAll("[aria-hidden=true]")]
    .filter((element) => element.parentElement === null || element.parentElement.closest("[aria-hidden=true]") === null)
  const hidden = tops.map((element) => element.innerText || "")
  const inNamed = (element) => element.parentElement !== null && element.parentElement.closest(named) !== null
  const unread = [...document.querySelectorAll("[aria-hidden=true]")]
    .filter((element) => {
      if (!inNamed(element)) return false
      for (let up = element.parentElement.closest("[aria-hidden=true]"); up !== null; up = up.parentElement && up.parentElement.closest("[aria-hidden=true]"))
        if (inNamed(up)) return false
      return true
    })
    .map((element) => element.innerText || "")
  return JSON.stringify({ all, hidden, unread })
})()`

const subtractWords = (text: string, removed: ReadonlyArray<string>): string => {
  const counts = new Map<string, number>()
  for (const word of removed.flatMap((part) => words(part))) counts.set(word, (counts.get(word) ?? 0) + 1)
  return words(text)
    .filter((word) => {
      const left = counts.get(word) ?? 0
      if (left === 0) return true
      counts.set(word, left - 1)
      return false
    })
    .join(" ")
}

const timed = async <A>(work: () => Promise<A>): Promise<{ value: A; ms: number }> => {
  const started = performance.now()
  const value = await work()
  return { value, ms: performance.now() - started }
}

/** Sextant's navigate; a dialog the page opens while loading is dismissed (Playwright dismisses them itself). */
const navigateSextant = async (sextant: SextantSession, url: string): Promise<void> => {
  try {
    await sextant.navigate(url)
  } catch (cause) {
    const reason = (cause as { reason?: { _tag?: string } }).reason?._tag
    if (reason !== "DialogOpen") throw cause
    for (let answered = 0; answered < 10; answered++) {
      if ((await Effect.runPromise(sextant.driver.dialog)) === undefined) return
      await Effect.runPromise(sextant.driver.respondToDialog(false))
    }
  }
}

const viewportOf = async (page: Page, sextant: SextantSession): Promise<[string, string]> => {
  const playwright = String(await page.evaluate("innerWidth + 'x' + innerHeight"))
  const ours = String(await sextant.evaluate("return innerWidth + 'x' + innerHeight"))
  return [playwright, ours]
}

/**
 * Measures every page of a folder of saved real pages beside Playwright: navigate against `goto`,
 * look (full, interactive) against the AI-mode aria snapshot in tokens and warm time, interactive
 * and visible-text recall. Both browsers get the same flags and viewport (checked).
 */
export const measureCorpus = async (
  folder: string,
  plan: RunPlan,
  progress: (line: string) => void,
  only?: ReadonlyArray<string>,
): Promise<CorpusResult> => {
  const all = (await readdir(folder)).filter((name) => name.endsWith(".html")).sort()
  const unknown = (only ?? []).filter((name) => !all.includes(name))
  if (unknown.length > 0)
    throw new BenchError(
      "corpus page list",
      unknown.join(", "),
      `not in ${folder} (names are file names, e.g. ${all[0]})`,
    )
  const names = only === undefined ? all : all.filter((name) => only.includes(name))
  const server = await serveCorpus(folder)
  const closers: Array<() => Promise<void>> = [() => server.close()]
  try {
    const playwright: Opened<Page> = await openPlaywright(OFFLINE_ARGS)
    closers.push(playwright.close)
    const page = playwright.value
    const sextant = await openSextant(OFFLINE_ARGS)
    closers.push(sextant.close)
    await page.goto(`${server.url}/${names[0]}`)
    await navigateSextant(sextant, `${server.url}/${names[0]}`)
    const [theirs, ours] = await viewportOf(page, sextant)
    const expected = `${VIEWPORT.width}x${VIEWPORT.height}`
    if (theirs !== expected || ours !== expected)
      throw new BenchError(
        "viewport check",
        "the corpus",
        `Playwright ${theirs}, Sextant ${ours}, wanted ${expected}`,
      )
    progress(`corpus: ${names.length} pages from ${folder}, viewport ${expected} in both browsers`)

    const results: Array<CorpusPageResult> = []
    const errors: Array<CorpusPageError> = []
    for (const name of names) {
      const url = `${server.url}/${encodeURIComponent(name)}`
      try {
        // Loads alternate goto and navigate, as many rounds as the looks get: a single load per page
        // is at the mercy of whatever else the machine runs at that moment.
        const loads = { goto: [] as Array<number>, navigate: [] as Array<number> }
        for (let round = 0; round < plan.warmup + plan.runs; round++) {
          const goto = await timed(() => page.goto(url, { waitUntil: "load", timeout: 30_000 }))
          const navigate = await timed(() => navigateSextant(sextant, url))
          if (round >= plan.warmup) {
            loads.goto.push(goto.ms)
            loads.navigate.push(navigate.ms)
          }
        }
        // Late scripts of the page settle alike in both before anything is read.
        await sleep(100)
        const samples = {
          snapshot: [] as Array<number>,
          full: [] as Array<number>,
          interactive: [] as Array<number>,
        }
        let snapshot = ""
        let full = await sextant.look("full")
        let interactive = await sextant.look("interactive")
        for (let round = 0; round < plan.warmup + plan.runs; round++) {
          const a = await timed(() => page.ariaSnapshot({ mode: "ai" }))
          const b = await timed(() => sextant.look("full"))
          const c = await timed(() => sextant.look("interactive"))
          snapshot = a.value
          full = b.value
          interactive = c.value
          if (round >= plan.warmup) {
            samples.snapshot.push(a.ms)
            samples.full.push(b.ms)
            samples.interactive.push(c.ms)
          }
        }
        const text = JSON.parse(String(await sextant.evaluate(`return ${VISIBLE_TEXT}`))) as {
          all: string
          hidden: ReadonlyArray<string>
          unread: ReadonlyArray<string>
        }
        const visible = subtractWords(text.all, text.unread)
        const shown = new Set([...full.tree.matchAll(/\[ref=(e\d+)\]/g)].map((match) => match[1]!))
        const elements = Object.values(full.elements).filter((element) => shown.has(element.ref))
        const textRecall = visibleTextRecall(visible, full.tree)
        results.push({
          page: name,
          gotoMs: median(loads.goto),
          navigateMs: median(loads.navigate),
          playwrightTokens: countTokens(snapshot),
          fullTokens: countTokens(full.tree),
          interactiveTokens: countTokens(interactive.tree),
          snapshotMs: median(samples.snapshot),
          lookFullMs: median(samples.full),
          lookInteractiveMs: median(samples.interactive),
          interactiveRecall: interactiveRecall(
            interactiveNodes(snapshot, { ariaHidden: text.hidden }),
            readElements(elements, full.tree),
          ),
          textRecall: textRecall.recall,
          statedCut: /… \(\+\d+ chars: |…\+\d+ more: look/.test(full.tree),
          pageWords: textRecall.pageWords,
          innerTextTokens: countTokens(text.all),
          missingWords: textRecall.missed.slice(0, MISSING_SAMPLE),
        })
      } catch (cause) {
        // One page's failure is a finding, not the end of the run: it is counted and named in the tables.
        const error = causeMessage(cause)
        errors.push({ page: name, error: error.split("\n")[0]!.slice(0, 300) })
        progress(`corpus: ${name} failed: ${error.split("\n")[0]}`)
      }
      const done = results.length + errors.length
      if (done % 20 === 0) progress(`corpus: ${done} of ${names.length} pages`)
    }
    return { folder, pages: results, errors }
  } finally {
    for (const close of closers.reverse()) await close().catch(() => undefined)
  }
}

// Four significant digits, so a ratio just over its goal does not print as the goal (0.08004× is over 0.08×).
const ratio = (value: number) => `${value.toPrecision(4)}×`
const percent = (value: number) => `${(value * 100).toFixed(1)}%`

/** The shared corpus's naming: saved home and section pages of real sites. */
export const REAL_PAGES: CorpusMaterial = { pages: "real pages" }

/** The commit of scrapinghub/article-extraction-benchmark the article set was extracted from. */
export const ARTICLES_COMMIT = "4a3bc979f76c0df73cb95fe272e2fc1b96f9f010"

/** The second public set: article pages of scrapinghub/article-extraction-benchmark (MIT). */
export const ARTICLE_PAGES: CorpusMaterial = {
  pages: "article pages",
  source: `Material: the 181 pages of scrapinghub/article-extraction-benchmark (MIT, commit ${ARTICLES_COMMIT.slice(0, 7)}, html/*.html.gz), extracted by scripts/article-pages.ts; not committed here.`,
}

/** Where the article pages were extracted: the folder `SEXTANT_ARTICLES` names; undefined when unset or absent. */
export const articlesFolder = (): string | undefined => {
  const folder = process.env.SEXTANT_ARTICLES
  return folder !== undefined && folder !== "" && existsSync(folder) ? folder : undefined
}

/**
 * The figures of the two token goals against the page itself: the median over pages of full view
 * tokens per `innerText` token and the pages above {@link INNER_TEXT_RATIO_GOAL}, and the median
 * interactive view in tokens. A page with no text counts its ratio against one token.
 */
export const textTokenMeasures = (pages: ReadonlyArray<CorpusPageResult>) => {
  const ratios = pages.map((page) => ({
    page: page.page,
    ratio: page.fullTokens / Math.max(1, page.innerTextTokens),
  }))
  return {
    fullPerInnerText: median(ratios.map((entry) => entry.ratio)),
    over: ratios
      .filter((entry) => entry.ratio > INNER_TEXT_RATIO_GOAL)
      .sort((left, right) => right.ratio - left.ratio),
    interactiveTokens: median(pages.map((page) => page.interactiveTokens)),
  }
}

/**
 * The corpus as tables: the goals of the page view on real pages, then the pages that failed and
 * the pages that miss a recall goal. `material` names the set in the title (default: the shared corpus).
 */
export const corpusSections = (
  result: CorpusResult,
  material: CorpusMaterial = REAL_PAGES,
): ReadonlyArray<TableSection> => {
  const pages = result.pages
  const errors = result.errors ?? []
  const total = pages.length + errors.length
  if (pages.length === 0)
    return [
      {
        title: `Page view on ${total} ${material.pages}`,
        note: "No page was read.",
        headers: ["Page", "Error"],
        rows: errors.map((error) => [error.page, error.error]),
      },
    ]
  const per = (value: (page: CorpusPageResult) => number) => pages.map(value)
  const fullRatio = median(per((page) => page.fullTokens / Math.max(1, page.playwrightTokens)))
  const interactiveRatio = median(per((page) => page.interactiveTokens / Math.max(1, page.playwrightTokens)))
  const lookRatio = median(per((page) => page.lookFullMs / page.snapshotMs))
  const navigateRatio = median(per((page) => page.navigateMs / page.gotoMs))
  const largest = [...pages].sort((left, right) => right.playwrightTokens - left.playwrightTokens)[0]!
  const recallMin = Math.min(...per((page) => page.interactiveRecall.recall))
  const perfectRecall = pages.filter((page) => page.interactiveRecall.recall === 1).length
  const textMin = Math.min(...per((page) => page.textRecall))
  const textOk = pages.filter((page) => page.textRecall >= 0.99 || page.statedCut).length
  const slowest = Math.max(...per((page) => Math.max(page.lookFullMs, page.lookInteractiveMs)))
  // Results written before the innerText measure have no count: those rows say so rather than divide by nothing.
  const measured = pages.every((page) => typeof page.innerTextTokens === "number")
  const text = measured ? textTokenMeasures(pages) : undefined
  const goals: TableSection = {
    title: `Page view on ${total} ${material.pages}`,
    note: `${material.source === undefined ? "" : `${material.source} `}Saved pages served from 127.0.0.1, every other host unresolvable, in both browsers (1280×800 viewport, checked). Medians over pages of the per-page ratio; o200k tokens.`,
    headers: ["Measure", "Value", "Goal", "Met"],
    rows: [
      [
        "Pages read without an error or a hang (both modes)",
        `${pages.length} / ${total}`,
        "all",
        errors.length === 0 ? "yes" : "no",
      ],
      ["Slowest look (full or interactive)", `${ms(slowest)} ms`, "< 2000 ms", slowest < 2000 ? "yes" : "no"],
      [
        "Interactive recall (fair rule): pages at 100%",
        `${perfectRecall} / ${pages.length} (lowest ${percent(recallMin)})`,
        "every page",
        perfectRecall === pages.length ? "yes" : "no",
      ],
      [
        "Visible-text recall ≥ 99% (or a stated cut)",
        `${textOk} / ${pages.length} (lowest ${percent(textMin)})`,
        "every page",
        textOk === pages.length ? "yes" : "no",
      ],
      [
        "Full view tokens / Playwright AI snapshot",
        ratio(fullRatio),
        "≤ 0.45×",
        fullRatio <= 0.45 ? "yes" : "no",
      ],
      [
        "Interactive view tokens / Playwright AI snapshot",
        ratio(interactiveRatio),
        "≤ 0.08×",
        interactiveRatio <= 0.08 ? "yes" : "no",
      ],
      text === undefined
        ? ["Full view tokens / page innerText tokens", "not measured", `≤ ${INNER_TEXT_RATIO_GOAL}×`, "—"]
        : [
            "Full view tokens / page innerText tokens",
            `${ratio(text.fullPerInnerText)} (${text.over.length} / ${pages.length} pages over ${INNER_TEXT_RATIO_GOAL}×)`,
            `≤ ${INNER_TEXT_RATIO_GOAL}×`,
            text.fullPerInnerText <= INNER_TEXT_RATIO_GOAL ? "yes" : "no",
          ],
      [
        "Interactive view tokens (median page)",
        `${Math.round(median(per((page) => page.interactiveTokens)))}`,
        `≤ ${INTERACTIVE_TOKENS_GOAL}`,
        median(per((page) => page.interactiveTokens)) <= INTERACTIVE_TOKENS_GOAL ? "yes" : "no",
      ],
      [
        "Warm look (full) time / Playwright snapshot",
        ratio(lookRatio),
        "≤ 0.5×",
        lookRatio <= 0.5 ? "yes" : "no",
      ],
      ["navigate / Playwright goto", ratio(navigateRatio), "≤ 1.1×", navigateRatio <= 1.1 ? "yes" : "no"],
      [
        `Largest page (${largest.page}): look full / snapshot`,
        `${ms(largest.lookFullMs)} / ${ms(largest.snapshotMs)} ms`,
        "no slower",
        largest.lookFullMs <= largest.snapshotMs ? "yes" : "no",
      ],
    ],
  }
  const failed: TableSection = {
    title: `${material.pages[0]!.toUpperCase()}${material.pages.slice(1)} that failed`,
    headers: ["Page", "Error"],
    rows: errors.map((error) => [error.page, error.error]),
  }
  const misses = pages
    .filter((page) => page.interactiveRecall.recall < 1 || (page.textRecall < 0.99 && !page.statedCut))
    .sort((left, right) => left.interactiveRecall.recall - right.interactiveRecall.recall)
  const missing: TableSection = {
    title: `${material.pages[0]!.toUpperCase()}${material.pages.slice(1)} below a recall goal`,
    headers: [
      "Page",
      "Interactive recall",
      "Unmatched (first 3)",
      "Text recall",
      "Words",
      "Missing words (first 8)",
    ],
    rows: misses.map((page) => [
      page.page,
      `${page.interactiveRecall.matched}/${page.interactiveRecall.expected}`,
      page.interactiveRecall.unmatched.slice(0, 3).join("; ").slice(0, 120),
      percent(page.textRecall),
      String(page.pageWords),
      page.textRecall < 0.99 ? page.missingWords.slice(0, 8).join(" ") : "",
    ]),
  }
  return [goals, ...(errors.length === 0 ? [] : [failed]), ...(misses.length === 0 ? [] : [missing])]
}

/**
 * Serves the saved pages of a corpus folder from 127.0.0.1 by file name (`/www.aol.com.html`); any other
 * path is a 404.
 */
export const serveCorpus = (folder: string) =>
  startLoopbackServer((request, response) => {
    const name = decodeURIComponent((request.url ?? "/").split("?")[0]!.slice(1))
    if (!/^[\w.-]+\.html$/.test(name)) {
      response.writeHead(404).end()
      return
    }
    readFile(join(folder, name)).then(
      (body) => response.writeHead(200, { "content-type": "text/html" }).end(body),
      () => response.writeHead(404).end(),
    )
  })

/**
 * Where the shared corpus lives: `SEXTANT_CORPUS` when set (a clone in a worktree further from it),
 * else beside the clone; undefined when it is absent.
 */
export const sharedCorpusFolder = (repositoryRoot: string): string | undefined => {
  const folder = process.env.SEXTANT_CORPUS || join(repositoryRoot, "..", "shared", "corpus", "real-pages")
  return existsSync(folder) ? folder : undefined
}

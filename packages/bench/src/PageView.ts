import type { Page } from "playwright-core"
import { type Contender, interleave, type RunPlan } from "./Measure.ts"
import {
  interactiveNodes,
  interactiveRecall,
  type RecallResult,
  readElements,
  type TextRecallResult,
  visibleTextRecall,
} from "./Recall.ts"
import { isMissing, type Missing, type SextantSession } from "./Sextant.ts"
import { median, type Summary } from "./Stats.ts"
import { countTokens } from "./Tokens.ts"

/** A fixture page the page-view section measures. */
export interface BenchPage {
  readonly path: string
  /** Sign in first (the dashboard redirects to /login otherwise). */
  readonly signedIn?: boolean
  /** Wait this long after loading, for content the page adds late. */
  readonly settleMs?: number
}

/**
 * Every fixture page, and /large at two sizes. /flaky asks for no failures (`?fail=0`) so it loads on
 * the first request; /search carries a query so it shows results; /dynamic waits for its delayed
 * content (at most 1 s for any seed).
 */
export const PAGES: ReadonlyArray<BenchPage> = [
  { path: "/" },
  { path: "/login" },
  { path: "/dashboard", signedIn: true },
  { path: "/products" },
  { path: "/products/1" },
  { path: "/search?q=brass" },
  { path: "/forms/contact" },
  { path: "/dynamic", settleMs: 1200 },
  { path: "/frames" },
  { path: "/flaky?fail=0" },
  { path: "/injection" },
  { path: "/large" },
  { path: "/large?size=2" },
]

/** Size and time of one way of showing a page to a model. */
export interface ViewCost {
  readonly tokens: number
  readonly chars: number
  readonly time: Summary
  /** For look(): the median time its script took inside the page (`stats.durationMs`), transport excluded. */
  readonly inPageMedian?: number | undefined
}

/** What the page-view section found on one page. */
export interface PageViewResult {
  readonly path: string
  readonly playwright: ViewCost
  readonly rawHtml: ViewCost
  readonly lookFull: ViewCost | Missing
  readonly lookInteractive: ViewCost | Missing
  readonly interactiveRecall: RecallResult | Missing
  readonly textRecall: TextRecallResult | Missing
  /** WebDriver requests per look() (full and interactive), median and maximum over the timed runs. */
  readonly roundTrips: { readonly median: number; readonly max: number } | Missing
  /** Sextant's `evaluate("return 1")` on the same session: the floor any look() pays for its round trip. */
  readonly noOpRoundTrip: Summary | Missing
}

const SIGN_IN_SCRIPT = `
const body = new URLSearchParams({ email: "alice@example.com", password: "wonderland" })
const response = await fetch("/login", { method: "POST", body, credentials: "same-origin" })
return response.url`

/** Signs in through the page's own fetch, so the HttpOnly session cookie lands in that browser. */
const signInPlaywright = async (page: Page, base: string): Promise<void> => {
  await page.goto(`${base}/login`)
  const landed = await page.evaluate(`(async () => {${SIGN_IN_SCRIPT}})()`)
  if (!String(landed).endsWith("/dashboard")) throw new Error(`sign-in in Playwright landed on ${landed}`)
}

const signInSextant = async (session: SextantSession, base: string): Promise<void> => {
  await session.navigate(`${base}/login`)
  const landed = await session.evaluate(`return (async () => {${SIGN_IN_SCRIPT}})()`)
  if (!String(landed).endsWith("/dashboard")) throw new Error(`sign-in in Sextant landed on ${landed}`)
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

const refsInTree = (tree: string): ReadonlySet<string> =>
  new Set([...tree.matchAll(/\bref=(e\d+)\b|\[(e\d+)\]/g)].map((match) => (match[1] ?? match[2])!))

/**
 * Measures one page: Playwright's AI-mode aria snapshot, the raw HTML and Sextant's look() in both
 * modes, timed round by round in the same run, plus recall and WebDriver round trips per look().
 */
export const measurePage = async (
  base: string,
  page: BenchPage,
  plan: RunPlan,
  playwright: Page,
  sextant: SextantSession | Missing,
): Promise<PageViewResult> => {
  const url = `${base}${page.path}`
  await playwright.goto(url, { waitUntil: "load" })
  if (!isMissing(sextant)) await sextant.navigate(url)
  if (page.settleMs !== undefined) await sleep(page.settleMs)

  const ariaSnapshot = await playwright.ariaSnapshot({ mode: "ai" })
  const rawHtml = String(await playwright.evaluate("document.documentElement.outerHTML"))

  const contenders: Array<Contender> = [
    { piece: "Playwright ariaSnapshot", run: () => playwright.ariaSnapshot({ mode: "ai" }) },
    { piece: "raw HTML", run: () => playwright.evaluate("document.documentElement.outerHTML") },
  ]
  const lookRequests: Array<number> = []
  const inPage = { full: [] as Array<number>, interactive: [] as Array<number> }
  if (!isMissing(sextant)) {
    const counted = (mode: "full" | "interactive") => async () => {
      const before = sextant.requests()
      const snapshot = await sextant.look(mode)
      lookRequests.push(sextant.requests() - before)
      if (snapshot.stats.durationMs !== undefined) inPage[mode].push(snapshot.stats.durationMs)
    }
    contenders.push({ piece: "look() full", run: counted("full") })
    contenders.push({ piece: "look() interactive", run: counted("interactive") })
    // The same driver's cheapest round trip: what any look pays before the page does any work.
    contenders.push({ piece: "evaluate no-op", run: () => sextant.evaluate("return 1") })
  }
  const times = await interleave(page.path, plan, contenders)
  const playwrightCost: ViewCost = {
    tokens: countTokens(ariaSnapshot),
    chars: ariaSnapshot.length,
    time: times[0]!,
  }
  const rawCost: ViewCost = { tokens: countTokens(rawHtml), chars: rawHtml.length, time: times[1]! }
  if (isMissing(sextant)) {
    return {
      path: page.path,
      playwright: playwrightCost,
      rawHtml: rawCost,
      lookFull: sextant,
      lookInteractive: sextant,
      interactiveRecall: sextant,
      textRecall: sextant,
      roundTrips: sextant,
      noOpRoundTrip: sextant,
    }
  }
  const full = await sextant.look("full")
  const interactive = await sextant.look("interactive")
  const visibleText = String(await sextant.evaluate("return document.body.innerText"))
  const shown = refsInTree(full.tree)
  const ours = Object.values(full.elements).filter((element) => shown.has(element.ref))
  const timedLooks = lookRequests.slice(-2 * plan.runs)
  const inPageMedian = (samples: ReadonlyArray<number>) =>
    samples.length === 0 ? undefined : median(samples.slice(-plan.runs))
  return {
    path: page.path,
    playwright: playwrightCost,
    rawHtml: rawCost,
    lookFull: {
      tokens: countTokens(full.tree),
      chars: full.tree.length,
      time: times[2]!,
      inPageMedian: inPageMedian(inPage.full),
    },
    lookInteractive: {
      tokens: countTokens(interactive.tree),
      chars: interactive.tree.length,
      time: times[3]!,
      inPageMedian: inPageMedian(inPage.interactive),
    },
    noOpRoundTrip: times[4]!,
    interactiveRecall: interactiveRecall(interactiveNodes(ariaSnapshot), readElements(ours, full.tree)),
    textRecall: visibleTextRecall(visibleText, full.tree),
    roundTrips: { median: median(timedLooks), max: Math.max(...timedLooks) },
  }
}

/** Signs both browsers in (for the dashboard) and measures every page in order. */
export const measurePages = async (
  base: string,
  pages: ReadonlyArray<BenchPage>,
  plan: RunPlan,
  playwright: Page,
  sextant: SextantSession | Missing,
  progress: (line: string) => void,
): Promise<ReadonlyArray<PageViewResult>> => {
  if (pages.some((page) => page.signedIn === true)) {
    await signInPlaywright(playwright, base)
    if (!isMissing(sextant)) await signInSextant(sextant, base)
  }
  const results: Array<PageViewResult> = []
  for (const page of pages) {
    const start = performance.now()
    results.push(await measurePage(base, page, plan, playwright, sextant))
    progress(`page view ${page.path}: ${Math.round(performance.now() - start)} ms`)
  }
  return results
}

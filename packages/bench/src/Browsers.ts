import { randomUUID } from "node:crypto"
import { mkdtemp, readdir, readFile, rm } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { defaultChromeArgs, resolveBinaries } from "@sextant/webdriverio"
import { chromium, type Page, type Browser as PlaywrightBrowser } from "playwright-core"
import { remote } from "webdriverio"

/** The system Chromium and ChromeDriver every browser of the bench runs on; nothing is downloaded. */
const { chrome: CHROMIUM, chromedriver: CHROMEDRIVER } = resolveBinaries()

/**
 * Sextant's own launch flags, given to Playwright and plain WebdriverIO too, so no browser of the
 * bench gets an edge from its flags.
 */
export const HEADLESS_ARGS: ReadonlyArray<string> = defaultChromeArgs

/**
 * A switch Chromium ignores, added to every browser this run starts, so that after closing them the
 * bench can prove none is left: {@link leftoverBrowsers}.
 */
export const RUN_MARK = `--sextant-bench-run=${randomUUID()}`

/**
 * Process ids of this run's browsers still alive (from /proc; empty where there is no /proc).
 */
export const leftoverBrowsers = async (): Promise<ReadonlyArray<number>> => {
  let entries: Array<string>
  try {
    entries = await readdir("/proc")
  } catch {
    return []
  }
  const alive: Array<number> = []
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue
    try {
      const command = await readFile(`/proc/${entry}/cmdline`, "utf8")
      if (command.includes(RUN_MARK)) alive.push(Number(entry))
    } catch {
      // The process ended while being read.
    }
  }
  return alive
}

/** The viewport both browsers use, so layout-dependent outlines (visibility, boxes) agree. */
export const VIEWPORT = { width: 1280, height: 800 } as const

/** A browser the bench opened, with the one way to close it. */
export interface Opened<A> {
  readonly value: A
  readonly close: () => Promise<void>
}

/**
 * Playwright driving the system Chromium over CDP: one browser, one context, one page.
 *
 * @example
 * ```ts
 * const playwright = await openPlaywright()
 * await playwright.value.goto("http://127.0.0.1:4000/")
 * await playwright.close()
 * ```
 */
export const openPlaywright = async (extraArgs: ReadonlyArray<string> = []): Promise<Opened<Page>> => {
  const browser: PlaywrightBrowser = await chromium.launch({
    executablePath: CHROMIUM,
    // Playwright adds its own --headless; the rest are the shared flags.
    args: [...HEADLESS_ARGS.filter((argument) => !argument.startsWith("--headless")), RUN_MARK, ...extraArgs],
    headless: true,
  })
  try {
    const context = await browser.newContext({ viewport: VIEWPORT })
    const page = await context.newPage()
    return { value: page, close: () => browser.close() }
  } catch (cause) {
    await browser.close()
    throw cause
  }
}

/** A plain WebdriverIO browser, for the raw-command baseline. */
export type WebdriverBrowser = Awaited<ReturnType<typeof remote>>

/**
 * A plain WebdriverIO session on the system Chromium and ChromeDriver, with a fresh profile that
 * is removed on close.
 */
export const openWebdriverio = async (): Promise<Opened<WebdriverBrowser>> => {
  const profile = await mkdtemp(join(tmpdir(), "sextant-bench-"))
  try {
    const browser = await remote({
      logLevel: "error",
      capabilities: {
        browserName: "chrome",
        "goog:chromeOptions": {
          binary: CHROMIUM,
          args: [
            ...HEADLESS_ARGS,
            RUN_MARK,
            `--user-data-dir=${profile}`,
            `--window-size=${VIEWPORT.width},${VIEWPORT.height}`,
          ],
        },
        "wdio:chromedriverOptions": { binary: CHROMEDRIVER },
      },
    })
    return {
      value: browser,
      close: async () => {
        try {
          await browser.deleteSession()
        } finally {
          await rm(profile, { recursive: true, force: true })
        }
      },
    }
  } catch (cause) {
    await rm(profile, { recursive: true, force: true })
    throw cause
  }
}

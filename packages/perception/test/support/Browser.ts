import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { remote } from "webdriverio"

/** A headless system Chromium driven by WebdriverIO, closed (with its profile dir) by `close`. */
export interface TestBrowser {
  readonly browser: WebdriverIO.Browser
  readonly close: () => Promise<void>
}

export const openBrowser = async (): Promise<TestBrowser> => {
  const profile = mkdtempSync(join(tmpdir(), "sextant-perception-"))
  const browser = await remote({
    logLevel: "error",
    capabilities: {
      browserName: "chrome",
      "goog:chromeOptions": {
        binary: process.env.SEXTANT_CHROME ?? "/usr/bin/chromium",
        args: [
          "--headless=new",
          "--no-sandbox",
          "--disable-gpu",
          "--disable-dev-shm-usage",
          "--disable-background-networking",
          "--disable-component-update",
          "--disable-sync",
          "--no-first-run",
          "--window-size=1280,900",
          `--user-data-dir=${profile}`,
        ],
      },
      "wdio:chromedriverOptions": { binary: process.env.SEXTANT_CHROMEDRIVER ?? "/usr/bin/chromedriver" },
    },
  })
  return {
    browser,
    close: async () => {
      await browser.deleteSession().catch(() => undefined)
      rmSync(profile, { recursive: true, force: true })
    },
  }
}

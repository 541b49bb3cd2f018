import { remote } from "webdriverio"
import { defaultChromeArgs } from "../../src/index.ts"

/**
 * A WebdriverIO session the test starts the way a user of `createPageAgent` would, on the system's
 * Chromium and ChromeDriver: a browser the user owns, which Sextant drives and must leave running.
 */
export const openUserBrowser = (): Promise<WebdriverIO.Browser> =>
  remote({
    logLevel: "silent",
    capabilities: {
      browserName: "chrome",
      "goog:chromeOptions": { binary: "/usr/bin/chromium", args: [...defaultChromeArgs] },
      "wdio:chromedriverOptions": { binary: "/usr/bin/chromedriver" },
    },
  })

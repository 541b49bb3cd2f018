import type { PageSnapshot } from "@sextant/core"
import { clickAt, look, refOf } from "./Look.ts"

/** Snapshots around the fixture site's main flows, in the order a user goes through them. */
export interface RecordedFlows {
  readonly login: PageSnapshot
  readonly loginEmailFilled: PageSnapshot
  readonly loginFilled: PageSnapshot
  readonly loginFailed: PageSnapshot
  readonly dashboard: PageSnapshot
  readonly search: PageSnapshot
  readonly searchTyped: PageSnapshot
  readonly searchResults: PageSnapshot
  readonly searchNoResults: PageSnapshot
}

const typeInto = async (
  browser: WebdriverIO.Browser,
  snapshot: PageSnapshot,
  role: string,
  name: string,
  text: string,
) => {
  await clickAt(browser, refOf(snapshot, role, name))
  await browser.keys(text)
}

const waitForUrl = (browser: WebdriverIO.Browser, part: string) =>
  browser.waitUntil(async () => (await browser.getUrl()).includes(part), { timeout: 5000 })

/** Runs the flows with trusted input through refs, as a driver does, and takes a look after each step. */
export const runFlows = async (browser: WebdriverIO.Browser, base: string): Promise<RecordedFlows> => {
  await browser.deleteCookies()
  await browser.url(`${base}/login`)
  const login = await look(browser)
  await typeInto(browser, login, "textbox", "Email", "alice@example.com")
  const loginEmailFilled = await look(browser)
  await typeInto(browser, login, "textbox", "Password", "not-the-password")
  const loginFilled = await look(browser)
  await clickAt(browser, refOf(login, "button", "Sign in"))
  await browser.waitUntil(async () => (await look(browser)).tree.includes("Invalid email or password"), {
    timeout: 5000,
  })
  const loginFailed = await look(browser)

  await (await browser.$("input[type=password]")).setValue("wonderland")
  await clickAt(browser, refOf(loginFailed, "button", "Sign in"))
  await waitForUrl(browser, "/dashboard")
  const dashboard = await look(browser)

  await browser.url(`${base}/search`)
  const search = await look(browser)
  await typeInto(browser, search, "combobox", "Search products", "brass")
  const searchTyped = await look(browser)
  await clickAt(browser, refOf(search, "button", "Search"))
  await waitForUrl(browser, "q=brass")
  const searchResults = await look(browser)
  await browser.url(`${base}/search?q=zeppelin`)
  const searchNoResults = await look(browser)
  return {
    login,
    loginEmailFilled,
    loginFilled,
    loginFailed,
    dashboard,
    search,
    searchTyped,
    searchResults,
    searchNoResults,
  }
}

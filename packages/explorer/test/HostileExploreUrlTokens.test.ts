import { type FixtureSite, LINK_SIGN_IN_TOKENS } from "@sextant/fixture-site"
import { beforeAll, describe, expect, it } from "vitest"
import { appMapToJson, type ExploreEvent, explore, formatTestSuite, generateTests } from "../src/index.ts"
import { useBrowser } from "./support/Browser.ts"

/**
 * The explorer on a site that signs in by link and puts the session in the URL of the page it lands on
 * (`/hostile/link-sign-in/home?session_token=…#access_token=…`), in real headless Chromium: the app
 * map, the events and the tests generated from the map name that page with placeholders of the tokens.
 */

const browser = useBrowser()
let site: FixtureSite
beforeAll(async () => {
  site = await browser.site()
})

describe("a session token a site puts in the URL of a page the explorer reaches", () => {
  it("is hidden in the app map, the events and the generated tests", async () => {
    const events: Array<ExploreEvent> = []
    const map = await browser.run(
      explore(`${site.url}/hostile/link-sign-in`, {
        maxDepth: 3,
        maxPages: 8,
        allow: ["/hostile/link-sign-in"],
        onEvent: (event) => events.push(event),
      }),
    )
    // The explorer did follow the link to the signed-in page, and on to the orders.
    const titles = map.pages.map((page) => page.model.title)
    expect(titles).toEqual(expect.arrayContaining(["Your account · Sextant Shop", "Orders · Sextant Shop"]))
    const home = map.pages.find((page) => page.model.title === "Your account · Sextant Shop")
    expect(home?.url).toBe(
      `${site.url}/hostile/link-sign-in/home?session_token=<secret:page_url_session_token>`,
    )
    const written = {
      map: appMapToJson(map),
      tests: formatTestSuite(generateTests(map), "yaml"),
      events: JSON.stringify(events),
    }
    const showing = Object.entries(written).flatMap(([where, text]) =>
      Object.values(LINK_SIGN_IN_TOKENS).some((token) => text.includes(token)) ? [where] : [],
    )
    expect(showing).toEqual([])
  }, 60_000)
})
